"""The four real CAD dialects in ../shared/data/cad/ import through the bundled mappings.

Facts checked here were read off the files by hand; no row of them is copied.
"""

from __future__ import annotations

import json

import pytest

from onrecord.sources.csv_file import read_csv
from onrecord.sources.importer import read_file
from onrecord.sources.mapping import load_mapping
from tests.conftest import shared_path
from tests.helpers import store_state


def parse(mapping: str, *path: str):
    file = shared_path("data", "cad", *path)
    return read_csv(read_file(file), load_mapping(mapping), str(file), None, None)


def test_sf_fire_one_row_per_unit():
    p = parse("sf-fire", "sf-fire-calls.csv")
    assert not p.rejects
    ev = p.events.to_pydict()
    calls = {c for c in ev["call"]}
    received = [i for i, k in enumerate(ev["kind"]) if k == "call_received"]
    assert len(received) == len(calls)  # once per call, though each unit has a row
    first = received[0]
    # CallDate is a day: the event spans the whole local day (PST: 08:00Z to 07:59:59.999Z)
    assert ev["t_src_hi"][first] - ev["t_src_lo"][first] == 86_399_999
    avail = ev["kind"].index("unit_available")
    assert ev["unit"][avail] and ev["lat"][avail] and 37 < ev["lat"][avail] < 38 and ev["lon"][avail] < -122
    # the export writes "null" for a unit never made available: no event, no reject
    assert ev["kind"].count("unit_available") == 1000 - 12


def test_seattle_row_per_call_with_blank_arrivals():
    p = parse("seattle-police", "seattle-police-calls.csv")
    assert not p.rejects
    n_calls = p.events["kind"].to_pylist().count("call_received")
    n_arrived = p.events["kind"].to_pylist().count("unit_arrived")
    assert n_calls == 222 and n_arrived == 222 - 36  # 36 calls where no unit arrived
    i = p.events["kind"].to_pylist().index("call_received")
    assert " -> " in p.events["text"].to_pylist()[i] and p.events["time_text"].to_pylist()[i].endswith("M")


def test_dallas_status_decides_the_kind():
    p = parse("dallas-police", "dallas-police-calls.csv")
    assert not p.rejects
    assert set(p.events["kind"].to_pylist()) == {"unit_arrived"}  # every row of this export is "At Scene"
    assert all(hi - lo == 59_999 for lo, hi in zip(p.events["t_src_lo"].to_pylist(), p.events["t_src_hi"].to_pylist()))
    assert all(json.loads(a)["status"] == "At Scene" for a in p.events["attrs"].to_pylist())


@pytest.mark.parametrize("name, rows", [("CAD100620111108.csv", 77), ("CAD100620111120.csv", 79),
                                        ("CAD100620111152.csv", 61)])
def test_reno_headerless(name, rows):
    p = parse("reno-cad", "reno", name)
    assert not p.rejects
    assert len(p.records.raws) == rows and p.events["kind"].to_pylist().count("call_received") == rows
    assert "Reno Police Department" in p.events["agency"].to_pylist()
    assert "Washoe County Sheriff's Office" in p.events["agency"].to_pylist()


def test_all_four_dialects_into_one_case_and_verify(case_dir, cli):
    for mapping, parts in [("sf-fire", ["sf-fire-calls.csv"]), ("seattle-police", ["seattle-police-calls.csv"]),
                           ("dallas-police", ["dallas-police-calls.csv"])]:
        code, _, err = cli("import", case_dir, shared_path("data", "cad", *parts), "--mapping", mapping)
        assert code == 0, err
    reno = sorted(shared_path("data", "cad", "reno").glob("CAD*.csv"))
    assert cli("import", case_dir, *reno, "--mapping", "reno-cad")[0] == 0
    state = store_state(case_dir)
    assert state["sources"] == 6
    assert state["raw"] == 1001 + 223 + 64 + 77 + 79 + 61
    code, out, _ = cli("verify", case_dir)
    assert code == 0 and "6 sources" in out


# ---- the mapping language on real exports: each new feature against the same file read
# another way (expectations are counted from the file with the csv module, not copied).

def rows_of(*path: str, header: bool = True) -> list[dict] | list[list]:
    import csv

    with shared_path("data", "cad", *path).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh)) if header else list(csv.reader(fh))


def read_with(text: str, *path: str):
    from onrecord.sources.mapping import parse_mapping

    file = shared_path("data", "cad", *path)
    return read_csv(read_file(file), parse_mapping(text, "test.toml"), str(file), None, None)


def test_dallas_fraction_of_a_second_with_f_reads_as_iso_does():
    text = load_mapping("dallas-police").raw_text.replace('format = "iso"', 'format = "%Y-%m-%dT%H:%M:%S.%f"')
    with_f = read_with(text, "dallas-police-calls.csv")
    iso = parse("dallas-police", "dallas-police-calls.csv")
    assert not with_f.rejects and with_f.event_count == iso.event_count > 0
    assert with_f.events["t_src_lo"].to_pylist() == iso.events["t_src_lo"].to_pylist()


def test_seattle_rows_filtered_by_call_type_and_arrival():
    base = load_mapping("seattle-police").raw_text
    rows = rows_of("seattle-police-calls.csv")
    text = base + ('\n[rows]\nwhen = [{ column = "Call Type", in = ["911"] }, '
                   '{ column = "Arrived Time", blank = false }]\n')
    p = read_with(text, "seattle-police-calls.csv")
    wanted = [r for r in rows if r["Call Type"].strip() == "911" and r["Arrived Time"].strip()]
    assert 0 < len(wanted) < len(rows)
    assert not p.rejects and p.left_out == len(rows) - len(wanted)
    kinds = p.events["kind"].to_pylist()
    assert kinds.count("call_received") == kinds.count("unit_arrived") == len(wanted)
    assert set(p.events["call"].to_pylist()) == {r["CAD Event Number"] for r in wanted}


def test_seattle_an_event_block_of_its_own_call_type_by_pattern():
    rows = rows_of("seattle-police-calls.csv")
    text = load_mapping("seattle-police").raw_text.replace(
        'kind = "unit_arrived"',
        'kind = "unit_arrived"\nwhen = { column = "Final Call Type", matches = "(?i)suspicious" }')
    p = read_with(text, "seattle-police-calls.csv")
    wanted = [r for r in rows if "suspicious" in r["Final Call Type"].lower() and r["Arrived Time"].strip()]
    assert 0 < len(wanted) and p.events["kind"].to_pylist().count("unit_arrived") == len(wanted)


def test_reno_one_agency_and_a_default_for_the_blank_report_number():
    rows = rows_of("reno", "CAD100620111108.csv", header=False)
    text = load_mapping("reno-cad").raw_text.replace(
        "[fields]", '[rows]\nunless = { column = "agency_code", equals = "RP" }\n\n'
        '[defaults]\nreport_number = "none"\n\n[fields]')
    p = read_with(text, "reno", "CAD100620111108.csv")
    kept = [r for r in rows if r[4].strip() != "RP"]
    assert 0 < len(kept) < len(rows) and p.event_count == len(kept) and not p.rejects
    reports = [json.loads(a)["report_number"] for a in p.events["attrs"].to_pylist()]
    assert reports.count("none") == sum(1 for r in kept if not r[8].strip()) > 0
