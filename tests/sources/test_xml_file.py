"""XML through a mapping: records by XPath, fields by relative paths and attributes, parsed
safely (no entities: no bomb), every record the exact bytes of its element."""

from __future__ import annotations

import pytest

from onrecord.errors import InputError
from onrecord.sources.mapping import parse_mapping
from onrecord.sources.xml_file import read_xml

MAPPING = """
[mapping]
name = "lakeport-xml"
source_kind = "cad"
agency = "LPFD"
timezone = "America/Chicago"

[file]
format = "xml"
records = "{records}"

[file.namespaces]
lp = "urn:example:lakeport:cad"

[fields]
call = "@number"
unit = "lp:Unit/lp:Id"
place = "lp:Where"
text = "/lp:Export/lp:Agency"

[[events]]
kind = "call_received"
time = "lp:Received"
format = "%Y-%m-%d %H:%M:%S"
unit = false

[[events]]
kind = "unit_dispatched"
time = "lp:Unit/@dispatched"
format = "%Y-%m-%d %H:%M:%S"
optional = true
"""

DOC = """<?xml version="1.0" encoding="UTF-8"?>
<Export xmlns="urn:example:lakeport:cad">
  <Agency>Lakeport Fire</Agency>
  <Call number="L-10"><Received>2026-05-01 08:00:00</Received><Where>3 Dock Rd</Where>
    <Unit dispatched="2026-05-01 08:01:10"><Id>E4</Id></Unit></Call>
  <Call number="L-11"><Received>2026-05-01 08:30:00</Received><Where>Pier &amp; Main</Where></Call>
</Export>
"""


def read(doc=DOC, records="lp:Call"):
    return read_xml(doc.encode(), parse_mapping(MAPPING.format(records=records), "lakeport.toml"),
                    "calls.xml", None, None)


@pytest.mark.parametrize("records", ["lp:Call", "/lp:Export/lp:Call", "//lp:Call"])
def test_each_record_is_its_element_cited_by_xpath_and_line(records):
    p = read(records=records)
    assert b"".join(p.records.raws) == DOC.encode()
    cited = [i for i, path in enumerate(p.records.paths) if path]
    assert [p.records.paths[i] for i in cited] == ["/lp:Export/lp:Call[1]", "/lp:Export/lp:Call[2]"]
    assert [p.records.ordinals[i] for i in cited] == [4, 6]
    second = p.records.raws[cited[1]]
    assert second.startswith(b'<Call number="L-11">') and second.endswith(b"</Call>")
    ev = p.events.to_pylist()
    assert [(e["kind"], e["call"], e["unit"]) for e in ev] == [
        ("call_received", "L-10", None), ("unit_dispatched", "L-10", "E4"), ("call_received", "L-11", None)]
    assert ev[2]["place"] == "Pier & Main"
    assert ev[0]["text"] == "Lakeport Fire"  # read from the document's root for every record


def test_an_entity_bomb_is_refused_before_it_expands():
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
            '<Export xmlns="urn:example:lakeport:cad"><Agency>&lol2;</Agency></Export>')
    with pytest.raises(InputError) as exc:
        read(bomb)
    assert exc.value.file == "calls.xml" and "entit" in str(exc.value)


def test_an_external_entity_is_refused():
    doc = ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]>'
           '<Export xmlns="urn:example:lakeport:cad"><Agency>&ext;</Agency></Export>')
    with pytest.raises(InputError) as exc:
        read(doc)
    assert "entit" in str(exc.value)


def test_invalid_xml_is_one_error_naming_the_line():
    with pytest.raises(InputError) as exc:
        read(DOC.replace("</Where>\n", "</Wher>\n", 1))
    assert exc.value.line == 4 and "not valid XML" in str(exc.value)


def test_a_bad_time_names_the_record_xpath():
    p = read(DOC.replace("2026-05-01 08:30:00", "half past eight"))
    r = p.rejects[0]
    assert (r.line, r.path, r.column, r.value) == (6, "/lp:Export/lp:Call[2]", "lp:Received", "half past eight")
