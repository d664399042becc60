"""`onrecord user`, `onrecord token` and `onrecord audit` on both stores: accounts made from
the command line sign in, tokens are printed once and revocable, every change is in the
audit log, and `audit verify` finds an entry changed or cut off."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from sqlalchemy import text

from tests.access.conftest import PASSWORD


@pytest.fixture
def name() -> str:
    return f"cli.{uuid.uuid4().hex[:8]}"


def _add(cli, monkeypatch, case_dir, name, *extra, password=PASSWORD):
    monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
    return cli("user", "add", case_dir, name, "--password-stdin", *extra)


def test_user_add_list_disable(cli, case_dir, monkeypatch, name):
    code, out, err = _add(cli, monkeypatch, case_dir, name, "--role", "analyst", "--agency", "EVSO", "--agency", "BCFR")
    assert code == 0 and f"added {name} (analyst)" in out, err
    code, out, _ = cli("user", "list", case_dir, "--json")
    me = [u for u in json.loads(out)["users"] if u["name"] == name][0]
    assert me["role"] == "analyst" and me["agencies"] == ["BCFR", "EVSO"] and not me["disabled"] and not me["totp"]
    assert cli("user", "disable", case_dir, name)[0] == 0
    me = [u for u in json.loads(cli("user", "list", case_dir, "--json")[1])["users"] if u["name"] == name][0]
    assert me["disabled"]


def test_a_weak_password_or_bad_role_is_one_sentence(cli, case_dir, monkeypatch, name):
    code, _, err = _add(cli, monkeypatch, case_dir, name, "--role", "viewer", password="letmein1")
    assert code == 2 and err.startswith("error: ") and "common" in err and "Traceback" not in err
    code, _, err = _add(cli, monkeypatch, case_dir, name, "--role", "chief")
    assert code == 2 and "--role" in err


def test_totp_enrolment_prints_the_secret_once(cli, case_dir, monkeypatch, name):
    code, out, _ = _add(cli, monkeypatch, case_dir, name, "--role", "viewer", "--totp")
    assert code == 0 and "otpauth://totp/" in out
    assert "otpauth" not in cli("user", "list", case_dir)[1]


def test_tokens_and_the_audit_of_changes(cli, case_dir, monkeypatch, name):
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case

    _add(cli, monkeypatch, case_dir, name, "--role", "viewer")
    code, out, err = cli("token", "create", case_dir, name)
    token = out.strip()
    assert code == 0 and token.startswith("onr_") and "revoke" in err
    case = open_case(case_dir)
    assert AccessStore(case.engine).tokens.user_of(token) == name
    tid = err.split("token ", 1)[1].split(" ", 1)[0]
    assert cli("token", "revoke", case_dir, tid)[0] == 0
    assert AccessStore(case.engine).tokens.user_of(token) is None
    code, out, _ = cli("audit", case_dir, "--json")
    mine = [e for e in json.loads(out)["entries"] if name in e["what"]]
    assert [e["action"] for e in mine] == ["user_change", "user_change"]
    assert all(e["via"] == "cli" and e["outcome"] == "allowed" and e["at_ms"].endswith("Z") for e in mine)
    case.engine.dispose()


def test_audit_verify_finds_a_changed_or_cut_entry(cli, tmp_path, monkeypatch, name):
    """SQLite only: the PostgreSQL store (and its one audit chain) is shared by the session's tests."""
    from onrecord.store.case import open_case
    from onrecord.store.engine import DATABASE_URL_ENV

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    case_dir = tmp_path / "case"
    assert cli("init", case_dir)[0] == 0

    _add(cli, monkeypatch, case_dir, name, "--role", "viewer")
    cli("user", "list", case_dir)
    code, out, _ = cli("audit", "verify", case_dir)
    assert code == 0 and out.startswith("intact")
    case = open_case(case_dir)
    with case.engine.begin() as conn:
        newest = conn.execute(text("SELECT max(id) FROM audit_log")).scalar()
        conn.execute(text("UPDATE audit_log SET what = 'user list (edited)' WHERE id = :i"), {"i": newest - 1})
    code, _, err = cli("audit", "verify", case_dir)
    assert code == 1 and "changed" in err
    with case.engine.begin() as conn:
        conn.execute(text("DELETE FROM audit_log WHERE id >= :i"), {"i": newest - 1})
    code, _, err = cli("audit", "verify", case_dir)
    assert code == 1 and "removed" in err
    case.engine.dispose()


