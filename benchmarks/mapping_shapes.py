"""The same CAD export in three shapes, through the whole build: a row per unit (as the
generator writes it), a wide row per incident (`APPARATUS1, DISP1, ..., APPARATUS9, ...`,
read with `wide`) and a packed row per incident (`E94#F2540458-01@14:07:45@14:07:52@14:16:01;...`,
times of day dated by a `[columns]` part of the alarm time, read with `split` and `after`).

The events a shape yields, and every score of the built case, must be the same as the
row-per-unit export's: the mapping language reads the shape, nothing downstream may
notice. Prints, per seed and shape, whether the fire CAD's events and the case's scores
match the row-per-unit baseline, and the headline scores.

Run: .venv/bin/python benchmarks/mapping_shapes.py [--seeds 1 2 3]
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

EXPORT = "sources/fire_cad.csv"
TIMES = ("DISP_DT", "ENRT_DT", "ONSCN_DT")
KINDS = {"DISP_DT": "unit_dispatched", "ENRT_DT": "unit_enroute", "ONSCN_DT": "unit_arrived"}

HEAD = """[mapping]
name = "fire-cad-{shape}"
description = "{agency} incidents (fictional), one row per incident, units {how}"
source_kind = "cad"
agency = "{agency}"
timezone = "{timezone}"

[file]
required = ["INC_NUM"]

[fields]
call = "INC_NUM"
place = "ADDR"
text = "INC_TYPE"

[[events]]
kind = "incident_created"
time = "ALARM_DT"
format = "iso"
unit = false
"""


def mapping_head(folder: Path, shape: str, how: str) -> str:
    """The export's own agency and zone (the seed chooses them), the rest of this shape's."""
    import tomllib

    own = tomllib.loads((folder / "sources" / "fire_cad.toml").read_text(encoding="utf-8"))["mapping"]
    return HEAD.format(shape=shape, how=how, agency=own["agency"], timezone=own["timezone"])


def wide_mapping(top: str, slots: int) -> str:
    blocks = [top]
    for col in TIMES:
        blocks.append(f"""
[[events]]
kind = "{KINDS[col]}"
wide = {list(range(1, slots + 1))}
time = "{col}{{n}}"
format = "iso"
unit = "APPARATUS{{n}}"
attributes = {{ rid = "SEQ{{n}}" }}
optional = {"false" if col == "DISP_DT" else "true"}
""")
    return "".join(blocks)


def packed_mapping(top: str) -> str:
    out = [top.replace(
        "[fields]", '[columns]\nDay = { column = "ALARM_DT", pattern = "^(\\\\S{10})" }\n\n[fields]')]
    pattern = "^(?P<Unit>[^#]+)#(?P<Seq>[^@]+)@(?P<DISP_DT>[^@]*)@(?P<ENRT_DT>[^@]*)@(?P<ONSCN_DT>.*)$"
    for col in TIMES:
        out.append(f"""
