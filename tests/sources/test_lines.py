"""Record boundaries: where each CSV record starts, by the field parser's own quoting rules."""

from __future__ import annotations

import csv
import io
import random

import pyarrow as pa
import pyarrow.csv as pcsv
import pytest

from onrecord.sources.lines import non_blank, split_records


def csv_module_starts(data: bytes) -> list[int]:
    """An independent reader: Python's csv module, counting the lines each row consumed."""
    reader = csv.reader(iter(data.decode().splitlines(keepends=True)))
    starts, consumed = [], 0
    for _ in reader:
        starts.append(consumed + 1)
        consumed = reader.line_num
    return starts


@pytest.mark.parametrize("data, starts", [
    (b'a,b\n1,"x\ny"\n2,z\n', [1, 2, 4]),
    (b"a,b\n1,SUSPECT 6'2\" TALL\n2,z\n", [1, 2, 3]),  # a bare quote inside an unquoted field
    # the record: a bare quote on each physical line around a multi-line quoted field
    (b"a,b,c\n1,6'2\",\"LEFT\nREAR\"\n2,5'9\",x\n3,y,z\n", [1, 2, 4, 5]),
    (b'a,b\n1,"he said ""hi""\nthen left"\n2,z\n', [1, 2, 4]),  # doubled quotes across a line end
    (b'a,b\r\n1,"x\r\ny"\r\n2,z\r\n', [1, 2, 4]),
    (b'a,b\n1,"ab"cd"ef\n2,z\n', [1, 2, 3]),  # text after a closing quote stays in the field
    (b'a,b\n1,"x""\n""y"\n2,z\n', [1, 2, 4]),
    (b'a,b\n1, "x\n2,z\n', [1, 2, 3]),  # a space before the quote: the field is not quoted
])
def test_records_start_where_the_csv_rules_say(data, starts):
    records = split_records(data)
    assert records.ordinals == starts
    assert b"".join(records.raws) == data
    assert records.unclosed is None
    assert csv_module_starts(data) == starts


def test_an_unclosed_quote_is_one_record_to_the_end_and_is_marked():
    data = b'a,b\n1,"never closed\n2,z\n3,w\n'
    records = split_records(data)
    assert records.ordinals == [1, 2]
    assert records.unclosed == 1 and records.last_line(1) == 4


def test_random_quoting_agrees_with_two_other_parsers():
    """Thousands of generated records: the splitter, Python's csv and pyarrow (which reads
    the fields on import) agree on every boundary and every field."""
    rng = random.Random(14)
    pieces = [b"a", b",", b'"', b"\n", b" ", b'""', b"\r\n", b"'"]
    compared = 0
    for _ in range(3000):
        data = b"h1,h2\n" + b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))) + b"\n"
        records = split_records(data)
        if records.unclosed is not None:
            continue
        assert records.ordinals == csv_module_starts(data), data
        rows = [r for r in csv.reader(io.StringIO(data.decode(), newline="")) if r]
        if len({len(r) for r in rows}) != 1:
            continue
        body = b"".join(records.raws[i] for i in non_blank(records.raws))
        names = [f"c{i}" for i in range(len(rows[0]))]
        table = pcsv.read_csv(io.BytesIO(body), read_options=pcsv.ReadOptions(column_names=names),
                              parse_options=pcsv.ParseOptions(newlines_in_values=True),
                              convert_options=pcsv.ConvertOptions(column_types={n: pa.string() for n in names}))
        assert table.num_rows == len(non_blank(records.raws)), data
        assert [["" if v is None else v for v in row.values()] for row in table.to_pylist()] == rows, data
        compared += 1
    assert compared > 100
