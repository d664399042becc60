"""The live board's web server: the board page (no inline script, nothing from a record
written as markup: the page's script sets text only), its state as JSON, its changes as
server-sent events, the acknowledgement of an alert, the webhook endpoint feeds POST to.

Behind the web's own door (access.py): sign-in at /login (password and code, or OIDC) with
the web's sessions, API tokens, roles, the Host check and security headers (guard.py), an
audit entry per request (audit_reads.py). What a reader is shown is filtered for them as
the web filters the case (board_view.py).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles

from onrecord.live.access import allowed, feed_sender, still_valid
from onrecord.live.board_view import shown, shown_alerts
from onrecord.views.web.audit_reads import returned

HERE = Path(__file__).parent
MAX_BODY = 4 << 20
PAGES = ("/board",)
RECHECK_S = 15.0  # a stream's credential is checked again this often (and a keep-alive sent)


def create_board_app(case, node, ingest, *, host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] = (),
                     secure_cookies: bool = False, oidc=None, now_ms=None) -> FastAPI:
    """`host`, `allowed_hosts`, `secure_cookies`, `oidc`, `now_ms`: as for the web's
    create_app (views/web/app.py)."""
    from onrecord.access.audit import AuditLog
    from onrecord.access.clock import wall_ms
    from onrecord.access.oidc import OidcClient
    from onrecord.access.store import AccessStore
    from onrecord.store.reader import open_reader
    from onrecord.views.web import audit_reads, guard, oidc_signin, signin
    from onrecord.views.web.app import CaseState, templates

    app = FastAPI(title="onrecord live", docs_url=None, redoc_url=None, openapi_url=None)
    st = app.state
    st.access, st.case_id, st.now_ms = AccessStore.of(case, now_ms or wall_ms), case.id, now_ms or wall_ms
    st.audit = AuditLog(st.access.engine, now_ms or wall_ms, background=True)
    st.oidc = OidcClient(oidc, st.access.engine) if oidc is not None else None
    st.secure_cookies, st.templates, st.home, st.mounted = secure_cookies, templates(), "/board", False
    st.accounts_seen, st.accounts_checked = None, 0.0
    st.case = CaseState(open_reader(case, read_only=True).case)
    app.mount("/static/board", StaticFiles(directory=str(HERE / "board")), name="board-static")
    app.mount("/static", StaticFiles(directory=str(Path(signin.__file__).parent / "static")), name="static")
    app.include_router(signin.router)
    app.include_router(oidc_signin.router)
    _board_routes(app, node)
    _feed_routes(app, ingest)
    # outermost last: the Host check runs first, then the audit sees every answer it lets through
    app.add_middleware(audit_reads.AuditReads, audit=st.audit, case_id=case.id)
    app.add_middleware(guard.Guard, allowed=guard.served_names(host, allowed_hosts))
    _errors(app)
    return app


def _view(request: Request):
    """(the sources withheld from this reader, their redactor): the reader door's, per view."""
    reader = request.app.state.case.reader(request.state.actor)
    return reader.withheld_sources(), reader.redactor()


async def _picture(request: Request, board) -> dict:
    """The board's picture for this reader. Taken on the event loop, where the rules change
    the board (never from another thread halfway through a change); the store's answer of
    what this reader may see, from a worker thread (the loop never waits on the store)."""
    withheld, redactor = await asyncio.to_thread(_view, request)
    picture = shown(board.snapshot(), withheld, redactor)
    returned(request, _event_ids(picture))
    return picture


