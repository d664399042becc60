"""`onrecord import` on good and bad input, on SQLite and PostgreSQL: all or nothing."""

from __future__ import annotations

import csv

import pytest

from tests.helpers import CAD_ROWS, store_state, write_cad


def test_import_writes_records_events_and_says_so(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    code, out, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 0, err
    assert "4 records, 7 events" in out
    state = store_state(case_dir)
    assert (state["sources"], state["raw"], state["events"], state["records"]) == (1, 4, 7, 4)


def test_same_file_twice_changes_nothing_and_says_so(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    cli("import", case_dir, data, "--mapping", mapping)
    before = store_state(case_dir)
    copy = tmp_path / "in" / "renamed.csv"
    copy.write_bytes(data.read_bytes())
    code, out, _ = cli("import", case_dir, copy, "--mapping", mapping)
    assert code == 0 and "already imported as source" in out and "nothing changed" in out
    assert store_state(case_dir) == before


def test_unreadable_time_stops_the_import_naming_file_line_column_value(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in", CAD_ROWS.replace("03/14/2026 10:03:30", "14.03.2026 10:03"))
    before = store_state(case_dir)
    code, _, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 2
    assert "eastvale.csv, line 4, field 'Dispatched'" in err and "'14.03.2026 10:03'" in err
    assert err.count("\n") == 1  # one sentence, no traceback
    assert store_state(case_dir) == before


def test_skip_bad_rows_writes_good_rows_and_reports_the_rest(case_dir, cli, tmp_path):
    rows = CAD_ROWS.replace("03/14/2026 10:03:30", "soon").replace("C-1001,S14", "C-1001,")
    data, mapping = write_cad(tmp_path / "in", rows)
    code, out, err = cli("import", case_dir, data, "--mapping", mapping, "--skip-bad-rows")
    assert code == 0, err
    assert "2 rows rejected" in out and "line 3" in out and "line 4" in out
    report = next(case_dir.glob("import-rejects-*.csv"))
    listed = list(csv.DictReader(report.open(encoding="utf-8")))
    assert [(r["line"], r["column"], r["value"]) for r in listed] == [("3", "Unit", ""), ("4", "Dispatched", "soon")]
    state = store_state(case_dir)
    # every line is still kept as a raw record; only the good row makes events
    assert (state["raw"], state["events"]) == (4, 3)
    assert cli("verify", case_dir)[0] == 0


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda d: d / "missing.csv", "no such file"),
        (lambda d: d, "is a folder"),
        (lambda d: _write(d / "empty.csv", b""), "the file is empty"),
        (lambda d: _write(d / "blank.csv", b"\n  \n"), "the file is empty"),
        (lambda d: _write(d / "latin.csv", CAD_ROWS.replace("Larkspur", "Peñasco").encode("latin-1")),
         "line 2: byte 0xf1 cannot be read as utf-8"),
        (lambda d: _write(d / "other.csv", b"Call,Unit\n1,A\n"), "line 1: the header does not match"),
    ],
    ids=["missing", "folder", "empty", "blank-lines-only", "wrong-encoding", "header-mismatch"],
)
def test_bad_files_are_refused_with_one_message_and_nothing_written(case_dir, cli, tmp_path, make, expected):
    _, mapping = write_cad(tmp_path / "in")
    target = make(tmp_path / "in")
    before = store_state(case_dir)
    code, _, err = cli("import", case_dir, target, "--mapping", mapping)
    assert code == 2 and expected in err, err
    assert store_state(case_dir) == before


def test_unknown_mapping_name_lists_the_bundled_ones(case_dir, cli, tmp_path):
    data, _ = write_cad(tmp_path / "in")
    code, _, err = cli("import", case_dir, data, "--mapping", "no-such-agency")
    assert code == 2 and "unknown mapping 'no-such-agency'" in err and "sf-fire" in err


def test_mapping_with_a_wrong_key_names_file_and_key(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    mapping.write_text(mapping.read_text().replace('kind = "unit_arrived"', 'kind = "unit_landed"'))
    code, _, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 2 and "eastvale-cad.toml, field 'events[3].kind'" in err and "unit_landed" in err


def test_unknown_zone_on_the_command_line(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    code, _, err = cli("import", case_dir, data, "--mapping", mapping, "--tz", "Mars/Olympus")
    assert code == 2 and "Mars/Olympus" in err


def test_import_into_a_folder_that_is_not_a_case(cli, tmp_path, backend):
    data, mapping = write_cad(tmp_path / "in")
    code, _, err = cli("import", tmp_path / "nocase", data, "--mapping", mapping)
    assert code == 2 and "not a case folder" in err


def _write(path, data: bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
