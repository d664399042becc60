"""A hostile tester's battery: malformed variants of the real CAD exports (built here, at
test time, from ../shared/data/cad/, copied to a temporary folder and mutated), each
imported with and without --skip-bad-rows, on both stores.

For every variant, each run ends one of two ways, never in a traceback:
- imported, and every event cites its true line: an independent reader (Python's csv
  module, counting the lines each row consumed) finds a row starting on that line whose
  bytes are the stored raw record and whose call number is the event's; `verify` passes;
- refused: exit code 2, one line on stderr naming the file (and the line or the mapping
  field where there is one), and the case exactly as it was.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import select

from onrecord.sources.mapping import Mapping, load_mapping
from onrecord.store.case import open_case
from onrecord.store.schema import events, raw_records
from tests.conftest import shared_path
from tests.helpers import store_state

ROWS = 30  # data rows kept from each real export: enough for every shape, quick to import


@dataclass(frozen=True)
class Base:
    mapping: str
    parts: tuple[str, ...]


BASES = {
    "sf": Base("sf-fire", ("sf-fire-calls.csv",)),
    "seattle": Base("seattle-police", ("seattle-police-calls.csv",)),
    "dallas": Base("dallas-police", ("dallas-police-calls.csv",)),
    "reno": Base("reno-cad", ("reno", "CAD100620111108.csv")),
}


class Export:
    """A real export as a header (or none) and rows of fields, written back as CSV."""

    def __init__(self, key: str):
        base = BASES[key]
        self.key, self.mapping = key, load_mapping(base.mapping)
        text = shared_path("data", "cad", *base.parts).read_bytes().decode("utf-8")
        rows = list(csv.reader(text.splitlines()))
        self.header = rows[0] if self.mapping.header else None
        self.rows = [r for r in (rows[1:] if self.header else rows) if r][:ROWS]
        self.names = self.header or list(self.mapping.columns)
        self.rng = random.Random(f"battery-{key}")

    def col(self, name: str) -> int:
        return self.names.index(name)

    def timed(self):
        """The event of the mapping whose time is most precise, its columns and format."""
        spec = max(self.mapping.events, key=lambda e: ("%S" in (e.format or "")) + 2 * (e.format == "iso"))
        return spec.time, spec.format

    def write_time(self, row: list[str], moment: datetime) -> None:
        columns, fmt = self.timed()
        text = moment.isoformat(timespec="milliseconds") if fmt == "iso" else moment.strftime(fmt)
        for column, part in zip(columns, text.split(" ") if len(columns) > 1 else [text]):
            row[self.col(column)] = part

    def text_column(self) -> int:
        """A column the event's text is read from (the first of a template's)."""
        return self.col(self.mapping.fields["text"].columns()[0])

    def call_column(self) -> int:
        return self.col(self.mapping.fields["call"].column)

    def data(self, rows=None, header=None, end: bytes = b"\n") -> bytes:
        header = self.header if header is None else header
        lines = ([header] if header else []) + (self.rows if rows is None else rows)
        return end.join(line(r).encode("utf-8") for r in lines) + end


def line(fields: list[str]) -> str:
    """Fields joined as an exporter would: quoted only where the value needs it. A field
    marked raw (a RawField) is written as it is, however odd."""
    out = []
    for f in fields:
        if isinstance(f, RawField) or not any(c in f for c in ',"\r\n'):
            out.append(str(f))
        else:
            out.append('"' + f.replace('"', '""') + '"')
    return ",".join(out)


class RawField(str):
    pass


# ---- the mutations: each takes an Export and returns the file's bytes (None: not for this export)

def _rows(e: Export) -> list[list[str]]:
    return [list(r) for r in e.rows]


def _one(e: Export, change, at: int | None = None) -> bytes:
    rows = _rows(e)
    change(rows[ROWS // 2 if at is None else at])
    return e.data(rows)


def bare_quote(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), RawField("SUSPECT 6'2\" TALL")))


def bare_quote_every_row(e):
    rows = _rows(e)
    for r in rows:
        r[e.text_column()] = RawField(f"HEIGHT {e.rng.randint(4, 6)}'{e.rng.randint(0, 11)}\"")
    return e.data(rows)


def multi_line_field(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "FIRST LINE\nSECOND LINE\nTHIRD"))


def issue_record(e):
    """The issue's record: a bare quote on the lines around a multi-line quoted field."""
    rows = _rows(e)
    i, t = ROWS // 2, e.text_column()
    rows[i - 1][t] = RawField("SUSPECT 6'2\"")
    rows[i][t] = "ENTRY AT FRONT\nREAR"
    rows[i + 1][t] = RawField("WITNESS 5'9\"")
    return e.data(rows)


