from onrecord.claims.named_entities import resolve_entities
from onrecord.claims.speakers import find_speakers
from onrecord.claims.text import read_document

TEXT = (
    "Linden Ridge police sent help, sources with the Linden Ridge Police Department told the Courier.\n\n"
    "\u201cWe were there in two minutes,\u201d Chief Mara Quill said.\n\n"
    "Marlow County Sheriff Dana Whitlock said, \u201cNobody waited.\u201d\n\n"
    "Speaking on Friday, Commissioner Leo Brandt called the delay a \u201cdisgrace\u201d for the county.\n\n"
    "\u201cThey stood at the door. They did nothing.\u201d\n\n"
    "The building was quiet by then.\n\n"
    "According to Deputy Ray Okafor, the door was locked. \u201cI tried it twice.\u201d"
)


def _speakers():
    doc = read_document("s.txt", TEXT)
    res = resolve_entities([doc])
    return doc, find_speakers(doc, res)


def _at(doc, sp, words):
    voice, quoted = sp.who_said(doc.text.index(words))
    return voice.speaker, quoted


def test_quote_then_speaker():
    doc, sp = _speakers()
    assert _at(doc, sp, "We were there") == ("person:mara-quill", True)


def test_speaker_then_quote():
    doc, sp = _speakers()
    assert _at(doc, sp, "Nobody waited") == ("person:dana-whitlock", True)


def test_paragraph_of_quotation_takes_the_speaker_before_it():
    doc, sp = _speakers()
    assert _at(doc, sp, "They stood at the door") == ("person:leo-brandt", True)
    assert _at(doc, sp, "They did nothing") == ("person:leo-brandt", True)


def test_unquoted_text_belongs_to_its_attribution_or_the_author():
    doc, sp = _speakers()
    assert _at(doc, sp, "sent help") == ("org:linden-ridge-police-department", False)
    assert _at(doc, sp, "the door was locked") == ("person:ray-okafor", False)
    assert _at(doc, sp, "I tried it twice") == ("person:ray-okafor", True)
    assert _at(doc, sp, "The building was quiet") == ("author:s.txt", False)


def test_next_paragraph_names_the_speaker_when_nothing_before_does():
    text = "\u201cWe held the east door for six minutes.\u201d\n\nThat is what Officer Tess Marlowe said on Monday."
    doc = read_document("n.txt", text)
    sp = find_speakers(doc, resolve_entities([doc]))
    assert sp.who_said(5)[0].speaker == "person:tess-marlowe"


def test_statement_header_names_the_author():
    text = "Author: Sgt. Dana R. Hale\nAgency: Marlow County Sheriff's Office\n\nI arrived at 2:20 p.m."
    doc = read_document("st.txt", text)
    sp = find_speakers(doc, resolve_entities([doc]))
    assert sp.who_said(text.index("I arrived"))[0].speaker == "person:dana-hale"


def test_who_said_and_unnamed_spokesman():
    text = ("Deputies waited outside for 12 minutes, according to Sgt. Omar Reyes, who said the radio failed.\n\n"
            "A spokesman for the Harlow County Sheriff's Office said 40 deputies responded.")
    doc = read_document("w.txt", text)
    sp = find_speakers(doc, resolve_entities([doc]))
    assert sp.who_said(text.index("the radio failed"))[0].speaker == "person:omar-reyes"
    # A spokesman speaks for the agency named.
    voice, _ = sp.who_said(text.index("40 deputies"))
    assert voice.speaker == "org:harlow-county-sheriff-s-office"


def test_speaker_named_in_the_next_sentence():
    text = ("\u201cWe held the east door for six minutes and nobody came to help us.\u201d "
            "Hours later and still shaking, Officer Tess Marlowe added that the radio was silent.")
    doc = read_document("x.txt", text)
    sp = find_speakers(doc, resolve_entities([doc]))
    assert sp.who_said(5)[0].speaker == "person:tess-marlowe"


def _speaker_of(text, value_text):
    from onrecord.claims.extract import extract_claims

    [c] = [c for c in extract_claims(text, "s.txt") if c.text == value_text]
    return c.speaker


