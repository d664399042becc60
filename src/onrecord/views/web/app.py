"""The FastAPI application for one case: pages, the JSON API, static files, errors."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from onrecord.store.case import Case, open_case
from onrecord.store.read import CaseReader
from onrecord.store.reader import open_reader
from onrecord.views.web import present

HERE = Path(__file__).parent
ANSWERS_KEPT = 32


class CaseState:
    """The open case and its slow-changing facts (filter values, busiest window), cached until an
    import or a build changes the case."""

    def __init__(self, case: Case):
        self.case = case
        self._lock = threading.Lock()
        self._facets: tuple[tuple, dict] | None = None
        self._answers: OrderedDict = OrderedDict()

    def remember(self, key: tuple, make):
        """A recent answer for the same question on the same version of the case (zoomed-out
        charts count a million events: a second look should not count them again)."""
        key = (self.reader().version(), *key)
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        value = make()
        with self._lock:
            self._answers[key] = value
            while len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
        return value

    def reader(self) -> CaseReader:
        # Every page and API route reads through this one CaseReader: the place for access checks.
        return open_reader(self.case)

    def facets(self) -> dict:
        with self._lock:
            version = self.reader().version()
            if self._facets is None or self._facets[0] != version:
                r = self.reader()
                window = r.busiest_window()
                f = r.facets(window)
                f["zone"] = r.display_zone()
                f["colours"] = present.agency_colours(f["agencies"])
                f["window"] = window
                self._facets = (version, f)
            return self._facets[1]


def read_only(case: Case) -> Case:
    """The same case on a read-only SQLite connection that does not take the write lock, so the
    pages keep answering while an import or a build writes (the store's engine begins every
    transaction, reads included, with BEGIN IMMEDIATE). PostgreSQL reads never block: unchanged."""
    if case.engine.dialect.name != "sqlite" or not case.engine.url.database:
        return case
    from sqlalchemy import create_engine, event

    engine = create_engine(f"sqlite:///file:{Path(case.engine.url.database).resolve()}?mode=ro&uri=true")
    event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA cache_size=-262144"))
    case.engine.dispose()
    return dataclasses.replace(case, engine=engine)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("query", "path", "body"))
        parts.append(f"{where}: {e.get('msg')}")
    return "bad request: " + "; ".join(parts)


def create_app(case_path: str | Path) -> FastAPI:
    from onrecord.views.web import api, pages

    app = FastAPI(title="onrecord", version="1", description="Every agency's account of an incident on one "
                  "record: the case's sourced timeline, findings, claims and sources.")
    app.state.case = CaseState(read_only(open_case(Path(case_path))))
    # Filter values and the busiest window of a million events take seconds: start on them now,
    # so the first page a user opens does not wait for all of it.
    threading.Thread(target=app.state.case.facets, daemon=True, name="onrecord-warm-up").start()
    app.state.templates = Jinja2Templates(directory=str(HERE / "templates"))
    pages.add_filters(app.state.templates)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)

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
