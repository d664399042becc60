"""Full-text search of a CaseReader (store/reader.py): the index (search_index.py) finds
candidates, ranked (SQLite FTS5's bm25, PostgreSQL's ts_rank: an event's fields weigh more
than its raw line); each is then checked against the words as this reader is shown them.

What a reader may not see is never what finds a row:
- sources withheld from the reader are not searched (their rows are left out of the query);
- a role without "raw" searches an event's fields alone (the FTS5 column filter; the
  tsvector's weight-A words on PostgreSQL);
- a protected person's name, shown to this reader as a pseudonym, is not a match: the
  candidate's text is redacted first (`_rows`) and must still hold every term. The
  pseudonym itself finds them ("Victim 3"): it is what this reader sees in the text.
Statements only, plus that check: the reader runs them.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import cast, func, literal, literal_column, select
from sqlalchemy.dialects.postgresql import TSQUERY

from onrecord.store.schema import aligned_events, events, raw_records, sources
from onrecord.store.schema import claims as claims_t
from onrecord.store.schema_search import claims_fts, claims_search, events_fts, events_search, search_state
from onrecord.store.search_index import claim_words, event_words, raw_words
from onrecord.store.search_query import Query, Term, parse, words

ROUNDS = 8  # candidate pages read at most while redaction drops some: a bound on one search's work


def _joined(terms: list[Term], p: tuple[str, ...]) -> list[Term]:
    """Bare words written one after another that spell `p` (Victim 3) as one phrase term."""
    n = len(p)
    for i in range(len(terms) - n + 1):
        run = terms[i:i + n]
        if n > 1 and all(len(t.words) == 1 and not t.prefix for t in run) and tuple(t.words[0] for t in run) == p:
            return terms[:i] + [Term(p)] + terms[i + n:]
    return terms


class SearchReads:
    """Mixin of CaseReader."""

    def _postgres(self) -> bool:
        return self.case.engine.dialect.name == "postgresql"

    def search_state(self) -> dict:
        """How far the index has got: `behind` when events or claims changed after it was
        written (a writer that failed after its commit; the next write catches up)."""
        from onrecord.store.schema import cases

        s, c = search_state.c, cases.c
        row = self._tuples(select(s.generation, s.derived_generation, s.events_indexed, c.generation,
                                  c.derived_generation).join(cases, c.id == s.case_id).where(s.case_id == self.case.id))
        if not row:
            return {"indexed": 0, "behind": True}
        g, dg, n, now, dnow = row[0]
        return {"indexed": int(n), "behind": (g, dg) != (now, dnow)}

    def _with_pseudonyms(self, q: Query) -> Query:
        """A reader who sees a protected person as "Victim 3" may search for "Victim 3": the
        pseudonym's words are looked up as the name's written forms too (any of them; the
        check on the redacted text then keeps only rows that show the pseudonym)."""
        redact = self.redactor()
        if not redact:
            return q
        extra, terms = [], list(q.terms)
        for form, pseudonym in redact.pseudonym.items():
            p = tuple(words(pseudonym))
            terms = _joined(terms, p)
            if any(t.words == p and not t.prefix for t in terms):
                extra.append((p, tuple(words(form))))
        return replace(q, terms=tuple(dict.fromkeys(terms)), alternatives=tuple(extra)) if extra else q

    def search(self, text: str, limit: int = 200) -> dict:
        """Events and claims holding every term of `text` (search_query.py: words, "phrases",
        prefix*), best first, as this reader sees them; `matched`: the words that matched
        (to mark them where shown), `more`: there may be further hits beyond `limit`."""
        q = self._with_pseudonyms(parse(text))
        out = {"query": text, "terms": [" ".join(t.words) + ("*" if t.prefix else "") for t in q.terms],
               "events": [], "claims": [], "more": False, **self.search_state()}
        if not q:
            return out
        raw_ok = self.actor.may("raw")
        out["events"], more_e = self._search_checked(lambda n, skip: self._event_candidates(q, raw_ok, n, skip),
                                              lambda r: (event_words(r["text"], r["actor"], r["place"], r["unit"]),
                                                         raw_words(r.get("raw")) if raw_ok else []), q, limit)
        out["claims"], more_c = self._search_checked(lambda n, skip: self._claim_candidates(q, n, skip),
                                              lambda r: (claim_words(r["sentence"], r["speaker"]),), q, limit)
        out["more"] = more_e or more_c
        if raw_ok:
            from onrecord.store.read_records import _raw_text

            for r in out["events"]:
                r["raw"] = _raw_text(r["raw"]) if r.get("raw") is not None else None
        return out

    def _search_checked(self, candidates, parts, q: Query, limit: int) -> tuple[list[dict], bool]:
        """Pages of candidates, best first, kept when they hold every term as shown to this reader."""
        found, skip, page = [], 0, max(limit + 1, 50)
        for _ in range(ROUNDS):
            rows = candidates(page, skip)
            skip += len(rows)
            for r in rows:
                seen = parts(r)
                if q.shown_in(*seen):
                    r["matched"] = sorted(set().union(*(q.hit_words(p) for p in seen)))
                    found.append(r)
            if len(found) > limit:
                return found[:limit], True
            if len(rows) < page:
                return found, False
        return found[:limit], True

    # ---- the statements: the index ranks, filters (case, withheld sources) and cuts the
    # page on its own; only that page's rows are joined to the events (ranking joined rows
    # made a common word's search join every one of its hundred thousand rows first)

    def _ranked(self, q: Query, events_side: bool, raw_ok: bool, n: int, skip: int):
        withheld = sorted(self.withheld_sources())
        if self._postgres():
            s = (events_search if events_side else claims_search).c
            key = s.event_id if events_side else s.claim_id
            tsq = cast(literal(q.tsquery("" if raw_ok or not events_side else "A")), TSQUERY)
            rank = func.ts_rank(s.tsv, tsq)
            stmt = select(key.label("id"), rank.label("rank")).where(s.tsv.op("@@")(tsq), s.case_id == self.case.id)
            order = (rank.desc(), key)
        else:
            f = (events_fts if events_side else claims_fts).c
            name = "events_fts" if events_side else "claims_fts"
            rank = func.bm25(literal_column(name), 4.0, 1.0) if events_side else func.bm25(literal_column(name))
            expr = q.fts5(None if raw_ok or not events_side else "fields")
            stmt = select(f.rowid.label("id"), rank.label("rank")).where(
                getattr(f, name).op("MATCH")(expr), f.case_id == self.case.id)
            order = (rank, f.rowid)
        if withheld:
            stmt = stmt.where(s.source_id.not_in(withheld) if self._postgres() else f.source_id.not_in(withheld))
        return stmt.order_by(*order).limit(n).offset(skip).subquery("ranked")

    def _event_candidates(self, q: Query, raw_ok: bool, n: int, skip: int) -> list[dict]:
        e, r, a = events.c, raw_records.c, aligned_events.c
        built = self.is_built()
        t = func.coalesce(a.t_lo, e.t_src_lo) if built else e.t_src_lo
        hit = self._ranked(q, True, raw_ok, n, skip)
        base = hit.join(events, e.id == hit.c.id).join(raw_records, r.id == e.raw_record_id) \
            .join(sources, sources.c.id == e.source_id)
        if built:
            base = base.outerjoin(aligned_events, a.event_id == e.id)
        stmt = select(e.id, e.kind, e.t_src_lo, t.label("t_lo"), e.agency, e.unit, e.actor, e.place, e.text,
                      e.source_id, sources.c.file_name, sources.c.kind.label("source_kind"), r.ordinal,
                      *([r.raw] if raw_ok else []), hit.c.rank) \
            .select_from(base).where(e.case_id == self.case.id)
        order = hit.c.rank.desc() if self._postgres() else hit.c.rank
        return self._rows(stmt.order_by(order, e.id))

    def _claim_candidates(self, q: Query, n: int, skip: int) -> list[dict]:
        c = claims_t.c
        hit = self._ranked(q, False, True, n, skip)
        stmt = select(c.id, c.sentence, c.speaker, c.source_id, c.event_id, sources.c.file_name, hit.c.rank) \
            .select_from(hit.join(claims_t, c.id == hit.c.id).join(sources, sources.c.id == c.source_id)) \
            .where(c.case_id == self.case.id)
        order = hit.c.rank.desc() if self._postgres() else hit.c.rank
        return self._rows(stmt.order_by(order, c.id))
