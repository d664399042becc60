"""What `onrecord build` prints: the clocks, the fusion, the headline metrics, the doubts."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from onrecord.findings.render import clock_against, sentence
from onrecord.reconstruct.clocks import UNKNOWN_UNCERTAINTY_S
from onrecord.views.console import data_console, data_console_for


def print_build(r, zone) -> None:
    """`zone`: the case's display zone, for the times in the headline findings."""
    out = data_console(soft_wrap=True)
    wide = data_console_for(160)
    names = dict(zip(r.sources["id"], r.sources["file_name"]))
    kinds = dict(zip(r.sources["id"], r.sources["kind"]))
    table = Table(title="Clocks (offset = how far a source's clock runs ahead of true time)")
    for col in ("source", "status", "offset", "shared moments"):
        table.add_column(col, no_wrap=True)
    for s, c in sorted(r.clocks.items()):
        if kinds.get(s) in ("roster", "statement", "press", "tip", "contact"):
            continue
        off = "unknown" if c.offset_s is None else f"{c.offset_s:+.1f} s ± {c.uncertainty_s or 0:.1f}" + \
            (f", drifting {c.drift_ppm:+.1f} ppm" if c.drift_ppm else "")
        table.add_row(names[s], c.status, off, str(c.anchors))
    wide.print(table)
    if any(c.offset_s is None and c.anchors for c in r.clocks.values()):
        out.print("unknown: lined up with the clocks it shares moments with, but none of them is declared "
                  f"reference or pinned; its events carry ±{UNKNOWN_UNCERTAINTY_S / 60:g} min (declare one: "
                  "[clock] in its mapping, docs/mappings.md; or onrecord pin-clock)")
    for s, c in sorted(r.clocks.items()):  # a clock tied to nothing: said, with what would tie it
        if c.offset_s is None and c.needs and kinds.get(s) not in ("roster", "statement", "press", "tip", "contact"):
            out.print(f"not estimated: {names[s]}: {c.note}; {c.needs}")
    _print_understood(wide, r)
    fused = sum(1 for m in r.moments if len(m.members) > 1)
    reports = sum(len(m.members) for m in r.moments if len(m.members) > 1)
    out.print(f"who is who: {len(r.who.units())} units, "
              f"{sum(1 for e in r.who.entities.values() if e.kind == 'person')} people, "
              f"{r.who.mention_count:,} mentions resolved")
    out.print(f"fusion: {reports} reports became {fused} fused events; {len(r.events):,} events aligned")
    headline = [f for f in r.findings if f.name in HEADLINE]
    for f in headline:
        out.print(("  " if f.status == "established" else "  ? ") + sentence(f, zone))
    for p in r.problems:
        out.print(f"  note: {p}", style="yellow")
    out.print("details: onrecord metrics CASE; onrecord timeline CASE")


def _print_understood(out: Console, r) -> None:
    """Per source: which clock it was read against, whether it shares a moment, the text
    lines no lexicon understood and the attributes the build does not read."""
    table = Table(title="What the build read and did not understand, per source")
    for col in ("source", "clock read against", "text not understood", "attributes not read"):
        table.add_column(col, overflow="fold")
    for f in r.findings:
        if f.name != "source_understood":
            continue
        p = f.payload
        untimed = p.get("shares_moment") is None  # a roster, a statement, a prior record: no clock to set
        if untimed and not p.get("text_events") and not p.get("ignored_attributes"):
            continue  # nothing it could have missed
        clock = "— (not set against other clocks)" if untimed else \
            clock_against(p.get("clock") or {}).removeprefix("clock: ")
        if p.get("shares_moment") is False:
            clock += "; shares no moment with another source"
        text = "-" if not p.get("text_events") else f"{p['unclassified']} of {p['text_events']} lines" + \
            "".join(f"\n  “{t}” ×{n}" for t, n in p.get("common") or [])
        if p.get("statuses_unread"):
            text += f"\n{p['statuses_unread']} unit statuses of unsaid meaning"
        table.add_row(f.subject, clock, text, ", ".join(p.get("ignored_attributes") or []) or "-")
    if table.row_count:
        out.print(table)


HEADLINE = ("first_shots", "first_911_call", "first_dispatch", "first_armed_unit_on_scene", "first_entry",
            "threat_ended", "first_shot_to_first_entry", "camera_live_lag", "mean_call_transfer_delay")