def test_a_trailing_clause_speaks_for_the_clause_before_it():
    text = ("A total of 39 patrol officers responded, police said, and Captain Ilse Marrow said "
            "11 ambulances went to the Thistlewood club.")
    assert _speaker_of(text, "39 patrol officers") == "group:police"  # "A total of" is no part of the span
    assert _speaker_of("In Penbury, police said about eight minutes passed before officers arrived.",
                       "about eight minutes") == "group:police"


def test_outlets_and_the_channel_of_sources():
    assert _speaker_of("CNN reported that three Penbury County Sheriff's deputies stayed outside.",
                       "three Penbury County Sheriff's deputies") == "outlet:cnn"
    assert _speaker_of("Three Penbury County Sheriff's deputies stayed outside, law enforcement sources told CNN.",
                       "Three Penbury County Sheriff's deputies") == "group:sources"


def test_of_two_clauses_the_nearest_before_speaks():
    text = ("The earliest reports indicated police were alerted around 10:30 a.m., but Sheriff Oren Vale "
            "said deputies received a call about 9:30 a.m.")
    assert _speaker_of(text, "around 10:30 a.m.") == "group:reports"
    assert _speaker_of(text, "about 9:30 a.m.") == "person:oren-vale"


def test_a_labelled_headline_and_a_police_identification():
    assert _speaker_of("Police: 10 dead in Thistlewood mall shooting", "10 dead") == "group:police"
    assert _speaker_of("Police identified the shooter as Dana Roe, 28, of Penbury.", "28") == "group:police"
    assert _speaker_of("Sheriff Oren Vale said the suspect, a 21-year-old Penbury man, was held.",
                       "21-year-old") == "author:s.txt"


def _speaker_names(text):
    from onrecord.claims.extract import analyse

    a = analyse({"s.txt": "Halden Police Chief Ada Brisk spoke on Tuesday.\n\n" + text})
    names = {e.id: e.name for e in a.entities}
    return [(c.measure, names.get(c.speaker, c.speaker)) for c in a.claims]


def test_an_outlet_by_its_newspaper_word_or_call_sign():
    assert _speaker_names("Four officers entered within three minutes, the Halden Courier reported.") == [
        ("count_officers_entered", "Halden Courier"), ("duration_to_entry", "Halden Courier")]
    assert _speaker_names("According to KHLD-TV, 14 officers waited outside.") == [
        ("count_officers_outside", "KHLD-TV")]


def test_a_trailing_clause_with_a_bare_weekday():
    assert _speaker_names("Four officers entered the school, Brisk said Friday (May 27).") == [
        ("count_officers_entered", "Ada Brisk")]
    assert _speaker_names("Four officers entered the school, Brisk said Tuesday night.") == [
        ("count_officers_entered", "Ada Brisk")]


def _named(text):
    from onrecord.claims.extract import analyse

    lead = "Halden Police Chief Ada Brisk and the Halden Police Department led the response.\n\n"
    a = analyse({"s.txt": lead + text})
    names = {e.id: e.name for e in a.entities}
    return [names.get(c.speaker, c.speaker) for c in a.claims if c.measure != "place_of_action"]


def test_an_agency_speaks_through_its_documents_and_its_descriptions():
    assert _named("According to a timeline released by the Halden Police Department, 14 officers waited "
                  "outside.") == ["Halden Police Department"]
    assert _named("Fourteen officers waited outside, the department said in a statement.") == [
        "Halden Police Department"]
    assert _named("Fourteen officers waited outside, according to the department's review.") == [
        "Halden Police Department"]
    assert _named("The report found:\n\n- 14 officers waited outside.\n- The first officer arrived within "
                  "three minutes.") == ["Halden Police Department", "Halden Police Department"]


def test_a_persons_office_and_a_belief():
    assert _named("Brisk's office said 14 officers waited outside.") == ["Ada Brisk"]
    assert _named("Investigators believe 14 officers waited outside.") == ["investigators"]


