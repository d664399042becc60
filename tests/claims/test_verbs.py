from onrecord.claims.verbs import event_kind, verb_forms, verbs_in


def test_verbs_in_every_form():
    forms = verb_forms()
    assert forms["arrives"] == "arrive" and forms["ran"] == "run" and forms["breached"] == "breach"


def test_a_noun_after_a_determiner_is_no_verb():
    text = "the first call came in; deputies call for backup"
    assert [m.group(0) for m in verbs_in(text)] == ["came", "call"]


def test_one_moment_however_worded():
    assert event_kind("Officer X arrives behind the school") == "arrival"
    assert event_kind("the suspect was clearly in custody") == "custody"
    assert event_kind("CSPD received numerous calls about an active shooter") == "call_911"
    assert event_kind("Last shot is heard") == "shooting_end"
    assert event_kind("a punk show") is None


def test_a_cue_in_every_tense():
    import re

    from onrecord.claims.verbs import inflected

    rx = re.compile(rf"\b(?:{inflected('go in', 'respond', 'stand')})\b")
    for form in ("goes in", "went in", "gone in", "going in", "responds", "responding", "stood", "stands"):
        assert rx.fullmatch(form), form
    assert not rx.search("a standard response")  # whole words only


def test_the_last_shot_told_by_ellipsis_and_the_gunman_shot_and_killed():
    from onrecord.claims.verbs import event_kind

    assert event_kind(" and his last at ") == "shooting_end"
    assert event_kind("The gunman was shot and killed by officers at") == "shooter_down"
