"""Small helpers shared by tests: a fictional CAD export and a look into the store."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from onrecord.store.case import open_case
from onrecord.store.schema import cases, events, raw_records, sources

# A fictional county's dispatch export, one row per unit, three times per row.
CAD_MAPPING = """
[mapping]
name = "eastvale-cad"
description = "Eastvale County (fictional) dispatch, one row per unit"
source_kind = "cad"
agency = "EVSO"
timezone = "America/Chicago"
layout = "row-per-unit"

[file]
required = ["CallNo", "Unit"]

[fields]
call = "CallNo"
unit = "Unit"
text = "Nature"
place = "Address"

[attributes]
priority = "Pri"

[[events]]
kind = "call_received"
time = "Received"
format = "%m/%d/%Y %H:%M:%S"
once_per_call = true
unit = false

[[events]]
kind = "unit_dispatched"
time = "Dispatched"
format = "%m/%d/%Y %H:%M:%S"

[[events]]
kind = "unit_arrived"
time = "OnScene"
format = "%m/%d/%Y %H:%M:%S"
optional = true
"""

CAD_ROWS = """CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene
C-1001,S12,Welfare check,14 Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:10,03/14/2026 09:40:00
C-1001,S14,Welfare check,14 Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:40,
C-1002,S20,"Alarm, commercial",900 Quarry Ave,2,03/14/2026 10:02:00,03/14/2026 10:03:30,03/14/2026 10:11:15
"""


def write_cad(folder: Path, rows: str = CAD_ROWS, name: str = "eastvale.csv") -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    mapping = folder / "eastvale-cad.toml"
    mapping.write_text(CAD_MAPPING, encoding="utf-8")
    data = folder / name
    data.write_bytes(rows.encode("utf-8"))
    return data, mapping


def store_state(case_dir: Path) -> dict:
    """Everything an import could have changed, to compare before and after."""
    case = open_case(case_dir)
    with case.engine.connect() as conn:
        head = conn.execute(select(cases.c.record_count, cases.c.chain_head).where(cases.c.id == case.id)).one()
        count = lambda t: conn.execute(select(func.count()).select_from(t).where(t.c.case_id == case.id)).scalar()
        state = {"records": head.record_count, "head": bytes(head.chain_head), "sources": count(sources),
                 "raw": count(raw_records), "events": count(events)}
    case.engine.dispose()
    return state
