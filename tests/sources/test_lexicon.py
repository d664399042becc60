"""Lexicons: the words that say what radio and camera text records are data, bundled and
extended by a mapping; a phrase two kinds claim, or an unknown lexicon, is an error."""

from __future__ import annotations

import pytest

from onrecord.errors import InputError
from onrecord.sources.lexicon import bundled_lexicons, lexicon_for, reader_for
from onrecord.sources.mapping import parse_mapping

RADIO = """
[mapping]
name = "eastvale-radio"
source_kind = "radio"
timezone = "UTC"
{lexicon}
[fields]
unit = "Unit"
text = "Said"
[[events]]
kind = "radio_transmission"
time = "At"
format = "iso"
"""


@pytest.mark.parametrize("said, kind", [
    ("David-29 arriving", "unit_arrived"),
    ("2-47, 10-97", "unit_arrived"),
    ("Engine 12 at staging", "staging"),
    ("Adam-12 out at the school", "unit_arrived"),
    ("suspect on the floor, officers detaining", "threat_ended"),
    ("Medic 7 receiving 2 patients at the east lot", "patient_contact"),
    ("Adam-3 10-76", "unit_enroute"),
    ("Code 4, scene is secure", "threat_ended"),
    # an order to stage, not staging: a dispatch (read, no moment of its own: reconstruct/moments.py)
    ("Rescues respond to the school, stage at the bus loop", "unit_dispatched"),
    ("unit 10-976 check", None),  # a code inside a longer number is not the code
    ("Medic 4 10-97 staging Elm and 3rd", "staging"),  # "10-97 staging" is longer than "10-97"
    ("Engine 3 arrived at staging", "unit_arrived"),  # "at staging" does not overlap "arrived": the order
    ("Engine 3 at staging", "staging"),
    ("Adam-3 10-23 staging", "staging"),
])
def test_the_bundled_lexicons_understand_common_wording_and_codes(said, kind):
    assert reader_for(None).kind_of("radio", said) == kind


def test_camera_text_reads_with_its_own_section():
    words = reader_for(None)
    assert words.kind_of("camera", "subject on the ground, officers present") == "threat_ended"
    assert words.kind_of("camera", "officers enter east stairwell") == "entry"
    assert words.kind_of("camera", "muzzle flash / person with rifle") == "shots_detected"


def test_a_mapping_adds_its_own_phrases_to_the_bundled_ones():
    m = RADIO.format(lexicon='[lexicon.radio]\nunit_arrived = ["at the rally point"]')
    parse_mapping(m, "radio.toml")
    words = reader_for(m)
    assert words.kind_of("radio", "Adam-3 at the rally point") == "unit_arrived"
    assert words.kind_of("radio", "Adam-3 10-97") == "unit_arrived"  # the bundled ones still read


def test_a_list_says_exactly_which_lexicons_are_read():
    m = RADIO.format(lexicon='lexicon = ["plain-english", { radio = { unit_enroute = ["10-8 to"] } }]')
    parse_mapping(m, "radio.toml")
    words = reader_for(m)
    assert words.kind_of("radio", "Adam-3 10-23") is None  # APCO left out: this agency's 10-23 is not arrival
    assert words.kind_of("radio", "Adam-3 10-8 to the school") == "unit_enroute"
    assert words.kind_of("radio", "Adam-3 on scene") == "unit_arrived"


def test_a_phrase_claimed_by_two_kinds_names_the_file_and_key():
    with pytest.raises(InputError) as err:
        parse_mapping(RADIO.format(lexicon='[lexicon.radio]\nstaging = ["On  Scene"]'), "radio.toml")
    e = err.value
    assert e.file == "radio.toml" and e.field == "radio.staging"
    assert "unit_arrived" in e.message and "plain-english" in e.message and "two kinds" in e.message


def test_an_unknown_lexicon_or_kind_names_the_key():
    with pytest.raises(InputError) as err:
        parse_mapping(RADIO.format(lexicon='lexicon = ["default", "nypd-codes"]'), "radio.toml")
    assert (err.value.file, err.value.field, err.value.value) == ("radio.toml", "lexicon", "nypd-codes")
    with pytest.raises(InputError) as err:
        parse_mapping(RADIO.format(lexicon='[lexicon.radio]\nshots_fired = ["shots fired"]'), "radio.toml")
    assert err.value.field == "radio.shots_fired"
    with pytest.raises(InputError) as err:
        parse_mapping(RADIO.format(lexicon='[lexicon.statement]\nentry = ["went in"]'), "radio.toml")
    assert err.value.field == "statement"


