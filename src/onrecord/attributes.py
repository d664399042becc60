"""The attribute names the build reads, what each means, and the values each allows.

A mapping copies any column into an event's attributes (`[attributes]`, docs/mappings.md);
most are kept for the reader only (priority, disposition). The names below the build
reads, and a mapping must use these names for the build to understand them. Every one is
documented in docs/attributes.md (a test checks that the two agree). An attribute with a
value set (YES_NO) is checked at import: a value outside it rejects the row, naming the
file, line and column; values are stored in one spelling ("true" / "false").
"""

from __future__ import annotations

# true/false, yes/no, Y/N in any case; a blank is no value (the attribute is not set)
YES = frozenset({"true", "yes", "y"})
NO = frozenset({"false", "no", "n"})
YES_NO_WORDS = "true/false/yes/no/Y/N"

# name -> (the records it is read on, what the build does with it)
READ_BY_THE_BUILD: dict[str, tuple[str, str]] = {
    "call_sign": ("roster", "the unit's radio call sign (\"David-29\"): radio traffic naming it is that unit"),
    "vehicle": ("roster, avl", "the unit's vehicle number, as AVL writes it: AVL fixes naming it are that unit"),
    "radio_id": ("roster, radio", "the radio's subscriber id: a transmission keyed from the radio a roster issues "
                                  "to one unit is that unit's"),
    "armed": ("roster", "whether the unit's crew is armed (YES_NO); without it, fire/EMS units are unarmed"),
    "role": ("roster", "the unit's role (patrol, supervisor, ...), kept on the unit"),
    "assignment": ("roster", "the unit's assignment for the shift, kept on the unit"),
    "rank": ("roster", "the officer's rank (\"Deputy\"): which agency's people a statement's \"deputies\" are"),
    "badge": ("roster", "the officer's badge number: two spellings one slip apart are one officer if it agrees"),
    "device": ("sensor", "which device reported a shot or a door (shots_detected, door_event): one device "
                         "reports one burst once"),
    "ani": ("call911, cad", "the caller's number: pairs a call's records across answering points and CAD"),
    "transferred_from": ("call911", "where a transferred call came from: the call was presented here by transfer"),
    "transfer_from": ("call911", "the same as transferred_from"),
    "transfer_from_seq": ("call911", "the sequence number of the call it was transferred from (a transfer)"),
    "shown_time": ("camera", "for a camera view, when the footage it showed was recorded (a replay's "
                             "lag): read at import with its own format, or the mapping's, ISO or a time of day "
                             "(TIME_ATTRIBUTES); stored as the UTC instant"),
    "entered_by": ("cad", "how a unit status was entered (ENTERED_BY): CAD's copy of an AVL fix, the crew's "
                          "terminal as it happened, or a dispatcher typing from a radio report"),
}

# entered_by's words, and the one each is stored as
ENTERED_BY = {"avl": "avl", "gps": "avl", "terminal": "terminal", "mdt": "terminal", "mdc": "terminal",
              "dispatcher": "dispatcher", "radio": "dispatcher", "typed": "dispatcher"}

# read by other commands, not the build: `onrecord link` (a person's details, docs/mappings.md
# [people]) and the live board (a camera's name and its view's lag)
READ_ELSEWHERE = frozenset({"first_name", "middle_name", "last_name", "full_name", "dob", "address", "phone",
                            "id_number", "camera", "lag_s"})

# attributes that are times: read at import like an event's time and stored as one
# instant (sources/attribute_times.py); a value that reads as no time rejects the row
TIME_ATTRIBUTES = frozenset({"shown_time"})

# attributes whose values are checked at import, and how each reads
CHECKED = {"armed": "yes_no", "entered_by": "entered_by", **{k: "time" for k in TIME_ATTRIBUTES}}


def yes_no(value) -> bool | None:
    """True / False for a YES_NO value (or an already-read bool); None for a blank, or for
    a word outside the set (the import rejects those: only a case imported before it
    checked can hold one, and an unreadable value says nothing)."""
    if isinstance(value, bool):
        return value
    if value is None:
        return None
    word = str(value).strip().lower()
    if not word:
        return None
    if word in YES:
        return True
    if word in NO:
        return False
    return None
