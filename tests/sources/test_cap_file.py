"""CAP 1.2 in: both OASIS examples, validated against cap12.xsd, every <info> kept and cited
by XPath; a Z time, a bad value and a bomb refused naming line, path and field."""

from __future__ import annotations

import json

import pytest

from onrecord.errors import InputError
from onrecord.sources.cap_file import SCHEMA_ENV, read_cap
from onrecord.sources.mapping import load_mapping
from tests.conftest import shared_path


@pytest.fixture
def xsd(monkeypatch):
    monkeypatch.setenv(SCHEMA_ENV, str(shared_path("data", "interchange", "cap12.xsd")))


def sample(name: str) -> bytes:
    return shared_path("data", "interchange", name).read_bytes()


def read(data: bytes, file="alert.xml"):
    return read_cap(data, load_mapping("cap"), file, None, None)


def cited(p, event) -> str:
    return p.records.paths[event["record_index"]]


def test_the_amber_alert_keeps_both_info_blocks(xsd):
    data = sample("cap12-oasis-amber-alert.xml")
    p = read(data)
    assert b"".join(p.records.raws) == data and not p.notes
    ev = p.events.to_pylist()
    assert [(e["kind"], cited(p, e)) for e in ev] == [
        ("alert_sent", "/cap:alert/cap:sent"), ("alert_effective", "/cap:alert/cap:info[1]"),
        ("alert_effective", "/cap:alert/cap:info[2]")]
    assert [json.loads(e["attrs"]).get("language") for e in ev[1:]] == ["en-US", "es-US"]
    assert {e["time_text"] for e in ev} == {"2003-06-11T22:39:00-07:00"}  # effective: as sent, CAP says
    assert all(json.loads(e["attrs"])["effective_assumed"] for e in ev[1:])
    assert {e["call"] for e in ev} == {"KAR0-0306112239-SW"} and ev[0]["agency"] == "KARO@CLETS.DOJ.CA.GOV"
    assert ev[1]["place"] == "Los Angeles County" and json.loads(ev[1]["attrs"])["event"] == "Child Abduction"
    lines = [p.records.ordinals[e["record_index"]] for e in ev]
    assert lines[0] == 5 and lines[1] < lines[2]


def test_the_thunderstorm_warning_carries_its_area_and_expiry(xsd):
    p = read(sample("cap12-oasis-thunderstorm.xml"))
    info = p.events.to_pylist()[1]
    attrs = json.loads(info["attrs"])
    assert info["text"] == "SEVERE THUNDERSTORM WARNING" and attrs["expires"] == "2003-06-17T16:00:00-07:00"
    assert len(attrs["areas"][0]["polygon"]) == 1 and len(attrs["areas"][0]["geocode"]) == 3


def test_an_onset_and_effective_given_become_their_own_events(xsd):
    data = sample("cap12-oasis-thunderstorm.xml").replace(
        b"<expires>", b"<effective>2003-06-17T15:00:00-07:00</effective>\n   "
                      b"<onset>2003-06-17T15:10:00-07:00</onset>\n   <expires>", 1)
    ev = read(data).events.to_pylist()
    assert [(e["kind"], e["time_text"], e["path"]) for e in ev[1:]] == [
        ("alert_effective", "2003-06-17T15:00:00-07:00", "/cap:alert/cap:info/cap:effective"),
        ("alert_onset", "2003-06-17T15:10:00-07:00", "/cap:alert/cap:info/cap:onset")]


def test_a_time_in_z_is_refused_by_the_schema_naming_line_path_and_field(xsd):
    data = sample("cap12-oasis-amber-alert.xml").replace(b"-07:00</sent>", b"Z</sent>", 1)
    with pytest.raises(InputError) as exc:
        read(data, "amber.xml")
    e = exc.value
    assert (e.file, e.line, e.path, e.field) == ("amber.xml", 5, "/cap:alert/cap:sent", "sent")


def test_a_value_outside_its_list_is_refused(xsd):
    data = sample("cap12-oasis-amber-alert.xml").replace(b"<urgency>Immediate", b"<urgency>Soonish", 1)
    with pytest.raises(InputError) as exc:
        read(data)
    assert exc.value.path == "/cap:alert/cap:info[1]/cap:urgency"


def test_without_the_xsd_a_z_time_is_still_a_rejected_row(monkeypatch):
    monkeypatch.delenv(SCHEMA_ENV, raising=False)
    p = read(sample("cap12-oasis-amber-alert.xml").replace(b"-07:00</sent>", b"Z</sent>", 1))
    assert any("not validated" in n for n in p.notes)
    assert p.rejects[0].line == 5 and p.rejects[0].column == "cap:sent"


def test_an_entity_bomb_and_a_non_cap_document_are_refused():
    with pytest.raises(InputError) as exc:
        read(b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "bbbbbbbb">]><alert>&b;</alert>')
    assert "entit" in str(exc.value)
    with pytest.raises(InputError) as exc:
        read(b"<alert/>")
    assert "not a CAP 1.2 alert" in str(exc.value)


def test_both_examples_import_into_a_case_and_verify(case_dir, cli, xsd):
    for name in ("cap12-oasis-thunderstorm.xml", "cap12-oasis-amber-alert.xml"):
        code, out, err = cli("import", case_dir, shared_path("data", "interchange", name), "--mapping", "cap")
        assert code == 0, err
    rows = json.loads(cli("timeline", case_dir, "--json")[1])["events"]
    assert len(rows) == 5 and all(r["record"]["path"].startswith("/cap:alert/") for r in rows)
    assert cli("verify", case_dir)[0] == 0