def doubled_quotes(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), 'CALLER SAID "HELP"\nTHEN "HANG UP"'))


def crlf(e):
    return e.data(end=b"\r\n")


def cr_only(e):
    return e.data(end=b"\r")


def mixed_line_ends(e):
    return b"".join(line(r).encode() + (b"\r\n", b"\n", b"\r")[i % 3] for i, r in
                    enumerate(([e.header] if e.header else []) + e.rows))


def crlf_inside_quotes(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "ONE\r\nTWO"))


def unterminated_quote_mid(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), RawField('"NEVER CLOSED')))


def unterminated_quote_last(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), RawField('"NEVER CLOSED')), at=ROWS - 1)


def truncated_mid_row(e):
    data = e.data()
    return data[: data.rstrip(b"\n").rfind(b"\n") + 1 + len(line(e.rows[-1])) // 2]


def truncated_in_quotes(e):
    return e.data()[:-1] + b',"CUT OFF'


def no_final_newline(e):
    return e.data().rstrip(b"\n")


def blank_lines(e):
    return e.data().replace(b"\n", b"\n\n", 5)


def whitespace_line(e):
    data = e.data()
    cut = data.find(b"\n", len(data) // 2) + 1
    return data[:cut] + b"   \t \n" + data[cut:]


def extra_field(e):
    return _one(e, lambda r: r.append("EXTRA"))


def missing_field(e):
    return _one(e, lambda r: r.pop())


def extra_field_every_row(e):
    rows = _rows(e)
    for r in rows:
        r.append("EXTRA")
    return e.data(rows)


def text_after_closing_quote(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), RawField('"QUOTED" THEN MORE')))


def bom(e):
    return b"\xef\xbb\xbf" + e.data()


def _moment(e: Export, moment: datetime, replace: tuple[str, str] | None = None):
    def change(r):
        e.write_time(r, moment)
        if replace:
            columns, _ = e.timed()
            for c in columns:
                r[e.col(c)] = r[e.col(c)].replace(*replace, 1)
    return lambda: _one(e, change)


def feb_30(e):
    return _moment(e, datetime(2019, 2, 28, 10, 0, 0), ("28", "30"))()


def apr_31(e):
    return _moment(e, datetime(2019, 4, 30, 10, 0, 0), ("30", "31"))()


def year_0000(e):
    return _moment(e, datetime(2019, 5, 14, 10, 0, 0), ("2019", "0000"))()


def year_9999(e):
    return _moment(e, datetime(2019, 5, 14, 10, 0, 0), ("2019", "9999"))()


def dst_gap(e):
    return _moment(e, datetime(2019, 3, 10, 2, 30, 0))()  # skipped in every US zone


def dst_overlap(e):
    return _moment(e, datetime(2019, 11, 3, 1, 30, 0))()  # lived twice: read as the earlier, noted


def garbage_time(e):
    columns, _ = e.timed()
    return _one(e, lambda r: r.__setitem__(e.col(columns[0]), "SOON"))


def time_trailing_junk(e):
    columns, _ = e.timed()
    return _one(e, lambda r: r.__setitem__(e.col(columns[-1]), r[e.col(columns[-1])] + "Z9"))


def _coordinate(name: str, value_lat: str, value_lon: str):
    def mutate(e):
        if "lat" not in e.mapping.fields:
            return None
        spec = e.mapping.fields["lat"]
        if spec.pick:
            return _one(e, lambda r: r.__setitem__(e.col(spec.column), f"({value_lat}, {value_lon})"))
        return _one(e, lambda r: (r.__setitem__(e.col(spec.column), value_lat),
                                  r.__setitem__(e.col(e.mapping.fields["lon"].column), value_lon)))
    mutate.__name__ = name
    return mutate


