"""`onrecord build`, the reconstruction: align clocks, resolve who is who, fuse.

Reads the events an import wrote, through the case's reader; the findings over it are
findings/compute.py's, and pipeline.build_case writes both into the derived tables,
replacing the previous build's, in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pandas as pd

from onrecord.model import Finding
from onrecord.reconstruct import clocks as clk
from onrecord.reconstruct.align import aligned_times, moments_table, written_interval
from onrecord.reconstruct.avl_arrival import tighten_arrivals
from onrecord.reconstruct.avl_copies import fix_copies
from onrecord.reconstruct.clock_trust import declared_trust
from onrecord.reconstruct.fuse import UNSURE_SLACK_MS, fuse
from onrecord.reconstruct.geofence import crossings, declared_fences
from onrecord.reconstruct.lagged_moments import tie_components
from onrecord.reconstruct.load import load_events, load_sources, whole_second_sources, whole_seconds
from onrecord.reconstruct.lone_ties import refused_ties, tie_alone
from onrecord.reconstruct.moment_time import RECORD_LEAD_S, moment_time
from onrecord.reconstruct.moments import MomentRow, transferred_in
from onrecord.reconstruct.order_bounds import narrow_events, order_bounds
from onrecord.reconstruct.pins import pinned_offsets
from onrecord.reconstruct.report_lag import narrow_spoken_arrivals
from onrecord.reconstruct.shared_clock import clock_leaders, clock_names, solve_shared
from onrecord.reconstruct.staging import staging_records
from onrecord.reconstruct.understood import understood
from onrecord.reconstruct.untied import needs, siblings_of
from onrecord.reconstruct.who_is_who import WhoIsWho, resolve
from onrecord.reconstruct.window import case_window, within_window
from onrecord.sources.lexicon import reader_for


@dataclass
class Reconstruction:
    events: pd.DataFrame
    sources: pd.DataFrame
    who: WhoIsWho
    clocks: dict[int, clk.ClockEstimate]
    groups: list[list[int]]
    moments: list[MomentRow]
    problems: list[str] = field(default_factory=list)
    whole_second_sources: set[int] = field(default_factory=set)  # sources that write whole seconds
    # per source: what the build could not understand (understood.py)
    understood: dict[int, dict] = field(default_factory=dict)
    # filled by findings/compute.py (pipeline.build_case) before the build is written
    findings: list[Finding] = field(default_factory=list)
    claims: list[dict] = field(default_factory=list)  # rows of the claims table
    receipt: dict | None = None  # the signed receipt of the build, once written (store/receipts.py)
    # sources declared to share one clock -> the source it is solved as (shared_clock.py)
    shared_clocks: dict[int, int] = field(default_factory=dict)


def reconstruct(reader) -> Reconstruction:
    """The reconstruction of the case `reader` reads (store/reader.py: open_reader)."""
    events, sources = load_events(reader), load_sources(reader)
    events, problems = within_window(events, case_window(reader))
    whole = whole_second_sources(events)
    events = whole_seconds(events, whole)
    if events.empty:
        problems.append("the case has no events: import sources first")
    who = resolve(events)
    problems += who.problems
    # each source's text read with its own mapping's lexicons (docs/lexicons.md)
    words = {int(s.id): reader_for(s.mapping_text) for s in sources.itertuples()} if len(sources) else {}
    # AVL fixes that put a car inside its dispatch system's declared geofence: arrivals
    fences = declared_fences(sources) if len(sources) else {}
    crossed = crossings(events, reader.position_frame(list(fences)), who.unit_of_event, fences) if fences else {}
    anchored = moments_table(events, who, words, crossed)
    pinned, pin_problems = pinned_offsets(reader.case, sources)
    trusted, trust_problems = declared_trust(reader.case, sources)
    problems += pin_problems + trust_problems
    # statuses the mapping says are CAD's copies of AVL fixes (entered_by = "avl")
    declared = set(anchored["id"][anchored["declared_copy"].astype(bool)]) if len(anchored) else set()
    anchored = anchored.assign(copy_of=anchored["id"].isin(declared)) if len(anchored) else anchored
    named = clock_names(reader.case, sources) if len(sources) else {}
    lead = clock_leaders(named)  # sources declared to share one clock
    clocks, pairs = solve_shared(sources, anchored, pinned, trusted, lead) if len(anchored) else \
        (clk.solve(sources, [], pinned, trusted), [])
    # CAD arrivals that are copies of AVL fixes, however they were mapped: looked for where
    # the clocks so far say they would be; found, the clocks are estimated again with them
    found = (fix_copies(anchored[~anchored["copy_of"]], clocks) - declared) if len(anchored) else set()
    copies = declared | found
    if found:
        anchored = anchored.assign(copy_of=anchored["id"].isin(copies))
        clocks, pairs = solve_shared(sources, anchored, pinned, trusted, lead)
    # clocks still tied to none of those: through the shots their units heard (lagged_moments.py)
    # ... or through a moment both name (a unit's arrival and its AVL's crossing, a door: lone_ties.py)
    refused: list[dict] = []  # ties through one named moment the clock's other doors contradict
    clocks, pairs = _tied_by_reports(sources, anchored, pinned, trusted, lead, clocks, pairs, events, refused)
    # unsure clocks narrowed by what must come first (a unit's entry after its arrival:
    # order_bounds.py); then a clock estimated wider than an unknown one is said to be loose
    clocks, bounded = order_bounds(anchored, clocks, who.named_units, who.unit_of_event)
    clocks = clk.loosened(clocks)
    unit_names = {u.id: u.name for u in who.units()}
    kinds = events.groupby("source_id")["kind"].agg(frozenset).to_dict() if len(events) else {}
    for s, c in clocks.items():  # what each clock tied to nothing would need (untied.py)
        if c.offset_s is None:
            c.needs = needs(s, anchored, unit_names, kinds.get(s, frozenset()), siblings_of(s, sources, events, named))
    names = dict(zip(sources["id"], sources["file_name"]))
    problems += clk.pinned_conflicts(pairs, pinned, names) + refused_ties(refused, names, clocks)
    events = narrow_events(_with_times(events, clocks), bounded)  # each bounded record to its own bound
    anchored = _crossing_spans(anchored.merge(written_interval(events, clocks), on="id"), crossed)
    doubts: dict[int, float] = {}
    groups = fuse(_for_fusion(anchored, who, clocks), doubts) if len(anchored) else []
    staged = staging_records(events, anchored, words)
    unsure = {s for s, c in clocks.items() if _clock_unsure_s(c) * 1000 > UNSURE_SLACK_MS}
    moments = _moments(anchored, groups, events, who, copies, doubts, crossed, staged, unsure)
    return Reconstruction(events, sources, who, clocks, groups, moments, problems, whole,
                          understood=understood(events, sources, clocks), shared_clocks=lead)


def _for_fusion(anchored: pd.DataFrame, who: WhoIsWho, clocks) -> pd.DataFrame:
    """What fusion reads beside the times: the units an entry's words name (who is who),
    and how unsure each record's clock is (ms: an unknown clock's +/- 5 minutes), so a
    record on an unsure clock is matched by whom it names rather than by its time."""
    if anchored.empty:
        return anchored
    entry = (anchored["family"] == "entry").to_numpy()
    named = [frozenset(who.named_units.get(int(i), ())) if e else frozenset()
             for i, e in zip(anchored["id"], entry)]
    slack = anchored["source_id"].map({s: _clock_unsure_s(c) for s, c in clocks.items()})
    return anchored.assign(named=named, slack=slack.fillna(clk.UNKNOWN_UNCERTAINTY_S).to_numpy() * 1000)


def _clock_unsure_s(c) -> float:
    if c is None or c.offset_s is None:
        return clk.UNKNOWN_UNCERTAINTY_S
    return c.uncertainty_s or 0.0

TIE_ROUNDS = 3  # one tie can make the next possible (the campus radio, once its sensors are placed)


def _tied_by_reports(sources, anchored, pinned, trusted, lead, clocks, pairs, events, refused=None):
    extra: list = []
    for _ in range(TIE_ROUNDS):
        found = tie_components(anchored, clocks) if len(anchored) else []
        tied = {s for p in found for s in (p.a, p.b) if getattr(clocks.get(s), "status", None) == "unknown"}
        # a component the reports of shots cannot tie, through a moment both records name
        found += [p for p in (tie_alone(anchored, clocks, events, refused) if len(anchored) else [])
                  if p.a not in tied and p.b not in tied]
        if not found:
            break
        extra += found
        clocks, pairs = solve_shared(sources, anchored, pinned, trusted, lead, extra)
    return clocks, pairs


def _crossing_spans(anchored: pd.DataFrame, crossed: dict) -> pd.DataFrame:
    """A geofence crossing spans the car's fix before it to its own fix (geofence.py)."""
    if not crossed or anchored.empty:
        return anchored
    lo = dict(zip(anchored["id"], anchored["lo"]))
    at = anchored["id"].isin(list(crossed))
    start = anchored.loc[at, "id"].map(lambda i: lo.get(crossed[i], lo[i]))
    return anchored.assign(lo=anchored["lo"].where(~at, start))


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


