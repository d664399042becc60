"""The JSON API under /api/: the same data the pages show. OpenAPI at /openapi.json."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from pydantic_core import to_json

from onrecord.errors import UsageError
from onrecord.store import listing
from onrecord.store.read_timeline import TimelineQuery
from onrecord.store.reader import CaseReader
from onrecord.timetext import parse_user_time
from onrecord.views.web import chart, present, shape
from onrecord.views.web.audit_reads import returned
from onrecord.views.web.signin import identify


class Problem(BaseModel):
    """Every 4xx answer: one sentence; a validation error also lists `errors`."""

    detail: str
    errors: list[dict] | None = None


# Every route answers 401 without a valid session or token, 403 when the account may not
# read this case, 421 for a Host the server does not answer to (guard.py).
ERRORS = {code: {"model": Problem, "description": what} for code, what in [
    (401, "not signed in: no valid session cookie or API token"), (403, "not allowed for this account"),
    (404, "no such record in this case"), (421, "a Host name this server does not answer to"),
    (422, "a bad parameter, named in `detail`")]}
router = APIRouter(prefix="/api", tags=["case"], dependencies=[Depends(identify)], responses=ERRORS)
MAX_ID = 2**62  # larger ids cannot exist in the store; refuse them as bad input, not a crash
Id = Annotated[int, Path(ge=1, le=MAX_ID, description="id as shown in the timeline or a finding's evidence")]
Text = Annotated[str | None, Query(max_length=200, pattern=r"^[^\x00-\x1f]*$")]


def state(request: Request):
    return request.app.state.case


def reader(request: Request) -> CaseReader:
    """The case's reader for the actor `identify` found: every read of a route goes through it."""
    found = getattr(request.state, "reader", None)
    if found is None:  # once per request: finding it takes a lock shared by every request
        found = request.state.reader = request.app.state.case.reader(request.state.actor)
    return found


def facets(request: Request) -> dict:
    # once per request: a route and its parameters' dependency both ask, and each asking
    # checks the case's version in the store; the version read is kept for the request
    # (`version`), so the route's reads need not ask the store again whether it is built
    found = getattr(request.state, "facets", None)
    if found is None:
        request.state.version = version = reader(request).version()
        found = request.state.facets = request.app.state.case.facets(request.state.actor, version)
    return found


def built(request: Request) -> bool:
    """Whether the case is built, as of this request's version (read with its facets)."""
    facets(request)
    return bool(request.state.version[3])


def _time(text: str | None, zone, name: str) -> int | None:
    try:
        ms = parse_user_time(text, zone, name)
    except UsageError as exc:
        raise HTTPException(422, str(exc)) from exc
    except (OverflowError, OSError) as exc:
        raise HTTPException(422, f"{name} {text!r} is outside the range of times this store can hold") from exc
    if ms is not None and not -(2**53) < ms < 2**53:
        raise HTTPException(422, f"{name} {text!r} is outside the range of times this store can hold")
    return ms


@dataclass(frozen=True)
class Window:
    """A window's parameters as given; `query` reads its times in the case's zone."""

    t_from: str | None
    t_to: str | None
    agency: str | None
    unit: str | None
    kind: str | None
    source_kind: str | None

    def query(self, request: Request) -> TimelineQuery:
        zone = facets(request)["zone"]
        q = TimelineQuery(t_from=_time(self.t_from, zone, "from"), t_to=_time(self.t_to, zone, "to"),
                          agency=self.agency, unit=self.unit, kind=self.kind, source_kind=self.source_kind)
        if q.t_from is not None and q.t_to is not None and q.t_from > q.t_to:
            raise HTTPException(422, f"from {self.t_from!r} is after to {self.t_to!r}")
        return q


async def window_filters(
    t_from: Annotated[str | None, Query(alias="from", max_length=40,
                                        description="ISO time; without an offset, the case's local zone")] = None,
    t_to: Annotated[str | None, Query(alias="to", max_length=40, description="ISO time, inclusive")] = None,
    agency: Text = None, unit: Text = None,
    kind: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z0-9_]+$", description="event kind")] = None,
    source_kind: Annotated[str | None, Query(max_length=20, pattern=r"^[a-z0-9_]+$")] = None,
) -> Window:
    # async and reading nothing: a sync dependency is one more hop to a worker thread and
    # back per request (under load, the event loop's own time); the zone is read in the route
    return Window(t_from, t_to, agency, unit, kind, source_kind)


