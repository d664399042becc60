"""Receipts (store/receipts.py): each act on a case leaves a signed receipt in the folder and
the log, each naming the one before; a case from before receipts gets its key at its next
import; a case whose key is elsewhere is refused before anything is written."""

from __future__ import annotations

import json
import shutil

from sqlalchemy import update

from onrecord.store import receipts, signing
from onrecord.store.case import open_case
from onrecord.store.schema import sources
from tests.helpers import CAD_ROWS, store_state, write_cad


def _import(cli, case_dir, tmp_path, rows=CAD_ROWS, name="eastvale.csv"):
    data, mapping = write_cad(tmp_path / name, rows, name)
    code, out, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 0, err
    return out


def test_each_import_prints_its_head_and_signs_a_receipt(case_dir, cli, tmp_path):
    out = _import(cli, case_dir, tmp_path)
    head = json.loads((case_dir / "receipts" / "000002-import.json").read_bytes())
    assert f"chain head {head['chain']['head']} after 4 records; signed receipt #2" in out
    assert head["source"]["file_name"] == "eastvale.csv" and head["source"]["records"] == 4
    assert head["source"]["events"] == 7 and head["kind"] == "import"
    log = [json.loads(x) for x in (case_dir / "receipts.log").read_bytes().splitlines()]
    assert [r["number"] for r in log] == [1, 2] and log[1] == head
    # signed with the case's key, over everything but the signature; naming the one before
    case = open_case(case_dir)
    assert head["public_key"] == signing.public_hex(signing.load_key(case.uid))
    assert signing.signature_holds(head["public_key"], receipts.signed_bytes(head), head["signature"])
    assert head["previous"] == __import__("hashlib").sha256(receipts.line_of(log[0])).hexdigest()
    # the key is not in the case folder, nor in the database
    assert not any(p.suffix == ".ed25519" for p in case_dir.rglob("*"))
    case.engine.dispose()


def test_a_case_from_before_receipts_verifies_with_a_note_and_gets_a_key_at_its_next_import(case_dir, cli, tmp_path):
    _import(cli, case_dir, tmp_path)
    case = open_case(case_dir)
    signing.key_path(case.uid).unlink()
    shutil.rmtree(case_dir / "receipts")
    (case_dir / "receipts.log").unlink()
    code, out, _ = cli("verify", case_dir)
    assert code == 0 and "note: no receipts: the case was made before receipts" in out
    _import(cli, case_dir, tmp_path, CAD_ROWS.replace("C-10", "C-20"), "second.csv")
    assert signing.key_path(case.uid).exists()
    # what it held before is on an `adopt` receipt, as it stood: proven from then on
    adopt = json.loads((case_dir / "receipts" / "000001-adopt.json").read_bytes())
    assert [s["file_name"] for s in adopt["sources"]] == ["eastvale.csv"] and adopt["chain"]["records"] == 4
    code, out, err = cli("verify", case_dir)
    assert code == 0, err
    assert "note: receipts begin at receipt #1 (adopt" in out and "matches 2 signed receipts" in out
    with case.engine.begin() as conn:
        conn.execute(update(sources).where(sources.c.file_name == "eastvale.csv", sources.c.case_id == case.id)
                     .values(timezone="UTC"))
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "(eastvale.csv): its timezone was changed since receipt #1 (adopt" in err
    case.engine.dispose()


def test_a_case_whose_key_is_elsewhere_is_refused_unchanged(case_dir, cli, tmp_path, monkeypatch):
    _import(cli, case_dir, tmp_path)
    before = store_state(case_dir)
    monkeypatch.setenv(signing.KEY_DIR_ENV, str(tmp_path / "no-keys-here"))
    data, mapping = write_cad(tmp_path / "in2", CAD_ROWS.replace("C-10", "C-20"), "second.csv")
    code, _, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 2 and "signing key is not at" in err and "ONRECORD_KEY_DIR" in err
    assert store_state(case_dir) == before
    # verify still checks the signatures against the public key beside the receipts
    code, out, err = cli("verify", case_dir)
    assert code == 0, err
    assert "note: the signing key is not at" in out


def test_a_log_that_disagrees_with_the_files_is_named(case_dir, cli, tmp_path):
    _import(cli, case_dir, tmp_path)
    log = (case_dir / "receipts.log").read_bytes().splitlines()
    (case_dir / "receipts.log").write_bytes(log[0] + b"\n")
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "receipt #2 (000002-import.json) is not in receipts.log" in err


