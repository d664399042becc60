"""A server of many cases: `onrecord serve --database-url URL` serves every case of one
PostgreSQL (or SQLite) store, each under `/cases/<uid>/` by the same app `onrecord serve
CASE` runs for one (app.py), so every route of a case reads through the one reader door
and is checked and audited as it is there.

Accounts belong to the store (docs/access.md): one sign-in at `/login` for the whole
server; `/cases` lists the cases granted to the account (`onrecord user add CASE NAME`).
Who asks is worked out before a case's app is chosen: a case not granted is answered by
the same app as a case that does not exist (absent_app: 401 signed out, else 404, the same
sentence), so neither its name nor that it exists is told.
Each case's app is made the first time someone asks for it, so a store of a hundred
cases does not read a hundred cases' facets at start.
"""

from __future__ import annotations

import re
import threading
from http import HTTPMethod
from pathlib import Path

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from onrecord.store.case import Case, case_of_uid, store_cases
from onrecord.store.write_lock import DEFAULT_WAIT_S
from onrecord.views.web.api import ERRORS
from onrecord.views.web.signin import NO_SUCH_CASE, identify

# every method a case's routes answer: the same 404 for each where the case is not the asker's
ANSWERED_METHODS = (HTTPMethod.GET, HTTPMethod.HEAD, HTTPMethod.POST, HTTPMethod.PUT, HTTPMethod.PATCH,
                    HTTPMethod.DELETE)
CASE_PATH = re.compile(r"^/cases/([0-9a-fA-F-]{36})(/.*)?$")
router = APIRouter()


class CaseEntry(BaseModel):
    uid: str
    name: str
    url: str


class CaseList(BaseModel):
    cases: list[CaseEntry]


def readable(request: Request, actor) -> list[dict]:
    """The store's cases this actor may read (all of them for the local user of a store
    without accounts; else those granted)."""
    return [c for c in store_cases(request.app.state.access.engine) if actor.cases is None or c["id"] in actor.cases]


def _listed(request: Request, actor) -> list[dict]:
    from onrecord.views.web.audit_reads import returned

    found = readable(request, actor)
    returned(request, (c["id"] for c in found))
    return [{"uid": c["uid"], "name": c["name"], "url": f"/cases/{c['uid']}/timeline"} for c in found]


@router.get("/api/cases", tags=["server"], responses={c: ERRORS[c] for c in (401, 403, 421, 422)},
            summary="The cases on this server this account may read")
def list_cases(request: Request, actor=Depends(identify)) -> CaseList:
    return CaseList(cases=_listed(request, actor))


@router.get("/cases", include_in_schema=False, response_class=HTMLResponse)
def cases_page(request: Request, actor=Depends(identify)):
    session = request.state.session
    return request.app.state.templates.TemplateResponse(request, "cases.html", {
        "request": request, "case": None, "base": "", "nav": "", "items": _listed(request, actor),
        "signed_in": actor.name if session else None, "csrf": session.csrf if session else None})


@router.get("/", include_in_schema=False)
@router.get("/timeline", include_in_schema=False)
def home():
    return RedirectResponse("/cases", status_code=303)


