"""The live board's web server: the board page (no inline script, nothing from a record
written as markup: the page's script sets text only), its state as JSON, its changes as
server-sent events, the webhook endpoint feeds POST to, and the evidence of an alert.

Access: until sign-in exists (issue 16), every route answers loopback clients only; with
it, `access.py` is the one seam to change.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles

from onrecord.live.access import require_reader, require_webhook_sender

HERE = Path(__file__).parent
CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " \
      "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
MAX_BODY = 4 << 20


def create_board_app(case, node, ingest) -> FastAPI:
    app = FastAPI(title="onrecord live", docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/board/static", StaticFiles(directory=str(HERE / "board")), name="board-static")

    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response

    @app.get("/")
    @app.get("/board")
    def board_page(request: Request):
        require_reader(request)
        if node is None:
            raise HTTPException(404, "this node only ingests: the board is on the rules node")
        return FileResponse(HERE / "board" / "board.html", media_type="text/html")

    @app.get("/board/state")
    def board_state(request: Request):
        require_reader(request)
        if node is None:
            raise HTTPException(404, "this node only ingests")
        return JSONResponse(node.board.snapshot())

    @app.get("/board/events")
    async def board_events(request: Request):
        require_reader(request)
        if node is None:
            raise HTTPException(404, "this node only ingests")
        return StreamingResponse(_changes(request, node.board), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    @app.get("/board/alerts")
    def alerts(request: Request):
        require_reader(request)
        if node is None:
            raise HTTPException(404, "this node only ingests")
        from dataclasses import asdict

        return JSONResponse([asdict(a.finding()) for a in node.engine.history])

    @app.post("/feeds/{name}")
    async def webhook(name: str, request: Request):
        require_webhook_sender(request, name)
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
        return JSONResponse({"raw_record": o.raw_id, "events": [e.id for e in o.events], "rejected": o.reject},
                            status_code=202)

    return app


async def _changes(request: Request, board):
    seen = -1
    while not await request.is_disconnected():
        if board.version != seen:
            seen = board.version
            yield f"event: state\ndata: {json.dumps(board.snapshot(), default=str)}\n\n"
        board.changed.clear()
        try:
            await asyncio.wait_for(board.changed.wait(), 15)
        except asyncio.TimeoutError:
            yield ": keep-alive\n\n"
        await asyncio.sleep(0.05)  # at most some twenty pictures a second, however fast the feeds