def test_a_receipt_that_is_not_json_is_one_clear_error(case_dir, cli, tmp_path):
    _import(cli, case_dir, tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = cli("verify", case_dir, "--receipt", bad)
    assert code == 2 and "bad.json: not a receipt" in err and "Traceback" not in err
    code, _, err = cli("verify", case_dir, "--receipt", tmp_path / "missing.json")
    assert code == 2 and "no such file" in err


def test_a_live_feed_is_on_receipts_as_far_as_its_newest_one_saw_it(case_dir, cli):
    import time as clock
    from datetime import datetime, timezone

    from sqlalchemy import select

    from onrecord.live.clocks import LiveClocks
    from onrecord.live.ingest import FeedSpec, IngestNode
    from onrecord.live.units import UnitDirectory
    from onrecord.store.schema import events

    def frame(unit: str) -> bytes:
        at = datetime.fromtimestamp(clock.time(), tz=timezone.utc).isoformat()
        return json.dumps({"kind": "unit_arrived", "time": at, "unit": unit, "agency": "NCSO"}).encode()

    case = open_case(case_dir)
    node = IngestNode(case, UnitDirectory(), LiveClocks())
    feed = node.open_feed(FeedSpec("sensors", "webhook", max_rate=1000))
    node.accept(feed, [frame("12A1"), frame("12A2")])
    checkpoint = node.checkpoint(feed)
    assert checkpoint["kind"] == "live" and checkpoint["source"]["upto"]["events"] is not None
    node.accept(feed, [frame("12A3")])  # after the newest receipt
    code, out, err = cli("verify", case_dir)
    assert code == 0, err
    assert "note: 1 frames of live feed live:sensors came after the latest receipt" in out
    with case.engine.begin() as conn:  # an event the checkpoint saw, edited
        first = conn.execute(select(events.c.id).where(events.c.source_id == feed.source_id)
                             .order_by(events.c.id)).scalars().first()
        conn.execute(update(events).where(events.c.id == first).values(unit="99Z9"))
    case.engine.dispose()
    code, _, err = cli("verify", case_dir)
    assert code == 1 and f"event {first} (citing line 2) of live:sensors was altered since receipt #3 (live" in err


def test_a_live_receipt_made_a_slice_at_a_time_is_the_one_made_at_once(case_dir, cli):
    import time as clock
    from datetime import datetime, timezone

    from onrecord.live.clocks import LiveClocks
    from onrecord.live.ingest import FeedSpec, IngestNode
    from onrecord.live.units import UnitDirectory
    from onrecord.store.receipts import LiveReceipt

    def frame(unit: str) -> bytes:
        at = datetime.fromtimestamp(clock.time(), tz=timezone.utc).isoformat()
        return json.dumps({"kind": "unit_arrived", "time": at, "unit": unit, "agency": "NCSO"}).encode()

    case = open_case(case_dir)
    node = IngestNode(case, UnitDirectory(), LiveClocks())
    feed = node.open_feed(FeedSpec("sensors", "webhook", max_rate=1000))
    node.accept(feed, [frame(f"12A{i}") for i in range(7)] + [b"not json"])
    sliced = LiveReceipt(case, feed.source_id)
    node.accept(feed, [frame("12B1")])  # after it began: not in it
    steps = 0
    while (signed := sliced.step(3)) is None:
        steps += 1
    assert steps >= 5  # 9 raw records and 7 events, three rows a slice
    at_once = node.checkpoint(feed)
    assert signed["source"]["upto"]["raw records"] < at_once["source"]["upto"]["raw records"]
    assert signed["source"]["digests"]["events"]["rows"] == 7 and at_once["source"]["digests"]["events"]["rows"] == 8
    from onrecord.store.read_evidence import EVENTS, RAW_LAYOUT
    from onrecord.store.reader import open_reader

    upto, reader = signed["source"]["upto"], open_reader(case)
    assert signed["source"]["digests"] == {  # the digests made at once of the rows it covers
        "raw records": reader.covered_digest(RAW_LAYOUT, feed.source_id, upto["raw records"]),
        "events": reader.covered_digest(EVENTS, feed.source_id, upto["events"])}
    code, out, err = cli("verify", case_dir)
    assert code == 0, err
