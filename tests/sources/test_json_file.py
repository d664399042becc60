"""JSON documents and NDJSON streams through a mapping: records by path, fields by relative paths,
every record the exact bytes of its value, cited by line and JSON Pointer."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from onrecord.errors import InputError
from onrecord.sources.json_file import read_json, read_ndjson
from onrecord.sources.mapping import parse_mapping

MAPPING = """
[mapping]
name = "northfield-json"
source_kind = "cad"
agency = "NFPD"
timezone = "UTC"

[file]
format = "{fmt}"
{records}

[fields]
call = "id"
unit = "unit.name"
place = {{ template = "{{where.street}}, {{where.town}}" }}

[attributes]
priority = "priority"

[[events]]
kind = "call_received"
time = "times.received"
format = "iso"
unit = false

[[events]]
kind = "unit_arrived"
time = "times.arrived"
format = "iso"
optional = true
"""

CALLS = [
    {"id": "N-1", "unit": {"name": "P7"}, "priority": 2, "where": {"street": "1 Elm St", "town": "Northfield"},
     "times": {"received": "2026-04-02T10:00:00Z", "arrived": "2026-04-02T10:06:30Z"}},
    {"id": "N-2", "unit": {"name": "P9"}, "priority": 1, "where": {"street": "Café Row", "town": "Northfield"},
     "times": {"received": "2026-04-02T10:01:00Z", "arrived": None}},
]


def mapping(fmt="json", records='records = "$.export.calls[*]"'):
    return parse_mapping(MAPPING.format(fmt=fmt, records=records), "northfield.toml")


def ms(text):
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp() * 1000)


@pytest.mark.parametrize("indent", [None, 2])
def test_records_are_the_exact_bytes_of_each_value_and_add_up_to_the_file(indent):
    data = json.dumps({"export": {"agency": "NFPD", "calls": CALLS}}, indent=indent, ensure_ascii=False).encode()
    p = read_json(data, mapping(), "calls.json", None, None)
    assert b"".join(p.records.raws) == data
    cited = [(i, path) for i, path in enumerate(p.records.paths) if path is not None]
    assert [path for _, path in cited] == ["/export/calls/0", "/export/calls/1"]
    for (i, _), call in zip(cited, CALLS):
        assert json.loads(p.records.raws[i]) == call
    ev = p.events.to_pylist()
    assert [e["kind"] for e in ev] == ["call_received", "unit_arrived", "call_received"]
    assert [e["call"] for e in ev] == ["N-1", "N-1", "N-2"]
    assert ev[1]["unit"] == "P7" and ev[0]["unit"] is None
    assert ev[1]["t_src_lo"] == ms("2026-04-02T10:06:30")
    assert ev[2]["place"] == "Café Row, Northfield"
    assert json.loads(ev[0]["attrs"]) == {"priority": "2"}
    assert {p.records.paths[e["record_index"]] for e in ev} == {"/export/calls/0", "/export/calls/1"}
    if indent:  # the second call starts further down the file
        assert p.records.ordinals[cited[1][0]] > p.records.ordinals[cited[0][0]] > 1


def test_a_bad_time_is_rejected_naming_line_pointer_and_field():
    calls = [dict(CALLS[0]), dict(CALLS[1], times={"received": "yesterday"})]
    data = json.dumps({"export": {"calls": calls}}, indent=1).encode()
    p = read_json(data, mapping(), "calls.json", None, None)
    r = p.rejects[0]
    assert (r.column, r.value, r.path) == ("times.received", "yesterday", "/export/calls/1")
    # the line the rejected record starts on: its opening brace
    second = data.index(b"{", data.index(b"}\n", data.index(b'"N-1"')))
    assert r.line == data[:second].count(b"\n") + 1


def test_invalid_json_is_one_error_naming_the_line():
    with pytest.raises(InputError) as exc:
        read_json(b'{"export": {"calls": [\n{"id": "N-1",}\n]}}', mapping(), "bad.json", None, None)
    assert exc.value.line == 2 and exc.value.file == "bad.json" and "not valid JSON" in str(exc.value)


def test_a_mapping_for_json_needs_a_record_path_and_a_readable_one():
    with pytest.raises(InputError) as exc:
        mapping(records="")
    assert exc.value.field == "file.records"
    with pytest.raises(InputError) as exc:
        read_json(b"[]", mapping(records='records = "$.calls[?(@.x)]"'), "f.json", None, None)
    assert exc.value.field == "file.records"


def test_ndjson_each_line_is_a_record():
    lines = [json.dumps(c, ensure_ascii=False) for c in CALLS]
    data = ("\n".join(lines) + "\n\n").encode()
    p = read_ndjson(data, mapping("ndjson", ""), "calls.ndjson", None, None)
    assert b"".join(p.records.raws) == data
    assert p.records.paths[:2] == ["", ""]
    assert p.events["record_index"].to_pylist() == [0, 0, 1]
    with pytest.raises(InputError) as exc:
        read_ndjson(data + b'{"id": \n', mapping("ndjson", ""), "calls.ndjson", None, None)
    assert exc.value.line == 4
