"""The one door to a case's data: `open_reader(case, actor)`.

Every read of case data — the CLI's views, the web's routes, the report, the build's
event load, linkage's contact rows, scenario scoring, verify — goes through a reader
opened here, for a case and for the actor who reads. Today the actor is always the
local user at this machine; sign-in, roles, per-agency access, redaction and the audit
of reads (issue 16) hook in here and in `CaseReader._read` (store/read.py), the one place
every query runs. tests/store/test_reader_door.py fails when a module outside the store
starts touching the case tables itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from onrecord.store.case import Case, open_case
from onrecord.store.read import CaseReader


@dataclass(frozen=True)
class Actor:
    """Who reads: the local user today; a signed-in user with a role later."""

    name: str
    kind: str = "local"  # the person at this machine, reading their own case folder


LOCAL_USER = Actor("local user")


def open_reader(case: Case | Path | str, actor: Actor = LOCAL_USER, *, database_url: str | None = None) -> CaseReader:
    """A reader of one case for one actor. The access check belongs here: the local user
    may read every case folder they can open."""
    if not isinstance(case, Case):
        case = open_case(Path(case), database_url)
    return CaseReader(case, actor)
