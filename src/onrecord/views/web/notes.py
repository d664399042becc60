"""Annotations on the API: `GET /api/annotations` lists them, `POST /api/annotations` adds
one (roles with the `annotate` right). A browser's session must send its CSRF token in
`X-CSRF-Token` (the pages hold it); an API token needs none (no cookie to ride on)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request
from pydantic import BaseModel, Field

from onrecord.access import annotate
from onrecord.errors import AccessDenied, UsageError
from onrecord.views.web.api import ERRORS, reader
from onrecord.views.web.audit_reads import returned
from onrecord.views.web.signin import check_csrf, identify

router = APIRouter(prefix="/api", tags=["annotations"], dependencies=[Depends(identify)], responses=ERRORS)


class NewAnnotation(BaseModel):
    target: Literal["event", "finding", "search"]
    target_id: int | None = Field(default=None, ge=1, le=2**62, description="the event or finding; none for a search")
    kind: Literal["tag", "comment", "star", "disputed", "saved_search"]
    text: str | None = Field(default=None, max_length=annotate.MAX_TEXT)


def annotation_json(a: dict) -> dict:
    from onrecord.timetext import to_utc_iso

    return {"id": a["id"], "target": a["target"], "target_id": a["target_id"], "kind": a["kind"], "text": a["text"],
            "author": a["author"], "at": to_utc_iso(a["at_ms"])}


@router.get("/annotations", summary="Tags, comments, stars and disputes on events and findings; saved searches")
def list_annotations(request: Request, target: Literal["event", "finding", "search"] | None = None,
                     target_id: Annotated[int | None, Query(ge=1, le=2**62)] = None) -> dict:
    found = reader(request).annotations(target, None if target_id is None else [target_id])
    returned(request, (a["id"] for a in found))
    return {"annotations": [annotation_json(a) for a in found]}


@router.post("/annotations", status_code=201, summary="Add an annotation (analysts; never changes the evidence)")
def add_annotation(request: Request, new: NewAnnotation,
                   x_csrf_token: Annotated[str | None, Header(max_length=100)] = None) -> dict:
    check_csrf(request, x_csrf_token)
    if new.target != "search" and new.target_id is None:
        raise HTTPException(422, f"target_id: which {new.target} the annotation is on")
    try:
        row = annotate.add(request.app.state.access.engine, request.app.state.case.case.id, reader(request),
                           request.state.actor, new.target, new.target_id, new.kind, new.text)
    except AccessDenied as exc:
        raise HTTPException(403, str(exc)) from exc
    except UsageError as exc:
        raise HTTPException(422, str(exc)) from exc
    returned(request, [row["id"]])
    return annotation_json(row)
