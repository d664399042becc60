"""Accounts that change over time (revisions.py): a revised figure is the same fact as the one
it replaces, and the two conflict; a value denied beside another is someone's earlier account
only when the sentence says whose. Fictional people, agencies and places."""

from onrecord.claims.extract import analyse
from onrecord.claims.revisions import denied_at, denied_plainly, revised_at

LEAD = ("Police Chief Dale Renner of the Marlow Falls Police Department and Sheriff Ona Pike of the "
        "Kell County Sheriff's Office spoke on Monday.\n\n")


def _run(text):
    a = analyse({"r.txt": LEAD + text}, one_incident=True)
    return [c for c in a.claims if c.start >= len(LEAD)], a.conflicts


def _values(claims, measure):
    return [(c.lo, c.hi, c.speaker) for c in claims if c.measure == measure]


def test_a_corrected_figure_takes_the_measure_of_the_one_it_corrects_and_conflicts_with_it():
    claims, conflicts = _run("The department had earlier said the gunman was inside for about 40 minutes. "
                             "It later corrected that figure to 77 minutes.")
    # the department last named speaks both times
    assert _values(claims, "duration_of_incident") == [
        (36, 44, "org:kell-county-sheriff-s-office"), (77, 77, "org:kell-county-sheriff-s-office")]
    assert [c.measure for c in conflicts] == ["duration_of_incident"]
    assert {s["text"] for s in conflicts[0].sides} == {"about 40 minutes", "77 minutes"}


def test_a_raised_count_and_a_revised_count_are_one_fact_told_twice():
    claims, conflicts = _run("Pike initially put the number of deputies who responded at 12; "
                             "on Friday she raised it to 25.")
    assert _values(claims, "count_officers_sent") == [(12, 12, "person:ona-pike"), (25, 25, "person:ona-pike")]
    assert len(conflicts) == 1
    claims, conflicts = _run("The sheriff's office first reported that two deputies were wounded, "
                             "then revised the count to three.")
    assert [(c.lo, c.hi) for c in claims if c.measure == "count_officers_injured"] == [(2, 2), (3, 3)]
    assert len({c.speaker for c in claims}) == 1 and len(conflicts) == 1


def test_a_revised_report_puts_the_number_at_a_new_value():
    claims, conflicts = _run("Police originally said the gunman fired 60 rounds. "
                             "The revised report puts the number at 142.")
    assert [(c.lo, c.hi) for c in claims if c.measure == "count_shots"] == [(60, 60), (142, 142)]
    assert len(conflicts) == 1


def test_a_value_denied_as_someone_elses_earlier_account_is_theirs():
    claims, conflicts = _run("Renner said 19 officers waited in the hallway, not 11 as he had said on Tuesday.")
    assert _values(claims, "count_officers_waiting") == [(19, 19, "person:dale-renner"),
                                                        (11, 11, "person:dale-renner")]
    assert len(conflicts) == 1
    claims, conflicts = _run("The gunman entered the school at 11:33 a.m., not 11:40 a.m. as officials had said.")
    times = [c for c in claims if c.measure == "time_of_action"]
    assert [(c.lo, (c.time_ref or {}).get("event")) for c in times] == [(693, "shooter_entry"),
                                                                       (700, "shooter_entry")]
    assert len(conflicts) == 1
    claims, _ = _run("Officers were on the scene within four minutes, not the 19 minutes originally reported, "
                     "Renner said.")
    assert [(c.lo, c.hi, c.speaker) for c in claims] == [(0, 4, "person:dale-renner"), (19, 19, None)]


def test_a_value_denied_with_no_owner_is_no_claim():
    claims, _ = _run("Pike said two deputies were wounded, not three.")
    assert [(c.lo, c.hi) for c in claims] == [(2, 2)]
    claims, _ = _run("It was not four minutes but 48 minutes before officers went in, Renner said.")
    assert [(c.measure, c.lo, c.speaker) for c in claims] == [("duration_to_entry", 48, "person:dale-renner")]


def test_the_words_that_mark_a_revision_or_a_denial():
    s = "It later corrected that figure to 77 minutes."
    assert revised_at(s, s.index("77"))
    s = "She raised it to 25."
    assert revised_at(s, s.index("25"))
    s = "The toll rose to 25."  # a toll that rises is a count read by its own words, not a revision
    assert not revised_at(s, s.index("25"))
    s = "19 officers, not 11 as he had said"
    assert denied_at(s, s.index("11")) and not denied_plainly(s, s.index("11"), s.index("11") + 2)
    s = "two deputies, not three."
    assert denied_plainly(s, s.index("three"), s.index("three") + 5)


def test_the_figure_he_had_cited_earlier_is_his_earlier_account():
    claims, conflicts = _run("Renner acknowledged Thursday that officers had waited 77 minutes, "
                             "not the 40 minutes he had cited earlier.")
    assert _values(claims, "duration_waiting") == [(77, 77, "person:dale-renner"), (40, 40, "person:dale-renner")]
    assert len(conflicts) == 1


def test_a_first_account_and_a_later_one_of_the_wait_conflict():
    for later in ("On Friday, he put the delay at 77 minutes.", "On Friday, he said the wait was actually 77 minutes."):
        claims, conflicts = _run("Renner initially said officers waited about 40 minutes. " + later)
        assert _values(claims, "duration_waiting") == [(36, 44, "person:dale-renner"), (77, 77, "person:dale-renner")]
        assert [c.measure for c in conflicts] == ["duration_waiting"]