def _moments(anchored: pd.DataFrame, groups: list[list[int]], events: pd.DataFrame, who,
             copies: set | None = None, doubts: dict | None = None, crossed: dict | None = None,
             staged: set | None = None, unsure: set | None = None) -> list[MomentRow]:
    """`unsure`: sources whose clocks are known only within minutes; their records join a
    moment by whom they name (fuse.py) but do not time it where records on surer clocks do."""
    anchored = _incident_only(anchored)
    near = set(anchored["id"])
    groups = [g for g in groups if g[0] in near]
    a = {col: dict(zip(anchored["id"], anchored[col])) for col in ("rank", "family", "who", "agency", "lo", "spoken")}
    ev = events[events["id"].isin(anchored["id"])]
    e = {col: dict(zip(ev["id"], ev[col])) for col in ("t_lo", "t_hi", "source_kind", "text", "call", "source_id")}
    crossed = {i: p for i, p in (crossed or {}).items() if i in e["t_lo"] and p in e["t_lo"]}
    for fix, before in crossed.items():  # the car crossed in after its fix before, by this one
        e["t_lo"][fix] = e["t_lo"][before]
    grouped = {i for g in groups for i in g}
    singles = [[int(i)] for i in anchored["id"] if i not in grouped]
    out, used = [], []
    for members in groups + singles:
        members = [i for i in members if i in a["rank"]]
        if not members:
            continue
        recs = [{"rank": int(a["rank"][i]), "t_lo": e["t_lo"][i], "t_hi": e["t_hi"][i], "said": a["lo"][i],
                 "spoken": bool(a["spoken"][i]), "source_id": e["source_id"][i]} for i in members]
        family = a["family"][members[0]]
        sure = [r for r, i in zip(recs, members) if e["source_id"][i] not in (unsure or ())]
        mt = moment_time(sure or recs, family)
        if mt is None:
            continue
        units: dict[int, list[int]] = {}
        for i in members:
            u = who.unit_of_event.get(i)
            if u is not None:
                units.setdefault(u, []).append(i)
            if family == "entry":  # "going in, 2-KING-29 and 2-ADAM-44": each unit it names went in
                for named in who.named_units.get(i, ()):
                    units.setdefault(named, []).append(i)
        whos = [a["who"][i] for i in members if a["who"][i] is not None and a["who"][i] == a["who"][i]]
        agencies = {a["agency"][i] for i in members} - {None}
        seen = bool(units) or any("officer" in str(e["text"][i]).lower() for i in members)
        # a call number means something only within its dispatch system (its source)
        calls = frozenset(f"{e['source_id'][i]}#{e['call'][i]}" for i in members
                          if e["call"][i] is not None and e["source_kind"][i] == "cad")
        # a typed entry tied to this team only for want of a better: its unit went in
        # somewhere from the first entry it fits to its own typed time
        spans = {who.unit_of_event[i]: (min(mt.lo, (doubts or {})[i] - RECORD_LEAD_S * 1000), max(mt.hi, e["t_hi"][i]))
                 for i in members if i in (doubts or {}) and who.unit_of_event.get(i) is not None}
        if family == "unit_arrived" and staged and all(i in staged for i in members):
            family = "staging"  # at the staging point, not on scene (staging.py)
        row = MomentRow(min(members), family, whos[0] if whos else None,
                        next(iter(agencies)) if len(agencies) == 1 else None,
                        mt.lo, mt.hi, mt.best, sorted(members), units, seen, calls, unit_spans=spans)
        if family == "unit_arrived":
            fix = next((i for i in members if i in crossed), None)
            if fix is not None:  # located by the crossing: the fix before and the fix inside
                row.located = [crossed[fix], fix]
        out.append(row)
        used.append(sure or recs)
    tighten_arrivals(out, e["t_lo"], e["t_hi"], e["source_kind"], copies or set())
    narrow_spoken_arrivals(out, used, a, e, unsure or set())
    return out

