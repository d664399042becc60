"""Bad input in every nested format: one clear error naming file, path and field, exit 2,
and nothing written to the case."""

from __future__ import annotations

import io
import json

import pytest

from onrecord.store.reader import open_reader
from tests.sources.eido import fixtures as fx
from tests.sources.test_json_file import MAPPING as JSON_MAPPING
from tests.sources.test_xlsx_file import MAPPING as XLSX_MAPPING
from tests.sources.test_xml_file import DOC
from tests.sources.test_xml_file import MAPPING as XML_MAPPING


def _merged_workbook() -> bytes:
    openpyxl = pytest.importorskip("openpyxl", reason="openpyxl writes the test workbook (the test extra)")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Units"
    ws.append(["Harbor County"])
    ws.append([])
    ws.append(["Call No", "Unit", "Dispatched", "On Scene"])
    ws.append([1, "K9-2", "2026-06-01 13:00:05", "06/01/2026 13:09"])
    ws.merge_cells("A3:B3")
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _dangling() -> bytes:
    docs = fx.snapshots()
    docs[1]["dispatchComponent"][0]["agencyReference"] = {"$ref": "so.nowhere.example"}
    return ("\n".join(json.dumps(d) for d in docs) + "\n").encode()


CASES = {
    "invalid JSON": ("calls.json", b'{"export": {"calls": [{"id": 1,]}}',
                     JSON_MAPPING.format(fmt="json", records='records = "$.export.calls[*]"'), "line 1"),
    "invalid XML": ("calls.xml", DOC.replace("</Call>", "</Cal>", 1).encode(),
                    XML_MAPPING.format(records="lp:Call"), "not valid XML"),
    "XML bomb": ("bomb.xml", b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
                 b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Export>&b;</Export>',
                 XML_MAPPING.format(records="lp:Call"), "entit"),
    "merged header cells": ("units.xlsx", None, XLSX_MAPPING, "'Units'!A3:B3"),
    "dangling $ref": ("rb.ndjson", None, None, "at /dispatchComponent/0/agencyReference, field 'agencyReference'"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_error_and_nothing_is_written(name, case_dir, cli, tmp_path):
    file, data, mapping, says = CASES[name]
    if name == "merged header cells":
        data = _merged_workbook()
    if name == "dangling $ref":
        data = _dangling()
    (tmp_path / file).write_bytes(data)
    if mapping is None:
        which = "eido"
    else:
        (tmp_path / "m.toml").write_text(mapping, encoding="utf-8")
        which = tmp_path / "m.toml"
    code, _, err = cli("import", case_dir, tmp_path / file, "--mapping", which)
    assert code == 2 and err.startswith("error: ") and file in err and says in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert open_reader(case_dir).sources() == []
