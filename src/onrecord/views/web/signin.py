"""Who is asking: every page and /api/ route depends on `identify`.

- A store with no accounts is read by the person at this machine (the local user), from
  loopback only: `onrecord user add` makes the first account, and from then on nobody
  reads without signing in.
- With accounts: an API token (`Authorization: Bearer onr_...`) or a session cookie from
  `POST /login`; neither gives 401 (pages send the browser to /login), an account not
  granted this case 403.
- CSRF: the sign-in form carries a token matching a cookie set with the form (double
  submit); every form after sign-in carries the session's own token (`check_csrf`).
"""

from __future__ import annotations

import secrets
import time
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from onrecord.access.accounts import SignInRefused
from onrecord.store.reader import LOCAL_USER, Actor

router = APIRouter(include_in_schema=False)
SESSION_COOKIE = "onrecord_session"
LOGIN_CSRF_COOKIE = "onrecord_login_csrf"
LOOPBACK_CLIENTS = {"127.0.0.1", "::1", "localhost", "testclient"}
ACCOUNTS_RECHECK_S = 2.0  # how stale "this store has no accounts" may be: the first account closes the door fast


class SignInNeeded(HTTPException):
    def __init__(self, detail: str = "sign in first: POST /login, or send Authorization: Bearer <token>"):
        super().__init__(401, detail, headers={"WWW-Authenticate": "Bearer"})


def client_addr(request: Request) -> str | None:
    return request.client.host if request.client else None


def accounts_exist(request: Request) -> bool:
    st = request.app.state
    now = time.monotonic()
    if st.accounts_seen is None or (not st.accounts_seen and now - st.accounts_checked > ACCOUNTS_RECHECK_S):
        st.accounts_seen, st.accounts_checked = st.access.accounts.any(), now
    return st.accounts_seen


def identify(request: Request) -> Actor:
    """The actor of this request (also left on request.state.actor), or 401/403: granted
    the case and holding the `view` right."""
    actor = granted(request)
    if not actor.may("view"):  # a machine feed's account (role `feed`): it posts frames, it reads nothing
        raise HTTPException(403, f"{actor.name} ({actor.role}) may not read the case")
    return actor


def granted(request: Request) -> Actor:
    """The actor of this request if granted this case, whatever their rights (left on
    request.state.actor); else 401/403. `identify` for the routes that read."""
    actor = who(request)
    served = request.app.state.case
    if served is not None and actor.cases is not None and served.case.id not in actor.cases:
        if getattr(request.app.state, "mounted", False):
            # one of many cases on a server: the same answer as a case that does not exist,
            # so nobody learns which cases there are from cases they may not read; the audit
            # still records it as the denial it is (audit_reads.py). (server.py sends such
            # requests elsewhere before they get here; this holds if it ever did not.)
            request.state.actor, request.state.denied = actor, True
            raise HTTPException(404, NO_SUCH_CASE)
        raise HTTPException(403, f"{actor.name} may not read this case")
    request.state.actor = actor
    return actor


def who(request: Request) -> Actor:
    """Who is asking, the case not yet considered: the local user (no accounts, loopback),
    or the account of a valid token or session (left on request.state.session); else
    401/403. Worked out once per request: a server of many cases asks before it picks the
    case's app, which then finds the answer on the request's state."""
    known = getattr(request.state, "who", None)
    if known is not None:
        request.state.session = known[1]
        return known[0]
    actor = _who(request)
    request.state.who = (actor, request.state.session)
    return actor


def _who(request: Request) -> Actor:
    access = request.app.state.access
    request.state.session = None
    if not accounts_exist(request):
        if client_addr(request) not in LOOPBACK_CLIENTS and request.client is not None:
            raise HTTPException(403, "this store has no accounts yet: only this machine may read it "
                                     "(add one with `onrecord user add`)")
        request.state.actor = LOCAL_USER
        return LOCAL_USER
    name = None
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        name = access.tokens.user_of(token.strip())
        if name is None:
            raise SignInNeeded("that API token is not valid (unknown, revoked, or its account is disabled)")
    else:
        session = access.sessions.find(request.cookies.get(SESSION_COOKIE))
        if session is not None:
            request.state.session, name = session, session.user_name
    actor = access.actor(name) if name else None
    if actor is None:
        raise SignInNeeded()
    return actor


NO_SUCH_CASE = "no case at this address that you may read (/cases lists yours)"


