"""The prior-contact sources, one dialect each. Person fields become the event
attributes `first_name`, `last_name`, `full_name`, `dob`, `address`, `phone` (whichever
the agency records), so linkage reads them the same way from every source."""

from __future__ import annotations

import random

from onrecord.scenario import written_times
from onrecord.scenario.priors import Contact, PriorWorld
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

EXTRA_AGENCIES = {"tips": ("NTTC", "National Threat Tip Center"),
                  "family": ("DFS", "State Department of Family Services")}


def _dob(c: Contact, fmt: str) -> str:
    return c.dob.strftime(fmt) if c.dob else ""


def _people(t: Table, dob_format: str) -> Table:
    """The mapping declares how this agency writes a date of birth (docs/mappings.md [people])."""
    t.mapping["people"] = {"dob_format": dob_format}
    return t


def _table(story, name, kind, agency, head, fields, attrs, events, dialect, desc) -> Table:
    m = mapping_doc(name[:-4].replace("_", "-"), kind, agency, story.world.tz, desc, fields, attrs, events,
                    required=[head[0]])
    return Table(name, kind, agency, head, m, None, dialect, folder="priors")  # dates, not a clock to align


def tips(story: Story, cs: list[Contact]) -> tuple[Table, list]:
    h = ["TipId", "ReceivedUTC", "SubjectName", "SubjectDOB", "SubjectLocation", "SubjectPhone", "Narrative"]
    t = _table(story, "tip_line.csv", "tip", "NTTC", h, {"text": "Narrative", "actor": "SubjectName"},
               {"rid": "TipId", "full_name": "SubjectName", "dob": "SubjectDOB", "address": "SubjectLocation",
                "phone": "SubjectPhone"}, [{"kind": "tip_received", "time": "ReceivedUTC", "format": "iso"}],
               "one row per tip; UTC ISO 8601; one name field; DOB YYYY-MM-DD", EXTRA_AGENCIES["tips"][1] + " tips")
    rows = [{"ReceivedUTC": written_times.utc_iso(c.t, ms=False), "SubjectName": f"{c.first} {c.last}".strip(),
             "SubjectDOB": _dob(c, "%Y-%m-%d"), "SubjectLocation": c.address, "SubjectPhone": c.phone,
             "Narrative": c.narrative} for c in cs]
    return _people(t, "%Y-%m-%d"), rows


def sheriff_calls(story: Story, cs: list[Contact]) -> tuple[Table, list]:
    h = ["CFSNo", "CallDate", "CallTime", "Address", "Nature", "InvolvedFirst", "InvolvedLast", "InvolvedDOB",
         "Narrative"]
    t = _table(story, "sheriff_call_history.csv", "contact", story.world.sheriff, h,
               {"place": "Address", "text": "Narrative"},
               {"rid": "CFSNo", "first_name": "InvolvedFirst", "last_name": "InvolvedLast", "dob": "InvolvedDOB",
                "address": "Address", "nature": "Nature"},
               [{"kind": "contact", "time": ["CallDate", "CallTime"], "format": "%m/%d/%Y %H%M",
                 "precision": "minute"}],
               "one row per call for service; MM/DD/YYYY + HHMM; names split; DOB MM/DD/YYYY",
               "Sheriff's calls for service involving a named person")
    rows = [{"CallDate": written_times.local(c.t, story.world.tz, "%m/%d/%Y"),
             "CallTime": written_times.local(c.t, story.world.tz, "%H%M"),
             "Address": c.address, "Nature": "MENTAL HEALTH" if "self_harm" in c.indicators else "CALL FOR SERVICE",
             "InvolvedFirst": c.first.upper(), "InvolvedLast": c.last.upper(), "InvolvedDOB": _dob(c, "%m/%d/%Y"),
             "Narrative": c.narrative} for c in cs]
    return _people(t, "%m/%d/%Y"), rows


