"""What one actor may not see of a case, for the CaseReader (store/reader.py): the sources
withheld from them (restricted to an agency they are not of) and the redaction of protected
people, personal details and raw lines. Statements only: the reader runs them."""

from __future__ import annotations

import time

from sqlalchemy import select

from onrecord.store.redact import Redactor
from onrecord.store.schema import sources
from onrecord.store.schema_access import protected_people, restricted_sources

RECHECK_S = 2.0  # a restriction or a newly protected person reaches open readers within this


class AccessReads:
    """Mixin of CaseReader."""

    def _checked(self, key: str, make):
        """One query per RECHECK_S, not one per read (a chart request makes several)."""
        cache = self.__dict__.setdefault("_access_checks", {})
        now = time.monotonic()
        found = cache.get(key)
        if found is None or now - found[0] > RECHECK_S:
            found = cache[key] = (now, make())
        return found[1]

    def withheld_sources(self) -> frozenset[int]:
        return self._checked("withheld", self._withheld_sources)

    def redactor(self) -> Redactor:
        return self._checked("redactor", self._redactor)

    def _withheld_sources(self) -> frozenset[int]:
        """Ids of the case's sources this actor may not read: restricted ones of other agencies.
        The local user (who holds the case folder) is withheld nothing."""
        if self.actor.kind == "local":
            return frozenset()
        stmt = select(sources.c.id, sources.c.agency).join(
            restricted_sources, restricted_sources.c.source_id == sources.c.id).where(sources.c.case_id == self.case.id)
        with self.case.engine.connect() as conn:  # not through _tuples: this is the check, not a read of data
            rows = conn.execute(stmt).fetchall()
        return frozenset(sid for sid, agency in rows if agency not in self.actor.agencies)

    def _redactor(self) -> Redactor:
        """Pseudonyms for protected people, for actors without the right to see who they are."""
        if self.actor.may("personal"):
            return Redactor(())
        stmt = select(protected_people.c.name, protected_people.c.pseudonym).where(
            protected_people.c.case_id == self.case.id)
        with self.case.engine.connect() as conn:
            return Redactor([tuple(r) for r in conn.execute(stmt)])
