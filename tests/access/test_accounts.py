"""Accounts: the password rule, argon2, AC-7 lockout after 5 failures in 15 minutes, and
TOTP codes accepted once."""

from __future__ import annotations

import pyotp
import pytest

from onrecord.access.accounts import SignInRefused
from onrecord.errors import UsageError
from tests.access.conftest import PASSWORD


@pytest.mark.parametrize("bad,words", [("short1!", "at least 8"), ("password", "common"), ("Password1", "common"),
                                       ("qwerty123", "common"), ("aaaaaaaaaaaa", "repeat")])
def test_weak_passwords_are_refused(store, name, bad, words):
    case, access = store
    with pytest.raises(UsageError, match=words):
        access.accounts.add(name, "viewer", bad, case.id)
    assert access.accounts.find(name) is None


def test_the_name_is_not_a_password(store, name):
    case, access = store
    with pytest.raises(UsageError, match="name"):
        access.accounts.add(name, "viewer", f"my {name} pass", case.id)


def test_passwords_are_kept_as_argon2_hashes(store, name):
    from sqlalchemy import select

    from onrecord.store.schema_access import users

    case, access = store
    access.accounts.add(name, "analyst", PASSWORD, case.id, ("EVSO",))
    with case.engine.connect() as conn:
        stored = conn.execute(select(users.c.password_hash).where(users.c.name == name)).scalar()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    account = access.accounts.sign_in(name, PASSWORD)
    assert account.role == "analyst" and account.agencies == {"EVSO"} and case.id in account.cases


def test_five_failures_in_fifteen_minutes_lock_the_account(store, name, clock):
    case, access = store
    access.accounts.add(name, "viewer", PASSWORD, case.id)
    for i in range(4):
        with pytest.raises(SignInRefused) as refused:
            access.accounts.sign_in(name, "wrong password")
        assert "locked" not in refused.value.reason
        clock.advance(minutes=3)  # 4 failures over 12 minutes
    with pytest.raises(SignInRefused, match="locked"):
        access.accounts.sign_in(name, "wrong password")  # the 5th, within 15 minutes of the first
    with pytest.raises(SignInRefused, match="locked"):
        access.accounts.sign_in(name, PASSWORD)  # the right password is refused while locked
    assert access.accounts.find(name).locked
    clock.advance(minutes=15, seconds=1)
    assert access.accounts.sign_in(name, PASSWORD).name == name  # the lock ends


def test_failures_spread_over_more_than_fifteen_minutes_do_not_lock(store, name, clock):
    case, access = store
    access.accounts.add(name, "viewer", PASSWORD, case.id)
    for _ in range(6):
        with pytest.raises(SignInRefused) as refused:
            access.accounts.sign_in(name, "wrong password")
        assert "locked" not in refused.value.reason
        clock.advance(minutes=4)  # never 5 within 15 minutes
    assert access.accounts.sign_in(name, PASSWORD).name == name


def test_an_admin_reset_unlocks(store, name):
    case, access = store
    access.accounts.add(name, "viewer", PASSWORD, case.id)
    for _ in range(5):
        with pytest.raises(SignInRefused):
            access.accounts.sign_in(name, "wrong password")
    assert access.accounts.find(name).locked
    access.accounts.reset(name, "a brand new phrase")
    assert access.accounts.sign_in(name, "a brand new phrase").name == name


def test_a_totp_code_is_accepted_once(store, name, clock):
    case, access = store
    secret = access.accounts.add(name, "analyst", PASSWORD, case.id, totp=True)
    code = pyotp.TOTP(secret).at(clock.ms / 1000)
    with pytest.raises(SignInRefused, match="wrong_code"):
        access.accounts.sign_in(name, PASSWORD)  # the password alone is not enough
    assert access.accounts.sign_in(name, PASSWORD, code).name == name
    with pytest.raises(SignInRefused, match="code_reused"):
        access.accounts.sign_in(name, PASSWORD, code)  # the same code again, still within its 30 s
    clock.advance(seconds=30)
    assert access.accounts.sign_in(name, PASSWORD, pyotp.TOTP(secret).at(clock.ms / 1000)).name == name
    with pytest.raises(SignInRefused, match="wrong_code"):
        access.accounts.sign_in(name, PASSWORD, "000000" if code != "000000" else "111111")


def test_a_disabled_account_cannot_sign_in(store, name):
    case, access = store
    access.accounts.add(name, "viewer", PASSWORD, case.id)
    access.accounts.disable(name)
    with pytest.raises(SignInRefused, match="disabled"):
        access.accounts.sign_in(name, PASSWORD)


def test_unknown_roles_and_names_are_refused(store):
    case, access = store
    with pytest.raises(UsageError, match="--role"):
        access.accounts.add("bo", "superuser", PASSWORD, case.id)
    with pytest.raises(UsageError, match="user name"):
        access.accounts.add("bo <script>", "viewer", PASSWORD, case.id)
