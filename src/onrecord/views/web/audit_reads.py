"""One audit entry per request for case data (pages and /api/): who (the actor `identify`
found, or "(not signed in)"), the route and query, the ids of the records the answer
carried (routes name them with `returned`), from where, and the outcome by status:
allowed (< 400), denied (401, 403, 421), error (the rest). Static files, the sign-in page
and the API's schema are not case data and are not entries; sign-ins write their own.

The answer waits for its entry: its first message (the status line and headers) is held
until the entry is safe (access/audit.py: a line of the case folder's spool, or committed),
so an answer that reached its reader is in the audit log whatever happens to the server
next; if the entry cannot be written, the reader gets 503 instead of the answer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable

from fastapi import Request

from onrecord.access.audit import AuditUnavailable

NOT_CASE_DATA = ("/static/", "/vendor/", "/login", "/logout", "/docs", "/openapi.json")


def route_path(scope) -> str:
    """The path a route of this app answers: on a server of many cases, what follows the
    case's prefix (`/cases/<uid>`, in root_path); else the whole path."""
    path, root = scope.get("path", ""), scope.get("root_path", "")
    return (path[len(root):] or "/") if root and path.startswith(root) else path


def returned(request: Request, ids: Iterable[int]) -> None:
    """The ids of the records this answer shows (events, findings, claims, sources ...)."""
    got = getattr(request.state, "returned", None)
    if got is None:
        got = request.state.returned = set()
    got.update(int(i) for i in ids if i is not None)


def outcome(status: int) -> str:
    if status < 400 or status == 404 or status == 422:
        return "allowed"  # asked and answered (a missing id or a bad parameter is an answer too)
    if status in (401, 403, 421):
        return "denied"
    return "error"


UNAUDITED = json.dumps({"detail": "the audit log cannot be written just now, so this answer is withheld: "
                                   "try again shortly"}).encode()


class AuditReads:
    """ASGI middleware writing the entry once the answer's status is known, before the
    answer is sent."""

    def __init__(self, app, audit, case_id: int):
        self.app, self.audit, self.case_id = app, audit, case_id

    async def __call__(self, scope, receive, send):
        path = route_path(scope)
        if scope["type"] != "http" or path.startswith(NOT_CASE_DATA):
            return await self.app(scope, receive, send)
        answer = {"started": False, "withheld": False}

        async def audited(message):
            if message["type"] == "http.response.start":
                answer["started"] = True
                if not await self._record(scope, path, message["status"]):
                    answer["withheld"] = True
                    await _unaudited(send)
                    return
            if not answer["withheld"]:
                await send(message)

        try:
            await self.app(scope, receive, audited)
        finally:
            if not answer["started"]:  # no answer began (an exception): the error is an entry too
                await self._record(scope, path, 500)

    async def _record(self, scope, path: str, status: int) -> bool:
        """Commit this request's entry; False when it could not be written."""
        state = scope.get("state") or {}
        actor = state.get("actor")
        query = scope.get("query_string", b"").decode("latin-1")
        client = scope.get("client")
        method = scope.get("method", "GET")
        entry = self.audit.entry(
            actor.name if actor else "(not signed in)", "api" if path.startswith("/api/") else "web",
            "read" if method in ("GET", "HEAD") else "annotate" if path == "/api/annotations" else "change",
            f"{method} {scope.get('path', '')}" + (f"?{query}" if query else ""), client[0] if client else None,
            "denied" if state.get("denied") else outcome(status), state.get("case_id", self.case_id),
            state.get("returned"))
        done = self.audit.submit(entry)
        try:
            # with the spool (a server's audit) the entry is on disk when submit returns: the
            # Future is done, and waiting on it through the event loop would cost a wake-up of
            # the loop (its self-pipe) per request for nothing
            if done.done():
                done.result()
            else:
                await asyncio.wrap_future(done)
        except AuditUnavailable:
            return False
        return True


async def _unaudited(send) -> None:
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(UNAUDITED)).encode()),
                            (b"retry-after", b"5")]})
    await send({"type": "http.response.body", "body": UNAUDITED})