def test_a_count_word_is_no_place():
    from onrecord.claims.text import read_document

    doc = read_document("n.txt", "Fourteen officers waited. Twenty-one deputies left.")
    assert not [e for e in resolve_entities([doc]).entities.values() if e.kind == "org"]


def test_who_speaks_in_more_reporting_forms():
    # a news conference between the name and the verb; a role before the name after "according to"
    assert _named("Brisk at a news conference said officers arrived within 90 seconds.") == ["Ada Brisk"]
    assert _named("Officers arrived at 11:57 p.m., according to Halden police spokesperson Lt. Tom Vey.") == [
        "Tom Vey"]
    # an opening time is part of what the document says
    assert _named("Between 12:49 a.m. and 1:05 a.m., the department's internal report highlights seven trips "
                  "to hospitals for 15 patients.") == ["Halden Police Department", "Halden Police Department"]


def test_what_the_narrator_adds_to_reported_speech():
    # the toll in a relative clause about the incident, and when a quotation was said
    assert _named("Brisk said she did not believe the officers erred during the shooting that left 17 people "
                  "dead.") == ["author of s.txt"]
    assert _named("“I need an ambulance here,” an officer said at 12:47 a.m.") == ["author of s.txt"]


def test_a_street_address_ends_no_sentence():
    from onrecord.claims.text import read_document

    doc = read_document("a.txt", "Calls came in at 11:57 p.m. about a shooting at 3430 N. Academy Blvd., according "
                                 "to police. Officers arrived.")
    assert len(doc.sentences) == 2


def test_lists_introduced_as_someones_in_more_ways():
    entries = "\n\n9:59 p.m. — The gunman fires at a guard.\n\n10:05 p.m. — Officers arrive."
    assert _named("Here is the timeline police released on Tuesday:" + entries) == ["Halden Police Department"] * 2
    assert _named("Brisk laid out this sequence:" + entries) == ["Ada Brisk"] * 2
    assert _named("Key findings of the report:\n\n- 14 officers waited outside.") == ["Halden Police Department"]
    assert _named("What we know:" + entries) == ["author of s.txt"] * 2  # the outlet's own list


def test_it_continues_the_document_just_named():
    assert _named("The report says officers waited. It says 14 officers were outside for 40 minutes.") == [
        "Halden Police Department", "Halden Police Department"]


def _two_heads(text):
    from onrecord.claims.extract import analyse

    lead = "Marlow County Sheriff Dana Whitlock and Halden Police Chief Ada Brisk spoke on Tuesday.\n\n"
    a = analyse({"s.txt": lead + text})
    names = {e.id: e.name for e in a.entities}
    return [names.get(c.speaker, c.speaker) for c in a.claims if c.measure != "place_of_action"]


def test_the_sheriff_is_the_one_titled_sheriff_not_the_nearer_chief():
    assert _two_heads("Fourteen officers waited outside, the sheriff said.") == ["Dana Whitlock"]
    assert _two_heads("“Fourteen officers waited outside,” said the sheriff.") == ["Dana Whitlock"]
    assert _two_heads("Fourteen officers waited outside, the chief said Tuesday.") == ["Ada Brisk"]


def test_a_spokesman_and_an_unnamed_official():
    assert _two_heads("Fourteen officers waited outside, Whitlock's spokesman said.") == ["Dana Whitlock"]
    # an unnamed source is not the author
    assert _two_heads("Fourteen officers waited outside, a law enforcement official told the Marlow Ledger on "
                      "condition of anonymity.") == [None]


def _who(text: str, words: str) -> str | None:
    doc = read_document("r.txt", text)
    voice, _ = find_speakers(doc, resolve_entities([doc])).who_said(text.index(words))
    return voice.speaker


def test_an_agency_with_its_acronym_in_brackets_speaks():
    text = ("The Marlow County Sheriff's Office (MCSO) confirmed late Tuesday evening that "
            "five people were killed at the depot.")
    assert _who(text, "five people") == "org:marlow-county-sheriff-s-office"


def test_a_short_reporting_clause_inside_a_relative_clause_is_not_the_whole_sentence():
    text = ("Police are studying the gunman, a 31-year-old former clerk named Orrin Vale who officials "
            "said planned the attack.")
    assert _who(text, "31-year-old").startswith("author:")


