"""`onrecord remove-source`: a source imported by mistake is withdrawn as a recorded act —
a tombstone on the chain, its events out of every view, its findings out at the next
build — and `verify` still passes; views say the build is older than the events."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from onrecord.store.case import open_case
from onrecord.store.reader import open_reader
from onrecord.store.schema import raw_records, sources
from tests.helpers import CAD_ROWS, store_state, write_cad


def _two_sources_built(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    data2, _ = write_cad(tmp_path / "in2", CAD_ROWS.replace("C-10", "C-20"), "second.csv")
    for args in (("import", case_dir, data, "--mapping", mapping), ("import", case_dir, data2, "--mapping", mapping),
                 ("build", case_dir)):
        code, _, err = cli(*args)
        assert code == 0, err


def _source_id(case_dir, name: str) -> int:
    return next(s["id"] for s in open_reader(case_dir).sources() if s["file_name"] == name)


def _files_in_timeline(cli, case_dir) -> set[str]:
    code, out, _ = cli("timeline", case_dir, "--json")
    assert code == 0
    return {e["source"]["file"] for e in json.loads(out)["events"]}


def test_a_removed_source_leaves_a_tombstone_and_verify_passes(case_dir, cli, tmp_path):
    _two_sources_built(case_dir, cli, tmp_path)
    before = store_state(case_dir)
    assert _files_in_timeline(cli, case_dir) == {"eastvale.csv", "second.csv"}
    code, out, err = cli("remove-source", case_dir, "second.csv", "--reason", "exported from the wrong incident")
    assert code == 0, err
    assert f"removed source {_source_id(case_dir, 'second.csv')} (second.csv): 7 events withdrawn" in out
    assert "chain head" in out
    after = store_state(case_dir)
    # nothing on the chain is deleted: the tombstone is one more record after the last
    assert after["records"] == before["records"] + 1 and after["raw"] == before["raw"] + 1
    assert after["events"] == before["events"] - 7
    case = open_case(case_dir)
    with case.engine.connect() as conn:
        stone = conn.execute(select(raw_records.c.raw).where(raw_records.c.seq == after["records"],
                                                             raw_records.c.case_id == case.id)).scalar()
        src = conn.execute(select(sources).where(sources.c.file_name == "second.csv",
                                                 sources.c.case_id == case.id)).one()
    case.engine.dispose()
    said = json.loads(bytes(stone))["onrecord_removal"]
    assert said["file_name"] == "second.csv" and said["reason"] == "exported from the wrong incident"
    assert src.withdrawn_reason == "exported from the wrong incident" and src.event_count == 0
    assert _files_in_timeline(cli, case_dir) == {"eastvale.csv"}
    code, out, err = cli("verify", case_dir)
    assert code == 0, err
    assert "matches 5 signed receipts" in out  # init, two imports, the build, the removal
    # the findings are the old build's until a rebuild, and every view says so
    code, _, err = cli("metrics", case_dir)
    assert code == 0 and "out of date" in err
    assert open_reader(case_dir).stale_build()
    assert cli("build", case_dir)[0] == 0
    assert open_reader(case_dir).stale_build() is None
    code, _, err = cli("metrics", case_dir)
    assert "out of date" not in err
    code, out, err = cli("verify", case_dir)
    assert code == 0, err


def test_a_removal_undone_by_hand_is_found(case_dir, cli, tmp_path):
    _two_sources_built(case_dir, cli, tmp_path)
    sid = _source_id(case_dir, "second.csv")
    assert cli("remove-source", case_dir, str(sid), "--reason", "duplicate")[0] == 0  # by its id
    case = open_case(case_dir)
    with case.engine.begin() as conn:
        conn.execute(update(sources).where(sources.c.id == sid).values(withdrawn_at=None))
    case.engine.dispose()
    code, _, err = cli("verify", case_dir)
    assert code == 1 and f"source {sid} (second.csv) was removed (receipt #5 (removal" in err
    assert "but the store holds it as not withdrawn" in err


def test_removal_refusals_change_nothing(case_dir, cli, tmp_path):
    _two_sources_built(case_dir, cli, tmp_path)
    before = store_state(case_dir)
    code, _, err = cli("remove-source", case_dir, "nosuch.csv", "--reason", "x")
    ids = _source_id(case_dir, "eastvale.csv"), _source_id(case_dir, "second.csv")
    assert code == 2 and "no source 'nosuch.csv'" in err and f"{ids[0]}: eastvale.csv, {ids[1]}: second.csv" in err
    code, _, err = cli("remove-source", case_dir, "second.csv", "--reason", "  ")
    assert code == 2 and "--reason is required" in err
    assert store_state(case_dir) == before
    assert cli("remove-source", case_dir, "second.csv", "--reason", "wrong call")[0] == 0
    code, _, err = cli("remove-source", case_dir, "second.csv", "--reason", "again")
    assert code == 2 and "already removed" in err


def test_a_withdrawn_file_can_be_imported_again_and_verify_tells_the_two_apart(case_dir, cli, tmp_path):
    """remove-source is how an import that went wrong is redone: the withdrawn source stays
    (records, hash, tombstone) and the same bytes come in again as a new source."""
    _two_sources_built(case_dir, cli, tmp_path)
    old = _source_id(case_dir, "second.csv")
    assert cli("remove-source", case_dir, "second.csv", "--reason", "mapped with the wrong zone")[0] == 0
    data2, mapping = tmp_path / "in2" / "second.csv", tmp_path / "in" / "eastvale-cad.toml"
    before = store_state(case_dir)
    code, out, err = cli("import", case_dir, data2, "--mapping", mapping)
    assert code == 0 and "already imported" not in out, err
    after = store_state(case_dir)
    assert after["events"] == before["events"] + 7 and after["records"] > before["records"]
    named = [s for s in open_reader(case_dir).sources() if s["file_name"] == "second.csv"]
    assert len(named) == 2 and {s["id"] == old for s in named} == {True, False}
    assert [s["withdrawn_at"] is None for s in sorted(named, key=lambda s: s["id"])] == [False, True]
    assert cli("build", case_dir)[0] == 0
    assert _files_in_timeline(cli, case_dir) == {"eastvale.csv", "second.csv"}
    code, out, err = cli("verify", case_dir)
    assert code == 0, err
    # the bytes in force are imported once: a third import changes nothing
    code, out, _ = cli("import", case_dir, data2, "--mapping", mapping)
    assert code == 0 and "already imported as source" in out and store_state(case_dir) == after
    # the file's name now means the import in force
    assert cli("remove-source", case_dir, "second.csv", "--reason", "again wrong")[0] == 0
    assert _files_in_timeline(cli, case_dir) == {"eastvale.csv"}
    assert cli("verify", case_dir)[0] == 0


def test_an_import_after_the_build_makes_every_view_say_so(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    assert cli("build", case_dir)[0] == 0
    reader = open_reader(case_dir)
    built_version = reader.version()
    assert reader.stale_build() is None
    data2, _ = write_cad(tmp_path / "in2", CAD_ROWS.replace("C-10", "C-20"), "second.csv")
    assert cli("import", case_dir, data2, "--mapping", mapping)[0] == 0
    assert open_reader(case_dir).stale_build().startswith("the events changed after the last build")
    for view in (("timeline", case_dir), ("metrics", case_dir), ("discrepancies", case_dir)):
        code, _, err = cli(*view)
        assert code == 0 and "note: out of date: the events changed after the last build" in err, view
    # a rebuild on the same records changes the version web caches are keyed on
    assert cli("build", case_dir)[0] == 0
    again = open_reader(case_dir).version()
    assert again != built_version
    assert cli("build", case_dir)[0] == 0
    assert open_reader(case_dir).version() != again


def test_a_running_server_says_the_build_is_out_of_date_and_shows_the_withdrawal(case_dir, cli, tmp_path):
    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app
    from tests.views.derived import LOCAL  # a Host name the server answers to

    _two_sources_built(case_dir, cli, tmp_path)
    client = TestClient(create_app(case_dir), base_url=LOCAL)
    assert client.get("/api/cases/current").json()["stale_build_note"] is None
    assert 'id="stale-build"' not in client.get("/sources").text
    events_before = client.get("/api/cases/current").json()["events"]
    # the withdrawal and the rebuild run in processes of their own, as beside a real server: one
    # process holding the file through Python's sqlite3 (the server) and ADBC's SQLite (the
    # writer) would not see its own locks (docs/live.md, "One SQLite library in the live process")
    assert _in_own_process("remove-source", case_dir, "second.csv", "--reason", "wrong incident") == 0
    # the same server, no restart: its caches are keyed on the case's generations
    current = client.get("/api/cases/current").json()
    assert current["stale_build_note"].startswith("the events changed after the last build")
    assert current["events"] == events_before - 7
    assert client.get("/api/findings").json()["stale_build_note"]
    page = client.get("/sources").text
    assert 'id="stale-build"' in page and "Withdrawn" in page and "wrong incident" in page
    withdrawn = [s for s in client.get("/api/sources").json()["sources"] if s["withdrawn_at"]]
    assert [s["file_name"] for s in withdrawn] == ["second.csv"]
    assert _in_own_process("build", case_dir) == 0
    assert client.get("/api/cases/current").json()["stale_build_note"] is None


def _in_own_process(*args) -> int:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "onrecord.cli", *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.returncode


def test_a_file_already_imported_says_how_to_import_it_again_and_that_way_works(case_dir, cli, tmp_path):
    import shlex

    data, mapping = write_cad(tmp_path / "in", name="ICFR ePCR export.csv")  # a name with spaces
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    code, out, _ = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 0 and "already imported as source" in out
    said = next(ln for ln in out.splitlines() if "remove-source" in ln)
    command = shlex.split(said.split("withdraw it first: onrecord ", 1)[1].split(", then import", 1)[0])
    assert command[0] == "remove-source" and command[1] == str(case_dir)
    # the command as printed, with a reason filled in, withdraws it, and the import then takes it
    assert cli(*command[:-1], "mapped with the wrong zone")[0] == 0
    code, out, _ = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 0 and "already imported" not in out and "imported as source" in out
