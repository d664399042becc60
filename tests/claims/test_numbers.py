import pytest

from onrecord.claims.numbers import find_quantities, interval, parse_number


@pytest.mark.parametrize("text,value", [
    ("four", 4), ("twenty-three", 23), ("one hundred and five", 105), ("130", 130),
    ("1,200", 1200), ("a dozen", 12), ("$100K", 100000), ("$75,673.72", 75673.72), ("a", 1),
])
def test_parse_number(text, value):
    assert parse_number(text) == value


def _only(text):
    qs = find_quantities(text)
    assert len(qs) == 1, qs
    return qs[0]


@pytest.mark.parametrize("text,lo,hi,hedge", [
    ("he waited upwards of four minutes", 4, None, "upwards of"),
    ("at least six deputies", 6, None, "at least"),
    ("nearly twenty officers", 18, 20, "nearly"),
    ("about four minutes", 3, 5, "about"),
    ("roughly 40 officers", 36, 44, "roughly"),
    ("up to nine calls", 0, 9, "up to"),
    ("four or five minutes", 4, 5, "range"),
    ("maybe two or three shots", 2, 3, "maybe"),
    ("at least 20 to 30 calls", 20, None, "at least"),
    ("between 20 and 30 calls", 20, 30, "range"),
    ("40-plus officers", 40, None, "plus"),
    ("ten or so units", 9, 11, "or so"),
    ("exactly seven shots", 7, 7, "exactly"),
    ("several units", 3, 9, "several"),
])
def test_hedges_become_intervals(text, lo, hi, hedge):
    q = _only(text)
    assert (q.lo, q.hi, q.hedge) == (lo, hi, hedge)


def test_part_of_whole_keeps_the_whole():
    q = _only("roughly 40 of the 130 officers went in")
    assert q.of_total == 130 and q.value == 40


def test_two_amounts_joined_by_and_are_not_a_range():
    qs = find_quantities("he made over $100K and $75,673.72 in base pay")
    assert [(q.lo, q.hi) for q in qs] == [(100000, None), (75673.72, 75673.72)]


def test_not_one_of_them_is_zero():
    q = _only("not one of them had gone into the library")
    assert (q.lo, q.hi) == (0, 0)


def test_identifiers_and_determiner_one_are_not_amounts():
    assert find_quantities("near Building 12 while the one deputy waited") == []


def test_interval_rules():
    assert interval(10, "just_over") == (10, 11)
    assert interval(4, None) == (4, 4)


def test_compound_amounts_of_time_are_one_quantity():
    from onrecord.claims.numbers import find_quantities

    def one(text):
        [q] = find_quantities(text)
        return q.text, q.lo, q.hi, q.unit

    assert one("after one minute and 39 seconds, he") == ("one minute and 39 seconds", 1.65, 1.65, "minute")
    assert one("nearly an hour and a half later") == ("nearly an hour and a half", 81.0, 90.0, "minute")
    assert one("for about a half hour") == ("about a half hour", 27.0, 33.0, "minute")
    assert one("within a minute to 90 seconds") == ("within a minute to 90 seconds", 0.0, 1.5, "minute")


def test_a_hedge_before_another_and_the_whole_of_not_one_of():
    from onrecord.claims.numbers import find_quantities

    [q] = find_quantities("left at least another 20 injured")
    assert (q.text, q.lo, q.hi) == ("at least another 20", 20.0, None)
    [q] = find_quantities("Not one of the four deputies had entered")
    assert (q.text, q.lo) == ("Not one of the four", 4.0)
    assert find_quantities("callers dialed 911 in 2019") == []


def test_an_amount_of_time_in_three_falling_units_is_one():
    [q] = find_quantities("Deputies waited 1 hour, 14 minutes and 8 seconds before entering.")
    assert (q.text, q.unit, round(q.lo, 3)) == ("1 hour, 14 minutes and 8 seconds", "minute", 74.133)
    assert len(find_quantities("They waited two minutes, 30 minutes and an hour.")) == 3


def test_a_range_between_two_amounts_of_time_in_different_units_is_one_amount():
    from onrecord.claims.numbers import find_quantities

    text = "Officers waited between 40 minutes and an hour before going in."
    [q] = find_quantities(text)
    assert (q.lo, q.hi, q.unit, q.text) == (40, 60, "minute", "between 40 minutes and an hour")
    [q] = find_quantities("He waited one minute and 39 seconds.")  # one amount, not a range
    assert (q.lo, q.hi) == (1.65, 1.65)
