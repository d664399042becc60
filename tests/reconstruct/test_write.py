"""Writing a build: every event gets its aligned time and unit, and a failed rebuild
leaves the last build as it was."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from onrecord.store.schema import aligned_events, entities, entity_mentions, events, findings, fused_events


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from onrecord.pipeline import build_case
    from onrecord.scenario.into_case import generate_and_import

    case = generate_and_import(5, tmp_path_factory.mktemp("write"))
    return case, build_case(case)


def _snapshot(case) -> dict:
    with case.engine.connect() as conn:
        return {t.name: conn.execute(select(t).order_by(*t.primary_key.columns)).all()
                for t in (aligned_events, fused_events, entity_mentions, findings)}


def test_every_event_aligned_as_the_build_computed_it(built):
    case, r = built
    with case.engine.connect() as conn:
        n = conn.execute(select(func.count()).select_from(events)).scalar()
        rows = conn.execute(select(aligned_events.c.event_id, aligned_events.c.t_lo, aligned_events.c.t_hi)).all()
    assert len(rows) == n == len(r.events)
    computed = {int(i): (lo, hi) for i, lo, hi in zip(r.events["id"], r.events["t_lo"], r.events["t_hi"])}
    for event_id, lo, hi in rows:
        want = computed[event_id]
        assert (lo, hi) == ((None, None) if want[0] != want[0] else (int(want[0]), int(want[1])))


def test_reports_point_at_their_fused_event(built):
    case, r = built
    fused = {i: m.fused_id for m in r.moments if len(m.members) > 1 for i in m.members}
    assert fused
    with case.engine.connect() as conn:
        stored = dict(conn.execute(select(aligned_events.c.event_id, aligned_events.c.fused_id)
                                   .where(aligned_events.c.fused_id.is_not(None))).all())
    assert stored == fused


def test_every_resolved_unit_is_written(built):
    case, r = built
    with case.engine.connect() as conn:
        units = conn.execute(select(func.count()).select_from(entity_mentions)
                             .where(entity_mentions.c.role == "unit", entity_mentions.c.event_id.is_not(None))).scalar()
    listed = sum(1 for m in r.who.mentions if m.role == "unit")
    assert units == len(r.who.unit_mentions) + listed > 0


def test_a_failed_rebuild_leaves_the_last_build(built, monkeypatch):
    import onrecord.reconstruct.write as write

    case, r = built
    before = _snapshot(case)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(write, "_findings", broken)  # the last thing a build writes
    with pytest.raises(RuntimeError, match="disk full"):
        write.write_reconstruction(case, r)
    assert _snapshot(case) == before


def test_mentions_point_at_their_entities_when_ids_do_not_start_at_one(built):
    """A person `onrecord link` found stays through a rebuild (as do other cases' rows in a
    shared PostgreSQL database), so the build's entities are numbered on from there."""
    from onrecord.reconstruct.write import write_reconstruction

    case, r = built
    with case.engine.begin() as conn:
        conn.execute(entities.insert().values(id=50_000, case_id=case.id, kind="person", name="Linked Person"))
        conn.execute(entity_mentions.insert().values(id=900_000_000, case_id=case.id, entity_id=50_000,
                                                     role="subject", text="Linked Person"))
    write_reconstruction(case, r)
    with case.engine.connect() as conn:
        rows = conn.execute(select(entity_mentions.c.role, entities.c.kind, entities.c.id)
                            .join(entities, entities.c.id == entity_mentions.c.entity_id, isouter=True)
                            .where(entity_mentions.c.case_id == case.id)).all()
    kinds = {"unit": "unit", "call_sign": "unit", "vehicle": "unit", "actor": "person", "subject": "person"}
    assert len(rows) > len(r.who.unit_mentions)
    for role, kind, entity_id in rows:
        assert kind == kinds.get(role, "person"), (role, kind, entity_id)
    assert {e for role, _, e in rows if role == "subject"} == {50_000}
    assert min(e for role, _, e in rows if role != "subject") > 50_000
