"""The bulk reads of a CaseReader (store/reader.py): every event for the build, the
prior-contact rows for linkage, every raw record for verify, the event identities the
scorer compares with truth, and the importer's look-up of a file already imported.
Statements only: the reader runs them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select, text

from onrecord.store.engine import is_sqlite
from onrecord.store.schema import aligned_events, cases, events, raw_records, sources

if TYPE_CHECKING:  # imported where used: a server never reads a frame, and never loads pandas or pyarrow
    import pandas as pd

BUILD_COLUMNS = ("id", "source_id", "kind", "t_src_lo", "t_src_hi", "agency", "unit", "call", "actor", "channel",
                 "place", "text", "attrs")


class BulkReads:
    """Mixin of CaseReader."""

    def event_frame(self) -> pd.DataFrame:
        """Every event of the case, in id order, as a DataFrame read as Arrow (millions of rows):
        the columns the build reasons with, `kind` as a category."""
        c = events.c
        if is_sqlite(self.case.engine):
            # `+case_id` keeps SQLite off the case-and-time index: a case file holds one case,
            # and the plain scan of the table comes back in id order with no sort to do
            # (at three million events, 3.3 s where the index and a sort took 6.8 s).
            one_case = text("+events.case_id = :case").bindparams(case=self.case.id)
        else:
            one_case = c.case_id == self.case.id
        return self._frame(select(*(c[name] for name in BUILD_COLUMNS)).where(one_case).order_by(c.id),
                           categories=("kind",))

    def position_frame(self, source_ids: list[int]) -> pd.DataFrame:
        """id, source_id, lat, lon of the events of these sources that have a position (the
        AVL fixes a declared geofence is read against), in id order."""
        import pandas as pd

        c = events.c
        if not source_ids:
            return pd.DataFrame(columns=["id", "source_id", "lat", "lon"])
        return self._frame(select(c.id, c.source_id, c.lat, c.lon)
                           .where(c.case_id == self.case.id, c.source_id.in_([int(s) for s in source_ids]),
                                  c.lat.is_not(None), c.lon.is_not(None)).order_by(c.id))

    def aligned_frame(self) -> pd.DataFrame:
        """Every event's time on the common clock as the last build aligned it (event_id,
        t_lo, t_hi), in event order: what a replay of the case runs on."""
        a = aligned_events.c
        return self._frame(select(a.event_id, a.t_lo, a.t_hi).where(a.case_id == self.case.id).order_by(a.event_id))

    def source_frame(self) -> pd.DataFrame:
        """The case's sources as a DataFrame, one column per stored column, in the order the
        store gives them unasked (the order every build so far has read them in)."""
        import pandas as pd

        return pd.DataFrame(self._rows(select(sources).where(sources.c.case_id == self.case.id)),
                            columns=[col.name for col in sources.columns])

    def contact_events(self, source_kinds: tuple[str, ...]) -> list[dict]:
        """The events of sources of these kinds (prior contacts: tips, calls for service), each
        with its source's file name, mapping text and agency."""
        e, s = events.c, sources.c
        return self._rows(select(e.id, e.agency, e.kind, e.t_src_lo, e.text, e.attrs, s.file_name, s.mapping_text,
                                 s.agency.label("src_agency"))
                          .join(sources, s.id == e.source_id)
                          .where(e.case_id == self.case.id, s.kind.in_(source_kinds)))

    def event_identities(self) -> list[tuple]:
        """(event id, file name, kind, attrs) of every event: what an event is, as its source wrote it."""
        e = events.c
        return self._tuples(select(e.id, sources.c.file_name, e.kind, e.attrs)
                            .join(sources, sources.c.id == e.source_id).where(e.case_id == self.case.id))

    def source_with_sha256(self, file_sha256: str) -> dict | None:
        """The source already imported from a file with these bytes and not withdrawn, if any."""
        found = self._rows(select(sources.c.id, sources.c.file_name)
                           .where(sources.c.case_id == self.case.id, sources.c.file_sha256 == file_sha256,
                                  sources.c.withdrawn_at.is_(None)))
        return found[0] if found else None

    # ---- the evidence chain, for verify

    def chain_head(self) -> dict:
        """The case's record count and the last chain value, as the last import left them."""
        return self._rows(select(cases.c.record_count, cases.c.chain_head).where(cases.c.id == self.case.id))[0]

    def raw_chain(self):
        """Every raw record of the case in chain order, a batch at a time."""
        r = raw_records.c
        return self._stream(select(r.id, r.source_id, r.seq, r.ordinal, r.raw, r.sha256, r.chain)
                            .where(r.case_id == self.case.id).order_by(r.seq))

    def source_records(self, source_id: int):
        """A source's raw records in file order as (raw, line, path), a batch at a time."""
        r = raw_records.c
        return self._stream(select(r.raw, r.ordinal, r.path).where(r.source_id == source_id)
                            .order_by(r.ordinal, r.seq))

    def source_bytes(self, source_id: int):
        """A source's raw records in file order, a batch at a time: the file as imported."""
        r = raw_records.c
        # several records may start on one line (a JSON array on one line): chain order breaks the tie
        return self._stream(select(r.raw).where(r.source_id == source_id).order_by(r.ordinal, r.seq))
