"""Which arrival records say staging: a CAD "staged" status, a radio line read as staging."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.staging import staging_records


def test_staged_statuses_and_staging_words_are_staging_and_an_arrival_is_not():
    events = pd.DataFrame([
        {"id": 1, "kind": "staging", "text": "AT STAGING", "source_id": 1},
        {"id": 2, "kind": "radio_transmission", "text": "engine 210 staged", "source_id": 2},
        {"id": 3, "kind": "radio_transmission", "text": "medic 162 on scene at the baseball field", "source_id": 2},
        {"id": 4, "kind": "unit_arrived", "text": "ON SCENE", "source_id": 1},
        {"id": 5, "kind": "radio_transmission", "text": "ladder 367 at the staging area", "source_id": 2},
    ])
    anchored = pd.DataFrame({"id": [1, 2, 3, 4, 5], "family": ["unit_arrived"] * 5})
    assert staging_records(events, anchored, {}) == {1, 2, 5}
