from onrecord.claims.extract import analyse

A = "Sheriff Ilse Marrow of the Penbury County Sheriff's Office said 11 people were killed at Thistlewood Mall."
B = "At Thistlewood Mall, Penbury County Sheriff's deputies counted 12 people killed, the Courier reported."
C = "Chief Oren Vale of the Larkin Police Department said nine people were killed at the Dunmore depot."


def test_documents_of_one_incident_are_compared_and_others_are_not():
    a = analyse({"a.txt": A, "b.txt": B, "c.txt": C})
    assert [i["documents"] for i in a.incidents] == [["a.txt", "b.txt"], ["c.txt"]]
    [conflict] = [c for c in a.conflicts if c.measure == "count_deaths"]
    assert {s["doc"] for s in conflict.sides} == {"a.txt", "b.txt"} and conflict.incident == "incident-1"


def test_one_incident_compares_everything():
    a = analyse({"a.txt": A, "c.txt": C}, one_incident=True)
    assert len(a.incidents) == 1 and [c.measure for c in a.conflicts] == ["count_deaths"]


def test_another_incidents_figure_is_never_compared():
    a = analyse({"a.txt": A, "b.txt": "At Thistlewood Mall in Penbury County, 11 people died; the 2016 attack "
                                      "at a club in "
                                      "Dunmore killed 49 people."})
    assert not [c for c in a.conflicts if c.measure == "count_deaths"]
    other = [c for c in a.claims if c.lo == 49]
    assert other and other[0].time_ref["other_incident"].startswith("the 2016 attack")


def test_one_towns_police_and_a_name_of_the_scene():
    from onrecord.claims.extract import analyse

    a = "Halden police said officers reached the Meridian 12 cinema within 90 seconds. Chief Ada Brisk spoke."
    b = "Seven minutes after the first call from the Meridian 12 cinema, a Halden police officer radioed."
    c = "Halden police said a fire at a warehouse on Dock Road was put out."
    got = analyse({"a.txt": a, "b.txt": b, "c.txt": c})
    assert sorted(sorted(i["documents"]) for i in got.incidents) == [["a.txt", "b.txt"], ["c.txt"]]
