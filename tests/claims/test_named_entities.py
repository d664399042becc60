from onrecord.claims.named_entities import compatible_first, resolve_entities, same_surname

DOC_A = (
    "Marlow County Sheriff Dana Whitlock said the school resource officer, Rory Vance, never went in. "
    "According to the Linden Chief of Police, Anthony Quarrington, 30 officers entered. "
    "Deputy Dana Pruitt arrived later.\n\n"
    "Meanwhile, the Linden Sheriff has spoken. \"We went in,\" Quarrington said.\n\n"
    "Two days later, Quarington sent an email. Whitlock said the deputy waited."
)
DOC_B = (
    "The SRO, 48 year old Rory Vanse, stayed outside. Sheriff Whitlock said Deputy Rory Vance "
    "should have gone in. Linden Sheriff Quarrington praised his officers."
)


def _people(res):
    return {e.id: e for e in res.entities.values() if e.kind == "person"}


def test_name_parts():
    assert same_surname("Quarrington", "Quarington")
    assert not same_surname("Vance", "Pruitt")
    assert compatible_first("Mike", "Michael") and compatible_first("Scot", "Scott")
    assert not compatible_first("Dana", "Rory")


def test_people_across_documents():
    res = resolve_entities({"a.txt": DOC_A, "b.txt": DOC_B})
    people = _people(res)
    assert set(people) == {"person:dana-whitlock", "person:rory-vance", "person:anthony-quarrington",
                           "person:dana-pruitt"}
    assert "Rory Vanse" in people["person:rory-vance"].aliases  # misspelled in another article
    assert "Quarington" in people["person:anthony-quarrington"].aliases
    # Same first name, different people: never merged.
    assert "Dana Pruitt" not in people["person:dana-whitlock"].aliases


def test_wrong_title_and_descriptions_resolve():
    res = resolve_entities({"a.txt": DOC_A, "b.txt": DOC_B})
    by_text = {(m.doc, m.text): m.entity for ms in res.mentions.values() for m in ms}
    assert by_text[("a.txt", "the Linden Sheriff")] == "person:anthony-quarrington"
    assert by_text[("b.txt", "Quarrington")] == "person:anthony-quarrington"
    assert by_text[("a.txt", "the deputy")] in {"person:rory-vance", "person:dana-pruitt"}
    # "The SRO, 48 year old Rory Vanse" is an apposition: a role of Vance, not a second person.
    assert ("b.txt", "The SRO") not in by_text
    assert "SRO" in resolve_entities({"b.txt": DOC_B}).entities["person:rory-vanse"].roles


def test_agencies_merge_by_place_and_kind():
    res = resolve_entities({"c.txt": "Linden Ridge police said the Linden Ridge Police Department sent "
                                      "help, and Marlow County Sheriff's deputies waited."})
    orgs = {e.name for e in res.entities.values() if e.kind == "org"}
    assert orgs == {"Linden Ridge Police Department", "Marlow County Sheriff's Office"}


def test_look_alike_names_stay_apart():
    deputy = ("Author: Deputy Curtis F. Field\nAgency: Marlow County Sheriff's Office\n\n"
              "About eight minutes after I arrived, Sgt. Fields told us to hold the perimeter.")
    sergeant = ("Author: Sergeant Curtis N. Fields\nAgency: Marlow County Sheriff's Office\n\n"
                "Deputy Curtis Field was already there with the resource officer.")
    res = resolve_entities({"d.txt": deputy, "s.txt": sergeant})
    people = _people(res)
    assert set(people) == {"person:curtis-field", "person:curtis-fields"}
    by_text = {(m.doc, m.text): m.entity for ms in res.mentions.values() for m in ms if m.kind == "person"}
    assert by_text[("d.txt", "Fields")] == "person:curtis-fields"
    assert by_text[("s.txt", "Curtis Field")] == "person:curtis-field"


def test_a_misspelled_surname_without_title_still_joins():
    res = resolve_entities({"a.txt": "Deputy Brandon Nakamura was at the east side of the gym.",
                            "b.txt": "A deputy I later learned was Nakamua was behind a pillar outside."})
    assert "Nakamua" in _people(res)["person:brandon-nakamura"].aliases


def test_acronyms_are_the_agency_named_in_full():
    from onrecord.claims.named_entities import resolve_entities

    res = resolve_entities({"a.txt": "The Penbury Sheriff's Office said deputies waited. A PSO spokesman said more.",
                            "b.txt": "The Marlow Bureau of Investigation (MBI) said MBI agents arrived."})
    orgs = {e.name: e.aliases for e in res.entities.values() if e.kind == "org"}
    assert "PSO" in orgs["Penbury Sheriff's Office"] and "MBI" in orgs["Marlow Bureau of Investigation"]
    assert "PSO" not in orgs and "MBI" not in orgs


def test_a_title_case_headline_names_no_one():
    from onrecord.claims.named_entities import resolve_entities

    res = resolve_entities({"h.txt": "For 45 Minutes, Police Waited While Dying Children Called\n\nThe chief "
                                     "said nothing."})
    assert not [e for e in res.entities.values() if e.kind == "person"]


def test_a_national_agency_written_three_ways_is_one():
    from onrecord.claims.text import read_document

    doc = read_document("n.txt", "The Justice Department report was released. The DOJ said more. "
                                 "According to the U.S. Department of Justice, it was late.")
    res = resolve_entities([doc])
    orgs = [e for e in res.entities.values() if e.kind == "org"]
    assert [(e.name, sorted(e.aliases)) for e in orgs] == [
        ("Department of Justice", sorted(["Justice Department", "DOJ", "U.S. Department of Justice"]))]


def _described(text: str) -> dict[str, str | None]:
    from onrecord.claims.text import read_document

    doc = read_document("t.txt", text)
    res = resolve_entities([doc])
    return {m.text: m.entity for m in res.mentions["t.txt"] if m.kind == "description"}


def test_an_abbreviated_title_resolves_its_description():
    got = _described("Lt. Col. Ada Brisk said five officers went in. The colonel said two were hurt.")
    assert got == {"The colonel": "person:ada-brisk"}


def test_the_first_deputy_is_no_one_named():
    got = _described("Sheriff Dana Whitlock said the first deputy arrived at 10:06 a.m. "
                     "Deputy Rory Vance was there too.")
    assert got == {"the first deputy": None}


def test_a_state_police_is_one_agency_of_its_state():
    from onrecord.claims.mentions import agencies
    from onrecord.claims.text import read_document

    doc = read_document("s.txt", "Colonel Ruth Abernathy of the Oregon State Police said officers waited.")
    assert [(m.text, m.agency) for m in agencies(doc)] == [("Oregon State Police", "state")]
