"""Each generated source has a mapping beside it that parses and names only real columns."""

from __future__ import annotations

import csv
import tomllib

from onrecord.scenario.mappings import dump
from tests.scenario.conftest import header_of, read_rows


def _mapped_columns(doc: dict) -> set[str]:
    import re
    cols = set(doc.get("file", {}).get("required", []))
    for v in doc.get("fields", {}).values():
        if isinstance(v, str):
            cols.add(v)
        elif "column" in v:
            cols.add(v["column"])
        else:
            cols.update(re.findall(r"\{([^{}]+)\}", v["template"]))
    cols.update(doc.get("attributes", {}).values())
    for ev in doc.get("events", []):
        t = ev.get("time", [])
        cols.update([t] if isinstance(t, str) else t)
        if "kind_from" in ev:
            cols.add(ev["kind_from"])
    return cols


def test_every_csv_has_a_parsing_mapping_naming_only_its_columns(case1):
    csvs = sorted(case1.rglob("*.csv"))
    assert len(csvs) >= 20
    for path in csvs:
        doc = tomllib.loads(path.with_suffix(".toml").read_text())
        header = header_of(path)
        with path.open(newline="", encoding=doc["file"]["encoding"]) as fh:
            first = next(csv.reader(fh))
        assert (first == header) == doc["file"].get("header", True)  # a header line only when declared
        missing = _mapped_columns(doc) - set(header)
        assert not missing, f"{path.name}: mapping names {missing} not in header"
        assert doc["attributes"]["rid"] in header  # truth keys on it


def test_record_ids_are_unique_per_source(case1):
    for path in case1.rglob("*.csv"):
        doc = tomllib.loads(path.with_suffix(".toml").read_text())
        ids = [row[doc["attributes"]["rid"]] for row in read_rows(path)]
        assert len(ids) == len(set(ids)) and all(ids), path.name


def test_text_sources_have_text_mappings_and_rid_headers(case1):
    texts = sorted(case1.rglob("*.txt"))
    assert len(texts) >= 6
    for path in texts:
        doc = tomllib.loads(path.with_suffix(".toml").read_text())
        assert doc["file"]["format"] == "text" and doc["mapping"]["source_kind"] in ("statement", "press")
        head = path.read_text().split("\n\n", 1)[0]
        assert f"{doc['text']['time']}:" in head and "Rid:" in head


def test_toml_writer_round_trips_what_mappings_use():
    doc = {"mapping": {"name": "x", "flag": True, "n": 3},
           "fields": {"place": {"template": "{A} {B}"}, "text": "Col With Space"},
           "codes": {"nature": {"10-50": "Crash"}},
           "events": [{"kind_from": "S", "kinds": {"On Scene": "unit_arrived", "default": "unit_status"},
                       "time": ["D", "T"], "format": "%m/%d/%Y \"q\""}]}
    assert tomllib.loads(dump(doc)) == doc


def test_row_per_unit_calls_are_contiguous_with_one_received_time(case1):
    import itertools
    rows = read_rows(case1 / "sources" / "county_cad.csv")
    groups = [k for k, _ in itertools.groupby(rows, key=lambda r: r["IncidentNo"])]
    assert len(groups) == len(set(groups)) >= 4  # the school and the afternoon's other calls
    for _, members in itertools.groupby(rows, key=lambda r: r["IncidentNo"]):
        assert len({r["Received"] for r in members}) == 1


def test_text_mentions_point_at_the_name(case1, truth1):
    for key, form in truth1["mention_forms"].items():
        file, rid, what = key.split("#")
        if what.startswith("text@"):
            lo, hi = map(int, what[5:].split("-"))
            path = next(case1.rglob(file))
            if path.suffix == ".txt":
                body = path.read_text().split("\n\n", 1)[1]
            else:
                rid_col = tomllib.loads(path.with_suffix(".toml").read_text())["attributes"]["rid"]
                text_col = tomllib.loads(path.with_suffix(".toml").read_text())["fields"]["text"]
                body = next(r[text_col] for r in read_rows(path) if r[rid_col] == rid)
            assert body[lo:hi] == form


def test_windows_export_is_written_in_its_declared_encoding(case1):
    path = case1 / "priors" / "school_threat_reports.csv"
    assert tomllib.loads(path.with_suffix(".toml").read_text())["file"]["encoding"] == "cp1252"
    data = path.read_bytes()
    assert any(ord(c) > 127 for c in data.decode("cp1252"))  # an accented name, however spelled
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return
    raise AssertionError("a cp1252 export with accents should not read as UTF-8")
