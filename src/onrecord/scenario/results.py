"""What a built case claims, in the shape the scorer compares with truth.

Keys follow truth.json: events "FILE#RID#KIND", mentions "FILE#RID#FIELD", prior
records "FILE#RID". A case whose derived tables (written by `onrecord build`) are empty
has not been built: every score is then 0 (never "n/a").
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

NOT_BUILT = "case has not been built: nothing to score"


@dataclass
class CaseResults:
    built: bool = False
    note: str = ""
    offsets: dict[str, float] = field(default_factory=dict)          # source file -> seconds
    offset_uncertainty: dict[str, float] = field(default_factory=dict)  # source file -> the stated +/- s
    event_groups: list[list[str]] = field(default_factory=list)      # fused events, by record key
    entity_clusters: list[list[str]] = field(default_factory=list)   # mentions resolved together
    metrics: dict[str, float] = field(default_factory=dict)          # name -> epoch s, seconds or count
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)  # name -> (lo, hi), same units
    linkage_clusters: list[list[str]] = field(default_factory=list)  # prior records of one person
    # per discrepancy finding: the claims it quotes, as (file, span start, span end) in the text body
    discrepancies: list[list[tuple[str, int, int]]] = field(default_factory=list)


def collect_case_results(case_path: str | Path) -> CaseResults:
    """Read the reconstruction's tables of a case folder, through the case's reader; none
    filled means not built."""
    from onrecord.store.reader import open_reader

    reader = open_reader(Path(case_path))
    if not reader.has_derived():
        return CaseResults(built=False, note=NOT_BUILT)
    keys = _event_keys(reader)
    clocks = reader.clock_estimates()
    metrics = [f for f in reader.findings("metric") if f["status"] == "established"]
    return CaseResults(
        built=True, note="scored from the case's derived tables",
        offsets=_offsets(reader, clocks), offset_uncertainty=_offsets(reader, clocks, "uncertainty_s"),
        event_groups=_fused_groups(reader, keys), entity_clusters=_entity_clusters(reader, keys),
        metrics=_metrics(metrics), intervals=_metrics(metrics, intervals=True),
        linkage_clusters=_linked_people(reader), discrepancies=_discrepancies(reader))


def _discrepancies(reader) -> list[list[tuple[str, int, int]]]:
    """Each discrepancy finding as the claims it quotes: (document file, span) — the form
    truth's contradictions and press errors are written in."""
    spans = {c["id"]: (c["file_name"], c["span_lo"], c["span_hi"]) for c in reader.claims()}
    out = []
    for f in reader.findings("discrepancy"):
        quoted = [spans[i] for i in f["evidence"].get("claims", []) if i in spans]
        if quoted:
            out.append(quoted)
    return out


def _linked_people(reader) -> list[list[str]]:
    """People `onrecord link` found, as their prior records "FILE#RID"."""
    events = {eid: (file, attrs) for eid, file, _, attrs in reader.event_identities()}
    groups: dict[int, list[str]] = defaultdict(list)
    for entity, eid, _ in reader.mentions(role="subject"):
        if eid not in events:
            continue
        file, attrs = events[eid]
        rid = json.loads(attrs or "{}").get("rid")
        if rid is not None:
            groups[entity].append(f"{file}#{rid}")
    return list(groups.values())


def _event_keys(reader) -> dict[int, tuple[str, str, str]]:
    """event id -> (file, rid, kind): the event's identity as truth knows it."""
    out = {}
    for eid, file, kind, attrs in reader.event_identities():
        rid = json.loads(attrs or "{}").get("rid")
        if rid is not None:
            out[eid] = (file, str(rid), kind)
    return out


def _offsets(reader, clocks: dict[int, dict], column: str = "offset_s") -> dict[str, float]:
    """Each aligned source's estimated offset, or the uncertainty stated with it."""
    files = {s["id"]: s["file_name"] for s in reader.sources()}
    return {files[sid]: float(c[column] or 0.0) for sid, c in clocks.items() if c["offset_s"] is not None}


def _fused_groups(reader, keys: dict) -> list[list[str]]:
    groups: dict[int, list[str]] = defaultdict(list)
    for eid, fused in reader.fused_members():
        if eid in keys:
            groups[fused].append("#".join(keys[eid]))
    return list(groups.values())


def _entity_clusters(reader, keys: dict) -> list[list[str]]:
    groups: dict[int, list[str]] = defaultdict(list)
    for entity, eid, role in reader.mentions():
        if eid in keys:
            file, rid, _ = keys[eid]
            groups[entity].append(f"{file}#{rid}#{role}")
    return list(groups.values())


# The reconstruction's finding names -> the names truth.json scores them under.
TRUTH_NAMES = {
    "first_shots": "first_shot", "last_shots": "last_shot", "camera_live_lag": "camera_live_lag_s",
    "mean_call_transfer_delay": "mean_transfer_delay_s", "first_shot_to_first_entry": "first_shot_to_first_entry_s",
    "first_armed_arrival_to_entry": "first_armed_arrival_to_entry_s", "unit_on_scene": "arrived",
    "unit_outside_while_shots": "outside_while_shots_s", "agency_units_on_scene": "units_on_scene",
    "agency_units_entered": "units_entered", "call_transfer_delay": "transfer_delay_s",
}


def _metrics(found: list[dict], intervals: bool = False) -> dict:
    """Established metric findings: times in UTC ms become epoch seconds; per-unit and
    per-agency findings are keyed "name:subject" as truth's scored_detail/counts are.
    The value is the interval's middle; with `intervals`, the interval itself."""
    out = {}
    for f in found:
        lo, hi, unit = f["value_lo"], f["value_hi"], f["unit"]
        vals = [v / 1000 if unit == "utc_ms" else v for v in (lo, hi) if v is not None]
        if not vals:
            continue
        name = TRUTH_NAMES.get(f["name"], f["name"])
        key = f"{name}:{f['subject']}" if f["subject"] else name
        # a finding whose interval is not centred on its best figure says which it is
        # (payload.best: a count of units recorded going in, up to every unit on scene)
        best = (f.get("payload") or {}).get("best") if unit == "count" else None
        out[key] = (min(vals), max(vals)) if intervals else \
            float(best) if isinstance(best, (int, float)) else sum(vals) / len(vals)
    return out
