"""One audit entry per request for case data (pages and /api/): who (the actor `identify`
found, or "(not signed in)"), the route and query, the ids of the records the answer
carried (routes name them with `returned`), from where, and the outcome by status:
allowed (< 400), denied (401, 403, 421), error (the rest). Static files, the sign-in page
and the API's schema are not case data and are not entries; sign-ins write their own."""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import Request

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


class AuditReads:
    """ASGI middleware writing the entry once the answer's status is known."""

    def __init__(self, app, audit, case_id: int):
        self.app, self.audit, self.case_id = app, audit, case_id

    async def __call__(self, scope, receive, send):
        path, full = route_path(scope), scope.get("path", "")
        if scope["type"] != "http" or path.startswith(NOT_CASE_DATA):
            return await self.app(scope, receive, send)
        status = {"code": 500}

        async def noting(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting)
        finally:
            state = scope.get("state") or {}
            actor = state.get("actor")
            query = scope.get("query_string", b"").decode("latin-1")
            client = scope.get("client")
            method = scope.get("method", "GET")
            self.audit.event(actor.name if actor else "(not signed in)", "api" if path.startswith("/api/") else "web",
                             "read" if method in ("GET", "HEAD") else "annotate" if path == "/api/annotations"
                             else "change", f"{method} {full}" + (f"?{query}" if query else ""),
                             client[0] if client else None,
                             "denied" if state.get("denied") else outcome(status["code"]),
                             state.get("case_id", self.case_id),
                             state.get("returned"))