def school_reports(story: Story, cs: list[Contact]) -> tuple[Table, list]:
    h = ["ReportNo", "ReportDate", "StudentName", "StudentDOB", "HomeAddress", "Concern", "Narrative"]
    t = _table(story, "school_threat_reports.csv", "contact", story.world.schools, h,
               {"text": "Narrative", "actor": "StudentName"},
               {"rid": "ReportNo", "full_name": "StudentName", "dob": "StudentDOB", "address": "HomeAddress",
                "concern": "Concern"},
               [{"kind": "report_filed", "time": "ReportDate", "format": "%Y-%m-%d", "precision": "day"}],
               "one row per report; date only YYYY-MM-DD; 'LAST, First M.' names; Windows-1252 text",
               "School threat assessment reports").encoded("cp1252")  # a Windows export
    rows = [{"ReportDate": written_times.local(c.t, story.world.tz, "%Y-%m-%d"),
             "StudentName": f"{c.last.upper()}, {c.first}" + (f" {c.middle}." if c.middle else ""),
             "StudentDOB": _dob(c, "%Y-%m-%d"), "HomeAddress": c.address,
             "Concern": "THREAT" if c.indicators else "OTHER", "Narrative": c.narrative} for c in cs]
    return _people(t, "%Y-%m-%d"), rows


def family_referrals(story: Story, cs: list[Contact]) -> tuple[Table, list]:
    h = ["Ref#", "IntakeDate", "ClientFirst", "ClientLast", "ClientDOB", "Address", "Phone", "Allegation", "Narrative"]
    t = _table(story, "family_services_referrals.csv", "contact", "DFS", h, {"text": "Narrative"},
               {"rid": "Ref#", "first_name": "ClientFirst", "last_name": "ClientLast", "dob": "ClientDOB",
                "address": "Address", "phone": "Phone", "allegation": "Allegation"},
               [{"kind": "contact", "time": "IntakeDate", "format": "%d-%m-%Y", "precision": "day"}],
               "one row per referral; day-first dates DD-MM-YYYY; DOB DD/MM/YYYY", EXTRA_AGENCIES["family"][1])
    rows = [{"IntakeDate": written_times.local(c.t, story.world.tz, "%d-%m-%Y"), "ClientFirst": c.first,
             "ClientLast": c.last, "ClientDOB": _dob(c, "%d/%m/%Y"), "Address": c.address, "Phone": c.phone,
             "Allegation": "SELF-HARM" if "self_harm" in c.indicators else "GENERAL",
             "Narrative": c.narrative} for c in cs]
    return _people(t, "%d/%m/%Y"), rows


def city_contacts(story: Story, cs: list[Contact]) -> tuple[Table, list]:
    h = ["FI_Number", "ContactDateTime", "Name", "DOB", "Address", "Reason"]
    t = _table(story, "city_field_contacts.csv", "contact", story.world.police, h,
               {"text": "Reason", "actor": "Name"},
               {"rid": "FI_Number", "full_name": "Name", "dob": "DOB", "address": "Address"},
               [{"kind": "contact", "time": "ContactDateTime", "format": "%m/%d/%Y %I:%M %p", "precision": "minute"}],
               "one row per field contact; 12-hour MM/DD/YYYY hh:mm AM/PM; DOB MM/DD/YY", "City police field contacts")
    rows = [{"ContactDateTime": written_times.local(c.t, story.world.tz, "%m/%d/%Y %I:%M %p"),
             "Name": f"{c.first} {c.middle + ' ' if c.middle else ''}{c.last}", "DOB": _dob(c, "%m/%d/%y"),
             "Address": c.address, "Reason": c.narrative} for c in cs]
    return _people(t, "%m/%d/%y"), rows


WRITERS = {"tips": tips, "sheriff": sheriff_calls, "schools": school_reports, "family": family_referrals,
           "police": city_contacts}


def prior_tables(story: Story, priors: PriorWorld, book: TruthBook, rng: random.Random) -> list[Table]:
    out = []
    for kind, writer in WRITERS.items():
        cs = [c for c in priors.contacts if c.agency == kind]
        table, rows = writer(story, cs)
        rid_col = table.header[0]
        base = rng.randint(10000, 60000)
        for i, (c, row) in enumerate(zip(cs, rows)):
            rid = f"{kind[:2].upper()}{base + i * 3 + rng.randint(0, 2)}"
            row[rid_col] = rid
            table.add(row)
            book.prior_records[f"{table.name}#{rid}"] = {
                "person": c.person, "indicators": c.indicators, "true_date": written_times.iso_true(c.t),
                "dob_written_day_month_swapped": c.dob_swapped, "named": c.named}
        out.append(table)
    return out
