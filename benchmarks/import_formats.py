"""Import speed of the nested formats, beside reading the same data with the bare library,
in the same run (issue 17):

- EIDO: N snapshots (default 100,000) of fictional incidents as NDJSON, each the whole state
  of its incident (units changing status one snapshot at a time): `onrecord import
  --mapping eido` (parse, $ref check, diff into events, raw records on the hash chain,
  SQLite) beside `json.loads` of every line, the bare reading a diff needs first.
- Excel: a workbook of R rows (default 1,000,000) of a fictional CAD export:
  `onrecord import` through an xlsx mapping beside python-calamine's `to_python()` of the
  same sheet.

Each side runs K times (default 1 for these sizes), alternating, medians compared; the
adapter alone (parse to events, no store) is timed too. Schema validation of EIDOs is off
unless --schema names NENA's openapi.yaml (it is NENA's, not shipped).
Run: .venv/bin/python benchmarks/import_formats.py [--snapshots N] [--rows R] [--repeat K] [--schema PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

XLSX_MAPPING = """
[mapping]
name = "bench-harbor-xlsx"
description = "Benchmark county (fictional) dispatch workbook, one row per unit"
source_kind = "cad"
agency = "HCSO"
timezone = "America/New_York"

[file]
format = "xlsx"
sheet = "Units"

[fields]
call = "Call No"
unit = "Unit"
text = "Type"

[[events]]
kind = "unit_dispatched"
time = "Dispatched"
format = "iso"

[[events]]
kind = "unit_arrived"
time = "On Scene"
format = "iso"
optional = true
"""

STATUSES = ["Dispatched", "EnRoute", "OnScene", "Cleared"]


def eido_stream(n: int, path: Path, units_per_incident: int = 3) -> None:
    """n snapshots: incidents of a few units, each snapshot one unit's next status."""
    rng = random.Random(17)
    t0 = datetime(2026, 3, 1, tzinfo=timezone.utc)
    per_incident = units_per_incident * len(STATUSES)
    with path.open("w", encoding="utf-8") as fh:
        written = 0
        incident = 0
        while written < n:
            incident += 1
            iid = f"urn:emergency:uid:incidentid:bench{incident}:psap.bench.example"
            agency = "so.bench.example"
            status = {u: None for u in range(units_per_incident)}
            at = t0 + timedelta(minutes=incident)
            steps = [(u, s) for s in STATUSES for u in range(units_per_incident)]
            for u, s in steps[:min(per_incident, n - written)]:
                at += timedelta(seconds=rng.randint(5, 90))
                status[u] = (s, at.isoformat(timespec="milliseconds"))
                doc = {"$id": iid, "lastUpdateTimeStamp": at.isoformat(), "updatedByAgencyReference": {"$ref": agency},
                       "eidoVersion": "1.0", "issuingElementIdentification": "cad.bench.example",
                       "agencyComponent": [{"$id": agency, "lastUpdateTimeStamp": t0.isoformat(),
                                            "updatedByAgencyReference": {"$ref": agency},
                                            "agencyRoleDescriptionRegistryText": ["Dispatching"],
                                            "agencyType": ["law"]}],
                       "agentComponent": [{"$id": f"disp@{agency}", "lastUpdateTimeStamp": t0.isoformat(),
                                           "updatedByAgencyReference": {"$ref": agency},
                                           "agentRoleRegistryText": ["Dispatch"], "agencyReference": {"$ref": agency}}],
                       "emergencyResourceComponent": [
                           {"$id": f"{iid}:unit{v}", "lastUpdateTimeStamp": st[1],
                            "updatedByAgencyReference": {"$ref": agency}, "emergencyResourceName": f"B{incident}-{v}",
                            "emergencyResourceTypeCommonRegistryText": "Law", "resourceAttributeRegistryText": [],
                            "primaryUnitStatusRegistryText": "Busy", "secondaryUnitStatusRegistryText": [st[0]],
                            "agentReference": [{"$ref": f"disp@{agency}"}]}
                           for v, st in status.items() if st is not None]}
                fh.write(json.dumps(doc) + "\n")
                written += 1


