from onrecord.claims.conflicts import compare_with_record, find_conflicts, group_claims, overlap
from onrecord.model import Claim


def _claim(cid, lo, hi, speaker="person:a", subject="person:x", measure="duration_outside", doc="d.txt"):
    return Claim(id=cid, doc=doc, start=0, end=1, text="t", sentence=f"sentence {cid}", sentence_start=0,
                 speaker=speaker, speaker_text=speaker, subject=subject, subject_text=None,
                 measure=measure, lo=lo, hi=hi, unit="minute", hedge=None)


def test_overlap_with_open_bounds():
    assert overlap((4, None), (5, 5))
    assert not overlap((4, 4), (5, 5))
    assert overlap((None, 3), (3, 3))


def test_conflict_names_both_sides():
    claims = [_claim("c1", 4, None), _claim("c2", 5, 5, speaker="person:b"),
              _claim("c3", 4, 4, speaker="author:z.txt", doc="z.txt")]
    [conflict] = find_conflicts(claims)
    assert {s["claim"] for s in conflict.sides} == {"c2", "c3"}
    assert {s["speaker"] for s in conflict.sides} == {"person:b", "author:z.txt"}
    assert all(s["sentence"].startswith("sentence") for s in conflict.sides)


def test_groups_need_same_subject_and_measure():
    claims = [_claim("c1", 4, 4), _claim("c2", 4, 4, subject="person:y"),
              _claim("c3", 9, 9, measure="duration_waiting"), _claim("c4", 4, 4, subject=None)]
    groups = group_claims(claims)
    assert sorted(len(g["claims"]) for g in groups) == [1, 1, 1]
    assert find_conflicts(claims) == []


def test_agreed_interval():
    [g] = group_claims([_claim("c1", 4, None), _claim("c2", 3, 6)])
    assert g["agreed"] == [4, 6]


def test_compare_with_record():
    claim = _claim("c1", 4, None)
    assert compare_with_record(claim, 5.5, 6.0).verdict == "supports"
    assert compare_with_record(claim, 1.0, 2.0).verdict == "contradicts"
    assert compare_with_record(claim, 3.5, 4.5).verdict == "cannot_tell"
    assert compare_with_record(claim, 5, 5, unit="utc_ms").verdict == "cannot_tell"


def test_compare_converts_seconds_and_counts():
    claim = _claim("c1", 4, None)
    assert compare_with_record(claim, 300, 310, unit="s").verdict == "supports"
    assert compare_with_record(claim, 120, 130, unit="s").verdict == "contradicts"
    count = _claim("c2", 36, 44, measure="count_officers_entered")
    count.unit = "officers"
    assert compare_with_record(count, 41, 41, unit="count").verdict == "supports"
    assert compare_with_record(count, 12, 12, unit="count").verdict == "contradicts"


def test_places_group_but_never_conflict():
    a = _claim("p1", None, None, measure="place_of_action")
    b = _claim("p2", None, None, measure="place_of_action", speaker="person:b")
    a.unit = b.unit = "place"
    a.value_text, b.value_text = "at the east door", "behind a pillar outside"
    assert find_conflicts([a, b]) == []
    [g] = group_claims([a, b])
    assert g["places"] == ["at the east door", "behind a pillar outside"] and g["agreed"] is None


def test_unnamed_officers_against_an_agencys_count():
    from onrecord.claims.extract import analyse

    a = ("Halden Police Chief Ada Brisk said 19 officers waited in the hallway at Penbury High. "
         "Brisk said Halden police officers arrived at 11:36 a.m.")
    b = "At Penbury High, only 11 officers waited in the hallway, the Halden Courier reported."
    c = "At Penbury High, a total of 12 Marlow County deputies waited in the hallway, the Marlow Ledger reported."
    got = analyse({"a.txt": a, "b.txt": b, "c.txt": c}, one_incident=True)
    pairs = {frozenset(s["lo"] for s in x.sides) for x in got.conflicts if x.measure == "count_officers_waiting"}
    # the unnamed 11 against each agency's count; the two agencies' counts never against each other
    assert pairs == {frozenset({11.0, 19.0}), frozenset({11.0, 12.0})}


def test_partial_counts_of_officers_are_no_contradiction():
    from onrecord.claims.extract import analyse

    a = "At Penbury High, three Marlow County deputies stayed outside, the Halden Courier reported."
    b = "At Penbury High, four Marlow County deputies stayed outside, the Marlow Ledger reported."
    c = "At Penbury High, only two Marlow County deputies stayed outside, Sheriff Ada Brisk said."
    got = analyse({"a.txt": a, "b.txt": b, "c.txt": c}, one_incident=True)
    pairs = {frozenset(s["lo"] for s in x.sides) for x in got.conflicts}
    # three and four may both be partial; "only two" is all there were
    assert pairs == {frozenset({2.0, 3.0}), frozenset({2.0, 4.0})}


def test_the_gunmans_death_and_entry_are_moments_of_the_incident():
    from onrecord.claims.extract import analyse

    a = "Halden Police Chief Ada Brisk said the gunman was killed at 12:50 p.m. at Penbury High."
    b = ("At Penbury High, officers killed the gunman at 1:06 p.m., the Halden Courier reported. "
         "Officers entered at 12:50 p.m.; the gunman went in at 11:33 a.m.")
    got = analyse({"a.txt": a, "b.txt": b}, one_incident=True)
    events = {(c.doc, c.lo): (c.time_ref or {}).get("event") for c in got.claims}
    assert events == {("a.txt", 770.0): "shooter_down", ("b.txt", 786.0): "shooter_down",
                      ("b.txt", 770.0): "entry", ("b.txt", 693.0): "shooter_entry"}
    sides = [sorted(s["lo"] for s in x.sides) for x in got.conflicts]
    assert [770.0, 786.0] in sides  # who was killed when, by two accounts with different subjects
    assert [693.0, 770.0] not in sides  # the gunman's entry is not the officers'


def test_offsets_from_one_moment_worded_two_ways():
    from onrecord.claims.extract import analyse

    a = "At Penbury High, officers went in 40 minutes after the shooting began, Chief Ada Brisk said."
    b = "At Penbury High, officers went in 12 minutes after the first shots, the Halden Courier reported."
    got = analyse({"a.txt": a, "b.txt": b}, one_incident=True)
    assert {c.time_ref["anchor_event"] for c in got.claims} == {"shooting_start"}
    [c] = [c for c in got.conflicts if c.measure == "time_of_action"]
    assert sorted(s["lo"] for s in c.sides) == [12.0, 40.0]


def test_how_long_the_response_waited_is_one_span_however_its_officers_are_named():
    from onrecord.claims.extract import analyse

    a = "At Penbury High, officers waited in the hallway for 77 minutes, the Halden Courier reported."
    b = "At Penbury High, Halden police waited 48 minutes in the hallway, Chief Ada Brisk said."
    c = "At Penbury High, Deputy Ray Okafor waited outside for 20 minutes, the Marlow Ledger reported."
    got = analyse({"a.txt": a, "b.txt": b, "c.txt": c}, one_incident=True)
    pairs = {frozenset(s["lo"] for s in x.sides) for x in got.conflicts}
    # the response's wait told two ways cannot be both; one deputy's wait is not the response's
    assert pairs == {frozenset({77.0, 48.0})}
