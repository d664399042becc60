"""Who may read the board, act on it, and post to a feed: the web's own sign-in, roles and
audit (views/web/signin.py, store/roles.py, views/web/audit_reads.py), not a copy of them.

- Reading the board (its page, state, alerts, stream): a signed-in session or an API token
  of an account granted the case, with the `view` right (every role of a person). A store
  with no accounts is read by the person at this machine, from loopback only, as the web is.
- Acknowledging an alert: the `annotate` right (analysts, admins), and a session's CSRF token.
- Posting to a feed: an API token (`Authorization: Bearer`) of an account with the `feed`
  right (role `feed`, or admin). A browser's session is not taken: a page elsewhere could
  make the browser post to a feed.
- A board's stream lasts as long as its credential: `still_valid` re-checks it (a session
  signed out, idle past 30 minutes, older than 12 hours, an account disabled, a token
  revoked all end the stream; watching does not count as use).
"""

from __future__ import annotations

from fastapi import HTTPException, Request

from onrecord.store.reader import Actor
from onrecord.store.roles import RIGHTS
from onrecord.views.web.signin import SESSION_COOKIE, SignInNeeded, accounts_exist, granted


def allowed(request: Request, right: str = "view") -> Actor:
    """The signed-in actor of this request, granted the case, if they hold `right`; else 401
    (not signed in) or 403."""
    actor = granted(request)
    if not actor.may(right):
        raise HTTPException(403, f"{actor.name} ({actor.role}) may not {RIGHTS[right]}")
    return actor


def feed_sender(request: Request) -> Actor:
    """The account posting a frame to a feed: an API token's (or the local user's, on a store
    with no accounts, from loopback)."""
    scheme = request.headers.get("authorization", "").partition(" ")[0]
    if accounts_exist(request) and scheme.lower() != "bearer":
        raise SignInNeeded("a feed takes an API token: send Authorization: Bearer <token> (onrecord token create)")
    return allowed(request, "feed")


def still_valid(request: Request) -> bool:
    """Whether the credential this request came with still holds, checked without counting
    as use; the local user's holds while the store has no accounts."""
    actor: Actor = request.state.actor
    access = request.app.state.access
    if actor.kind == "local":
        return not access.accounts.any()
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        name = access.tokens.user_of(token.strip())
    else:
        session = access.sessions.find(request.cookies.get(SESSION_COOKIE), touch=False)
        name = session.user_name if session else None
    return name == actor.name and access.actor(name) is not None