def workbook(rows: int, path: Path) -> None:
    from openpyxl import Workbook

    rng = random.Random(11)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Units")
    ws.append(["Call No", "Unit", "Type", "Dispatched", "On Scene"])
    t = datetime(2026, 3, 1, 8, 0, 0)
    for i in range(rows):
        t += timedelta(seconds=rng.randint(1, 20))
        arrived = t + timedelta(seconds=rng.randint(120, 900)) if rng.random() < 0.8 else None
        ws.append([26_000_000 + i // 3, f"U{rng.randint(1, 400)}", "DISTURBANCE", t, arrived])
    wb.save(path)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def import_once(file: Path, mapping: str, work: Path) -> int:
    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import init_case

    case_dir = Path(tempfile.mkdtemp(dir=work))
    case = init_case(case_dir / "case")
    result = import_file(case, file, load_mapping(mapping))
    case.engine.dispose()
    return result.events


def bare_json(file: Path) -> None:
    with file.open("rb") as fh:
        for line in fh:
            json.loads(line)


def bare_calamine(file: Path) -> None:
    from python_calamine import CalamineWorkbook

    CalamineWorkbook.from_path(str(file)).get_sheet_by_name("Units").to_python()


def adapter_once(file: Path, mapping: str) -> int:
    from onrecord.sources.mapping import load_mapping
    from onrecord.sources.registry import ADAPTERS

    m = load_mapping(mapping)
    return ADAPTERS[m.format](file.read_bytes(), m, str(file), None, None).event_count


def compare(name: str, ours, bare, adapter, repeat: int) -> None:
    o, b, a = [], [], []
    events = None
    for _ in range(repeat):
        b.append(timed(bare))
        box = {}
        o.append(timed(lambda: box.setdefault("n", ours())))
        a.append(timed(adapter))
        events = box["n"]
    mo, mb, ma = statistics.median(o), statistics.median(b), statistics.median(a)
    print(f"{name}: {events:,} events; onrecord import {mo:.1f} s, its adapter alone {ma:.1f} s, "
          f"bare library {mb:.1f} s; ratio import/bare {mo / mb:.1f}x, adapter/bare {ma / mb:.1f}x", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", type=int, default=100_000)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--schema", help="NENA's openapi.yaml: validate every snapshot")
    ap.add_argument("--only", choices=("eido", "xlsx"))
    args = ap.parse_args()
    if args.schema:
        os.environ["ONRECORD_EIDO_SCHEMA"] = args.schema
    else:
        os.environ.pop("ONRECORD_EIDO_SCHEMA", None)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.only in (None, "eido"):
            stream = work / "eido.ndjson"
            eido_stream(args.snapshots, stream)
            print(f"EIDO stream: {args.snapshots:,} snapshots, {stream.stat().st_size / 1e6:.0f} MB"
                  f"{' (schema-validated)' if args.schema else ''}", flush=True)
            compare("EIDO", lambda: import_once(stream, "eido", work), lambda: bare_json(stream),
                    lambda: adapter_once(stream, "eido"), args.repeat)
        if args.only in (None, "xlsx"):
            book = work / "units.xlsx"
            mapping = work / "harbor.toml"
            mapping.write_text(XLSX_MAPPING, encoding="utf-8")
            started = time.perf_counter()
            workbook(args.rows, book)
            print(f"workbook: {args.rows:,} rows, {book.stat().st_size / 1e6:.0f} MB "
                  f"(written in {time.perf_counter() - started:.0f} s)", flush=True)
            compare("Excel", lambda: import_once(book, str(mapping), work), lambda: bare_calamine(book),
                    lambda: adapter_once(book, str(mapping)), args.repeat)


if __name__ == "__main__":
    sys.exit(main())
