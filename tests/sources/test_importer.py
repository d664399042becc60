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


PACKED_MAPPING = """
[mapping]
name = "harrow-packed"
source_kind = "cad"
timezone = "UTC"
date = "2026-05-02"

[fields]
call = "Call"

[[events]]
kind = "unit_dispatched"
split = { column = "Units", by = ";", into = ["Unit", "At"], sep = "@" }
time = "At"
format = "%H:%M:%S"
unit = "Unit"
"""

PACKED_ROWS = "Call,Units\nH-7,E12@14:03:22;M7@14:05:10\nH-8,L3@14:21:00\n"


def test_each_event_of_a_packed_row_cites_that_row_and_a_second_import_changes_nothing(case_dir, cli, tmp_path):
    from sqlalchemy import select

    from onrecord.store.case import open_case
    from onrecord.store.schema import events, raw_records

    (tmp_path / "m.toml").write_text(PACKED_MAPPING, encoding="utf-8")
    (tmp_path / "harrow.csv").write_text(PACKED_ROWS, encoding="utf-8")
    code, out, err = cli("import", case_dir, tmp_path / "harrow.csv", "--mapping", tmp_path / "m.toml")
    assert code == 0, err
    case = open_case(case_dir)
    with case.engine.connect() as conn:
        rows = conn.execute(select(events.c.unit, raw_records.c.ordinal, raw_records.c.raw)
                            .join(raw_records, events.c.raw_record_id == raw_records.c.id)
                            .where(events.c.case_id == case.id).order_by(events.c.id)).all()
    case.engine.dispose()
    assert [(r.unit, r.ordinal) for r in rows] == [("E12", 2), ("M7", 2), ("L3", 3)]
    assert rows[0].raw == rows[1].raw == b"H-7,E12@14:03:22;M7@14:05:10\n"
    before = store_state(case_dir)
    assert cli("import", case_dir, tmp_path / "harrow.csv", "--mapping", tmp_path / "m.toml")[0] == 0
    assert store_state(case_dir) == before


def test_rows_left_out_are_counted_and_kept_as_raw_records(case_dir, cli, tmp_path):
    mapping = PACKED_MAPPING + '\n[rows]\nunless = { column = "Call", matches = "^#" }\n'
    (tmp_path / "m.toml").write_text(mapping, encoding="utf-8")
    (tmp_path / "h.csv").write_text(PACKED_ROWS + "# [bold]note[/bold],\n", encoding="utf-8")
    code, out, err = cli("import", case_dir, tmp_path / "h.csv", "--mapping", tmp_path / "m.toml")
    assert code == 0, err
    assert "4 records, 3 events" in out and "1 rows left out" in out
    assert store_state(case_dir)["raw"] == 4
