"""The demo's own account: `onrecord demo` serves with sign-in like any server, so it makes
a local admin with a random password and prints it beside the address."""

from __future__ import annotations

import secrets

from onrecord.access.store import AccessStore
from onrecord.store.case import Case

DEMO_ADMIN = "admin"


def demo_admin(case: Case) -> tuple[str, str]:
    """(name, password) of a new admin of `case`; a rerun's account gets a new password."""
    access = AccessStore(case.engine)
    password = secrets.token_urlsafe(12)  # 96 bits: never on a blocklist, never guessed
    if access.accounts.find(DEMO_ADMIN) is None:
        access.accounts.add(DEMO_ADMIN, "admin", password, case.id)
    else:
        access.accounts.add(DEMO_ADMIN, "admin", "", case.id)  # grants this case
        access.accounts.reset(DEMO_ADMIN, password)
    return DEMO_ADMIN, password
