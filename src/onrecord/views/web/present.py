"""How numbers, clock offsets, finding values and agencies read on a page, in the API
and in the report — one place, so the three never disagree (times: onrecord.timetext)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from onrecord.store.listing import times_json  # noqa: F401 (one writer of an event's times, for rows stored too)
from onrecord.timetext import duration, interval, to_utc_iso

# Distinguishable for colour-blind readers first (Okabe-Ito), then Tableau's extras.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C564B", "#7F7F7F",
           "#BCBD22", "#17BECF", "#9467BD", "#F0E442"]
NOT_BUILT = "Not built yet — run `onrecord build CASE` to align clocks, fuse reports and compute findings."


def agency_colours(agencies: list[str]) -> dict[str, str]:
    return {a: PALETTE[i % len(PALETTE)] for i, a in enumerate(sorted(a for a in agencies if a))}


def number(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}"


def offset_text(clock: dict | None) -> str:
    """What was done to a source's times: the sign is said in words, never left to guess."""
    if not clock:
        return "no estimate: times shown on the source's own clock"
    if clock.get("status") == "reference":
        return "reference clock (others are read against it)"
    off, unc = clock.get("offset_s"), clock.get("uncertainty_s")
    if off is None:
        return f"{clock.get('status', 'unknown')}: no offset estimated"
    side = "ahead" if off >= 0 else "behind"
    plus = f" ± {unc:.1f} s" if unc is not None else ""
    n = clock.get("anchors") or 0
    drift = clock.get("drift_ppm")
    if drift:  # the offset moves: said as a rate and how much a day, from the moment it holds
        return f"clock runs {abs(off):.1f} s {side}{plus} at {to_utc_iso(clock.get('drift_ref_ms'))}, " \
               f"{'gaining' if drift > 0 else 'losing'} {abs(drift) * 0.0864:.2f} s a day ({drift:+.1f} ppm); " \
               "the offset at each event's time " \
               f"is subtracted ({clock.get('status')}, {n} shared {'event' if n == 1 else 'events'})"
    return f"clock runs {abs(off):.1f} s {side}{plus}; {abs(off):.1f} s {'subtracted' if off >= 0 else 'added'}" \
           f" ({clock.get('status')}, {n} shared {'event' if n == 1 else 'events'})"


def finding_value(f: dict, zone: ZoneInfo) -> str:
    lo, hi, unit = f.get("value_lo"), f.get("value_hi"), f.get("unit")
    if f.get("status") == "withheld":
        return "evidence withheld"
    if lo is None and hi is None:
        return "not established"
    if unit == "utc_ms":
        return interval(int(lo) if lo is not None else None, int(hi) if hi is not None else None, zone)
    if unit == "s":
        return duration(lo) if hi is None or duration(lo) == duration(hi) else f"{duration(lo)} – {duration(hi)}"
    text = number(lo) if hi is None or number(lo) == number(hi) else f"{number(lo)} – {number(hi)}"
    return f"{text} {unit}" if unit and unit != "count" else text
