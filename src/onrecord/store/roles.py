"""What each role may do: the one table (docs/access.md shows the same). Every check of a
right in the code asks `may(role, right)`; nothing else decides."""

from __future__ import annotations

RIGHTS = {
    "view": "view the timeline, findings, claims and sources",
    "raw": "see raw lines and statement text as stored",
    "personal": "see personal details of prior contacts and the identities of protected people",
    "annotate": "tag, comment on, star and dispute events and findings; save searches",
    "export": "write reports and exports",
    "manage_users": "add, disable and reset accounts; restrict sources; mark people protected",
    "read_audit": "read and verify the audit log",
    "feed": "post frames to the case's live feeds (webhooks), with an API token",
}

ROLES: dict[str, frozenset[str]] = {
    "viewer": frozenset({"view"}),
    "analyst": frozenset({"view", "raw", "personal", "annotate", "export"}),
    "auditor": frozenset({"view", "read_audit"}),
    "admin": frozenset(RIGHTS),
    # a sensor or alerting system's account: its token posts to the live feeds; it reads nothing
    "feed": frozenset({"feed"}),
}

# The person at this machine reading a case folder they can open, on a store with no accounts.
LOCAL_ROLE = "admin"


def may(role: str, right: str) -> bool:
    if right not in RIGHTS:
        raise KeyError(f"no right {right!r}")  # a typo in a check must not quietly deny or allow
    return right in ROLES.get(role, frozenset())