def _board_routes(app: FastAPI, node) -> None:
    def board_of(request: Request, right: str = "view"):
        allowed(request, right)
        if node is None:
            raise HTTPException(404, "this node only ingests: the board is on the rules node")
        return node.board

    @app.get("/")
    def start_page():
        # a redirect, not the page: the board's page is served at one path, under one policy
        return RedirectResponse("/board", status_code=303)

    @app.get("/board")
    def board_page(request: Request):
        board_of(request)
        return FileResponse(HERE / "board" / "board.html", media_type="text/html")

    @app.get("/board/state")
    async def board_state(request: Request):
        picture = await _picture(request, await asyncio.to_thread(board_of, request))
        return JSONResponse(picture | {"you": _you(request)})

    @app.get("/board/events")
    async def board_events(request: Request):
        board = await asyncio.to_thread(board_of, request)
        return StreamingResponse(_changes(request, board), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    @app.get("/board/alerts")
    async def alerts(request: Request):
        board = await asyncio.to_thread(board_of, request)
        withheld, redactor = await asyncio.to_thread(_view, request)
        found = shown_alerts([asdict(a.finding()) for a in node.engine.history], board.event_sources(), withheld,
                             redactor)
        returned(request, (e for f in found for e in f["evidence"]))
        return JSONResponse(found)

    @app.post("/board/alerts/{alert_id:path}/acknowledge")  # an id may hold any character its subject does
    async def acknowledge(request: Request, alert_id: str,
                          x_csrf_token: Annotated[str | None, Header(max_length=100)] = None):
        from onrecord.access import alert_acks as acks
        from onrecord.views.web.signin import check_csrf

        board = await asyncio.to_thread(board_of, request, "annotate")
        check_csrf(request, x_csrf_token)
        alert_id = alert_id[:acks.MAX_ID]
        if not board.is_active(alert_id):
            raise HTTPException(404, "no active alert of that id on the board")
        st = request.app.state
        # kept in the store first (a worker thread: the loop never waits on the store), then
        # shown on the board, on the loop, where the board changes
        done = await asyncio.to_thread(acks.keep, st.access.engine, st.case_id, alert_id, request.state.actor.name,
                                       int(st.now_ms()))
        if board.acknowledge(alert_id, done) is None:  # cleared meanwhile: the acknowledgement stands, kept
            raise HTTPException(404, "no active alert of that id on the board")
        return JSONResponse({"alert": alert_id, "acknowledged": done})


def _feed_routes(app: FastAPI, ingest) -> None:
    @app.post("/feeds/{name}")
    async def webhook(name: str, request: Request):
        await asyncio.to_thread(feed_sender, request)  # the token is looked up in the store: not on the loop
        feed = ingest.feeds.get(name) if ingest else None
        if feed is None or feed.spec.type != "webhook":
            raise HTTPException(404, f"no webhook feed named {name!r} in this case")
        body = await request.body()
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"a frame is at most {MAX_BODY} bytes")
        if not body:
            raise HTTPException(400, "empty body: nothing to keep")
        outcomes = await ingest.accept_async(feed, [body])
        o = outcomes[0]
        returned(request, [o.raw_id])
        return JSONResponse({"raw_record": o.raw_id, "events": [e.id for e in o.events], "rejected": o.reject},
                            status_code=202)


def _errors(app: FastAPI) -> None:
    from onrecord.views.web import signin

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        if exc.status_code == 401 and request.url.path in PAGES:
            return signin.login_redirect(request)  # a person at the page: to sign in, then back
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def _you(request: Request) -> dict:
    """Who the board is shown to, what they may do on it, and the CSRF token their session's
    changes carry (readable by this server's own pages only: the answer is same-origin JSON)."""
    actor, session = request.state.actor, getattr(request.state, "session", None)
    return {"name": actor.name, "role": actor.role, "may_acknowledge": actor.may("annotate"),
            "signed_in": session is not None, "csrf": session.csrf if session else None}


def _event_ids(picture: dict):
    for key in ("shots", "calls"):
        yield from (e.get("id") for e in picture[key])
    for a in picture["alerts"]:
        yield from (e.get("id") for e in a.get("evidence", ()))


async def _changes(request: Request, board):
    """The picture each time it changes (at most some twenty a second), for this reader; the
    stream ends, saying `signed_out`, once the credential it came with no longer holds."""
    seen, loop = -1, asyncio.get_running_loop()
    checked = loop.time()
    while not await request.is_disconnected():
        if loop.time() - checked > RECHECK_S:
            checked = loop.time()
            if not await asyncio.to_thread(still_valid, request):
                yield "event: signed_out\ndata: {}\n\n"
                return
        if board.version != seen:
            seen = board.version
            picture = await _picture(request, board)
            yield f"event: state\ndata: {json.dumps(picture, default=str)}\n\n"
        board.changed.clear()
        try:
            await asyncio.wait_for(board.changed.wait(), RECHECK_S)
        except asyncio.TimeoutError:
            yield ": keep-alive\n\n"
        await asyncio.sleep(0.05)  # at most some twenty pictures a second, however fast the feeds
