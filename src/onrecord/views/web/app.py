"""The FastAPI application for one case: pages, the JSON API, static files, errors."""

from __future__ import annotations

import threading
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from onrecord.store.case import Case
from onrecord.store.reader import LOCAL_USER, Actor, CaseReader, open_reader
from onrecord.views.web import present

HERE = Path(__file__).parent


class CaseState:
    """The served case, and one reader per actor who reads it (today the local user only).
    Each reader keeps its own caches: slow-changing facts (filter values, the busiest
    window) and recent answers, until an import or a build changes the case."""

    def __init__(self, case: Case):
        self.case = case
        self._lock = threading.Lock()
        self._readers: dict[Actor, CaseReader] = {}

    def reader(self, actor: Actor = LOCAL_USER) -> CaseReader:
        # Every page and API route reads through here: sign-in (issue 16) picks the actor.
        with self._lock:
            if actor not in self._readers:
                self._readers[actor] = open_reader(self.case, actor)
            return self._readers[actor]

    def remember(self, key: tuple, make):
        return self.reader().remember(key, make)

    def facets(self) -> dict:
        """The filter values, the zone, the agencies' colours and the incident's window."""
        return self.reader().remember_fact(("facets",), self._facets)

    def _facets(self) -> dict:
        r = self.reader()
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


def create_app(case_path: str | Path, *, host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] = ()) -> FastAPI:
    """The app serving one case. `host`: the address it is bound to; with `allowed_hosts`,
    the names a request's `Host` may carry (guard.py: every other name is refused)."""
    from onrecord.views.web import api, docs, guard, pages

    app = FastAPI(title="onrecord", version="1", description="Every agency's account of an incident on one "
                  "record: the case's sourced timeline, findings, claims and sources.",
                  docs_url=None, redoc_url=None)  # /docs is served from local files (docs.py)
    app.add_middleware(guard.Guard, allowed=guard.served_names(host, allowed_hosts))
    app.state.case = CaseState(open_reader(Path(case_path), read_only=True).case)
    # Filter values and the busiest window of a million events take seconds: start on them now,
    # so the first page a user opens does not wait for all of it.
    threading.Thread(target=app.state.case.facets, daemon=True, name="onrecord-warm-up").start()
    app.state.templates = Jinja2Templates(directory=str(HERE / "templates"))
    pages.add_filters(app.state.templates)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(docs.router)

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
        if request.url.path.startswith("/api/") or exc.status_code not in (404, 422):
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        return HTMLResponse(app.state.templates.get_template("error.html").render(
            request=request, status=exc.status_code, message=exc.detail, case=app.state.case.case,
            nav=""), status_code=exc.status_code)

    return app


def _plain(errors) -> list[dict]:
    """Validation errors as plain JSON (their `ctx` may hold exception objects)."""
    return [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg")), "type": e.get("type")} for e in errors]
