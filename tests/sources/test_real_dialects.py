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
