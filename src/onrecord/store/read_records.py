"""The record reads of a CaseReader (store/reader.py): one event with everything it rests
on, fused events, clock estimates, findings, claims, entities and mentions. Statements
only: the reader runs them."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from onrecord.store.redact import personal_withheld
from onrecord.store.schema import (
    aligned_events,
    clock_estimates,
    entity_mentions,
    events,
    fused_events,
    raw_records,
    sources,
)
from onrecord.store.schema import claims as claims_t
from onrecord.store.schema import entities as entities_t
from onrecord.store.schema import findings as findings_t


def _loads(text: str | None, empty):
    return json.loads(text) if text else empty


def _ids(evidence, key: str) -> list[int]:
    vals = evidence.get(key, []) if isinstance(evidence, dict) else evidence if key == "events" else []
    return [int(v) for v in vals if isinstance(v, (int, str)) and str(v).isdigit()]


def _raw_text(raw) -> str:
    data = bytes(raw)
    try:
        return data.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        if b"\x00" in data:  # a workbook or other binary document: its bytes are no line to show
            return f"({len(data):,} bytes of a binary file, kept exactly as handed over: see its SHA-256)"
        return data.decode("utf-8", errors="replace").rstrip("\r\n")


class RecordReads:
    """Mixin of CaseReader."""

    def _count(self, table) -> int:
        return self._scalar(select(func.count()).select_from(table).where(table.c.case_id == self.case.id))

    def has_derived(self) -> bool:
        """A build (or a linkage) has written something of this case."""
        return any(self._exists(t) for t in (clock_estimates, aligned_events, entity_mentions, findings_t))

    def derived_counts(self) -> dict[str, int]:
        return {t.name: self._count(t) for t in (clock_estimates, aligned_events, fused_events, entities_t,
                                                  claims_t, findings_t)}

    # ---- one event with everything it rests on

    def _detail_select(self):
        e, a, r, s = events.c, aligned_events.c, raw_records.c, sources.c
        return (select(e.id, e.kind, e.time_text, e.t_src_lo, e.t_src_hi, e.agency, e.unit, e.call, e.actor,
                       e.channel, e.place, e.lat, e.lon, e.text, e.attrs, e.source_id,
                       func.coalesce(e.path, r.path).label("path"),
                       a.t_lo.label("t_aligned_lo"), a.t_hi.label("t_aligned_hi"), a.fused_id,
                       r.id.label("record_id"), r.ordinal, r.raw, r.sha256, r.seq,
                       s.file_name, s.kind.label("source_kind"), s.agency.label("source_agency"),
                       s.timezone, s.file_sha256)
                .select_from(events.join(raw_records, r.id == e.raw_record_id).join(sources, s.id == e.source_id)
                             .outerjoin(aligned_events, a.event_id == e.id))
                .where(e.case_id == self.case.id))

    def _details(self, where) -> list[dict]:
        stmt = self._detail_select().where(where)
        if withheld := self.withheld_sources():
            stmt = stmt.where(events.c.source_id.not_in(sorted(withheld)))
        rows = self._rows(stmt.order_by(events.c.t_src_lo, events.c.id))
        clocks = self.clock_estimates() if rows else {}
        raw, personal = self.actor.may("raw"), self.actor.may("personal")
        for r in rows:
            r["attrs"] = _loads(r["attrs"], {})
            if not personal:
                r["attrs"] = personal_withheld(r["attrs"])
            # the stored line (protected names already by their pseudonyms), or None for roles without "raw"
            r["raw"] = _raw_text(r["raw"]) if raw else None
            r["sha256"] = bytes(r["sha256"]).hex()
            r["clock"] = clocks.get(r["source_id"])
        return rows

    def event_detail(self, event_id: int) -> dict | None:
        """The event, its raw record (line, exact text, SHA-256), its source and the clock estimate applied."""
        rows = self._details(events.c.id == event_id)
        return rows[0] if rows else None

    def events_detail(self, ids) -> list[dict]:
        ids = sorted({int(i) for i in ids})
        return self._details(events.c.id.in_(ids)) if ids else []

    def fused_event(self, fused_id: int) -> dict | None:
        """A fused event and every report it was fused from, each with its source line."""
        found = self._rows(select(fused_events).where(fused_events.c.id == fused_id,
                                                      fused_events.c.case_id == self.case.id))
        if not found:
            return None
        # "reports" is the table's count column; the reports themselves go under "events".
        shown = self._details(aligned_events.c.fused_id == fused_id)
        out = found[0] | {"events": shown, "withheld": False}
        if self.withheld_sources() and len(shown) < out["reports"]:
            # some reports come from sources withheld from this actor: their count and the
            # sources' would tell of them, so the counts are of what is shown, and it says so
            out |= {"reports": len(shown), "sources": len({d["source_id"] for d in shown}), "withheld": True}
        return out

    def clock_estimates(self) -> dict[int, dict]:
        """source id -> its clock estimate (offset_s: how far the clock runs ahead of true time)."""
        withheld = self.withheld_sources()
        out = {r["source_id"]: r for r in self._rows(select(clock_estimates)
                                                     .where(clock_estimates.c.case_id == self.case.id))
               if r["source_id"] not in withheld}
        for r in out.values():
            r["evidence"] = _loads(r["evidence"], [])
        return out

    # ---- findings and what they rest on

    def findings(self, kind: str | None = None) -> list[dict]:
        stmt = select(findings_t).where(findings_t.c.case_id == self.case.id)
        if kind:
            stmt = stmt.where(findings_t.c.kind == kind)
        rows = self._rows(stmt.order_by(findings_t.c.id))
        for r in rows:
            r["payload"] = _loads(r["payload"], {})
            r["evidence"] = _loads(r["evidence"], {})
            r["withheld"] = False
        if self.withheld_sources():
            self._withhold_findings(rows)
        return rows

    def _withhold_findings(self, rows: list[dict]) -> None:
        """A finding resting on any record of a withheld source says that evidence is withheld:
        its value, payload and sentence could tell of that record, so they go; its evidence
        lists only what this actor may read."""
        withheld = self.withheld_sources()
        ids = {k: set() for k in ("events", "claims", "fused")}
        for r in rows:
            for k in ids:
                ids[k] |= set(_ids(r["evidence"], k))
        event_src = dict(self._tuples(select(events.c.id, events.c.source_id).where(
            events.c.case_id == self.case.id, events.c.id.in_(sorted(ids["events"]))))) if ids["events"] else {}
        claim_src = dict(self._tuples(select(claims_t.c.id, claims_t.c.source_id).where(
            claims_t.c.case_id == self.case.id, claims_t.c.id.in_(sorted(ids["claims"]))))) if ids["claims"] else {}
        fused_hidden = {f for (f,) in self._tuples(select(aligned_events.c.fused_id).join(
            events, events.c.id == aligned_events.c.event_id).where(
            aligned_events.c.fused_id.in_(sorted(ids["fused"])), events.c.source_id.in_(sorted(withheld))))} \
            if ids["fused"] else set()
        for r in rows:
            ev = r["evidence"]
            hidden_events = [i for i in _ids(ev, "events") if event_src.get(i) in withheld]
            hidden_claims = [i for i in _ids(ev, "claims") if claim_src.get(i) in withheld]
            hidden_fused = [i for i in _ids(ev, "fused") if i in fused_hidden]
            if not (hidden_events or hidden_claims or hidden_fused):
                continue
            r["withheld"] = True
            r["status"] = "withheld"
            r["value_lo"] = r["value_hi"] = None
            r["payload"] = {"reason": "evidence_withheld"}
            gone = {"events": set(hidden_events), "claims": set(hidden_claims), "fused": set(hidden_fused)}
            r["evidence"] = {k: [i for i in _ids(ev, k) if i not in gone[k]] for k in gone} \
                if isinstance(ev, dict) else [i for i in _ids(ev, "events") if i not in gone["events"]]

    def claims(self, ids=None) -> list[dict]:
        c = claims_t.c
        stmt = select(claims_t, sources.c.file_name, sources.c.kind.label("source_kind"),
                      sources.c.agency.label("source_agency")) \
            .join(sources, sources.c.id == c.source_id).where(c.case_id == self.case.id)
        if withheld := self.withheld_sources():
            stmt = stmt.where(c.source_id.not_in(sorted(withheld)))
        if ids is not None:
            stmt = stmt.where(c.id.in_(sorted({int(i) for i in ids})))
        rows = self._rows(stmt.order_by(c.source_id, c.span_lo, c.id))
        for r in rows:
            r["payload"] = _loads(r["payload"], {})
        return rows

    def entities(self, kind: str | None = None) -> list[dict]:
        stmt = select(entities_t).where(entities_t.c.case_id == self.case.id)
        if kind:
            stmt = stmt.where(entities_t.c.kind == kind)
        rows = self._rows(stmt.order_by(entities_t.c.kind, entities_t.c.name))
        for r in rows:
            r["aliases"], r["attrs"], r["evidence"] = (_loads(r["aliases"], []), _loads(r["attrs"], {}),
                                                       _loads(r["evidence"], {}))
        return rows

    def mentions(self, role: str | None = None) -> list[tuple]:
        """(entity id, event id, role) of every mention of an entity in an event: who is who."""
        m = entity_mentions.c
        stmt = select(m.entity_id, m.event_id, m.role).where(m.case_id == self.case.id, m.event_id.is_not(None))
        return self._tuples(stmt.where(m.role == role) if role else stmt)

    def fused_members(self) -> list[tuple]:
        """(event id, fused event id) of every report fused with others."""
        a = aligned_events.c
        return self._tuples(select(a.event_id, a.fused_id).where(a.case_id == self.case.id, a.fused_id.is_not(None)))

    # ---- what readers added: annotations (they never change the evidence)

    def annotations(self, target: str | None = None, target_ids=None) -> list[dict]:
        """Tags, comments, stars and disputes on events and findings, oldest first; those on
        events of sources withheld from this actor are not shown."""
        from onrecord.store.schema_access import annotations as notes

        n = notes.c
        stmt = select(notes).where(n.case_id == self.case.id)
        if target is not None:
            stmt = stmt.where(n.target == target)
        if target_ids is not None:
            stmt = stmt.where(n.target_id.in_(sorted({int(i) for i in target_ids})))
        if withheld := self.withheld_sources():
            hidden = select(events.c.id).where(events.c.case_id == self.case.id,
                                               events.c.source_id.in_(sorted(withheld)))
            stmt = stmt.where(~((n.target == "event") & n.target_id.in_(hidden)))
        return self._rows(stmt.order_by(n.at_ms, n.id))
