from onrecord.claims.ages import find_ages
from onrecord.claims.extract import analyse


def test_a_range_of_ages_is_one_claim_in_years():
    text = ("Officials said those killed ranged in age from 18 months to 77 years old, and those wounded ranged "
            "from between 5 and 72 years old.")
    got = [(text[a.start:a.end], a.lo, a.hi, a.hedge, a.qualifier) for a in find_ages(text)]
    assert got == [("from 18 months to 77 years old", 1.5, 77.0, "range", "of the dead"),
                   ("between 5 and 72 years old", 5.0, 72.0, "range", "of the wounded")]


def test_as_young_as_is_the_youngest():
    [a] = find_ages("The dead included children as young as 18 months old.")
    assert (a.lo, a.hi, a.hedge) == (1.5, 1.5, "youngest")


def test_ranges_of_one_group_that_disagree_conflict():
    a = analyse({"a.txt": "At the Penbury chapel shooting, the dead ranged in age from 5 to 72, Sheriff Ilse "
                          "Marrow said.",
                 "b.txt": "Sheriff Ilse Marrow said the Penbury chapel victims killed ranged in age from 18 "
                          "months to 77 years old."})
    ages = [c for c in a.conflicts if c.measure == "age"]
    assert len(ages) == 1 and {s["text"] for s in ages[0].sides} == {"from 5 to 72", "from 18 months to 77 years old"}
