"""What one reader is shown of the board (live/board_view.py): a withheld source's records
are in no list, an alert resting on them says it is withheld, protected names are
pseudonyms. Pictures made by hand, of fictional units and agencies."""

from __future__ import annotations

from onrecord.findings.render import WITHHELD
from onrecord.live.board_view import NOT_KNOWN, shown, shown_alerts
from onrecord.store.redact import Redactor

OPEN, CLOSED = 1, 2  # source ids: one the reader may read, one restricted to another agency


def _ev(i, source, text=""):
    return {"id": i, "kind": "shots_detected", "source": source, "text": text}


def picture():
    return {
        "now": 0, "version": 3,
        "agencies": {"NCSO": [{"unit": "12A4", "status": "on_scene", "sources": [OPEN]}],
                     "ZZPD": [{"unit": "Z9", "status": "entered", "sources": [CLOSED]}]},
        "alerts": [{"alert": "a:12A4:1", "title": "held", "subject": "12A4", "values": {"held_s": 70},
                    "sentence": "12A4 held outside 70 s", "evidence": [_ev(1, OPEN), _ev(2, CLOSED)],
                    "sources": [OPEN, CLOSED], "withheld": False},
                   {"alert": "b:12A4:1", "title": "other", "subject": "12A4", "values": {}, "sentence": "ok",
                    "evidence": [_ev(1, OPEN)], "sources": [OPEN], "withheld": False}],
        "cleared": [{"alert": "c:Z9:1", "reason": "entered", "sources": [CLOSED], "withheld": False}],
        "shots": [_ev(1, OPEN, "Jane Example heard it"), _ev(2, CLOSED)], "calls": [],
        "feeds": [{"feed": "sensors", "source": OPEN}, {"feed": "campus", "source": CLOSED}],
        "rejects": [{"feed": "campus", "raw_record": 9, "reason": "not JSON"}],
        "last_event": {"id": 2, "source": CLOSED}}


def test_nothing_withheld_and_nobody_protected_is_the_picture_itself():
    p = picture()
    assert shown(p, frozenset(), Redactor(())) is p


def test_a_withheld_source_is_in_no_list_and_its_alert_says_so():
    got = shown(picture(), frozenset({CLOSED}), Redactor(()))
    assert list(got["agencies"]) == ["NCSO"]
    assert [s["id"] for s in got["shots"]] == [1] and got["last_event"] is None
    assert [f["feed"] for f in got["feeds"]] == ["sensors"] and got["rejects"] == []
    held, other = got["alerts"]
    assert held["withheld"] is True and held["values"] is None and held["sentence"] == WITHHELD
    assert [e["id"] for e in held["evidence"]] == [1] and held["subject"] == "12A4"
    assert other["withheld"] is False and other["sentence"] == "ok"
    assert got["cleared"][0]["withheld"] is True and got["cleared"][0]["reason"] == "evidence withheld"


def test_an_alert_on_evidence_the_board_no_longer_holds_is_withheld_from_anyone_withheld_anything():
    p = picture()
    p["alerts"][1]["sources"] = [OPEN, NOT_KNOWN]
    assert shown(p, frozenset({CLOSED}), Redactor(()))["alerts"][1]["withheld"] is True


def test_protected_names_are_pseudonyms_in_every_string():
    got = shown(picture(), frozenset(), Redactor([("Jane Example", "Victim 1")]))
    assert got["shots"][0]["text"] == "Victim 1 heard it"
    assert "Jane" not in repr(got)


def test_the_alert_history_withholds_findings_on_withheld_events():
    findings = [{"name": "r", "status": "established", "value_lo": 1.0, "value_hi": None,
                 "payload": {"alert": "r:12A4:1", "title": "held", "values": {"held_s": 70}}, "evidence": [1, 2]},
                {"name": "r", "status": "established", "value_lo": 2.0, "value_hi": None,
                 "payload": {"alert": "r:12A4:2", "title": "held"}, "evidence": [1]}]
    got = shown_alerts(findings, {1: OPEN, 2: CLOSED}, frozenset({CLOSED}), Redactor(()))
    assert got[0]["status"] == "withheld" and got[0]["evidence"] == [1] and got[0]["value_lo"] is None
    assert "values" not in got[0]["payload"] and got[0]["payload"]["alert"] == "r:12A4:1"
    assert got[1]["withheld"] is False and got[1]["value_lo"] == 2.0