def test_a_title_and_name_of_an_agency_is_the_person_speaking():
    text = "Chief Ray Okafor of the Linden Police Department said officers waited 40 minutes outside."
    assert _who(text, "40 minutes") == "person:ray-okafor"


def test_a_spokesperson_for_an_agency_named_earlier_speaks_for_that_agency():
    text = ("Deputies of the Marlow County Sheriff's Office and the Linden Police Department responded.\n\n"
            "A spokeswoman for the sheriff's office said six people were killed.")
    assert _who(text, "six people") == "org:marlow-county-sheriff-s-office"


def test_officials_said_just_after_an_agency_is_named_is_that_agency():
    text = ("The Linden Police Department sent 30 officers to the mall.\n\n"
            "Officials said the gunman fired 90 rounds. Witnesses said the alarm sounded at noon.")
    assert _who(text, "90 rounds") == "org:linden-police-department"
    assert _who(text, "the alarm") == "group:witnesses"  # witnesses never speak for an agency


def test_a_trailing_clause_names_who_told_the_reporter_over_a_verb_inside_it():
    text = ("Linden Police Department officers have revealed that when they arrived, they found three "
            "deputies behind their cars, law enforcement sources told the Courier.")
    assert _who(text, "three deputies") == "group:sources"


def test_an_outlet_that_has_learned_or_reports_citing_others_speaks():
    assert _who("The Courier has learned that 14 officers stood in the hallway.", "14 officers") \
        == "outlet:courier"
    assert _who("The Courier, citing two officials, reported that 12 officers were hurt.", "12 officers") \
        == "outlet:courier"


def test_a_crowd_with_an_adverb_or_a_set_off_phrase_before_its_verb():
    assert _who("The state police initially said an officer confronted the gunman at 11:30 a.m.",
                "11:30") == "group:police"
    assert _who("The state police, in a statement Friday, said 376 officers responded.", "376") == "group:police"


def test_an_agencys_report_speaks_for_it_and_a_new_review_does_not():
    lead = "The Marlow County Sheriff's Office released its final report on Monday.\n\n"
    assert _who(lead + "According to the report, deputies waited 47 minutes.", "47") \
        == "org:marlow-county-sheriff-s-office"
    assert _who("The Marlow County Sheriff's Office's report, released Monday, said 30 deputies responded.", "30") \
        == "org:marlow-county-sheriff-s-office"
    assert _who(lead + "A state review found that deputies waited 74 minutes.", "74") is None


def test_an_outlets_own_review_and_the_newspaper_named_before():
    assert _who("An Associated Press review of records found that 12 deputies entered.", "12 deputies") \
        == "outlet:associated-press"
    assert _who("According to a Marlow Ledger analysis, officers waited 74 minutes.", "74") \
        == "outlet:marlow-ledger"
    assert _who("The Marlow Ledger obtained the logs.\n\nOfficers waited 40 minutes, the newspaper reported.",
                "40") == "outlet:marlow-ledger"


def test_a_person_named_inside_stays_the_source_over_an_outlet_at_the_end():
    assert _who("Sheriff Dana Whitlock said deputies waited 40 minutes, the Marlow Ledger reported.", "40") \
        == "person:dana-whitlock"


# Accounts that change over time: who says the first account and who the later one.
CHANGING = ("Colonel Ruth Abernathy of the Oregon State Police and Police Chief Dale Renner of the "
            "Marlow Falls Police Department spoke on Monday.\n\n")
DEPARTMENT = "org:marlow-falls-police-department"  # the agency named last: "officials", "the department"


def test_a_pronoun_with_an_adverb_before_its_verb_speaks():
    text = (CHANGING + "Renner said Tuesday that officers reached the school in three minutes. "
            "He later said it took them nine minutes.")
    assert _who(text, "nine") == "person:dale-renner"
    text = CHANGING + "Officials first said the gunman fired for 10 minutes; they later said it was 40 minutes."
    assert _who(text, "40 minutes") == _who(text, "10 minutes") == DEPARTMENT


