"""The FastAPI application for one case: pages, the JSON API, static files, errors."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from onrecord.store.case import Case, open_case
from onrecord.store.reader import LOCAL_USER, READ_POOL, Actor, CaseReader, open_reader
from onrecord.views.web import present

HERE = Path(__file__).parent


class CaseState:
    """The served case, and one reader per actor who reads it. Each reader keeps its own
    caches: slow-changing facts (filter values, the busiest window) and recent answers,
    until an import or a build changes the case; what one actor may see is never served
    from another's."""

    def __init__(self, case: Case):
        self.case = case
        self._lock = threading.Lock()
        self._readers: dict[Actor, CaseReader] = {}

    def reader(self, actor: Actor = LOCAL_USER) -> CaseReader:
        """The reader of everyone who sees the case as `actor` does: the same role, agencies
        and cases see the same answers (what is withheld and redacted follows from those
        alone), so they share one reader and its caches — fifty analysts signed in at once
        work out the filter values of a million events once, not fifty times. Who asked is
        the request's actor, in the audit; the reader never names them."""
        view = actor if actor.kind == "local" else dataclasses.replace(actor, name=f"({actor.role} view)")
        with self._lock:
            if view not in self._readers:
                self._readers[view] = open_reader(self.case, view)
            return self._readers[view]

    def facets(self, actor: Actor = LOCAL_USER, version: tuple | None = None) -> dict:
        """The filter values, the zone, the agencies' colours and the incident's window.
        `version`: the case's, as just read (CaseReader.remember_fact)."""
        return self.reader(actor).remember_fact(("facets",), lambda: self._facets(actor), version)

    def _facets(self, actor: Actor) -> dict:
        r = self.reader(actor)
        window = r.busiest_window()
        f = r.facets(window)
        f["zone"] = r.display_zone()
        f["colours"] = present.agency_colours(f["agencies"])
        f["window"] = window
        return f


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("query", "path", "body"))
        parts.append(f"{where}: {e.get('msg')}")
    return "bad request: " + "; ".join(parts)


def create_app(case_path: str | Path | Case, *, host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] = (),
               secure_cookies: bool = False, now_ms=None, oidc=None, server=None,
               read_pool: int = READ_POOL) -> FastAPI:
    """The app serving one case. `host`: the address it is bound to; with `allowed_hosts`,
    the names a request's `Host` may carry (guard.py: every other name is refused).
    `secure_cookies`: served behind TLS, so cookies are sent over HTTPS only. `now_ms`:
    the clock of sessions and lockouts (tests). `oidc`: OidcSettings, to offer sign-in
    through that provider. `server`: the app of a server of many cases (server.py) this
    one is mounted in, under /cases/<uid>: then sign-in, the Host check, the access store
    and the audit log are that server's. `read_pool`: worker threads, and store connections
    kept for them (fewer in each of several server processes: workers.py)."""
    from onrecord.access import audit_spool
    from onrecord.access.audit import AuditLog
    from onrecord.access.clock import wall_ms
    from onrecord.access.oidc import OidcClient
    from onrecord.access.store import AccessStore
    from onrecord.store.write_lock import wait_limit
    from onrecord.views.web import api, audit_api, audit_reads, docs, guard, notes, oidc_signin, pages, signin

    app = new_app()
    case = case_path if isinstance(case_path, Case) else open_case(Path(case_path))
    app.state.mounted = server is not None
    if server is not None:
        for shared in ("access", "audit", "oidc", "secure_cookies", "templates"):
            setattr(app.state, shared, getattr(server.state, shared))
    else:
        app.state.access = AccessStore.of(case, now_ms or wall_ms, read_pool)
        # answers are safe once their entries are lines in the case folder's spool (access/audit_spool.py)
        app.state.audit = AuditLog(app.state.access.engine, now_ms or wall_ms, background=True,
                                   wait_s=wait_limit(case.settings), spool=case.path / audit_spool.FOLDER)
        app.state.oidc = OidcClient(oidc, app.state.access.engine) if oidc is not None else None
        app.state.secure_cookies = secure_cookies
        app.state.templates = templates()
    app.state.accounts_seen, app.state.accounts_checked = None, 0.0
    app.state.read_pool = read_pool
    app.state.case = CaseState(open_reader(case, read_only=True, pool=read_pool).case)
    # Filter values and the busiest window of a million events take seconds: start on them now,
    # so the first page a user opens does not wait for all of it.
    threading.Thread(target=app.state.case.facets, daemon=True, name="onrecord-warm-up").start()
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    if server is None:
        app.include_router(signin.router)
        app.include_router(oidc_signin.router)
    app.include_router(api.router)
    app.include_router(notes.router)
    app.include_router(audit_api.router)
    app.include_router(pages.router)
    app.include_router(docs.router)
    # outermost last: the Host check runs first, then the audit sees every answer it lets through
    app.add_middleware(audit_reads.AuditReads, audit=app.state.audit, case_id=case.id)
    if server is None:
        app.add_middleware(guard.Guard, allowed=guard.served_names(host, allowed_hosts))
    add_common(app)
    return app


def new_app() -> FastAPI:
    from onrecord.views.web import threads

    return FastAPI(title="onrecord", version="1", description="Every agency's account of an incident on one "
                   "record: the case's sourced timeline, findings, claims and sources. Sign in with POST /login "
                   "or send an API token (`onrecord token create`) as `Authorization: Bearer ...`.",
                   docs_url=None, redoc_url=None,  # /docs is served from local files (docs.py)
                   lifespan=threads.lifespan)  # its worker threads: views/web/threads.py


def templates() -> Jinja2Templates:
    from onrecord.views.web import pages

    found = Jinja2Templates(directory=str(HERE / "templates"))
    pages.add_filters(found)
    return found


def add_common(app: FastAPI) -> None:
    """Plotly from its wheel, and the answers of errors: JSON on /api/, pages elsewhere."""
    from onrecord.views.web import signin
    from onrecord.views.web.audit_reads import route_path

    @app.get("/vendor/plotly.min.js", include_in_schema=False)
    def plotly_js():
        # Served from the plotly wheel itself: the page needs no network.
        import plotly
        return FileResponse(Path(plotly.__file__).parent / "package_data" / "plotly.min.js",
                            media_type="application/javascript", headers={"Cache-Control": "max-age=86400"})

    @app.exception_handler(RequestValidationError)
    async def bad_params(request: Request, exc: RequestValidationError):
        return JSONResponse({"detail": _validation_message(exc), "errors": _plain(exc.errors())}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        api_call = route_path(request.scope).startswith("/api/")
        if exc.status_code == 401 and not api_call:
            return signin.login_redirect(request)
        if api_call or exc.status_code not in (403, 404, 422):
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
        # a case this person may not read: the page names nothing of it (not even in its header)
        denied = getattr(request.state, "denied", False)
        return HTMLResponse(app.state.templates.get_template("error.html").render(
            request=request, status=exc.status_code, message=exc.detail,
            case=None if denied else signin.served_case(request), nav="",
            base="" if denied else request.scope.get("root_path", ""), home="/cases" if denied else signin.home(
                request)), status_code=exc.status_code)


def _plain(errors) -> list[dict]:
    """Validation errors as plain JSON (their `ctx` may hold exception objects)."""
    return [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg")), "type": e.get("type")} for e in errors]
