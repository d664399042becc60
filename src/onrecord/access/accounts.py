"""Accounts in the store: add, list, disable, reset, and signing in with a password and,
where enrolled, a TOTP code. The CJIS numbers live here:

- AC-7: 5 failed sign-ins within 15 minutes lock the account for 15 minutes (or until an
  admin's `onrecord user reset`); a locked account refuses even the right password.
- IA-2: a TOTP code (RFC 6238, 30-second steps, one step of clock skew either way) is
  accepted once: the newest step used is stored, and no code of that step or an older
  one is taken again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyotp
from sqlalchemy import Engine, bindparam, delete, func, insert, select, update

from onrecord.access import passwords
from onrecord.access.clock import wall_ms
from onrecord.errors import UsageError
from onrecord.store.roles import ROLES
from onrecord.store.schema_access import sign_in_failures, user_agencies, user_cases, users

FIND_USER = select(users).where(users.c.name == bindparam("name"))
USER_AGENCIES = select(user_agencies.c.agency).where(user_agencies.c.user_id == bindparam("uid"))
USER_CASES = select(user_cases.c.case_id).where(user_cases.c.user_id == bindparam("uid"))

MAX_FAILURES = 5
FAILURE_WINDOW_MS = 15 * 60_000
LOCK_MS = 15 * 60_000
TOTP_STEP_S = 30
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789._-@")
NO_PASSWORD = "!"  # the hash of an OIDC-only account: no argon2 hash looks like it, so no password matches
MAX_SUBJECT = 255


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    role: str
    agencies: frozenset[str]
    cases: frozenset[int]
    disabled: bool
    locked: bool
    totp: bool
    oidc_subject: str | None = None


class SignInRefused(Exception):
    """Why a sign-in was refused (for the audit; the person is told only that it was)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason  # unknown_user, wrong_password, wrong_code, code_reused, locked, disabled


def check_name(name: str) -> str:
    name = name.strip().lower()
    if not name or len(name) > 120 or set(name) - NAME_CHARS:
        raise UsageError(f"user name {name!r}: use 1-120 of a-z, 0-9, '.', '_', '-', '@'")
    return name


def check_subject(subject: str) -> str:
    subject = subject.strip()
    if not subject or len(subject) > MAX_SUBJECT or any(ord(c) < 32 for c in subject):
        raise UsageError(f"OIDC subject {subject!r}: 1-{MAX_SUBJECT} printable characters (the provider's `sub`)")
    return subject


