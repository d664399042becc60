"""Reading names and unit ids the ways records write them."""

from onrecord.reconstruct.names import compact_unit, one_edit_apart, parse_person


def test_the_ways_a_name_is_written():
    assert parse_person("Deputy Marla J. Quince").last == "QUINCE"
    assert parse_person("QUINCE, MARLA J").first == "MARLA"
    assert parse_person("QUINCE M").first == "M"
    assert parse_person("Sgt. Dale Morrows").rank == "Sergeant"


def test_look_alike_surnames_stay_apart_without_other_evidence():
    deputy, sergeant = parse_person("Deputy Dale Morrow"), parse_person("Sgt. Dale Morrows")
    assert not deputy.compatible(sergeant)
    # the same slip with a shared unit or badge behind it is one person
    assert deputy.same_with_evidence(sergeant)


def test_people_sharing_a_first_name_are_not_merged():
    assert not parse_person("Deputy Scot Penhale").compatible(parse_person("Sheriff Scott Ivers"))


def test_initials_and_full_names_agree():
    assert parse_person("QUINCE M").compatible(parse_person("Marla Quince"))
    assert not parse_person("QUINCE T").compatible(parse_person("Marla Quince"))


def test_radio_names_of_apparatus():
    assert compact_unit("Engine 31") == "E31" and compact_unit("Rescue-47") == "R47"
    assert one_edit_apart("OKAFOR", "OKAOFR") and not one_edit_apart("PITT", "PITTSON")