lat_999 = _coordinate("lat_999", "999", "-122.3")
lon_nan = _coordinate("lon_nan", "47.6", "NaN")
lon_181 = _coordinate("lon_181", "47.6", "-181")


def nul_in_text(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "FIRE\x00ALARM"))


def nul_in_unread_column(e):
    used = set(e.mapping.columns_used())
    unread = [i for i, n in enumerate(e.names) if n not in used]
    if not unread:
        return None
    return _one(e, lambda r: r.__setitem__(unread[0], "X\x00Y"))


def long_call_and_unit(e):
    return _one(e, lambda r: r.__setitem__(e.call_column(), "C" * 200))


def long_text(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "NARRATIVE " * 2000))


def duplicate_header(e):
    if not e.header:
        return None
    header = list(e.header)
    header[-1] = header[e.call_column()]
    return e.data(header=header)


def header_lacks_column(e):
    if not e.header:
        return None
    header = list(e.header)
    header[e.call_column()] = "Renamed"
    return e.data(header=header)


def empty_file(e):
    return b""


def header_only(e):
    return e.data(rows=[])


def huge_field(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "W" * (9 << 20)))


def huge_header(e):
    if not e.header:
        return None
    return e.data(header=["H" * (50 << 20)] + list(e.header[1:]))


def latin1_byte(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "CAFE")).replace(b"CAFE", b"CAF\xe9")


def blank_required(e):
    return _one(e, lambda r: r.__setitem__(e.col(e.mapping.required[0]), ""))


def semicolons(e):
    return e.data().replace(b",", b";")


def binary_garbage(e):
    return bytes(random.Random(7).randrange(256) for _ in range(4000))


