"""The HTML pages. Each reads through the case's CaseReader and renders one template."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from fastapi.responses import HTMLResponse

from onrecord import timetext
from onrecord.views.web import present, shape
from onrecord.views.web.api import facets, reader
from onrecord.views.web.signin import identify

router = APIRouter(include_in_schema=False, dependencies=[Depends(identify)])
Id = Annotated[int, Path(ge=1, le=2**62)]


def add_filters(templates) -> None:
    env = templates.env
    env.filters["duration"] = timetext.duration
    env.filters["offset_text"] = present.offset_text
    env.filters["number"] = present.number


def _render(request: Request, name: str, nav: str, **ctx) -> HTMLResponse:
    st = request.app.state.case
    f, r = facets(request), reader(request)
    zone = f["zone"]
    session = request.state.session
    base = {"request": request, "case": st.case, "base": request.scope.get("root_path", ""),  # /cases/<uid>
            "zone": zone, "built": r.is_built(), "nav": nav,
            "signed_in": request.state.actor.name if session else None, "csrf": session.csrf if session else None,
            "may_annotate": request.state.actor.may("annotate"),
            "zone_label": timetext.zone_label(zone, (f["window"] or [f["t_max"]])[0]),
            "not_built": present.NOT_BUILT, "stale_build": r.stale_build(), "colours": f["colours"],
            "when": lambda ms: timetext.when(ms, zone)}
    return request.app.state.templates.TemplateResponse(request, name, base | ctx)


@router.get("/", response_class=HTMLResponse)
@router.get("/timeline", response_class=HTMLResponse)
def timeline_page(request: Request):
    f = facets(request)
    return _render(request, "timeline.html", "timeline", facets=f,
                   alerts=shape.timeline_alerts(reader(request), f["zone"]))


@router.get("/events/{event_id}", response_class=HTMLResponse)
def event_page(request: Request, event_id: Id):
    st = request.app.state.case
    d = shape.event_detail(reader(request), event_id, facets(request)["zone"])
    if d is None:
        raise HTTPException(404, f"No event {event_id} in case {st.case.name}.")
    return _render(request, "record.html", "timeline", event=d, fused=d["fused"])


@router.get("/fused/{fused_id}", response_class=HTMLResponse)
def fused_page(request: Request, fused_id: Id):
    st = request.app.state.case
    f = reader(request).fused_event(fused_id)
    if f is None:
        raise HTTPException(404, f"No fused event {fused_id} in case {st.case.name}.")
    return _render(request, "record.html", "timeline", event=None, fused=shape.fused_json(f, facets(request)["zone"]))


@router.get("/metrics", response_class=HTMLResponse)
def metrics_page(request: Request):
    zone = facets(request)["zone"]
    found = [shape.finding_json(f, zone) for f in reader(request).findings("metric")]
    # The incident's own figures first; per-unit, per-agency and per-source ones grouped by metric.
    groups: dict[str, list] = {}
    for f in found:
        if f["subject"]:
            groups.setdefault(f["name"], []).append(f)
    return _render(request, "metrics.html", "metrics", findings=found,
                   incident=[f for f in found if not f["subject"]], groups=groups)


@router.get("/discrepancies", response_class=HTMLResponse)
def discrepancies_page(request: Request):
    return _render(request, "discrepancies.html", "discrepancies",
                   items=shape.discrepancies(reader(request), facets(request)["zone"]))


@router.get("/subjects", response_class=HTMLResponse)
def subjects_page(request: Request):
    people = shape.subjects(reader(request), facets(request)["zone"])
    return _render(request, "subjects.html", "subjects", people=people)


@router.get("/sources", response_class=HTMLResponse)
def sources_page(request: Request):
    return _render(request, "sources.html", "sources", items=shape.sources(reader(request), facets(request)["zone"]))
