"""What the lexicons read a radio or camera line as, for a user checking a phrase.

The timeline shows a radio line as `radio_transmission`, what it was imported as; the
build reads its words with the source's lexicons (docs/lexicons.md) to say what moment it
records. Shown beside the line, the kind and the phrase that decided it let a user see at
once whether "Medic 406 10-97 staging ..." was read as staging or as an arrival.
"""

from __future__ import annotations

from onrecord.reconstruct.understood import TEXT_SECTIONS  # the kinds whose text says a moment
from onrecord.sources.lexicon import reader_for


def read_as(rows: list[dict], mapping_of: dict[int, str]) -> list[dict | None]:
    """Per row: {"kind", "phrase"} the lexicons read its text as; {"kind": None} for a
    radio or camera line no phrase matched; None for an event whose kind its text does
    not decide. `mapping_of`: source id -> the mapping text it was imported with."""
    out: list[dict | None] = []
    for r in rows:
        section = TEXT_SECTIONS.get(r["kind"])
        if section is None:
            out.append(None)
            continue
        found = reader_for(mapping_of.get(r["source_id"])).match_of(section, r["text"])
        out.append({"kind": found[0], "phrase": found[1]} if found else {"kind": None, "phrase": None})
    return out
