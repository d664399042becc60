"""Statements and press pieces of a generated incident against its records: every
injected contradiction truth lists should be found, each with its sentence and the record
events it rests on; the approximate times truth says are right must never be called
contradicted."""

from __future__ import annotations

import json

import pytest

from onrecord.findings.render import sentence


@pytest.fixture(scope="module")
def read(built_seed):
    from onrecord.store.reader import open_reader

    work, case, r = built_seed
    truth = json.loads((work / "scenario-7" / "truth.json").read_text())
    files = dict(zip(r.events["id"], r.events["file_name"]))
    # each finding's sentence as a reader of the case reads it: in the case's own zone
    zone = open_reader(case).display_zone()
    r.sentences = {id(f): sentence(f, zone) for f in r.findings}
    return r, truth, files


def _overlaps(row, files, item) -> bool:
    return files[row["event_id"]] == item["source"] and row["span_lo"] < item["span"][1] \
        and item["span"][0] < row["span_hi"]


def _flagged(r) -> list[tuple[object, int]]:
    out = []
    for f in r.findings:
        if f.kind == "discrepancy":
            ids = f.payload.get("claims") or [f.payload.get("claim")]
            out += [(f, i) for i in ids if i is not None]
    return out


def test_statement_contradictions_are_found_against_the_records(read):
    r, truth, files = read
    flagged = _flagged(r)
    for item in truth["contradictions"]:
        hits = [f for f, i in flagged if _overlaps(r.claims[i], files, item)]
        assert hits, f"missed {item['measure']}: {item['quote']}"
        f = hits[0]
        assert f.name == "claim_contradicts_record"
        assert len(f.evidence) >= 2, "the statement itself and at least one record event"
        assert item["quote"].startswith(f.payload["sentence"].strip()[:20])


def test_nothing_true_is_called_wrong(read):
    r, truth, files = read
    wrong = truth["contradictions"] + truth["press_errors"]
    for f, i in _flagged(r):
        if f.name == "claim_contradicts_record":
            assert any(_overlaps(r.claims[i], files, w) for w in wrong), r.sentences[id(f)]


def test_approximate_times_are_checked_and_supported(read):
    r, truth, files = read
    verdicts = []
    for row in r.claims:
        check = json.loads(row["payload"]).get("record_check")
        if check and any(_overlaps(row, files, a) for a in truth["approximate_times"]):
            verdicts.append(check["verdict"])
    assert "contradicts" not in verdicts
    assert verdicts.count("supports") >= 3, verdicts


def test_a_contradiction_names_the_speaker_and_quotes_the_radio(read):
    r, _, _ = read
    orders = [f for f in r.findings if f.name == "claim_contradicts_record" and f.payload["measure"] == "order_given"]
    assert orders
    for f in orders:
        assert "author of" not in r.sentences[id(f)]  # the statement's author by name
        assert "on the radio: “" in r.sentences[id(f)]


def test_record_times_in_a_summary_are_the_cases_local_clock(read):
    r, truth, files = read
    timed = [r.sentences[id(f)] for f in r.findings if f.kind == "discrepancy" and "on scene by" in r.sentences[id(f)]]
    assert timed
    for summary in timed:
        assert " UTC" not in summary
        # the generated county is on US Eastern time, as every view shows it
        assert " EST" in summary or " EDT" in summary, summary
