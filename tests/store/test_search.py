"""Full-text search on both stores (store/read_search.py, search_index.py): words, phrases
and prefixes, ranked; the index follows imports, removals and builds and is built by the
migration for a case made before it; what a reader may not see never finds a row."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, update

from onrecord.store.case import open_case
from onrecord.store.reader import Actor, open_reader
from tests.helpers import CAD_MAPPING, store_state, write_cad

ROWS = """CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene
C-2001,S12,Welfare check on Dana Whitlock,14 Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:10,03/14/2026 09:40:00
C-2002,S20,"Alarm, commercial",900 Quarry Ave,2,03/14/2026 10:02:00,03/14/2026 10:03:30,03/14/2026 10:11:15
C-2003,S31,Traffic stop with citation,Main St & 5th,3,03/14/2026 11:00:00,03/14/2026 11:00:30,
C-2004,S12,Check on Morgan Whitlock for the family,14 Larkspur Rd,3,03/14/2026 12:00:00,03/14/2026 12:01:00,
C-2005,S14,Welfare check,Côté Plaza,3,03/14/2026 13:00:00,03/14/2026 13:01:00,
"""
FIRE_ROWS = """CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene
F-3001,E7,Smoke investigation,22 Heron Way,2,03/14/2026 09:45:00,03/14/2026 09:46:00,03/14/2026 09:52:00
"""


@pytest.fixture
def case(case_dir, cli):
    data, mapping = write_cad(case_dir.parent / "in", ROWS)
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    fire = case_dir.parent / "fire"
    fire.mkdir()
    (fire / "fire.toml").write_text(CAD_MAPPING.replace('"EVSO"', '"BCFR"').replace("eastvale-cad", "bcfr-cad"))
    (fire / "fire.csv").write_text(FIRE_ROWS)
    assert cli("import", case_dir, fire / "fire.csv", "--mapping", fire / "fire.toml")[0] == 0
    c = open_case(case_dir)
    yield c
    c.engine.dispose()


def user(role: str, *agencies: str) -> Actor:
    return Actor(f"{role} of {','.join(agencies) or 'none'}", kind="user", role=role, agencies=frozenset(agencies))


def calls(found: dict) -> set[str]:
    return {e["raw"].split(",")[0] if e.get("raw") else e["text"] for e in found["events"]}


def texts(found: dict) -> set[str]:
    return {e["text"] for e in found["events"]}


def test_words_phrases_prefixes_and_no_match(case):
    r = open_reader(case)
    found = r.search("larkspur WELFARE")
    assert texts(found) == {"Welfare check on Dana Whitlock"} and not found["more"] and not found["behind"]
    assert {"larkspur", "welfare"} <= set(found["events"][0]["matched"])
    assert texts(r.search('"traffic stop"')) == {"Traffic stop with citation"}
    assert r.search('"stop traffic"')["events"] == []  # a phrase's words in its order
    assert texts(r.search("citat*")) == {"Traffic stop with citation"}
    assert texts(r.search("quar*")) == {"Alarm, commercial"}  # the place is searched too
    assert texts(r.search("cote")) == {"Welfare check"}  # accents and case do not matter
    assert r.search("zebra")["events"] == [] and r.search("zebra")["claims"] == []
    assert r.search("   ,;  ")["terms"] == []  # punctuation is no query, and no error
    assert r.search('"unclosed phrase')["events"] == []


def test_ranked_best_first(case):
    # "welfare check" is the whole text of C-2005's events and part of C-2001's: the shorter one ranks first
    found = open_reader(case).search("welfare check")
    assert texts(found) == {"Welfare check", "Welfare check on Dana Whitlock"}
    assert found["events"][0]["text"] == "Welfare check"


def test_raw_lines_are_searched_only_for_roles_that_see_them(case):
    assert "C-2002" in calls(open_reader(case).search("C-2002"))  # the call number is only in the raw line
    assert open_reader(case, user("viewer", "EVSO")).search("C-2002")["events"] == []
    assert open_reader(case, user("viewer", "EVSO")).search("quarry")["events"]  # its fields still are


def test_a_withheld_source_is_not_found_by_another_agency(case):
    from onrecord.access.marks import restrict_source

    fire = [s for s in open_reader(case).sources() if s["file_name"] == "fire.csv"][0]
    restrict_source(case.engine, case.id, fire["id"], "test")
    assert open_reader(case, user("analyst", "EVSO")).search("heron smoke")["events"] == []
    assert open_reader(case, user("analyst", "EVSO")).search("F-3001")["events"] == []  # nor by its raw line
    assert texts(open_reader(case, user("analyst", "BCFR")).search("heron smoke")) == {"Smoke investigation"}


def test_a_protected_name_is_not_found_or_shown(case):
    from onrecord.access.marks import protect

    _, pseudonym = protect(case.engine, case.id, "Dana Whitlock", "victim", "test")
    viewer, analyst = open_reader(case, user("viewer", "EVSO")), open_reader(case, user("analyst", "EVSO"))
    assert texts(analyst.search('"dana whitlock"')) == {"Welfare check on Dana Whitlock"}
    assert viewer.search("dana")["events"] == []
    whitlock = viewer.search("whitlock")
    assert texts(whitlock) == {"Check on Morgan Whitlock for the family"}  # the other Whitlock is no secret
    shown = viewer.search(pseudonym)  # what the viewer sees finds it, and shows only that
    assert texts(shown) == {f"Welfare check on {pseudonym}"} and "Dana" not in str(shown)
    assert texts(viewer.search(f"{pseudonym} larkspur")) == {f"Welfare check on {pseudonym}"}
    assert "Dana" not in str(viewer.search("larkspur"))


def test_the_index_follows_removals_and_new_imports(case, case_dir, cli):
    from onrecord.store.removal import remove_source

    assert texts(open_reader(case).search("heron"))
    remove_source(case, "fire.csv", "imported by mistake")
    assert open_reader(case).search("heron")["events"] == []
    rows = FIRE_ROWS.replace("Smoke investigation", "Gas leak").replace("Heron", "Osprey")
    data, mapping = write_cad(case_dir.parent / "again", rows, "fire2.csv")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0  # may reuse the removed events' ids
    r = open_reader(case)
    assert r.search("heron")["events"] == [] and texts(r.search("osprey gas")) == {"Gas leak"}
    assert not r.search("osprey")["behind"]


def test_claims_are_indexed_with_the_build_and_withheld_with_their_source(case):
    from onrecord.access.marks import restrict_source
    from onrecord.store import search_index
    from onrecord.store.schema import cases, claims
    from onrecord.store.session import write_session

    fire = [s for s in open_reader(case).sources() if s["file_name"] == "fire.csv"][0]
    with write_session(case) as db:  # as a build writes its claims
        db.run(insert(claims).values(id=1, case_id=case.id, source_id=fire["id"], sentence="I smelled gas near "
                                     "the loading dock", speaker="Captain Example", measure="said"))
        db.run(update(cases).where(cases.c.id == case.id).values(derived_generation=cases.c.derived_generation + 1))
        search_index.refresh(search_index.session_sink(db), case.id)
    found = open_reader(case).search('"loading dock" gas')
    assert [c["id"] for c in found["claims"]] == [1] and found["events"] == []
    assert open_reader(case).search("captain")["claims"]  # the speaker too
    restrict_source(case.engine, case.id, fire["id"], "test")
    assert open_reader(case, user("analyst", "EVSO")).search("loading dock")["claims"] == []


def test_the_migration_indexes_a_case_made_before_it(case, case_dir):
    from alembic import command

    from onrecord.store import migrate

    cfg = migrate._config()
    with case.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0012")
    assert migrate.current_revision(case.engine) == "0012"
    migrate.upgrade(case.engine)
    found = open_reader(case).search("larkspur welfare")
    assert texts(found) == {"Welfare check on Dana Whitlock"} and not found["behind"]
    assert found["indexed"] == store_state(case_dir)["events"]


def test_changes_the_index_missed_are_caught_up_by_the_next_write(case):
    """A change committed without the index (the events changed twice since it was written):
    the next refresh finds fewer events than it holds and indexes the case anew."""
    from sqlalchemy import delete

    from onrecord.store import search_index
    from onrecord.store.schema import cases, events
    from onrecord.store.session import write_session

    fire = [s for s in open_reader(case).sources() if s["file_name"] == "fire.csv"][0]
    with write_session(case) as db:
        db.run(delete(events).where(events.c.source_id == fire["id"]))
        db.run(update(cases).where(cases.c.id == case.id).values(generation=cases.c.generation + 2))
    assert open_reader(case).search("welfare")["behind"]
    with write_session(case) as db:
        assert search_index.refresh(search_index.session_sink(db), case.id) > 0
    found = open_reader(case).search("heron")
    assert found["events"] == [] and not found["behind"]
    assert texts(open_reader(case).search("quarry")) == {"Alarm, commercial"}