def _cursor(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    bad = HTTPException(422, f"cursor {text!r} is not one this API handed out (use next_cursor as given)")
    try:
        t, i = (int(x) for x in base64.urlsafe_b64decode(text.encode("ascii") + b"==").decode("ascii").split("."))
    except (ValueError, UnicodeError) as exc:
        raise bad from exc
    # A crafted cursor may hold numbers no store column can: refuse them here, not as a
    # database overflow (a 500) when the query runs.
    if not (-(2**53) < t < 2**53 and 0 <= i <= MAX_ID):
        raise bad
    return t, i


def _encode_cursor(after: tuple[int, int] | None) -> str | None:
    return None if after is None else base64.urlsafe_b64encode(f"{after[0]}.{after[1]}".encode()).decode() \
        .rstrip("=")


@router.get("/cases/current", summary="The case being served: name, zone, built or not, counts, filters")
def case_current(request: Request) -> dict:
    st, f, r = state(request), facets(request), reader(request)
    window = f["window"]
    return {"name": st.case.name, "uid": st.case.uid, "timezone": f["zone"].key, "built": r.is_built(),
            "not_built_note": None if r.is_built() else present.NOT_BUILT,
            "stale_build_note": r.stale_build(), "events": f["events"],
            "derived": r.derived_counts(), "agencies": f["agencies"], "agency_colours": f["colours"],
            "units": f["units"], "kinds": f["kinds"], "source_kinds": f["source_kinds"],
            "busiest_window": present.times_json(*window, f["zone"]) if window else None,
            "span": present.times_json(f["t_min"], f["t_max"], f["zone"])}


@router.get("/events", summary="A time window of events, one page at a time, in time order", response_model=dict)
def events_page(request: Request, w: Annotated[Window, Depends(window_filters)],
                limit: Annotated[int, Query(ge=1, le=5000)] = 500,
                cursor: Annotated[str | None, Query(max_length=60, description="next_cursor of the previous page")]
                = None) -> Response:
    q = w.query(request)
    q.limit, q.after, q.built = limit, _cursor(cursor), built(request)
    zone = facets(request)["zone"]
    version = request.state.version
    page = reader(request).timeline_listing(q, listing.stamp(version[3], version[2], zone), zone)
    returned(request, page.ids)
    # Each event's row is JSON text already (store/listing.py): the page is those texts joined,
    # its few other keys encoded here; next_cursor last (benchmarks/web_load.py reads it from
    # the end). The schema is still the model's (response_model).
    head = to_json({"timezone": zone.key, "clock": page.clock}).decode()[:-1]
    body = f'{head},"events":[{",".join(page.events)}],"next_cursor":{to_json(_encode_cursor(page.next)).decode()}}}'
    return Response(body.encode(), media_type="application/json")


@router.get("/timeline", summary="The chart's data for a window: points, or counts per bucket when too many")
def timeline(request: Request, w: Annotated[Window, Depends(window_filters)],
             lanes: Literal["agency", "unit", "source"] = "agency",
             max_points: Annotated[int, Query(ge=100, le=chart.MAX_POINTS)] = chart.MAX_POINTS) -> dict:
    r, f, q = reader(request), facets(request), w.query(request)
    data = r.remember(("timeline", repr(q), lanes, max_points), lambda: chart.timeline_data(r, q, f, lanes, max_points))
    returned(request, (i for t in data["traces"] for i in t.get("id", ())))
    # Straight to JSON: FastAPI's encoder would walk each of up to 20,000 points again.
    return JSONResponse(data)


@router.get("/events/{event_id}", summary="One event: its source line, raw text, hash, clock offset, fused group")
def event(request: Request, event_id: Id) -> dict:
    out = shape.event_detail(reader(request), event_id, facets(request)["zone"])
    if out is None:
        raise HTTPException(404, f"no event {event_id} in case {state(request).case.name}")
    returned(request, [out["id"]] + [x["id"] for x in (out["fused"] or {}).get("reports", [])])
    return out


@router.get("/fused/{fused_id}", summary="A fused event and every report it was fused from")
def fused(request: Request, fused_id: Id) -> dict:
    r = reader(request)
    f = r.fused_event(fused_id)
    if f is None:
        raise HTTPException(404, f"no fused event {fused_id} in case {state(request).case.name}"
                            + ("" if r.is_built() else " (the case is not built yet)"))
    out = shape.fused_json(f, facets(request)["zone"])
    returned(request, (x["id"] for x in out["reports"]))
    return out


@router.get("/findings", summary="Findings: metrics, discrepancies, warnings, alerts, each with its evidence")
def findings(request: Request, kind: Literal["metric", "discrepancy", "warning", "alert"] | None = None) -> dict:
    r, zone = reader(request), facets(request)["zone"]
    found = [shape.finding_json(f, zone) for f in r.findings(kind)]
    returned(request, (f["id"] for f in found))
    return {"built": r.is_built(), "stale_build_note": r.stale_build(), "findings": found}


@router.get("/discrepancies", summary="Discrepancy findings with both sides quoted")
def discrepancies(request: Request) -> dict:
    r = reader(request)
    found = shape.discrepancies(r, facets(request)["zone"])
    returned(request, (f["id"] for f in found))
    return {"built": r.is_built(), "stale_build_note": r.stale_build(), "discrepancies": found}


@router.get("/sources", summary="Each source: file, hash, clock offset ± uncertainty and the events it rests on")
def sources(request: Request) -> dict:
    r = reader(request)
    return {"built": r.is_built(), "stale_build_note": r.stale_build(),
            "sources": shape.sources(r, facets(request)["zone"])}


@router.get("/claims", summary="Claims read from statements and press, with speaker, subject and value")
def claims(request: Request) -> dict:
    zone = facets(request)["zone"]
    found = [shape.claim_json(c, zone) for c in reader(request).claims()]
    returned(request, (c["id"] for c in found))
    return {"claims": found}


@router.get("/subjects", summary="Prior warnings per person, with flags and the records behind them")
def subjects(request: Request) -> dict:
    r = reader(request)
    people = shape.subjects(r, facets(request)["zone"])
    returned(request, (w["id"] for p in people for w in p["warnings"]))
    return {"built": r.is_built(), "stale_build_note": r.stale_build(), "subjects": people}


@router.get("/search", summary="Full-text search: events and claims holding every term of q, best first, "
            "as this reader may see them")
def search(request: Request, q: Annotated[str, Query(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]*$",
                                                     description='words (all must match), "a phrase", prefix*')],
           limit: Annotated[int, Query(ge=1, le=1000)] = 200,
           lanes: Literal["agency", "unit", "source"] = "agency") -> dict:
    r, zone = reader(request), facets(request)["zone"]
    found = r.search(q, limit)
    returned(request, (e["id"] for e in found["events"]))
    wall = chart.LocalClock(zone)
    lane_of = {"agency": lambda e: None, "unit": lambda e: e["unit"], "source": lambda e: e["source_kind"]}[lanes]
    return {"query": q, "terms": found["terms"], "more": found["more"], "index_behind": found["behind"],
            "clock": "aligned" if r.is_built() else "source",
            "events": [{"id": e["id"], "kind": e["kind"], **present.times_json(e["t_src_lo"], e["t_src_lo"], zone),
                        "agency": e["agency"], "unit": e["unit"], "actor": e["actor"], "place": e["place"],
                        "text": e["text"], "source": {"id": e["source_id"], "file": e["file_name"],
                                                      "kind": e["source_kind"]},
                        "record": {"line": e["ordinal"]}, "matched": e["matched"],
                        # where the timeline draws it: the chart's time (aligned once built) and lane
                        "chart": {"x": wall(e["t_lo"]) if e["t_lo"] is not None else None,
                                  "lane": chart.lane_label(lanes, e["agency"], lane_of(e))}}
                       for e in found["events"]],
            "claims": [{"id": c["id"], "sentence": c["sentence"], "speaker": c["speaker"], "event_id": c["event_id"],
                        "source": {"id": c["source_id"], "file": c["file_name"]}, "matched": c["matched"]}
                       for c in found["claims"]]}
