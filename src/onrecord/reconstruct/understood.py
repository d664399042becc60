"""What the build could not understand, per source, so a user sees at once that a mapping
missed something: text lines no lexicon phrase matched (how many, and the commonest),
attributes it does not read, whether the source shares any moment with another, and
which clock it was read against (docs/lexicons.md, docs/attributes.md)."""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter

import pandas as pd

from onrecord.attributes import READ_BY_THE_BUILD, READ_ELSEWHERE
from onrecord.reconstruct.moments import ANSWERED_ON_LINE
from onrecord.sources.lexicon import reader_for

# the event kinds whose text says what moment they record, and the lexicon section read
TEXT_SECTIONS = {"radio_transmission": "radio", "camera_observation": "camera"}
COMMON = 5  # phrases shown per source
DIGITS = re.compile(r"\d+")


def understood(events: pd.DataFrame, sources: pd.DataFrame, clocks: dict) -> dict[int, dict]:
    """Per source id: {text_events, unclassified, common: [[phrase, n]], statuses_unread,
    ignored_attributes, shares_moment, clock: {status, against, ...}}."""
    names = dict(zip(sources["id"], sources["file_name"]))
    texts = events[events["kind"].isin(list(TEXT_SECTIONS)) & events["text"].notna()]
    statuses = events[events["kind"] == "unit_status"]
    out = {}
    for s in sources.itertuples():
        sid = int(s.id)
        mine = texts[texts["source_id"] == sid]
        missed = _unread(mine, reader_for(getattr(s, "mapping_text", None)))
        unread = statuses[statuses["source_id"] == sid]
        c = clocks.get(sid)
        out[sid] = {
            "text_events": int(len(mine)), "unclassified": sum(missed.values()),
            "common": [[p, n] for p, n in missed.most_common(COMMON)],
            "statuses_unread": int(len(unread)),
            "ignored_attributes": _ignored(getattr(s, "mapping_text", None)),
            "shares_moment": bool(c is not None and c.anchors),
            "clock": _clock(c, names),
        }
    return out


def _unread(part: pd.DataFrame, words) -> Counter:
    """The lines no lexicon phrase matched, by their wording (digits as #: "Adam-# copy")."""
    missed: Counter = Counter()
    for (kind, text), n in part.groupby(["kind", "text"], observed=True).size().items():
        if words.kind_of(TEXT_SECTIONS[kind], text) is not None:
            continue
        if kind == "radio_transmission" and ANSWERED_ON_LINE.search(text):
            continue  # a recorder's 911 line: read by its format
        missed[DIGITS.sub("#", " ".join(str(text).lower().split()))] += int(n)
    if len(part) and "attrs" in part:
        # a replayed camera view is read by its shown_time, not its words
        shown = part[part["kind"].astype(str) == "camera_observation"]["attrs"].fillna("")
        for text, a in zip(part.loc[shown.index, "text"], shown):
            if "shown_time" in a and json.loads(a).get("shown_time"):
                key = DIGITS.sub("#", " ".join(str(text).lower().split()))
                if missed.get(key):
                    missed[key] -= 1
                    if missed[key] <= 0:
                        del missed[key]
    return missed


def _ignored(mapping_text: str | None) -> list[str]:
    """The mapping's attribute names the build does not read (kept and shown, no more)."""
    try:
        doc = tomllib.loads(mapping_text or "")
    except tomllib.TOMLDecodeError:
        return []
    attrs = doc.get("attributes", {})
    return sorted(k for k in attrs if k not in READ_BY_THE_BUILD and k not in READ_ELSEWHERE) \
        if isinstance(attrs, dict) else []


def _clock(c, names: dict) -> dict:
    if c is None:
        return {"status": "none"}
    # a pair tied jointly says through what ("GUNSHOTS.csv (shots heard)"): not one record
    # matched with another, but a whole pattern of them (lagged_moments.py)
    against = sorted({names.get(e["other_source"], str(e["other_source"]))
                      + (f" ({e['via']})" if e.get("via") else "") for e in c.evidence})
    return {"status": c.status, "against": against, "offset_s": c.offset_s, "uncertainty_s": c.uncertainty_s,
            "contradicted": bool(c.contradicted),
            "offset_range": list(c.offset_range) if c.offset_range else None}
