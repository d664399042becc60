"""Internal consistency of the independent case generator.

Run: python -m pytest -q benchmarks/independent/test_generator.py

Every check recomputes from what a case writes (files, truth.json) rather than from the
generator's own objects, so a fault in the generator's bookkeeping shows up here.
"""

from __future__ import annotations

import csv
import hashlib
import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from blindcase.case import generate_case  # noqa: E402

SEEDS = range(1, 11)
DOCUMENTED_KINDS = {  # docs/events.md, plus the two kinds issue 13 asks for
    "call_received",
    "call_transferred",
    "call_answered",
    "incident_created",
    "unit_dispatched",
    "unit_enroute",
    "unit_arrived",
    "unit_available",
    "unit_status",
    "unit_position",
    "entry",
    "exit",
    "shots_reported",
    "shots_detected",
    "radio_transmission",
    "camera_observation",
    "door_event",
    "alarm",
    "patient_contact",
    "patient_transported",
    "incident_closed",
    "threat_ended",
    "staging",
}
PATTERNS = {
    "offset_compact": ("%Y-%m-%d %H:%M:%S %z", None),
    "local_frac": ("%Y-%m-%d %H:%M:%S.%f", "local"),
    "local_micro": ("%Y-%m-%d %H:%M:%S.%f", "local"),
    "us24": ("%m/%d/%Y %H:%M:%S", "local"),
    "us12": ("%m/%d/%Y %I:%M:%S %p", "local"),
    "us12_nopad": ("%m/%d/%Y %I:%M:%S %p", "local"),
    "dayfirst": ("%d/%m/%Y %H:%M:%S", "local"),
    "dayfirst_dots": ("%d.%m.%Y %H:%M:%S", "local"),
    "monname": ("%d-%b-%Y %H:%M:%S", "local"),
    "utc_plain": ("%Y-%m-%d %H:%M:%S", "utc"),
    "local_plain": ("%Y-%m-%d %H:%M:%S", "local"),
    "compact": ("%Y%m%d%H%M%S", "local"),
    "split_iso": ("%Y-%m-%d %H:%M:%S", "local"),
    "split_us": ("%m/%d/%y %H%M%S", "local"),
    "split_us12": ("%m/%d/%Y %I:%M:%S %p", "local"),
    "split_compact": ("%Y%m%d %H:%M:%S", "local"),
    "split_dayfirst": ("%d/%m/%Y %H:%M:%S", "local"),
    "split_utc": ("%Y%m%d %H:%M:%S", "utc"),
    "minute_us": ("%m/%d/%Y %H:%M", "local"),
    "minute_split": ("%Y%m%d %H%M", "local"),
    "minute_12": ("%m/%d/%Y %I:%M %p", "local"),
}
PRECISION = {"minute_us": 60, "minute_split": 60, "minute_12": 60}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    out = {}
    for seed in SEEDS:
        d = tmp_path_factory.mktemp(f"case{seed}")
        generate_case(seed, d)
        out[seed] = (d, json.loads((d / "truth.json").read_text()))
    return out