class Accounts:
    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms):
        self.engine, self.now_ms = engine, now_ms

    # ---- managing accounts (onrecord user ...)

    def add(self, name: str, role: str, password: str | None, case_id: int, agencies: tuple[str, ...] = (),
            totp: bool = False, oidc_subject: str | None = None) -> str | None:
        """Create the account with access to `case_id`, or grant an existing one that case.
        `oidc_subject`: link the account to that OIDC subject (then `password` may be None:
        the account signs in through the provider only). Returns the TOTP secret when one
        was enrolled."""
        name = check_name(name)
        if role not in ROLES:
            raise UsageError(f"--role {role!r}: choose one of {', '.join(ROLES)}")
        subject = check_subject(oidc_subject) if oidc_subject is not None else None
        existing = self.find(name)
        if existing is not None:
            if existing.role != role or existing.agencies != frozenset(agencies):
                raise UsageError(f"user {name} exists with role {existing.role}; `onrecord user reset` changes a "
                                 "password, and a role is changed by removing and adding the account")
            if subject is not None and subject != existing.oidc_subject:
                self.link_oidc(name, subject)
            with self.engine.begin() as conn:
                if case_id not in existing.cases:
                    conn.execute(insert(user_cases).values(user_id=existing.id, case_id=case_id))
            return None
        if password is None and subject is None and role != "feed":  # a feed's account signs in by token only
            raise UsageError(f"user {name} needs a password, or an OIDC subject to sign in with (--oidc-subject)")
        if password is not None:
            passwords.check_new(password, name)
        if subject is not None:
            self._subject_free(subject)
        secret = pyotp.random_base32() if totp else None
        now = self.now_ms()
        with self.engine.begin() as conn:
            uid = conn.execute(insert(users).values(
                name=name, role=role, password_hash=NO_PASSWORD if password is None else passwords.hash_password(
                    password), totp_secret=secret, disabled=0, created_at_ms=now, password_set_at_ms=now,
                oidc_subject=subject)).inserted_primary_key[0]
            conn.execute(insert(user_cases).values(user_id=uid, case_id=case_id))
            for agency in sorted(set(agencies)):
                conn.execute(insert(user_agencies).values(user_id=uid, agency=agency))
        return secret

    def find(self, name: str) -> Account | None:
        # asked for every signed-in reader every ACTOR_KEPT_S (access/store.py): statements
        # built once, one per table, no list of ids to expand
        with self.engine.connect() as conn:
            row = conn.execute(FIND_USER, {"name": name}).mappings().first()
            if row is None:
                return None
            agencies = {a for (a,) in conn.execute(USER_AGENCIES, {"uid": row["id"]})}
            cases = {c for (c,) in conn.execute(USER_CASES, {"uid": row["id"]})}
        return self._account(row, agencies, cases, self.now_ms())

    def list(self, name: str | None = None) -> list[Account]:
        with self.engine.connect() as conn:
            stmt = select(users).order_by(users.c.name)
            if name is not None:
                stmt = stmt.where(users.c.name == name)
            rows = conn.execute(stmt).mappings().all()
            ids = [r["id"] for r in rows]
            agencies, cases = {}, {}
            for uid, agency in conn.execute(select(user_agencies).where(user_agencies.c.user_id.in_(ids))):
                agencies.setdefault(uid, set()).add(agency)
            for uid, case_id in conn.execute(select(user_cases).where(user_cases.c.user_id.in_(ids))):
                cases.setdefault(uid, set()).add(case_id)
        now = self.now_ms()
        return [self._account(r, agencies.get(r["id"], ()), cases.get(r["id"], ()), now) for r in rows]

    @staticmethod
    def _account(r, agencies, cases, now: int) -> Account:
        return Account(id=r["id"], name=r["name"], role=r["role"], agencies=frozenset(agencies),
                       cases=frozenset(cases), disabled=bool(r["disabled"]),
                       locked=(r["locked_until_ms"] or 0) > now, totp=r["totp_secret"] is not None,
                       oidc_subject=r["oidc_subject"])

    def any(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(users.c.id).limit(1)).first() is not None

    def _must(self, name: str) -> Account:
        found = self.find(check_name(name))
        if found is None:
            raise UsageError(f"no user {name!r} in this store (`onrecord user list` shows them)")
        return found

    def link_oidc(self, name: str, subject: str | None) -> Account:
        """Link the account to an OIDC subject (None: unlink)."""
        account = self._must(name)
        if subject is not None:
            subject = check_subject(subject)
            self._subject_free(subject, account.id)
        with self.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == account.id).values(oidc_subject=subject))
        return account

    def _subject_free(self, subject: str, user_id: int | None = None) -> None:
        with self.engine.connect() as conn:
            other = conn.execute(select(users.c.name).where(users.c.oidc_subject == subject,
                                                            users.c.id != (user_id or -1))).scalar()
        if other is not None:
            raise UsageError(f"OIDC subject {subject!r} is linked to user {other} already: one subject, one account")

    def disable(self, name: str) -> Account:
        account = self._must(name)
        with self.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == account.id).values(disabled=1))
        return account

    def reset(self, name: str, password: str, totp: bool | None = None) -> str | None:
        """A new password; unlocks and re-enables the account. `totp` True enrols a new
        secret (returned), False removes it, None keeps it."""
        account = self._must(name)
        passwords.check_new(password, account.name)
        values = {"password_hash": passwords.hash_password(password), "password_set_at_ms": self.now_ms(),
                  "locked_until_ms": None, "disabled": 0}
        secret = None
        if totp is not None:
            secret = pyotp.random_base32() if totp else None
            values |= {"totp_secret": secret, "totp_last_step": None}
        with self.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == account.id).values(**values))
            conn.execute(delete(sign_in_failures).where(sign_in_failures.c.user_name == account.name))
        return secret

    # ---- signing in

    def sign_in(self, name: str, password: str, code: str | None = None) -> Account:
        """The account, or SignInRefused. Every refusal of a known or unknown name counts
        toward that name's lockout."""
        name = name.strip().lower()[:120]
        now = self.now_ms()
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).mappings().first()
        if row is None:
            passwords.verify_password(password, passwords.DUMMY_HASH)  # the same time as a wrong password
            raise self._failed(name, "unknown_user")
        if (row["locked_until_ms"] or 0) > now:
            raise SignInRefused("locked")
        if row["disabled"]:
            raise SignInRefused("disabled")
        if row["password_hash"] == NO_PASSWORD:  # OIDC only: no password is right (and it costs the same)
            passwords.verify_password(password, passwords.DUMMY_HASH)
            raise self._failed(name, "wrong_password")
        if not passwords.verify_password(password, row["password_hash"]):
            raise self._failed(name, "wrong_password")
        if row["totp_secret"]:
            step = self._code_step(row["totp_secret"], code or "", now)
            if step is None:
                raise self._failed(name, "wrong_code")
            with self.engine.begin() as conn:
                # each code once: only a step newer than the last accepted one is taken
                taken = conn.execute(update(users).where(
                    users.c.id == row["id"],
                    (users.c.totp_last_step.is_(None)) | (users.c.totp_last_step < step)).values(
                    totp_last_step=step)).rowcount
            if not taken:
                raise self._failed(name, "code_reused")
        with self.engine.begin() as conn:
            conn.execute(delete(sign_in_failures).where(sign_in_failures.c.user_name == name))
        return self.find(name)

    def sign_in_oidc(self, subject: str) -> Account:
        """The account linked to this OIDC subject, whose ID token the caller verified; or
        SignInRefused (unknown_subject, locked, disabled). The provider checked the password
        and its own second factor; a lock set here (5 password failures) holds for it too."""
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.oidc_subject == subject[:MAX_SUBJECT])).mappings().first()
        if row is None:
            raise SignInRefused("unknown_subject")
        if (row["locked_until_ms"] or 0) > self.now_ms():
            raise SignInRefused("locked")
        if row["disabled"]:
            raise SignInRefused("disabled")
        return self.find(row["name"])

    @staticmethod
    def _code_step(secret: str, code: str, now_ms: int) -> int | None:
        code = code.strip().replace(" ", "")
        if not code.isdigit():
            return None
        totp, step = pyotp.TOTP(secret), now_ms // 1000 // TOTP_STEP_S
        for s in (step, step - 1, step + 1):
            if totp.at(s * TOTP_STEP_S) == code:
                return s
        return None

    def _failed(self, name: str, reason: str) -> SignInRefused:
        now = self.now_ms()
        with self.engine.begin() as conn:
            conn.execute(insert(sign_in_failures).values(user_name=name, at_ms=now))
            recent = conn.execute(select(func.count()).select_from(sign_in_failures).where(
                sign_in_failures.c.user_name == name, sign_in_failures.c.at_ms > now - FAILURE_WINDOW_MS)).scalar()
            if recent >= MAX_FAILURES:
                locked = conn.execute(update(users).where(users.c.name == name).values(
                    locked_until_ms=now + LOCK_MS)).rowcount
                if locked:
                    return SignInRefused(f"{reason}; account locked")
        return SignInRefused(reason)
