"""EIDO in: the real NENA sample and EidoLib notify message, and a fictional active-shooter
incident as successive snapshots (document, NDJSON, folder, notify log), diffed into events,
validated against the NENA schema; casing deviations, schema violations and dangling $refs."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone

import pytest

from onrecord.errors import InputError
from onrecord.sources.eido.read import read_eido
from onrecord.sources.eido.schema import SCHEMA_ENV
from onrecord.sources.mapping import load_mapping
from tests.conftest import shared_path
from tests.sources.eido import fixtures as fx


@pytest.fixture
def schema(monkeypatch):
    path = shared_path("data", "interchange", "nena-eido-schema", "openapi.yaml")
    monkeypatch.setenv(SCHEMA_ENV, str(path))
    return path


def read(data: bytes, mapping="eido", file="incident.json"):
    return read_eido(data, load_mapping(mapping), file, None, None)


def ndjson(docs) -> bytes:
    return ("\n".join(json.dumps(d) for d in docs) + "\n").encode()


def found(p) -> list[tuple]:
    return sorted(((e["kind"], e["unit"], e["time_text"]) for e in p.events.to_pylist()),
                  key=lambda t: (t[2], t[0], t[1] or ""))


def test_the_real_nena_sample_imports_with_every_event_citing_line_and_pointer(schema):
    data = shared_path("data", "interchange", "nena-eido-sample-call-transfer.json").read_bytes()
    p = read(data)
    assert p.records.raws == [data] and p.records.paths == [""]
    ev = p.events.to_pylist()
    assert [(e["kind"], e["time_text"], e["path"]) for e in ev] == [
        ("call_received", "2021-04-30T14:40:00.0-04:00", "/callComponent/0"),
        ("call_answered", "2021-04-30T14:42:00.0-04:00", "/callComponent/0")]
    assert {e["agency"] for e in ev} == {"state.pa.us"} and ev[1]["actor"] == "tjones.atroop@state.pa.us"
    assert ev[0]["t_src_lo"] == int(datetime(2021, 4, 30, 18, 40, tzinfo=timezone.utc).timestamp() * 1000)
    assert any("patched in memory" in n for n in p.notes)


def test_the_real_notify_message_cites_the_eido_inside_it(schema):
    data = shared_path("data", "interchange", "eidolib-ws-NotifyWithEido.json").read_bytes()
    p = read(data)
    assert [e["path"] for e in p.events.to_pylist()] == ["/event/notification/0/callComponent/0"] * 2


def test_snapshots_are_diffed_into_the_incident_events(schema):
    p = read(ndjson(fx.snapshots()), file="riverbend.ndjson")
    assert found(p) == fx.TRUTH
    assert not p.rejects
    ev = p.events.to_pylist()
    arrived = next(e for e in ev if e["kind"] == "unit_arrived" and e["unit"] == "ADAM12")
    assert arrived["record_index"] == 3  # the fourth line: the snapshot where it changed
    assert arrived["path"] == "/emergencyResourceComponent/0" and arrived["agency"] == fx.SO
    transfer = next(e for e in ev if e["kind"] == "call_transferred")
    assert transfer["agency"] == fx.PSAP and json.loads(transfer["attrs"])["to"] == fx.SO
    staging = next(e for e in ev if e["unit"] == "MEDIC5" and e["kind"] == "unit_status")
    assert staging["text"] == "Staging"
    assert {e["call"] for e in ev} == {fx.INCIDENT}


def test_the_same_snapshots_as_a_notify_log_and_as_an_array_give_the_same_events(schema):
    notify = [{"event": {"subscriptionId": "s1", "transactionId": f"t{i}", "notification": [d]}}
              for i, d in enumerate(fx.snapshots())]
    assert found(read(ndjson(notify), file="notify.log")) == fx.TRUTH
    as_array = json.dumps(fx.snapshots(), indent=1).encode()
    p = read(as_array, file="all.json")
    assert found(p) == fx.TRUTH and b"".join(p.records.raws) == as_array
    assert [x for x in p.records.paths if x] == ["/0", "/1", "/2", "/3"]


def test_a_casing_deviation_is_refused_strictly_and_reported_when_tolerant(schema):
    docs = fx.snapshots()
    docs[1]["emergencyResourceComponent"][0]["lastUpdateTimestamp"] = \
        docs[1]["emergencyResourceComponent"][0].pop("lastUpdateTimeStamp")
    with pytest.raises(InputError) as exc:
        read(ndjson(docs))
    e = exc.value
    assert (e.line, e.path, e.field) == (2, "/emergencyResourceComponent/0", "lastUpdateTimestamp")
    p = read(ndjson(docs), mapping="eido-tolerant")
    assert found(p) == fx.TRUTH
    deviations = [n for n in p.notes if n.startswith("deviation")]
    assert len(deviations) == 1 and "line 2" in deviations[0] and "lastUpdateTimestamp" in deviations[0]


def test_a_schema_violation_names_line_pointer_and_field(schema):
    docs = fx.snapshots()
    docs[2]["callComponent"][0]["direction"] = "sideways"
    with pytest.raises(InputError) as exc:
        read(ndjson(docs))
    assert (exc.value.line, exc.value.path, exc.value.field) == (3, "/callComponent/0/direction", "direction")
    p = read(ndjson(docs), mapping="eido-tolerant")  # let through, and said
    assert any("/callComponent/0/direction" in n for n in p.notes if n.startswith("deviation"))


def test_a_dangling_ref_is_an_error_naming_file_pointer_and_field(schema):
    docs = fx.snapshots()
    docs[3]["dispatchComponent"][0]["emergencyResourceReference"].append({"$ref": "unit-nobody"})
    for mapping in ("eido", "eido-tolerant"):
        with pytest.raises(InputError) as exc:
            read(ndjson(docs), mapping=mapping, file="rb.ndjson")
        e = exc.value
        where = "/dispatchComponent/0/emergencyResourceReference/3"
        assert (e.file, e.line, e.path, e.field) == ("rb.ndjson", 4, where, "emergencyResourceReference")
        assert "unit-nobody" in str(e)


def test_invalid_json_names_the_line():
    text = json.dumps(fx.snapshots()[0], indent=2)
    broken = text.replace('"eidoVersion": "1.0",', '"eidoVersion": "1.0",,')
    with pytest.raises(InputError) as exc:
        read(broken.encode())
    assert exc.value.line == broken[:broken.index(",,")].count("\n") + 1


def test_without_the_schema_the_import_says_it_was_not_validated(monkeypatch):
    monkeypatch.delenv(SCHEMA_ENV, raising=False)
    p = read(ndjson(fx.snapshots()))
    assert found(p) == fx.TRUTH and any("not validated" in n for n in p.notes)


def test_an_unchanged_snapshot_adds_no_event(schema):
    docs = fx.snapshots()
    docs.insert(2, copy.deepcopy(docs[1]))
    assert found(read(ndjson(docs))) == fx.TRUTH
