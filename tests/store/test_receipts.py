"""Receipts (store/receipts.py): each act on a case leaves a signed receipt in the folder and
the log, each naming the one before; a case from before receipts gets its key at its next
import; a case whose key is elsewhere is refused before anything is written."""

from __future__ import annotations

import json
import shutil

from onrecord.store import receipts, signing
from onrecord.store.case import open_case
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
    # the first source has no receipt: verify says so rather than pass it
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "(eastvale.csv) is on no receipt" in err
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
