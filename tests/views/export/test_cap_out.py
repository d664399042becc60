"""CAP out: each alert finding as a CAP 1.2 alert, valid against cap12.xsd, times with offsets;
read back by the cap importer."""

from __future__ import annotations

import re

import pytest

from onrecord.sources.cap_file import read_cap
from onrecord.sources.mapping import load_mapping
from tests.conftest import shared_path


def test_each_alert_is_a_valid_cap_alert(exported_case, cli, tmp_path, monkeypatch):
    xmlschema = pytest.importorskip("xmlschema")
    xsd = shared_path("data", "interchange", "cap12.xsd")
    monkeypatch.setenv("ONRECORD_CAP_SCHEMA", str(xsd))
    out = tmp_path / "alerts"
    code, printed, err = cli("export", exported_case, "--format", "cap", "--out", out)
    assert code == 0, err
    files = sorted(out.glob("alert-*.xml"))
    assert files and f"wrote {len(files)} alerts" in printed
    schema = xmlschema.XMLSchema(str(xsd))
    for f in files:
        schema.validate(str(f))
        data = f.read_bytes()
        assert not re.search(rb"<(sent|effective)>[^<]*Z<", data)
        p = read_cap(data, load_mapping("cap"), f.name, None, None)  # and onrecord reads it back
        assert [e["kind"] for e in p.events.to_pylist()][:2] == ["alert_sent", "alert_effective"]
