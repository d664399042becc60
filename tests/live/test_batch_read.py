"""The rows of a batch's events that are those of the frames kept, each numbered by its
frame's place in the batch (the whole reading of a batch is tested in test_ingest.py)."""

from __future__ import annotations

from onrecord.live.batch_read import frame_rows
from onrecord.sources.parsed import events_table


def test_the_kept_frames_rows_in_their_order_numbered_by_their_place():
    table = events_table({"record_index": [0, 0, 1, 2, 3], "kind": ["a", "b", "c", "d", "e"]})
    out = frame_rows(table, [(0, 5), (2, 7)])  # frames 1 and 3 rejected: their rows left out
    assert out.column("record_index").to_pylist() == [5, 5, 7]
    assert out.column("kind").to_pylist() == ["a", "b", "d"]


def test_a_frame_read_alone_is_all_of_its_table():
    table = events_table({"record_index": [1, 1], "kind": ["a", "b"]})  # a CSV's row behind its header
    assert frame_rows(table, [(None, 3)]).column("record_index").to_pylist() == [3, 3]
