"""OIDC settings (the client secret from an environment variable or a file, never from
onrecord.toml or the command line; an https issuer) and accounts linked to a subject."""

from __future__ import annotations

import pytest

from onrecord.access.oidc import load_settings
from onrecord.errors import UsageError
from tests.access.conftest import PASSWORD

ISSUER = "https://idp.example.test/realms/county"


def test_no_issuer_no_oidc():
    assert load_settings(None) is None and load_settings({}) is None


def test_the_secret_comes_from_an_environment_variable(monkeypatch):
    monkeypatch.setenv("TEST_OIDC_SECRET", "s3cret")
    s = load_settings({"issuer": ISSUER + "/", "client_id": "onrecord", "client_secret_env": "TEST_OIDC_SECRET"})
    assert (s.issuer, s.client_id, s.client_secret) == (ISSUER, "onrecord", "s3cret")
    assert "s3cret" not in repr(s)


def test_the_secret_comes_from_a_file_and_flags_override_the_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("from-file\n")
    s = load_settings({"issuer": "https://other.example.test", "client_id": "x"}, issuer=ISSUER,
                      client_id="onrecord", secret_file=secret)
    assert (s.issuer, s.client_id, s.client_secret) == (ISSUER, "onrecord", "from-file")


@pytest.mark.parametrize("section, says", [
    ({"issuer": ISSUER, "client_id": "a", "client_secret": "x"}, "keep the secret out of onrecord.toml"),
    ({"issuer": ISSUER, "client_id": "a"}, "client_secret_env"),
    ({"issuer": ISSUER, "client_id": "a", "client_secret_env": "NOT_SET_ANYWHERE_1234"}, "is not set"),
    ({"issuer": ISSUER, "client_secret_env": "X"}, "client_id"),
    ({"issuer": "http://idp.example.test", "client_id": "a", "client_secret_env": "X"}, "https://"),
    ({"client_id": "a"}, None),
])
def test_bad_settings_are_one_sentence(section, says, tmp_path):
    if says is None:  # a client id with no issuer: from the flags it is a mistake, said so
        with pytest.raises(UsageError, match="--oidc-issuer"):
            load_settings(section, client_id="a")
        return
    with pytest.raises(UsageError, match=says.replace("(", r"\(").replace("/", "/")):
        load_settings(section)


def test_a_missing_secret_file_is_named(tmp_path):
    with pytest.raises(UsageError, match="secret file .*nope"):
        load_settings({"issuer": ISSUER, "client_id": "a"}, secret_file=tmp_path / "nope")


def test_loopback_issuers_may_be_plain_http(monkeypatch):
    monkeypatch.setenv("TEST_OIDC_SECRET", "s")
    assert load_settings({"issuer": "http://127.0.0.1:9000", "client_id": "a", "client_secret_env":
                          "TEST_OIDC_SECRET"}).issuer == "http://127.0.0.1:9000"


def test_one_subject_one_account(store, name):
    case, access = store
    access.accounts.add(name, "viewer", None, case.id, oidc_subject=f"sub-{name}")
    assert access.accounts.find(name).oidc_subject == f"sub-{name}"
    with pytest.raises(UsageError, match="linked to user"):
        access.accounts.add(name + "x", "viewer", PASSWORD, case.id, oidc_subject=f"sub-{name}")
    with pytest.raises(UsageError, match="needs a password, or an OIDC subject"):
        access.accounts.add(name + "y", "viewer", None, case.id)
    assert access.accounts.sign_in_oidc(f"sub-{name}").name == name
    access.accounts.link_oidc(name, None)
    with pytest.raises(Exception, match="unknown_subject"):
        access.accounts.sign_in_oidc(f"sub-{name}")


def test_an_existing_account_is_linked_by_user_add(store, name):
    case, access = store
    access.accounts.add(name, "analyst", PASSWORD, case.id)
    access.accounts.add(name, "analyst", None, case.id, oidc_subject=f"sub2-{name}")
    assert access.accounts.sign_in_oidc(f"sub2-{name}").name == name
    assert access.accounts.sign_in(name, PASSWORD).name == name  # its password still works


def test_serve_names_a_missing_secret_in_one_sentence(tmp_path, capsys, monkeypatch):
    from onrecord.cli import main
    from onrecord.store.case import init_case
    from onrecord.store.engine import DATABASE_URL_ENV

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    init_case(tmp_path / "case").engine.dispose()
    with pytest.raises(SystemExit) as done:
        main(["serve", str(tmp_path / "case"), "--oidc-issuer", ISSUER, "--oidc-client-id", "onrecord"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "client_secret_env (--oidc-secret-env)" in err and "Traceback" not in err
