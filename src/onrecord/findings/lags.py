"""Records whose meaning spans two times, and the lags between them: a camera view and
the footage it showed (how far behind "live" was), a call presented at one answering
point and again after its transfer (how long the caller waited)."""

from __future__ import annotations

import json
from statistics import median

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.findings.metrics import not_established
from onrecord.model import Finding
from onrecord.reconstruct.moments import caller_number
from onrecord.sources.mapping import parse_mapping
from onrecord.sources.times import parse_times

# how the import stores a time attribute (sources/attribute_times.py): the UTC instant
STORED_INSTANT = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$"


def camera_views(events: pd.DataFrame, sources: pd.DataFrame) -> list[tuple[int, float, float]]:
    """(event, shown at, footage of) on the camera's own clock, for views that say what
    they showed: the offset cancels out of the lag."""
    out = []
    cams = events[events["kind"] == "camera_observation"]  # the kind first: the text test is the costly one
    cams = cams[cams["attrs"].fillna("").str.contains("shown_time", regex=False)]
    for source_id, part in cams.groupby("source_id"):
        src = sources[sources["id"] == source_id].iloc[0]
        m = parse_mapping(src["mapping_text"], src["file_name"])
        fmt = next((e.format for e in m.events if e.format), None) or "iso"
        shown = [json.loads(a).get("shown_time") for a in part["attrs"]]
        if not any(shown):
            continue
        # read at import as a UTC instant (sources/attribute_times.py); a case imported before
        # that holds the value as written, in the mapping's own pattern
        values = pa.array([None if v is None else str(v) for v in shown], pa.string())
        stored = pc.fill_null(pc.match_substring_regex(values, STORED_INSTANT), False)
        footage = pc.if_else(stored, parse_times(values, "iso", "UTC"),
                             parse_times(values, fmt, src["timezone"] or "UTC")).to_pylist()
        for ev_id, t_view, t_footage in zip(part["id"], part["t_src_lo"], footage):
            if t_footage is not None and t_view is not None:
                out.append((int(ev_id), float(t_view), float(t_footage)))
    return out


def transferred_calls(events: pd.DataFrame, clocks, since: float | None = None) -> list[dict]:
    """Calls presented at one answering point and, after a transfer, answered at another:
    matched by the caller's number. The delay is what the caller waited: from the first
    ring to the second answering point picking up (its presentation, if no answer is logged)."""
    kinds = ("call_received", "call_answered")
    calls = events[events["kind"].isin(kinds)]
    calls = calls[calls["attrs"].fillna("").str.contains('"ani"', regex=False)]
    if calls.empty:
        return []
    written = [json.loads(a).get("ani") for a in calls["attrs"]]
    # matched on the number's digits (two answering points spell it apart), named as written
    calls = calls.assign(ani=[caller_number(a) for a in written], ani_written=[str(a) for a in written])
    out = []
    for _, part in calls.groupby("ani"):
        number = part["ani_written"].iloc[0]
        presented = part[part["kind"] == "call_received"]
        first = presented[~presented["transferred_in"]].sort_values("best")
        arrived = presented[presented["transferred_in"]].sort_values("best")
        if first.empty or arrived.empty:
            continue
        a, b = first.iloc[0], arrived.iloc[0]
        if since is not None and a.best < since:
            continue  # a call before the incident is not part of its response
        answered = part[(part["kind"] == "call_answered") & (part["source_id"] == b.source_id)
                        & (part["best"] >= b.best)].sort_values("best")
        end = answered.iloc[0] if len(answered) else b
        out.append({"caller": str(number), "first": float(a.best), "after": float(end.best),
                    "unc_s": _relative_unc(clocks, a.source_id, end.source_id),
                    "events": [int(a.id), int(b.id)] + ([int(end.id)] if end is not b else [])})
    return out


def _relative_unc(clocks, a: int, b: int) -> float:
    ua = clocks.get(int(a)).relative_unc_s if clocks.get(int(a)) else None
    ub = clocks.get(int(b)).relative_unc_s if clocks.get(int(b)) else None
    return round(((ua or 1.0) ** 2 + (ub or 1.0) ** 2) ** 0.5, 3)


def camera_live_lag(views: list[tuple[int, float, float]], written_ms: dict[int, float] | None = None) -> Finding:
    """`views`: (event id, shown at, footage of), both on the camera's own clock (ms).
    `written_ms`: event id -> how wide its time is as written (999 ms for a time written to
    the second). The footage time is read with the same format, so it is as wide: each lag
    lies within that width either side of the difference of the two written times, and the
    interval says so (two times written to the second cannot give a lag to the millisecond)."""
    if not views:
        return not_established("camera_live_lag", "no_camera_footage")
    written_ms = written_ms or {}
    lags = [(shown - footage) / 1000.0 for _, shown, footage in views]
    widths = [max(0.0, float(written_ms.get(ev) or 0.0)) / 1000.0 for ev, _, _ in views]
    return Finding("camera_live_lag", "established", value_lo=min(lag - w for lag, w in zip(lags, widths)),
                   value_hi=max(lag + w for lag, w in zip(lags, widths)), unit="s",
                   payload={"median_s": median(lags), "views": len(lags)}, evidence=[v[0] for v in views])


def transfer_delays(calls: list[dict]) -> list[Finding]:
    """`calls`: per transferred call, first presentation and presentation after transfer
    (ms on the common clock, lined up by the two answering points' relative offsets)."""
    out = []
    for c in calls:
        d = (c["after"] - c["first"]) / 1000.0
        out.append(Finding("call_transfer_delay", "established", subject=c["caller"], value_lo=d - c["unc_s"],
                           value_hi=d + c["unc_s"], unit="s", payload={"delay_s": d}, evidence=c["events"]))
    if out:
        mean = sum(f.payload["delay_s"] for f in out) / len(out)
        unc = max(c["unc_s"] for c in calls)
        out.append(Finding("mean_call_transfer_delay", "established", value_lo=mean - unc, value_hi=mean + unc,
                           unit="s", payload={"calls": len(out), "mean_s": mean},
                           evidence=[e for c in calls for e in c["events"]]))
    return out


def camera_lag(r, found: list[Finding]) -> list[Finding]:
    """How far behind the camera view called live ran."""
    ev = r.events
    written = dict(zip(ev["id"], (ev["t_src_hi"] - ev["t_src_lo"]).fillna(0.0)))
    return [camera_live_lag(camera_views(ev, r.sources), written)]


def call_transfers(r, found: list[Finding]) -> list[Finding]:
    """How long transferred callers waited, from the first shots on."""
    first = next((f.value_lo for f in found if f.name == "first_shots" and f.status == "established"), None)
    return transfer_delays(transferred_calls(r.events, r.clocks, since=first))