def served_case(request: Request):
    """The Case this app serves, or None on a server of many cases (its own pages)."""
    st = request.app.state.case
    return st.case if st is not None else None


def case_id(request: Request) -> int | None:
    c = served_case(request)
    return c.id if c is not None else None


def check_csrf(request: Request, token: str | None) -> None:
    """A state-changing form of a signed-in session must carry that session's token."""
    session = getattr(request.state, "session", None)
    if session is None:
        actor = getattr(request.state, "actor", None)
        if actor is LOCAL_USER or (actor is not None and request.headers.get("authorization")):
            return  # no accounts (loopback only), or an API token: no cookie a page could ride on
        raise HTTPException(403, "this form needs a signed-in session")
    if not token or not secrets.compare_digest(token, session.csrf):
        raise HTTPException(403, "the form's CSRF token does not match this session: reload the page")


def home(request: Request) -> str:
    """Where a signed-in person starts: the timeline of the one case, or the list of cases
    (or the app's own start page: the live board's is /board)."""
    start = getattr(request.app.state, "home", None)
    if start:
        return start
    return "/timeline" if request.app.state.case is not None else "/cases"


def safe_next(request: Request, target: str | None) -> str:
    # only a path on this server: never //other.example or https://... (an open redirect)
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return home(request)
    return target



def login_page(request: Request, message: str | None, next_url: str, status: int = 200) -> HTMLResponse:
    csrf = secrets.token_urlsafe(24)
    oidc = getattr(request.app.state, "oidc", None)
    html = request.app.state.templates.get_template("login.html").render(
        request=request, message=message, next=next_url, csrf=csrf, case=served_case(request), nav="", base="",
        oidc_label=oidc.settings.label if oidc else None)
    response = HTMLResponse(html, status_code=status)
    response.set_cookie(LOGIN_CSRF_COOKIE, csrf, httponly=True, samesite="strict", path="/login",
                        secure=request.app.state.secure_cookies, max_age=3600)
    return response


REFUSED = ("Sign-in refused: the name, password or code was not accepted, or the account is locked after too "
           "many attempts.")


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str | None = None):
    return login_page(request, None, safe_next(request, next))


@router.post("/login")
def login(request: Request, username: Annotated[str, Form(max_length=120)],
          password: Annotated[str, Form(max_length=256)], code: Annotated[str, Form(max_length=12)] = "",
          csrf: Annotated[str, Form(max_length=100)] = "", next: Annotated[str, Form(max_length=500)] = "/timeline"):
    access = request.app.state.access
    expected = request.cookies.get(LOGIN_CSRF_COOKIE)
    if not expected or not secrets.compare_digest(csrf, expected):
        return login_page(request, "The form had expired: sign in again.", safe_next(request, next), 403)
    audit = request.app.state.audit
    try:
        account = access.accounts.sign_in(username, password, code or None)
    except SignInRefused as refused:
        audit.sign_in(username, client_addr(request), refused.reason, case_id(request))
        # one message for every reason: nothing tells a guesser whether the name exists
        return login_page(request, REFUSED, safe_next(request, next), 401)
    audit.sign_in(account.name, client_addr(request), None, case_id(request))
    response = start_session(request, account, RedirectResponse(safe_next(request, next), status_code=303))
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/login")
    return response


def start_session(request: Request, account, response):
    """A new server-side session for a signed-in account (password or OIDC alike), its
    cookie set on `response` (the answer sending the browser on)."""
    token, _ = request.app.state.access.sessions.start(account.id, client_addr(request))
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="strict", path="/",
                        secure=request.app.state.secure_cookies)
    return response


@router.post("/logout")
def logout(request: Request, csrf: Annotated[str, Form(max_length=100)] = ""):
    access = request.app.state.access
    session = access.sessions.find(request.cookies.get(SESSION_COOKIE))
    if session is not None:
        if not secrets.compare_digest(csrf, session.csrf):
            raise HTTPException(403, "the form's CSRF token does not match this session: reload the page")
        access.sessions.end(request.cookies.get(SESSION_COOKIE))
        request.app.state.audit.event(session.user_name, "web", "sign_out", "POST /logout", client_addr(request),
                                      "allowed", case_id(request))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def login_redirect(request: Request) -> RedirectResponse:
    # the whole path, a case's prefix on a server of many (/cases/<uid>) included: sign-in is the server's
    path = request.url.path
    path += f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse("/login?next=" + quote(path, safe=""), status_code=303)
