"""`onrecord build`: align clocks, resolve who is who, fuse, and measure the response.

Reads the events an import wrote; writes only derived tables, replacing the previous
build's, in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pandas as pd

from onrecord.reconstruct import clocks as clk
from onrecord.reconstruct.align import aligned_times, moments_table, written_interval
from onrecord.reconstruct.avl_arrival import tighten_arrivals
from onrecord.reconstruct.discrepancies import read_claims
from onrecord.reconstruct.who_is_who import WhoIsWho, resolve
from onrecord.reconstruct.fuse import fuse
from onrecord.reconstruct.load import load_events, load_sources, whole_second_sources, whole_seconds
from onrecord.reconstruct.metrics import (Finding, MomentRow, ResponseMetrics, camera_live_lag, is_fire_ems,
                                          transfer_delays)
from onrecord.reconstruct.moment_time import moment_time
from onrecord.reconstruct.moments import transferred_in
from onrecord.reconstruct.pins import pinned_offsets
from onrecord.reconstruct.views import camera_views, transferred_calls
from onrecord.store.case import Case
from onrecord.views.format import Formatter


@dataclass
class Reconstruction:
    events: pd.DataFrame
    sources: pd.DataFrame
    who: WhoIsWho
    clocks: dict[int, clk.ClockEstimate]
    groups: list[list[int]]
    moments: list[MomentRow]
    findings: list[Finding]
    problems: list[str] = field(default_factory=list)
    claims: list[dict] = field(default_factory=list)  # rows of the claims table
    whole_second_sources: set[int] = field(default_factory=set)  # sources that write whole seconds


def reconstruct(case: Case) -> Reconstruction:
    events, sources = load_events(case), load_sources(case)
    whole = whole_second_sources(events)
    events = whole_seconds(events, whole)
    problems: list[str] = []
    if events.empty:
        problems.append("the case has no events: import sources first")
    who = resolve(events)
    problems += who.problems
    anchored = moments_table(events, who)
    pinned, pin_problems = pinned_offsets(case, sources)
    problems += pin_problems
    pairs = clk.pair_estimates(anchored) if len(anchored) else []
    clocks = clk.solve(sources, pairs, pinned)
    names = dict(zip(sources["id"], sources["file_name"]))
    problems += clk.pinned_conflicts(pairs, pinned, names)
    events = _with_times(events, clocks)
    anchored = anchored.merge(written_interval(events, clocks), on="id")
    groups = fuse(anchored) if len(anchored) else []
    moments = _moments(anchored, groups, events, who)
    fmt = Formatter.for_case(case, sources)
    units = _unit_info(who)
    findings = ResponseMetrics(moments, units, events, fmt.interval, fmt.seconds).compute()
    findings.append(camera_live_lag(camera_views(events, sources), fmt.seconds))
    first = next((f.value_lo for f in findings if f.name == "first_shots" and f.status == "established"), None)
    findings += transfer_delays(transferred_calls(events, clocks, since=first), fmt.seconds)
    findings += _clock_findings(sources, clocks, fmt)
    # Summaries name times in the case's own zone, as every view shows them.
    said = read_claims(events, findings, who, fmt.zone)
    findings += said.findings
    return Reconstruction(events, sources, who, clocks, groups, moments, findings, problems, said.rows, whole)


def _with_times(events: pd.DataFrame, clocks) -> pd.DataFrame:
    aligned = aligned_times(events, clocks)
    shifted = written_interval(events, clocks)
    # only rows that could say so are parsed; the check itself is the moments' own
    transferred = [bool(a) and "transfer" in a and transferred_in(json.loads(a)) for a in events["attrs"].fillna("")]
    return events.assign(t_lo=aligned["t_lo"].to_numpy(), t_hi=aligned["t_hi"].to_numpy(),
                         best=((shifted["lo"] + shifted["hi"]) / 2).to_numpy(), transferred_in=transferred)


INCIDENT_BEFORE_MS, INCIDENT_AFTER_MS = 3_600_000, 6 * 3_600_000


def _incident_only(anchored: pd.DataFrame) -> pd.DataFrame:
    """The hours around the first shots: a year of other calls in the case is not measured."""
    shots = anchored[anchored["family"] == "shots"]
    if shots.empty:
        return anchored
    start = shots["lo"].min()
    keep = (anchored["lo"] >= start - INCIDENT_BEFORE_MS) & (anchored["lo"] <= start + INCIDENT_AFTER_MS)
    return anchored[keep]


def _moments(anchored: pd.DataFrame, groups: list[list[int]], events: pd.DataFrame, who) -> list[MomentRow]:
    anchored = _incident_only(anchored)
    near = set(anchored["id"])
    groups = [g for g in groups if g[0] in near]
    a = {col: dict(zip(anchored["id"], anchored[col])) for col in ("rank", "family", "who", "agency")}
    ev = events[events["id"].isin(anchored["id"])]
    e = {col: dict(zip(ev["id"], ev[col])) for col in ("t_lo", "t_hi", "source_kind", "text", "call", "source_id")}
    grouped = {i for g in groups for i in g}
    singles = [[int(i)] for i in anchored["id"] if i not in grouped]
    out = []
    for members in groups + singles:
        members = [i for i in members if i in a["rank"]]
        if not members:
            continue
        recs = [{"rank": int(a["rank"][i]), "t_lo": e["t_lo"][i], "t_hi": e["t_hi"][i]} for i in members]
        family = a["family"][members[0]]
        mt = moment_time(recs, family)
        if mt is None:
            continue
        units: dict[int, list[int]] = {}
        for i in members:
            u = who.unit_of_event.get(i)
            if u is not None:
                units.setdefault(u, []).append(i)
        whos = [a["who"][i] for i in members if a["who"][i] is not None and a["who"][i] == a["who"][i]]
        agencies = {a["agency"][i] for i in members} - {None}
        seen = bool(units) or any("officer" in str(e["text"][i]).lower() for i in members)
        # a call number means something only within its dispatch system (its source)
        calls = frozenset(f"{e['source_id'][i]}#{e['call'][i]}" for i in members
                          if e["call"][i] is not None and e["source_kind"][i] == "cad")
        out.append(MomentRow(min(members), family, whos[0] if whos else None,
                             next(iter(agencies)) if len(agencies) == 1 else None,
                             mt.lo, mt.hi, mt.best, sorted(members), units, seen, calls))
    tighten_arrivals(out, e["t_lo"], e["t_hi"], e["source_kind"])
    return out


def _unit_info(who: WhoIsWho) -> dict[int, dict]:
    by_agency: dict[str | None, list[str]] = {}
    for u in who.units():
        by_agency.setdefault(u.agency, []).append(u.name)
    fire = {a for a, names in by_agency.items() if is_fire_ems(names)}
    return {u.id: {"name": u.name, "agency": u.agency, "fire_ems": u.agency in fire,
                   **({"armed": u.attrs["armed"]} if "armed" in u.attrs else {})} for u in who.units()}


def _clock_findings(sources: pd.DataFrame, clocks, fmt) -> list[Finding]:
    out = []
    for s in sources.itertuples():
        c = clocks.get(int(s.id))
        if c is None or s.kind in ("roster",):
            continue
        if c.offset_s is None:
            out.append(Finding("clock_offset", "not_established", f"{s.file_name}: {c.note}",
                               kind="metric", subject=s.file_name, unit="s",
                               payload={"status": c.status, "anchors": c.anchors}, evidence=[]))
            continue
        drift = (f", {'gaining' if c.drift_ppm > 0 else 'losing'} {abs(c.drift_ppm) * 0.0864:.2f} s a day "
                 f"({c.drift_ppm:+.1f} ± {c.drift_sd_ppm or 0:.1f} ppm; the offset as at {fmt.time(c.drift_ref_ms)})"
                 if c.drift_ppm else "")
        out.append(Finding("clock_offset", "established",
                           f"{s.file_name}: clock {fmt.offset(c.offset_s, c.uncertainty_s)}{drift} ({c.status}, "
                           f"{c.anchors} shared moments)", subject=s.file_name,
                           value_lo=c.offset_s - (c.uncertainty_s or 0), value_hi=c.offset_s + (c.uncertainty_s or 0),
                           unit="s", payload={"status": c.status, "offset_s": c.offset_s,
                                              "uncertainty_s": c.uncertainty_s, "anchors": c.anchors,
                                              "drift_ppm": c.drift_ppm, "drift_ref_ms": c.drift_ref_ms},
                           evidence=sorted({a["event"] for e in c.evidence for a in e["anchors"]})))
    return out