[[events]]
kind = "{KINDS[col]}"
split = {{ column = "UNITS", by = ";", pattern = "{pattern}" }}
time = ["Day", "{col}"]
format = "%Y-%m-%d %H:%M:%S"
after = 1
unit = "Unit"
attributes = {{ rid = "Seq" }}
optional = {"false" if col == "DISP_DT" else "true"}
""")
    return "".join(out)


def by_incident(path: Path) -> tuple[list[str], dict[str, list[dict]]]:
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    incidents: dict[str, list[dict]] = {}
    for r in rows:
        incidents.setdefault(r["INC_NUM"], []).append(r)
    return list(rows[0]), incidents


def write_wide(folder: Path) -> None:
    _, incidents = by_incident(folder / EXPORT)
    slots = max(len(v) for v in incidents.values())
    head = ["INC_NUM", "ALARM_DT", "INC_TYPE", "ADDR"] + [
        f"{c}{n}" for n in range(1, slots + 1) for c in ("APPARATUS", "SEQ", *TIMES)]
    with (folder / EXPORT).open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(head)
        for inc, units in incidents.items():
            row = [inc, units[0]["ALARM_DT"], units[0]["INC_TYPE"], units[0]["ADDR"]]
            for n in range(slots):
                u = units[n] if n < len(units) else {}
                row += [u.get("APPARATUS", ""), u.get("SEQ", "")] + [u.get(c, "") for c in TIMES]
            w.writerow(row)
    top = mapping_head(folder, "wide", "side by side")
    (folder / "sources" / "fire_cad.toml").write_text(wide_mapping(top, slots), encoding="utf-8")


def tomllib_zone(mapping: str) -> str:
    import tomllib

    return tomllib.loads(mapping)["mapping"]["timezone"]


def local_time_of_day(iso: str, zone: ZoneInfo) -> str:
    return datetime.fromisoformat(iso).astimezone(zone).strftime("%H:%M:%S") if iso else ""


def write_packed(folder: Path) -> None:
    top = mapping_head(folder, "packed", "packed in one column")
    zone = ZoneInfo(tomllib_zone(top))
    _, incidents = by_incident(folder / EXPORT)
    with (folder / EXPORT).open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["INC_NUM", "ALARM_DT", "INC_TYPE", "ADDR", "UNITS"])
        for inc, units in incidents.items():
            alarm = datetime.fromisoformat(units[0]["ALARM_DT"]).astimezone(zone)
            packed = ";".join(f"{u['APPARATUS']}#{u['SEQ']}@" + "@".join(local_time_of_day(u[c], zone) for c in TIMES)
                              for u in units)
            # the alarm time in local ISO, so that its day is the local day the times of day are on
            w.writerow([inc, alarm.isoformat(), units[0]["INC_TYPE"], units[0]["ADDR"], packed])
    (folder / "sources" / "fire_cad.toml").write_text(packed_mapping(top), encoding="utf-8")


def build_and_score(scenario: Path, work: Path) -> tuple[list, dict]:
    from onrecord.pipeline import build_case, score_case
    from onrecord.scenario.into_case import import_scenario
    from onrecord.store.reader import open_reader

    case_dir = work / f"case-{scenario.name}"
    case = import_scenario(scenario, case_dir)
    build_case(case)
    case.engine.dispose()
    reader = open_reader(case_dir)
    source = next(s for s in reader.sources() if s["file_name"] == "fire_cad.csv")
    frame = reader.event_frame()
    mine = frame[frame["source_id"] == source["id"]]
    # A unit's events carry its record id (SEQ); the incident's own event has none once the
    # export writes one row per incident (a row per unit lent it the first unit's).
    events = sorted(
        (str(e["kind"]), int(e["t_src_lo"]), int(e["t_src_hi"]),
         *(e[c] or "" for c in ("agency", "unit", "call", "actor", "channel", "place", "text")),
         "" if e["kind"] == "incident_created" else json.loads(e["attrs"] or "{}").get("rid", ""))
        for e in mine.to_dict("records"))
    return events, score_case(case_dir, scenario / "truth.json")


def _short(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) < 300 else text[:300] + "..."


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = ap.parse_args()
    from onrecord.scenario.generate import generate_case

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for seed in args.seeds:
            base = work / f"rows-{seed}"
            generate_case(seed, base, 0)
            shapes = {"row per unit": base}
            for name, write in (("wide", write_wide), ("packed", write_packed)):
                shapes[name] = work / f"{name}-{seed}"
                shutil.copytree(base, shapes[name])
                write(shapes[name])
            results = {name: build_and_score(path, work) for name, path in shapes.items()}
            base_events, base_score = results["row per unit"]
            for name, (events, score) in results.items():
                same_events = events == base_events
                if not same_events:
                    print("  only in rows:", sorted(set(base_events) - set(events))[:4])
                    print("  only here:   ", sorted(set(events) - set(base_events))[:4])
                same_score = score == base_score
                differ = sorted(k for k in set(score) | set(base_score) if score.get(k) != base_score.get(k))
                print(f"seed {seed} {name:13}: fire CAD events {len(events)} "
                      f"{'same as rows' if same_events else 'DIFFER from rows'}; "
                      f"scores {'same as rows' if same_score else 'DIFFER from rows: ' + ', '.join(differ)}")
                for src, est in score.get("clock_offsets", {}).get("per_source", {}).items():
                    was = base_score["clock_offsets"]["per_source"].get(src)
                    if est != was:
                        print(f"  clock of {src}: rows {_short(was)}; {name} {_short(est)}")


if __name__ == "__main__":
    main()
