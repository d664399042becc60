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
    """Read the reconstruction's tables of a case folder; none filled means not built."""
    from onrecord.store.case import open_case

    case = open_case(Path(case_path))
    with case.engine.connect() as conn:
        if not _has_derived(conn):
            return CaseResults(built=False, note=NOT_BUILT)
        keys = _event_keys(conn, case.id)
        return CaseResults(
            built=True, note="scored from the case's derived tables",
            offsets=_offsets(conn, case.id), offset_uncertainty=_offsets(conn, case.id, "uncertainty_s"),
            event_groups=_fused_groups(conn, case.id, keys),
            entity_clusters=_entity_clusters(conn, case.id, keys), metrics=_metrics(conn, case.id),
            intervals=_metrics(conn, case.id, intervals=True), linkage_clusters=_linked_people(conn, case.id),
            discrepancies=_discrepancies(conn, case.id))  # linkage clusters: no table yet; scored 0 until there is one


def _discrepancies(conn, case_id: int) -> list[list[tuple[str, int, int]]]:
    """Each discrepancy finding as the claims it quotes: (document file, span) — the form
    truth's contradictions and press errors are written in."""
    from sqlalchemy import text
    spans = {i: (f, lo, hi) for i, f, lo, hi in conn.execute(text(
        "select c.id, s.file_name, c.span_lo, c.span_hi from claims c join sources s on s.id = c.source_id "
        "where c.case_id = :c"), {"c": case_id})}
    out = []
    for (evidence,) in conn.execute(text("select evidence from findings where case_id = :c and kind = 'discrepancy'"),
                                    {"c": case_id}):
        quoted = [spans[i] for i in json.loads(evidence or "{}").get("claims", []) if i in spans]
        if quoted:
            out.append(quoted)
    return out


def _linked_people(conn, case_id: int) -> list[list[str]]:
    """People `onrecord link` found, as their prior records "FILE#RID"."""
    from sqlalchemy import text
    rows = conn.execute(text("select m.entity_id, s.file_name, e.attrs from entity_mentions m "
                             "join events e on e.id = m.event_id join sources s on s.id = e.source_id "
                             "where m.case_id = :c and m.role = 'subject'"), {"c": case_id})
    groups: dict[int, list[str]] = defaultdict(list)
    for entity, file, attrs in rows:
        rid = json.loads(attrs or "{}").get("rid")
        if rid is not None:
            groups[entity].append(f"{file}#{rid}")
    return list(groups.values())


def _has_derived(conn) -> bool:
    from sqlalchemy import inspect, text
    tables = set(inspect(conn).get_table_names())
    for name in ("clock_estimates", "aligned_events", "entity_mentions", "findings"):
        if name in tables and conn.execute(text(f"select 1 from {name} limit 1")).first():
            return True
    return False


def _event_keys(conn, case_id: int) -> dict[int, tuple[str, str, str]]:
    """event id -> (file, rid, kind): the event's identity as truth knows it."""
    from sqlalchemy import text
    rows = conn.execute(text("select e.id, s.file_name, e.kind, e.attrs from events e "
                             "join sources s on s.id = e.source_id where e.case_id = :c"), {"c": case_id})
    out = {}
    for eid, file, kind, attrs in rows:
        rid = json.loads(attrs or "{}").get("rid")
        if rid is not None:
            out[eid] = (file, str(rid), kind)
    return out


def _offsets(conn, case_id: int, column: str = "offset_s") -> dict[str, float]:
    """Each aligned source's estimated offset, or the uncertainty stated with it."""
    from sqlalchemy import text
    rows = conn.execute(text(f"select s.file_name, c.{column} from clock_estimates c join sources s "
                             "on s.id = c.source_id where c.case_id = :c and c.offset_s is not null"), {"c": case_id})
    return {file: float(v or 0.0) for file, v in rows}


def _fused_groups(conn, case_id: int, keys: dict) -> list[list[str]]:
    from sqlalchemy import text
    groups: dict[int, list[str]] = defaultdict(list)
    rows = conn.execute(text("select event_id, fused_id from aligned_events where case_id = :c "
                             "and fused_id is not null"), {"c": case_id})
    for eid, fused in rows:
        if eid in keys:
            groups[fused].append("#".join(keys[eid]))
    return list(groups.values())


def _entity_clusters(conn, case_id: int, keys: dict) -> list[list[str]]:
    from sqlalchemy import text
    groups: dict[int, list[str]] = defaultdict(list)
    rows = conn.execute(text("select entity_id, event_id, role from entity_mentions where case_id = :c "
                             "and event_id is not null"), {"c": case_id})
    for entity, eid, role in rows:
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


def _metrics(conn, case_id: int, intervals: bool = False) -> dict:
    """Established metric findings: times in UTC ms become epoch seconds; per-unit and
    per-agency findings are keyed "name:subject" as truth's scored_detail/counts are.
    The value is the interval's middle; with `intervals`, the interval itself."""
    from sqlalchemy import text
    rows = conn.execute(text("select name, subject, value_lo, value_hi, unit from findings where case_id = :c "
                             "and kind = 'metric' and status = 'established'"), {"c": case_id})
    out = {}
    for name, subject, lo, hi, unit in rows:
        vals = [v / 1000 if unit == "utc_ms" else v for v in (lo, hi) if v is not None]
        if not vals:
            continue
        name = TRUTH_NAMES.get(name, name)
        key = f"{name}:{subject}" if subject else name
        out[key] = (min(vals), max(vals)) if intervals else sum(vals) / len(vals)
    return out