def test_reads_and_changes_from_the_command_line_are_audited(cli, case_dir):
    from onrecord.access.audit import AuditLog
    from onrecord.store.case import open_case
    from tests.helpers import write_cad

    data, mapping = write_cad(case_dir.parent / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    assert cli("timeline", case_dir, "--json")[0] == 0
    assert cli("metrics", case_dir)[0] == 2  # not built: one sentence, and an entry saying it failed
    case = open_case(case_dir)
    mine = [e for e in AuditLog(case.engine).entries(case_id=case.id) if str(case_dir) in e["what"]][-3:]
    case.engine.dispose()
    assert [(e["action"], e["outcome"], e["via"]) for e in mine] == [
        ("import", "allowed", "cli"), ("read", "allowed", "cli"), ("read", "error", "cli")]
    assert mine[1]["what"].startswith("onrecord timeline ") and "@" in mine[1]["actor"]


def test_search_from_the_command_line(cli, case_dir):
    from tests.helpers import write_cad

    data, mapping = write_cad(case_dir.parent / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    code, out, _ = cli("search", case_dir, "larkspur WELFARE", "--json")
    found = json.loads(out)["events"]
    assert code == 0 and found and all(e["source"]["file"] == "eastvale.csv" for e in found)
    assert {e["unit"] for e in found} - {None} == {"S12", "S14"}  # both units of the welfare check (and the call)
    code, out, _ = cli("search", case_dir, "C-1002 quarry")  # a raw line's call number and the address
    assert code == 0 and "eastvale.csv:4" in out
    assert "nothing holds" in cli("search", case_dir, "no such words here")[1]
    code, out, _ = cli("search", case_dir, '"welfare check" lark*', "--json")  # a phrase and a prefix
    assert code == 0 and all("larkspur" in e["matched"] for e in json.loads(out)["events"])


def test_a_search_saved_from_the_command_line(cli, case_dir):
    from onrecord.store.reader import open_reader
    from tests.helpers import write_cad

    data, mapping = write_cad(case_dir.parent / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    code, out, err = cli("search", case_dir, "quarry alarm", "--save")
    assert code == 0 and "eastvale.csv:4" in out and "saved as search" in err
    reader = open_reader(case_dir)
    saved = reader.annotations("search")
    reader.case.engine.dispose()
    assert [(a["kind"], a["text"]) for a in saved] == [("saved_search", "quarry alarm")] and "@" in saved[0]["author"]


def test_user_add_with_an_oidc_subject_asks_no_password(cli, case_dir, monkeypatch, name):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # nothing to read: no prompt may be made
    code, out, err = cli("user", "add", case_dir, name, "--role", "viewer", "--oidc-subject", f"sub|{name}")
    assert code == 0 and f"added {name} (viewer)" in out, err
    me = [u for u in json.loads(cli("user", "list", case_dir, "--json")[1])["users"] if u["name"] == name][0]
    assert me["oidc_subject"] == f"sub|{name}"
    code, _, err = cli("user", "add", case_dir, name + "x", "--role", "viewer", "--oidc-subject", f"sub|{name}")
    assert code == 2 and "linked to user" in err and "Traceback" not in err
    entries = json.loads(cli("audit", case_dir, "--json")[1])["entries"]
    assert any(e["what"] == f"user add {name} --role viewer --oidc-subject (linked)" for e in entries)


def test_a_feed_account_needs_no_password_and_posts_by_token_only(cli, case_dir, monkeypatch, name):
    from onrecord.access.accounts import SignInRefused
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # nothing to read: no prompt may be made
    code, out, err = cli("user", "add", case_dir, name, "--role", "feed")
    assert code == 0 and f"added {name} (feed)" in out, err
    code, out, _ = cli("token", "create", case_dir, name)
    case = open_case(case_dir)
    access = AccessStore(case.engine)
    assert code == 0 and access.tokens.user_of(out.strip()) == name
    assert not access.actor(name).may("view") and access.actor(name).may("feed")
    with pytest.raises(SignInRefused):
        access.accounts.sign_in(name, "", None)
    case.engine.dispose()
