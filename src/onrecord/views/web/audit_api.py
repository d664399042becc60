"""The audit log on the API, for roles with the `read_audit` right (auditors, admins):
`GET /api/audit` lists this case's entries, `GET /api/audit/verify` checks the chain."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from onrecord.timetext import to_utc_iso
from onrecord.views.web.api import ERRORS
from onrecord.views.web.signin import identify

router = APIRouter(prefix="/api", tags=["audit"], dependencies=[Depends(identify)], responses=ERRORS)


def _auditor(request: Request):
    if not request.state.actor.may("read_audit"):
        raise HTTPException(403, f"{request.state.actor.name} ({request.state.actor.role}) may not read the audit log")
    return request.app.state.audit


def _ms(text: str | None, name: str) -> int | None:
    """A bound of the query, as the command line reads one (UTC without an offset); a 422 otherwise."""
    from zoneinfo import ZoneInfo

    from onrecord.errors import UsageError
    from onrecord.timetext import parse_user_time

    try:
        return parse_user_time(text, ZoneInfo("UTC"), name)
    except UsageError as exc:
        raise HTTPException(422, str(exc)) from exc


@router.get("/audit", summary="Who read or changed what in this case, when, from where, with what outcome")
def audit_entries(request: Request, user: Annotated[str | None, Query(max_length=120)] = None,
                  t_from: Annotated[str | None, Query(alias="from", max_length=40)] = None,
                  t_to: Annotated[str | None, Query(alias="to", max_length=40)] = None,
                  limit: Annotated[int, Query(ge=1, le=10000)] = 1000) -> dict:
    log = _auditor(request)
    rows = log.entries(user, _ms(t_from, "from"), _ms(t_to, "to"), request.app.state.case.case.id, limit)
    return {"entries": [{k: v for k, v in r.items() if k not in ("entry_sha256", "at_ms")}
                        | {"at": to_utc_iso(r["at_ms"]), "entry_sha256": bytes(r["entry_sha256"]).hex()}
                        for r in rows]}


@router.get("/audit/verify", summary="Check the audit log's hash chain")
def audit_verify(request: Request) -> dict:
    n, problem = _auditor(request).verify()
    return {"entries": n, "intact": problem is None, "problem": problem}