def only_delimiters(e):
    rows = _rows(e)
    rows.insert(ROWS // 2, [""] * len(e.names))
    return e.data(rows)


def duplicate_row(e):
    rows = _rows(e)
    rows.insert(ROWS // 2, list(rows[ROWS // 2]))
    return e.data(rows)


def header_repeated(e):
    if not e.header:
        return None
    rows = _rows(e)
    rows.insert(ROWS // 2, list(e.header))
    return e.data(rows)


def lone_quote_line(e):
    data = e.data()
    cut = data.find(b"\n", len(data) // 2) + 1
    return data[:cut] + b'"\n' + data[cut:]


def control_characters(e):
    return _one(e, lambda r: r.__setitem__(e.text_column(), "TAB\tBELL\x07ESC\x1b"))


def unicode_line_separators(e):
    """Characters str.splitlines breaks at and bytes.splitlines does not: one record."""
    return _one(e, lambda r: r.__setitem__(e.text_column(), "A\x1eB\x0bC\x0cD\u2028E\x85F"))


def quote_in_call_column(e):
    return _one(e, lambda r: r.__setitem__(e.call_column(), RawField('12"34')))


def many_bad_rows(e):
    rows = _rows(e)
    for r in rows[::3]:
        r.append("EXTRA")
    return e.data(rows)


MUTATIONS = [bare_quote, bare_quote_every_row, multi_line_field, issue_record, doubled_quotes, crlf, cr_only,
             mixed_line_ends, crlf_inside_quotes, unterminated_quote_mid, unterminated_quote_last,
             truncated_mid_row, truncated_in_quotes, no_final_newline, blank_lines, whitespace_line, extra_field,
             missing_field, extra_field_every_row, text_after_closing_quote, bom, feb_30, apr_31, year_0000,
             year_9999, dst_gap, dst_overlap, garbage_time, time_trailing_junk, lat_999, lon_nan, lon_181,
             nul_in_text, nul_in_unread_column, long_call_and_unit, long_text, duplicate_header,
             header_lacks_column, empty_file, header_only, huge_field, huge_header, latin1_byte, blank_required,
             semicolons, binary_garbage, only_delimiters, duplicate_row, header_repeated, lone_quote_line,
             control_characters, unicode_line_separators, quote_in_call_column, many_bad_rows]
# the quoting and boundary cases run on every export; the rest on two, in turn
EVERYWHERE = {bare_quote, issue_record, multi_line_field, unterminated_quote_mid, truncated_mid_row, extra_field,
              feb_30, dst_gap}
# those that need what only some exports have (coordinates, a column no mapping reads)
ONLY = {lat_999: ["seattle", "sf"], lon_nan: ["seattle", "sf"], lon_181: ["seattle", "sf"],
        nul_in_unread_column: ["sf"]}
KEYS = list(BASES)
VARIANTS = [(m.__name__, k) for i, m in enumerate(MUTATIONS)
            for k in (KEYS if m in EVERYWHERE else ONLY.get(m) or [KEYS[i % 4], KEYS[(i + 1) % 4]])]
BY_NAME = {m.__name__: m for m in MUTATIONS}


@cache
def export(key: str) -> Export:
    return Export(key)


def oracle(data: bytes) -> dict[int, tuple[bytes, list[str]]]:
    """Start line -> (the record's bytes, its fields), by Python's csv module: a reader
    written by other people, counting the physical lines each row took."""
    lines = data.splitlines(keepends=True)
    csv.field_size_limit(max(csv.field_size_limit(), len(data) + 1))
    reader = csv.reader(iter([x.decode("utf-8", "replace") for x in lines]))
    rows, consumed = {}, 0
    for fields in reader:
        start = consumed + 1
        consumed = reader.line_num
        rows[start] = (b"".join(lines[start - 1:consumed]), fields)
    return rows


def stored_events(case_dir: Path) -> list[tuple[str | None, int, bytes]]:
    case = open_case(case_dir)
    with case.engine.connect() as conn:
        got = conn.execute(select(events.c.call, raw_records.c.ordinal, raw_records.c.raw).join(
            raw_records, raw_records.c.id == events.c.raw_record_id).where(events.c.case_id == case.id)).all()
    case.engine.dispose()
    return [(c, o, bytes(r)) for c, o, r in got]


def check_refusal(code: int, out: str, err: str, path: Path, mapping: Mapping) -> None:
    assert code == 2, (code, out, err)
    said = err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("error: "), err
    assert "Traceback" not in err and len(said[0]) < 1200, said[0][:2000]
    assert path.name in said[0] or mapping.origin in said[0], said[0]


def check_lines(case_dir: Path, data: bytes, m: Mapping, e: Export) -> int:
    truth = oracle(data.removeprefix(b"\xef\xbb\xbf"))
    call_at = e.call_column()
    stored = stored_events(case_dir)
    for call, ordinal, raw in stored:
        assert ordinal in truth, f"an event cites line {ordinal}, where no record starts"
        raw_true, fields = truth[ordinal]
        assert raw.removeprefix(b"\xef\xbb\xbf") == raw_true, f"line {ordinal}: stored bytes are not that record's"
        assert call == (fields[call_at].strip() or None), f"line {ordinal}: call {call!r} is not {fields[call_at]!r}"
    return len(stored)


@pytest.mark.parametrize("mutation, key", VARIANTS, ids=[f"{m}-{k}" for m, k in VARIANTS])
def test_malformed_variant(mutation, key, case_dir, cli, tmp_path):
    e = export(key)
    data = BY_NAME[mutation](e)
    if data is None:
        pytest.skip(f"{mutation} does not apply to the {key} export (no such column or no header)")
    path = tmp_path / f"{key}-{mutation}.csv"
    path.write_bytes(data)
    m = e.mapping
    outcomes = []
    for skip in (False, True):
        before = store_state(case_dir)
        code, out, err = cli("import", case_dir, path, "--mapping", m.name, *(["--skip-bad-rows"] if skip else []))
        if code == 0:
            assert "Traceback" not in err
            if outcomes == ["refused"]:  # rescued by --skip-bad-rows: the skip is reported, with its line
                assert "rejected" in out and "line " in out, out
            check_lines(case_dir, data, m, e)
            assert cli("verify", case_dir)[0] == 0
            outcomes.append("imported")
        else:
            check_refusal(code, out, err, path, m)
            assert store_state(case_dir) == before, "a refused import changed the case"
            outcomes.append("refused")
    # --skip-bad-rows may rescue a refused file, never refuse one that imported
    assert outcomes != ["imported", "refused"]
    print(f"battery: {mutation} {key}: {' / '.join(outcomes)}")  # the table in -s runs


def test_the_battery_is_large_and_covers_every_export():
    assert len(VARIANTS) >= 50
    assert {k for _, k in VARIANTS} == set(BASES)