def test_she_after_a_sentence_about_a_newly_named_person_is_that_person():
    text = ("\u201cWe went in within minutes,\u201d Chief Dale Renner said.\n\n"
            "On Friday, Colonel Ruth Abernathy of the Oregon State Police gave a new timeline. "
            "She said officers waited 74 minutes.")
    assert _who(text, "74") == "person:ruth-abernathy"


def test_a_participle_of_saying_speaks_for_the_subject_of_its_clause():
    text = CHANGING + "The department later corrected the timeline, saying officers waited 78 minutes."
    assert _who(text, "78") == DEPARTMENT
    text = CHANGING + "Renner walked back his account on Friday, saying the gunman entered at 11:33 a.m."
    assert _who(text, "11:33") == "person:dale-renner"


def test_an_account_named_as_someones_is_theirs():
    text = CHANGING + ("The new timeline contradicts Renner's earlier statement that officers arrived "
                       "within two minutes.")
    assert _who(text, "two minutes") == "person:dale-renner"


def test_a_clause_interrupted_by_its_reporting_clause_goes_on_in_the_speakers_words():
    assert _who(CHANGING + "Officers waited, Abernathy said, for 74 minutes.", "74") == "person:ruth-abernathy"
    assert _who(CHANGING + "The wait was 74 minutes, the report found.", "74") == DEPARTMENT


def test_a_document_of_a_body_that_is_no_agency_is_an_unnamed_speaker():
    assert _who(CHANGING + "Officers waited 77 minutes, according to the committee's report.", "77") is None
    assert _who(CHANGING + "A report by a state House committee found that 376 officers responded.", "376") is None


def test_the_route_that_found_a_quotations_speaker_is_kept():
    doc, sp = _speakers()
    assert sp.rule_at(doc.text.index("We were there")).startswith("quote/after")
    assert sp.rule_at(doc.text.index("They stood at the door")).startswith("quote/paragraph-before")
    assert sp.rule_at(doc.text.index("The building was quiet")) == "author"


def test_the_agency_words_name_its_kind():
    # "the sheriff's office acknowledged" after a city police department was named is the sheriff's
    # office named before it, not the agency named last
    text = ("Sheriff Dana Whitlock leads the Marlow County Sheriff's Office. Chief Lee Ames heads the "
            "Carver Police Department.\n\nThe sheriff's office said deputies waited 40 minutes.")
    doc = read_document("k.txt", text)
    sp = find_speakers(doc, resolve_entities([doc]))
    assert sp.who_said(doc.text.index("deputies waited"))[0].speaker == "org:marlow-county-sheriff-s-office"
    text = text.replace("The sheriff's office said", "The department said")
    doc = read_document("k.txt", text)
    sp = find_speakers(doc, resolve_entities([doc]))
    assert sp.who_said(doc.text.index("deputies waited"))[0].speaker == "org:carver-police-department"


def _quote_speaker(text: str, words: str) -> str | None:
    doc = read_document("q.txt", text)
    res = resolve_entities([doc])
    voice, quoted = find_speakers(doc, res).who_said(text.index(words))
    assert quoted
    return voice.speaker


def test_a_quotation_paragraph_after_a_paragraph_that_brings_in_one_person():
    # news writing brings a speaker in, then quotes: the one person the paragraph before opens with
    text = "Chief Odile Farrant spoke at length on Tuesday.\n\n\u201cWe had 14 officers inside in four minutes.\u201d"
    assert _quote_speaker(text, "14 officers") == "person:odile-farrant"
    # two people named before: no one is brought in
    text = ("Chief Odile Farrant met Officer Len Brisco on Tuesday.\n\n"
            "\u201cWe had 14 officers inside in four minutes.\u201d")
    assert _quote_speaker(text, "14 officers") is None
    # the person is not the sentence's subject
    text = ("The council praised Chief Odile Farrant on Tuesday.\n\n"
            "\u201cWe had 14 officers inside in four minutes.\u201d")
    assert _quote_speaker(text, "14 officers") is None
