"""Passwords: the rule a new one must meet and how it is kept (argon2id, through pwdlib).

The rule follows CJIS 5.6.2.1.1 (after NIST SP 800-63B): at least 8 characters, not one
on a list of passwords known to be common or breached, not the account's own name; no
composition rules, no forced expiry."""

from __future__ import annotations

import threading
from functools import cache
from importlib.resources import files

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from onrecord.errors import UsageError

MIN_LENGTH = 8
MAX_LENGTH = 256  # argon2 takes any length; a bound keeps a huge form field from costing seconds
HASHER = PasswordHash((Argon2Hasher(),))


@cache
def blocklist() -> frozenset[str]:
    """Common and breached passwords (common_passwords.txt, one a line), lower-cased."""
    text = (files("onrecord.access") / "common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(w.strip().lower() for w in text.splitlines() if w.strip() and not w.startswith("#"))


def check_new(password: str, user_name: str) -> None:
    """Refuse, in one sentence, a password that does not meet the rule."""
    if len(password) < MIN_LENGTH:
        raise UsageError(f"the password has {len(password)} characters: at least {MIN_LENGTH} are needed")
    if len(password) > MAX_LENGTH:
        raise UsageError(f"the password has more than {MAX_LENGTH} characters")
    low = password.lower()
    if low in blocklist() or low.rstrip("0123456789!.") in blocklist():
        raise UsageError("that password is on the list of common or breached passwords: choose another")
    if user_name.lower() in low or len(set(low)) < 3:
        raise UsageError("the password must not contain the account's name or repeat one or two characters")


def hash_password(password: str) -> str:
    with AT_ONCE:
        return HASHER.hash(password)


# argon2id here takes 64 MiB and most of a core per hash: 50 sign-ins at once would take
# 3 GB. At most this many run at once; the others wait their turn (a flood of sign-ins
# slows sign-in, not the server). A server of N worker processes shares them out
# (share_hashing), so N processes hash no more at once than one did.
HASHES_AT_ONCE = 4
AT_ONCE = threading.BoundedSemaphore(HASHES_AT_ONCE)


def share_hashing(processes: int) -> None:
    """This process is one of `processes` answering together: its share of HASHES_AT_ONCE
    (at least one). Called before the process hashes anything."""
    global AT_ONCE
    AT_ONCE = threading.BoundedSemaphore(max(1, HASHES_AT_ONCE // max(1, processes)))


def verify_password(password: str, stored: str) -> bool:
    if len(password) > MAX_LENGTH:
        return False
    with AT_ONCE:
        return HASHER.verify(password, stored)


# Compared against when the account does not exist, so a wrong name costs as long as a wrong password.
DUMMY_HASH = "$argon2id$v=19$m=65536,t=3,p=4$USeWbsMjB5tlCPcmpCcolg$vvZpZ/HFzbiVXjsratlrxqrW+NLLKzbmc1bD/Hnp340"
