"""A finding is data until it is read: its payload holds values, times (UTC ms), names and
reason codes, never a sentence; the sentence is written for the reader, in the reader's
zone, so the same finding reads in New York time to one reader and in Los Angeles time to
another."""

from __future__ import annotations

import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

from onrecord.findings.render import REASONS, SENTENCES, says, sentence
from onrecord.model import Finding

NY, LA, UTC = ZoneInfo("America/New_York"), ZoneInfo("America/Los_Angeles"), ZoneInfo("UTC")
CLOCK_TEXT = re.compile(r"\d{1,2}:\d\d(:\d\d)? ?(?:[AP]M )?[A-Z]{3}\b")
T = int(datetime.fromisoformat("2025-02-13T19:05:45+00:00").timestamp() * 1000)


def test_the_same_finding_reads_in_each_readers_zone():
    f = Finding("first_shots", "established", value_lo=T, value_hi=T, unit="utc_ms")
    assert sentence(f, NY) == "first shots: 14:05:45 EST"
    assert sentence(f, LA) == "first shots: 11:05:45 PST"
    wide = Finding("unit_on_scene", "established", subject="E31", value_lo=T, value_hi=T + 90_000, unit="utc_ms")
    assert sentence(wide, NY) == "E31 on scene: between 14:05:45 EST and 14:07:15 EST (2025-02-13)"


def test_a_stored_row_reads_as_the_build_s_finding_does():
    f = Finding("unit_outside_while_shots", "established", subject="2-31", value_lo=40.0, value_hi=44.0, unit="s",
                payload={"agency": "EVSO", "held_outside": True}, evidence=[3, 4])
    row = {"id": 9, "kind": "metric", "name": f.name, "subject": f.subject, "status": f.status, "value_lo": 40.0,
           "value_hi": 44.0, "unit": "s", "payload": f.payload, "evidence": {"events": [3, 4]}}
    assert sentence(f) == sentence(row) == ("2-31: 40–44 s on scene outside while shots were still being fired "
                                            "(held outside while shots were fired)")


def test_not_established_says_why_from_its_reason_code():
    f = Finding("first_entry", "not_established", payload={"reason": "no_entry"})
    assert sentence(f) == "first entry: not established — " + REASONS["no_entry"]


def test_a_finding_without_a_sentence_of_its_own_reads_as_its_name_and_value():
    f = Finding("time_to_triage", "established", subject="M12", value_lo=30, value_hi=45, unit="s")
    assert sentence(f) == "time to triage (M12): 30–45 s"


def test_what_the_records_say_of_a_claim_is_data_worded_on_read():
    said = {"say": "on_scene_by", "unit": "2-31", "at": T,
            "then": {"say": "sensor_counted", "device": "GS-4", "shots": 21, "bursts": 6}}
    assert says(said, NY) == ("2-31 was on scene by 14:05:45 EST; gunshot sensor GS-4 alone counted 21 shots after "
                              "that moment (6 bursts)")
    assert says(said, LA).startswith("2-31 was on scene by 11:05:45 PST")


def test_a_build_stores_no_sentence_and_every_finding_reads(built_seed):
    _, _, r = built_seed
    assert r.findings
    names = {f.name for f in r.findings if f.kind != "alert"}
    assert names - set(SENTENCES) == set(), "every finding of a build has a sentence of its own"
    # the build replays its events through the live rules: alerts worded as alerts, whatever the rule
    alerts = [f for f in r.findings if f.kind == "alert"]
    assert alerts and all(f.payload["replayed"] and "would have fired at" in sentence(f, NY) for f in alerts)
    timed = 0
    for f in r.findings:
        # no time written as text anywhere in what is stored: the reader's zone decides it
        assert not CLOCK_TEXT.search(json.dumps(f.payload, ensure_ascii=False)), (f.name, f.payload)
        ny, utc = sentence(f, NY), sentence(f, UTC)
        assert ny and utc
        if CLOCK_TEXT.search(ny):
            timed += 1
            assert ny != utc, f.name
    assert timed >= 10  # first shots, arrivals, entries, the record times quoted in discrepancies...
    for row in r.claims:
        check = json.loads(row["payload"]).get("record_check")
        if check:
            assert isinstance(check["says"], dict) and says(check["says"], NY)


def test_every_kind_of_verdict_a_check_returns_has_words():
    import ast
    from pathlib import Path

    from onrecord.findings import claim_checks, record_facts
    from onrecord.findings.render import SAYS

    made = set()
    for module in (claim_checks, record_facts):
        for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "say" and isinstance(v, ast.Constant):
                        made.add(v.value)
    assert len(made) >= 10 and made <= set(SAYS), made - set(SAYS)


def test_an_alert_reads_as_its_rule_subject_times_clear_reason_and_who_saw_it():
    f = Finding("armed_unit_holding_outside", "established", kind="alert", subject="2-31", value_lo=T, unit="utc_ms",
                payload={"title": "Armed unit on scene outside while shots continue", "replayed": True,
                         "held_since": T - 60_000, "fired_at": T, "cleared_at": T + 120_000,
                         "clear_reason": "unit_entered", "values": {"seen_by": ["NCSO", "NCFR"]}})
    assert sentence(f, NY) == ("Armed unit on scene outside while shots continue — 2-31: would have fired at "
                               "14:05:45 EST, holding since 14:04:45 EST; cleared at 14:07:45 EST (the unit went "
                               "in); in front of NCSO, NCFR")
    live = Finding("camera_view_behind", "established", kind="alert", subject="CAM-2", value_lo=T, unit="utc_ms",
                   payload={"title": "Camera view called live is behind", "fired_at": T, "values": {}})
    assert sentence(live, NY) == "Camera view called live is behind — CAM-2: fired at 14:05:45 EST; active"


def test_a_loose_clock_reads_as_only_bounded_not_estimated():
    from onrecord.findings.render import clock_against

    f = Finding("clock_offset", "established", subject="campus-log.csv", value_lo=-847.0, value_hi=875.0, unit="s",
                payload={"status": "loose", "offset_s": 14.0, "uncertainty_s": 861.0, "anchors": 8})
    words = sentence(f)
    assert "loose: only bounded" in words and "estimated" not in words
    assert clock_against({"status": "loose", "against": ["radio.csv (shots heard)"]}).startswith("clock: loose")
    assert "estimated" not in clock_against({"status": "loose", "against": []})