def test_the_bundled_lexicons_claim_no_phrase_twice():
    assert {"plain-english", "apco-ten-codes", "agency-variants"} <= set(bundled_lexicons())
    lex = lexicon_for(None, "bundled")  # raises on any phrase two kinds claim
    assert "10-97" in lex.phrases["radio"]["unit_arrived"]


def test_ignored_phrases_take_their_words_out_of_a_line_before_it_is_read():
    words = reader_for(None)
    assert words.kind_of("radio", "parents arriving at the church on Elm") is None  # bundled: no unit arrived
    assert words.kind_of("radio", "Adam-3 arriving, parents arriving behind me") == "unit_arrived"
    m = RADIO.format(lexicon='[lexicon.radio]\nignore = ["arriving at the reunification site"]')
    parse_mapping(m, "radio.toml")
    own = reader_for(m)
    assert own.kind_of("radio", "Bus 4 arriving at the reunification site") is None
    assert own.kind_of("radio", "Adam-3 arriving") == "unit_arrived"  # the kind's own phrase still reads


def test_an_ignore_that_is_not_a_list_of_phrases_names_the_key():
    with pytest.raises(InputError) as err:
        parse_mapping(RADIO.format(lexicon='[lexicon.radio]\nignore = "parents"'), "radio.toml")
    assert (err.value.file, err.value.field) == ("radio.toml", "radio.ignore")


def test_of_overlapping_phrases_the_longest_decides_whatever_its_kind():
    m = RADIO.format(lexicon='[lexicon.radio]\nstaging = ["10-97 staging at"]')
    parse_mapping(m, "radio.toml")
    words = reader_for(m)
    assert words.match_of("radio", "Medic 406 10-97 staging at Pennywhistle Rd") == ("staging", "10-97 staging at")
    assert words.kind_of("radio", "Medic 406 10-97 Pennywhistle Rd") == "unit_arrived"


def test_phrases_that_do_not_overlap_keep_the_documented_order():
    words = reader_for(None)
    # an arrival said with a staging point is an arrival
    assert words.match_of("radio", "Engine 5 on scene, staging at the church") == ("unit_arrived", "on scene")
    # three words of shots do not outweigh an arrival said beside them: Adam-3 arrived
    assert words.match_of("radio", "Adam-3 arriving, I have shots fired") == ("unit_arrived", "arriving")


def test_a_phrase_starting_inside_another_is_still_seen():
    # kind B's phrase begins inside kind A's: both are found, and the longer decides
    m = RADIO.format(lexicon='[lexicon.radio]\nunit_enroute = ["rolling up"]\nunit_arrived = ["up on the scene now"]')
    parse_mapping(m, "radio.toml")
    assert reader_for(m).match_of("radio", "Medic 4 rolling up on the scene now") == ("unit_arrived",
                                                                                      "up on the scene now")


def test_an_ignored_phrase_takes_its_words_out_before_the_longest_is_sought():
    words = reader_for(None)
    # "copy shots fired" (ignored) holds "shots fired", which would outweigh "arriving"
    assert words.match_of("radio", "Dispatch copy shots fired, Adam-3 arriving") == ("unit_arrived", "arriving")
    assert words.match_of("radio", "Adam-3 copy shots fired") is None


def test_the_longest_rule_holds_on_camera_text_too():
    m = RADIO.format(lexicon='[lexicon.camera]\nthreat_ended = ["take subject to the floor"]')
    parse_mapping(m, "radio.toml")
    line = "officers enter and take subject to the floor"
    assert reader_for(m).kind_of("camera", line) == "threat_ended"
    assert reader_for(None).kind_of("camera", line) == "entry"  # without the phrase: the entry


def test_a_dispatch_and_a_unit_clearing_are_read_and_lose_to_any_kind_said_beside_them():
    words = reader_for(None)
    assert words.kind_of("radio", "2-76, get over to Hollin Community College") == "unit_dispatched"
    # ... but never takes a line from a kind that records a moment, however long its phrase
    assert words.match_of("radio", "Engine 255, respond to staging at Tern Rd") == ("staging", "staging at")
    m = RADIO.format(lexicon='[lexicon.radio]\nunit_dispatched = ["respond to staging at"]')
    parse_mapping(m, "radio.toml")
    assert reader_for(m).match_of("radio", "Engine 255, respond to staging at Tern Rd") == ("staging", "staging at")
    assert words.kind_of("radio", "david 239 i'm clear") == "unit_available"
    assert words.kind_of("radio", "2-90 show me 10-8") == "unit_available"
    assert words.kind_of("radio", "Medic 4 back in service") == "unit_available"
    # the order of the kinds holds: an arrival said beside "available" is the arrival
    assert words.kind_of("radio", "Adam-3 on scene, available for assignment") == "unit_arrived"
    assert words.kind_of("radio", "no units available for the second call") is None