class CaseDispatch:
    """ASGI: `/cases/<uid>/rest` goes to that case's app, which answers it as `/rest`, its
    prefix in `root_path` (the pages' links and scripts carry it); every other path to the
    server's own routes."""

    def __init__(self, app, server: FastAPI, now_ms=None):
        self.app, self.server, self.now_ms = app, server, now_ms
        self._lock = threading.Lock()
        self._apps: dict[str, FastAPI] = {}
        self.absent = absent_app(server)

    def case_app(self, uid: str) -> FastAPI | None:
        uid = uid.lower()
        with self._lock:
            if uid in self._apps:
                return self._apps[uid]
        engine = self.server.state.access.engine
        row = case_of_uid(engine, uid)
        if row is None:
            return None
        from onrecord.views.web.app import create_app

        with self._lock:
            if uid not in self._apps:
                case = Case(path=Path(uid), uid=uid, name=row["name"], id=row["id"], engine=engine, settings={})
                self._apps[uid] = create_app(case, server=self.server, now_ms=self.now_ms,
                                             **({"read_pool": self.server.state.read_pool}
                                                if hasattr(self.server.state, "read_pool") else {}))
            return self._apps[uid]

    def _permits(self, scope, sub: FastAPI) -> bool:
        """May the asker read this case? Asked before the case's app sees the request, so a
        case not granted is answered by the same app as one that does not exist."""
        from fastapi import HTTPException

        from onrecord.views.web.signin import who

        try:
            actor = who(Request(scope))
        except HTTPException:
            return False
        return actor.cases is None or sub.state.case.case.id in actor.cases

    async def __call__(self, scope, receive, send):
        found = CASE_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if found is None:
            return await self.app(scope, receive, send)
        uid = found.group(1).lower()
        if not found.group(2):
            return await RedirectResponse(f"/cases/{uid}/timeline", status_code=303)(scope, receive, send)
        import anyio

        sub = self._apps.get(uid) or await anyio.to_thread.run_sync(self.case_app, uid)
        child = dict(scope, root_path=scope.get("root_path", "") + f"/cases/{found.group(1)}")
        if sub is not None and await anyio.to_thread.run_sync(self._permits, child, sub):
            # Starlette's way of mounting: the path stays whole, the prefix goes in root_path,
            # and routes match what follows it (audit_reads.route_path)
            return await sub(child, receive, send)
        if sub is not None:
            child.setdefault("state", {})["case_id"] = sub.state.case.case.id  # the audit names the case asked for
        return await self.absent(child, receive, send)


def absent_app(server: FastAPI) -> FastAPI:
    """What answers under /cases/<uid>/ when that case does not exist or the asker may not
    read it: sign in first (401, pages sent to /login), else 404 with one sentence, the
    same for both, naming nothing; audited as a denial."""
    from fastapi import HTTPException

    from onrecord.views.web import app as case_app
    from onrecord.views.web import audit_reads

    absent = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    for shared in ("access", "audit", "oidc", "secure_cookies", "templates", "accounts_seen", "accounts_checked"):
        setattr(absent.state, shared, getattr(server.state, shared))
    absent.state.case, absent.state.mounted = None, True

    @absent.api_route("/{rest:path}", methods=[m.value for m in ANSWERED_METHODS],
                      include_in_schema=False)
    def nothing_here(request: Request, actor=Depends(identify)):
        request.state.denied = True
        raise HTTPException(404, NO_SUCH_CASE)

    absent.add_middleware(audit_reads.AuditReads, audit=absent.state.audit, case_id=None)
    case_app.add_common(absent)
    return absent


def create_server(database_url: str, *, host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] = (),
                  secure_cookies: bool = False, now_ms=None, oidc=None, read_pool: int | None = None) -> FastAPI:
    """The app serving every case of the store at `database_url`. `read_pool`: its worker
    threads (app.py)."""
    from onrecord.access.audit import AuditLog
    from onrecord.access.clock import wall_ms
    from onrecord.access.oidc import OidcClient
    from onrecord.access.store import AccessStore
    from onrecord.store import migrate
    from onrecord.store.engine import make_engine
    from onrecord.views.web import app as case_app
    from onrecord.views.web import audit_reads, docs, guard, oidc_signin, signin

    engine = make_engine(database_url, DEFAULT_WAIT_S)
    if migrate.current_revision(engine) != migrate.head_revision():
        migrate.upgrade(engine)
    server = case_app.new_app()
    st = server.state
    st.access = AccessStore(engine, now_ms or wall_ms)
    st.audit = AuditLog(engine, now_ms or wall_ms, background=True)
    st.oidc = OidcClient(oidc, engine) if oidc is not None else None
    st.secure_cookies, st.templates, st.case, st.mounted = secure_cookies, case_app.templates(), None, False
    st.accounts_seen, st.accounts_checked = None, 0.0
    if read_pool is not None:
        st.read_pool = read_pool
    server.mount("/static", StaticFiles(directory=str(case_app.HERE / "static")), name="static")
    server.include_router(signin.router)
    server.include_router(oidc_signin.router)
    server.include_router(router)
    server.include_router(docs.router)
    server.add_middleware(audit_reads.AuditReads, audit=st.audit, case_id=None)
    server.add_middleware(CaseDispatch, server=server, now_ms=now_ms)
    server.add_middleware(guard.Guard, allowed=guard.served_names(host, allowed_hosts))
    case_app.add_common(server)
    return server