def _digest(folder: Path) -> dict:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _epoch(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _rows(case_dir: Path, src: dict) -> list[dict]:
    text = (case_dir / src["path"]).read_text(encoding="utf-8")
    if src["format"] == "jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    reader = csv.reader(text.splitlines(), delimiter=src["delimiter"])
    lines = list(reader)
    cols = lines[0] if src["header"] else src["columns"]
    body = lines[1:] if src["header"] else lines
    assert all(len(r) == len(cols) for r in body), src["path"]
    return [dict(zip(cols, r)) for r in body]


def _index(case_dir, truth):
    idx = {}
    for name, src in truth["sources"].items():
        rows = _rows(case_dir, src)
        assert len(rows) == src["rows"], name
        by = {}
        for r in rows:
            rid = str(r[src["rid_column"]])
            assert rid not in by, f"{name}: record id {rid} repeats"
            by[rid] = r
        idx[name] = by
    return idx


def test_same_seed_writes_the_same_bytes(tmp_path):
    generate_case(4, tmp_path / "a")
    generate_case(4, tmp_path / "b")
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")


def test_seeds_make_different_incidents(cases):
    worlds = {(t["world"]["county"], t["world"]["school"], t["incident"]["first_shot"]) for _, t in cases.values()}
    assert len(worlds) == len(cases)
    dialect_sets = {tuple(sorted(s["dialect"] for s in t["sources"].values())) for _, t in cases.values()}
    assert len(dialect_sets) >= len(cases) - 1


def test_every_record_and_mention_points_at_a_real_row(cases):
    for seed, (d, truth) in cases.items():
        idx = _index(d, truth)
        for key, rec in truth["records"].items():
            file, rid, kind = key.split("#")[:3]
            row = idx[file].get(rid)
            assert row is not None, f"seed {seed}: {key} names no row"
            assert kind in DOCUMENTED_KINDS, key
            assert rec["event"] in truth["events"], key
            cells = " ".join(str(v) for v in row.values())
            assert all(part in cells for part in rec["written"].split()), (
                f"seed {seed}: {key}: {rec['written']!r} not in the row"
            )
        for key, entity in truth["mentions"].items():
            file, rid = key.split("#")[:2]
            row = idx[file][rid]
            assert entity in truth["entities"], key
            form = truth["mention_forms"][key]
            assert form in [str(v) for v in row.values()] or form in " ".join(map(str, row.values())), key


def _parse(written: str, style: str, zone: str, near: float, written_as: str | None) -> float:
    tz = ZoneInfo(zone)
    if written_as:
        pattern = written_as.split(":", 1)[1]
        day = datetime.fromtimestamp(near, tz).date()
        t = datetime.strptime(written, pattern).time()
        return datetime.combine(day, t, tz).timestamp()
    if style in ("epoch_s", "epoch_s_frac"):
        return float(written)
    if style == "epoch_ms":
        return int(written) / 1000.0
    if style.startswith("iso"):
        return _epoch(written)
    pattern, where = PATTERNS[style]
    dt = datetime.strptime(written, pattern)
    if where == "utc":
        dt = dt.replace(tzinfo=timezone.utc)
    elif where == "local":
        dt = dt.replace(tzinfo=tz)
    return dt.timestamp()


def test_written_times_are_true_times_on_the_source_clock(cases):
    """written = true + offset (+ drift), truncated to the source's precision."""
    for seed, (d, truth) in cases.items():
        for key, rec in truth["records"].items():
            src = truth["sources"][key.split("#")[0]]
            off = src["clock_offset_s"] + src["clock_drift_ppm"] * 1e-6 * (
                rec["true_epoch"] - _epoch(src["clock_reference_time"])
            )
            expected = rec["true_epoch"] + off
            got = _parse(rec["written"], src["time_style"], truth["timezone"], expected, rec.get("written_as"))
            prec = 60 if src["time_style"] in PRECISION and not rec.get("written_as") else 1
            assert expected - prec - 0.01 <= got <= expected + 0.01, (
                f"seed {seed}: {key} written {rec['written']} reads {got}, expected {expected} ({src['time_style']})"
            )


def _recompute(truth: dict) -> dict:
    """The headline metrics from truth's events and entities alone, by the documented definitions."""
    ev = {k: v for k, v in truth["events"].items() if v["related"]}
    ent = truth["entities"]
    t = {k: _epoch(v["time"]) for k, v in ev.items()}
    bursts = [k for k, v in ev.items() if v["kind"] == "shots_fired"]
    first = min(t[k] for k in bursts)
    last = max(ev[k]["burst_end_epoch"] for k in bursts)
    arrivals = {v["unit"]: t[k] for k, v in ev.items() if v["kind"] == "unit_arrived"}
    entries = [(t[k], v["units"]) for k, v in ev.items() if v["kind"] == "entry" and v["units"]]
    entered = {}
    for when, units in sorted(entries):
        for u in units:
            entered.setdefault(u, when)
    threat = [t[k] for k, v in ev.items() if v["kind"] == "threat_ended"]
    assert len(threat) == 1
    armed = sorted(when for u, when in arrivals.items() if ent[u]["armed"])
    first_entry = min(w for w, _ in entries)
    out = {
        "first_shot": first,
        "last_shot": last,
        "first_911_call": min(t[k] for k, v in ev.items() if v["kind"] == "call_received" and v.get("leg") == 1),
        "first_dispatch": min(
            t[k]
            for k, v in ev.items()
            if v["kind"] == "unit_dispatched" and t[k] >= first and v.get("call") != "fire alarm"
        ),
        "first_armed_unit_on_scene": armed[0],
        "first_entry": first_entry,
        "threat_ended": threat[0],
        "first_shot_to_first_entry_s": first_entry - first,
        "first_armed_arrival_to_entry_s": first_entry - armed[0],
    }
    detail, counts = {}, {}
    for u, when in arrivals.items():
        cad = ent[u]["cad_id"]
        detail[f"arrived:{cad}"] = when
        if ent[u]["armed"]:
            end = entered.get(u, threat[0])
            detail[f"outside_while_shots_s:{cad}"] = max(0.0, min(end, last) - max(when, first))
        a = ent[u]["agency"]
        counts[f"units_on_scene:{a}"] = counts.get(f"units_on_scene:{a}", 0) + 1
        counts.setdefault(f"units_entered:{a}", 0)
        counts[f"units_entered:{a}"] += u in entered
    rings, answers2 = {}, {}
    for k, v in ev.items():
        if v["kind"] == "call_received" and v.get("leg") == 1:
            rings[v["call"]] = (t[k], v["caller"])
        if v["kind"] == "call_answered" and v.get("leg") == 2:
            answers2[v["call"]] = t[k]
    delays = {rings[c][1]: a - rings[c][0] for c, a in answers2.items() if rings[c][0] >= first}
    for caller, dl in delays.items():
        detail[f"transfer_delay_s:{caller}"] = dl
    if delays:
        out["mean_transfer_delay_s"] = sum(delays.values()) / len(delays)
    cam = truth.get("camera") or {}
    if cam.get("monitor_source"):
        lags = [_epoch(v["shown_at"]) - _epoch(v["footage_of"]) for v in cam["views"]]
        assert max(lags) - min(lags) < 0.01
        out["camera_live_lag_s"] = lags[0]
    return {"scored": out, "scored_detail": detail, "scored_counts": counts}


def test_truth_metrics_follow_from_true_events(cases):
    for seed, (_, truth) in cases.items():
        got = _recompute(truth)
        m = truth["metrics"]
        assert set(got["scored"]) == set(m["scored"]), seed
        for k, v in got["scored"].items():
            assert m["scored"][k] == pytest.approx(v, abs=0.02), (seed, k)
        assert set(got["scored_detail"]) == set(m["scored_detail"]), seed
        for k, v in got["scored_detail"].items():
            assert m["scored_detail"][k] == pytest.approx(v, abs=0.02), (seed, k)
        assert got["scored_counts"] == m["scored_counts"], seed


def test_every_case_holds_the_hard_parts(cases):
    qualities = set()
    for seed, (_, truth) in cases.items():
        m = truth["metrics"]
        outside = [v for k, v in m["scored_detail"].items() if k.startswith("outside_while_shots_s:")]
        assert max(outside) >= 20, f"seed {seed}: no armed unit held outside while shots were fired"
        assert any(k.startswith("transfer_delay_s:") for k in m["scored_detail"]), seed
        assert m["scored"]["first_entry"] > m["scored"]["first_armed_unit_on_scene"], seed
        assert len(truth["world"]["agencies"]) in (3, 4, 5), seed
        for src in truth["sources"].values():
            if src["clock_quality"]:
                qualities.add(src["clock_quality"])
        timed = [s for s in truth["sources"].values() if s["clock_offset_s"] is not None]
        assert any(abs(s["clock_offset_s"]) >= 20 for s in timed), seed
        for uid, u in m["units"].items():
            if u["arrived"] is not None:
                assert u["arrival_recorded_by"], f"seed {seed}: arrival of {u['cad_id']} recorded nowhere"
    assert {"gps", "ntp", "small", "medium", "large"} <= qualities


def test_manifest_lists_every_export_with_its_dictionary(cases):
    for seed, (d, truth) in cases.items():
        manifest = json.loads((d / "manifest.json").read_text())
        files = {str(p.relative_to(d)) for p in (d / "exports").rglob("*") if p.is_file()}
        assert {e["path"] for e in manifest["exports"]} == files, seed
        for e in manifest["exports"]:
            doc = (d / e["data_dictionary"]).read_text()
            assert f"agency code: {e['agency']}" in doc
            assert e["time_zone"]
            assert e["file"] in truth["sources"]


def test_truth_shape_matches_the_documented_schema(cases):
    for _, truth in cases.values():
        assert truth["schema"] == "onrecord-scenario-truth/1"
        assert truth["generator"] == "independent/1"
        for key in (
            "seed",
            "timezone",
            "world",
            "sources",
            "incident",
            "metrics",
            "entities",
            "events",
            "records",
            "mentions",
        ):
            assert key in truth
        for src in truth["sources"].values():
            assert src["rid_attribute"] == "rid"
            assert (src["clock_offset_s"] is None) == (src["kind"] == "roster")
