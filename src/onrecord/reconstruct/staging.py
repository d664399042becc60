"""Which arrival records say a unit reached its staging point, not the scene.

Fire and EMS are sent to a staging area away from the scene (an intersection, a lot a few
blocks off) and wait there until law enforcement says it is safe to move up; some never
move up. A CAD "staged" status or a radio "engine 210 staged" records that moment: the
unit reached the incident's staging point. It is kept in the arrival's moment family for
the clocks (CAD's "staged" and the radio's "staged" are one moment, and a CAD that marks a
staged unit "on scene" types it from that same call), but a unit whose every record of a
moment says staging was not on scene then (docs/metrics.md, "on scene").
"""

from __future__ import annotations

import pandas as pd

from onrecord.sources.lexicon import reader_for


def staging_records(events: pd.DataFrame, anchored: pd.DataFrame, words: dict) -> set[int]:
    """Ids of the arrival-family records that say staging: an event of kind `staging`, or a
    radio line whose words the source's lexicons read as staging. `words`: per source id,
    its lexicon reader (sources/lexicon.py)."""
    if anchored.empty or events.empty:
        return set()
    ids = set(anchored.loc[anchored["family"] == "unit_arrived", "id"])
    rows = events[events["id"].isin(ids) & events["kind"].isin(("staging", "radio_transmission"))]
    out: set[int] = set()
    for r in rows[["id", "kind", "text", "source_id"]].itertuples(index=False):
        if r.kind == "staging":
            out.add(int(r.id))
        elif (words.get(r.source_id) or reader_for(None)).kind_of("radio", r.text) == "staging":
            out.add(int(r.id))
    return out
