"""What real moment an event records, in words every source can share.

A CAD arrival, a radio "David-29 on scene" and an AVL stop are three records of one
moment: unit 13D29 arrived. Each event gets a *moment*: (what, who) — what happened and
to whom (a unit entity, a transferred call's number) — and a *rank* saying how soon
after the moment such a record is made:

  0  written by a machine or a person as it happens: a sensor, a camera frame, a 911
     switch log, a radio "we're going in", a medic's patient record (contact, transport);
  1  a spoken report of it: "David-29 on scene", a few seconds after the wheels stop;
  2  typed into CAD by a dispatcher who heard that report, seconds or minutes later
     (a unit's arrival, entry, en-route status; but a dispatch is done in CAD: rank 0).

Two records of one moment with different ranks are in a known order: the higher rank
comes later, never earlier. The clock estimate uses that order (clocks.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from onrecord.sources.lexicon import SAID_AFTER, TextReader, reader_for

PLACELESS = {"channels_patched", "threat_ended"}
UNIT_KINDS = {"unit_dispatched", "unit_enroute", "unit_arrived", "unit_available", "entry", "unit_position",
              "staging"}
# done in the machine itself, not typed from a report: dispatching is done in CAD; a
# position is the car's GPS fix, and CAD's copy of it (an AVL geofence arrival) is the same fix
MACHINE_UNIT_KINDS = ("unit_dispatched", "unit_position")
# sources that write what they see as it happens, not typed from a report
SEEN_AS_IT_HAPPENS = ("camera", "sensor")
# What a radio line's kind (sources/lexicon.py: the words are data) records, and how soon
# after the moment it is said: "going in" and "patched" as it happens, the rest reported.
RADIO_RANK = {"unit_arrived": 1, "staging": 1, "unit_enroute": 1, "entry": 0, "patient_transported": 1,
              "patient_contact": 1, "channels_patched": 0, "threat_ended": 1, "shots_reported": 1}
# A unit reaching its staging point has reached the incident: its arrival moment (a CAD
# "on scene" for a staged unit is typed from its "staged" call).
FAMILY_OF = {"staging": "unit_arrived"}
# A unit saying it hears shots trails a burst by the seconds it takes to key up, but which
# burst is not said: its own family, tied to the bursts a sensor heard only jointly
# (lagged_moments.py), never fused into them one by one.
RADIO_FAMILY = {**FAMILY_OF, "shots_reported": "shots_heard"}
# Radio kinds read and shown but tied to no record: a dispatch is voiced again and again
# for one CAD assignment ("Engine 3, respond to ...", repeated, acknowledged), and a unit
# clearing says so when it gets round to it; pairing either with CAD moved clocks (tried,
# set aside). Such a line is a transmission like a line no phrase reads (and a line that
# also says a kind recording a moment is read as that kind: sources/lexicon.py SAID_AFTER).
SAID_NO_MOMENT = SAID_AFTER
CAMERA_FAMILY = {"threat_ended": "threat_ended", "shots_detected": "shots", "entry": "door"}
# dispatch-center recorders log the 911 lines beside the radio, on the same clock (a
# recorder's line format, not wording: kept here)
ANSWERED_ON_LINE = re.compile(r"\b911 call answered\b.*?\bANI\W*(\d{7,})", re.I)


# the kinds that can record a shareable moment, and those whose attributes say which
MOMENT_KINDS = UNIT_KINDS | {"radio_transmission", "call_transferred", "call_received", "call_answered",
                             "shots_detected", "door_event", "camera_observation", "patient_transported",
                             "patient_contact", "threat_ended", "incident_created"}
ATTR_KINDS = {"call_transferred", "call_received", "call_answered", "camera_observation", "shots_detected",
              "door_event"}


@dataclass(frozen=True)
class Moment:
    what: str
    who: object  # unit entity id, call number, or None for the place as a whole
    rank: int  # 0 as it happens, 1 spoken report, 2 typed from a report


def moment_of(kind: str, text: str | None, unit_entity: int | None, attrs: dict,
              seen: bool = False, words: TextReader | None = None, call: str | None = None) -> Moment | None:
    """`seen`: the source records what it sees as it happens (a camera, a sensor), not
    what someone typed from a report. `words`: the lexicons its text is read with (its
    mapping's, sources/lexicon.py; the bundled ones when not given). `call`: the record's
    incident number."""
    text = text or ""
    if kind == "incident_created":
        # CAD stamps an incident's creation once; its calls table and its chronology both
        # carry that stamp, under the incident's number (keyed by agency too: align.py)
        return Moment("incident_created", call, 0) if call else None
    words = words or reader_for(None)
    if kind in UNIT_KINDS and unit_entity is not None:
        # dispatching is done in CAD itself; status changes are typed from reports
        return Moment(FAMILY_OF.get(kind, kind), unit_entity, 0 if kind in MACHINE_UNIT_KINDS or seen else 2)
    if kind == "threat_ended":
        # a record of the threat ending (a CAD "suspect in custody" time): one in an incident
        return Moment("threat_ended", "threat_ended", 0 if seen else 2)
    if kind == "unit_arrived":
        # a call's "first arrive" with no unit named: the first unit of its agency to arrive
        return Moment("first_arrival", None, 0 if seen else 2)
    if kind == "entry":
        # someone went in, no unit named (a camera's "officers enter"): the place's moment,
        # shared with the door and the radio's "going in"
        return Moment("door", None, 0 if seen else 2)
    if kind == "radio_transmission":
        line = ANSWERED_ON_LINE.search(text)
        if line:  # the recorder's 911 line: the pick-up, with the caller's number
            return Moment("call_answered", line.group(1), 0)
        said = words.kind_of("radio", text)
        if said is not None and said not in SAID_NO_MOMENT:
            what = RADIO_FAMILY.get(said, said)
            # one of a kind in an incident: the moment itself is the key
            who = what if what in PLACELESS else unit_entity
            if who is None:
                return None
            return Moment(what, who, RADIO_RANK[said])
        # patched channels: the same words logged by two recorders are one transmission
        words = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
        return Moment("transmission", words, 0) if len(words) >= 12 else None
    if kind == "call_transferred" and attrs.get("ani"):
        return Moment("call_transfer", caller_number(attrs["ani"]), 0)
    if kind == "call_received" and attrs.get("ani") and transferred_in(attrs):
        # it rings at the next answering point a moment after it left the first
        return Moment("call_transfer", caller_number(attrs["ani"]), 1)
    if kind == "call_answered" and attrs.get("ani"):
        # the answering point's phone log and its CAD (which gets the caller's number and
        # location from the phone system on answer) both stamp the pick-up; the same
        # number answered at another agency is another act (align.py keys it by agency)
        return Moment("call_answered", caller_number(attrs["ani"]), 0)
    if kind == "shots_detected":
        return Moment("shots", None, 0)
    if kind == "door_event":
        return Moment("door", None, 0)
    if kind == "camera_observation":
        if attrs.get("shown_time"):
            return None  # a replayed view: it shows the past, it is not a moment itself
        said = words.kind_of("camera", text)
        if said is None:
            return None
        what = CAMERA_FAMILY[said]
        return Moment(what, what if what in PLACELESS else None, 0)
    if kind in ("patient_transported", "patient_contact") and unit_entity is not None:
        # a medic's patient record, written by the crew that did it
        return Moment(kind, unit_entity, 0)
    return None


TRANSPORTING_TO = re.compile(r"\btransporting\b.*?\bto\s+(.+?)\s*$", re.I)


def destination(kind: str, text: str | None, place: str | None) -> str | None:
    """Where a patient was taken, in plain lower-case words: a patient record's destination,
    or the hospital a medic names on the radio ("Rescue 7 transporting one red to ...").
    Two patients one ambulance takes off in the same minute are told apart by it."""
    said = place if kind == "patient_transported" else None
    if kind == "radio_transmission" and text:
        found = TRANSPORTING_TO.search(text)
        said = found.group(1) if found else None
    words = re.sub(r"[^a-z0-9]+", " ", (said or "").lower()).strip()
    return words or None


def caller_number(value) -> str:
    """A caller's number as the records are matched on it: its digits only, a North
    American country code dropped ("(511) 300-2197", "511.300.2197", "+1 511 300 2197" are
    one caller); a value with no digits as written."""
    text = str(value).strip()
    digits = re.sub(r"\D", "", text)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    return digits or text


def transferred_in(attrs: dict) -> bool:
    return any(attrs.get(k) for k in ("transfer_from", "transfer_from_seq", "transferred_from"))


@dataclass
class MomentRow:
    """One real moment (a fused event, or a single record of one)."""

    fused_id: int
    family: str
    who: object
    agency: str | None
    lo: float
    hi: float
    best: float
    members: list[int]
    unit_members: dict[int, list[int]]  # unit entity -> its records in this moment
    officers_seen: bool  # someone other than a door says officers were there
    calls: frozenset = frozenset()  # CAD call numbers its records belong to
    located: list[int] = field(default_factory=list)  # AVL fixes that bound it (avl_arrival.py)
    # unit -> (lo, hi) where a unit's own part is less sure than the moment's (a typed entry
    # the records could not tie to one team: fuse.py's doubts)
    unit_spans: dict = field(default_factory=dict)

    @property
    def evidence(self) -> list[int]:
        return list(self.members) + [i for i in self.located if i not in self.members]
