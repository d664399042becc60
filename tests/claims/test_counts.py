"""Counts of people read by the predicate they hang on (counts.py), on invented sentences."""

from onrecord.claims.extract import extract_claims


def _counts(text):
    return [(c.text, c.measure, c.lo, c.hi, c.qualifier) for c in extract_claims(text, "t.txt")
            if c.unit == "people"]


def test_the_verb_that_takes_the_number_decides():
    got = _counts("The shooting at the Penbury mall killed 12 and wounded 58 before the gunman fled.")
    assert got == [("12", "count_deaths", 12, 12, None), ("58", "count_injured", 58, 58, None)]


def test_the_head_and_the_verb_after_it():
    got = _counts("Police said 10 people were shot dead and three others were hurt at the Alder market.")
    assert [(t, m) for t, m, *_ in got] == [("10 people", "count_deaths"), ("three others", "count_injured")]
    assert _counts("The Larkin shooting left 17 people dead and 14 injured.") == [
        ("17 people", "count_deaths", 17, 17, None), ("14 injured", "count_injured", 14, 14, None)]


def test_a_partitive_whole_and_a_part_of_those_shot():
    got = _counts("Of the 13 shot, 11 were employees of the store.")
    assert ("11", "count_shot") in [(t, m) for t, m, *_ in got]
    got = _counts("The gunman shot four people in the parking lot and three are dead.")
    assert ("three", "count_deaths", 3, 3, "of those shot") in got


def test_another_count_of_the_same_measure_is_a_part():
    got = _counts("Two people were fatally wounded in a dorm, and later the gunman claimed another 30 victims.")
    assert [(t, m, q) for t, m, _, _, q in got] == [("Two people", "count_deaths", None),
                                                   ("another 30 victims", "count_deaths", "more")]


def test_numbers_before_another_noun_count_no_one():
    assert _counts("He was killed about 5 miles away when he crashed.") == []


def test_a_part_of_the_wounded_that_died_is_a_death_of_that_part():
    from onrecord.claims.extract import extract_claims

    [c] = extract_claims("Two of the wounded later died.", "p.txt")
    assert (c.measure, c.lo, c.qualifier) == ("count_deaths", 2.0, "of the wounded")
