"""Cutting packed columns into pieces and parts."""

from __future__ import annotations

import pyarrow as pa

from onrecord.sources.explode import SplitSpec, explode

VALUES = pa.array(["E12@14:03:22;M7@14:05:10", None, " L3 ;; ", "T1@"], pa.string())


def test_pieces_and_their_parts_keep_the_row_they_came_from():
    p = explode(VALUES, SplitSpec(column="Units", by=";", into=("Unit", "At"), sep="@"))
    assert p.parent.tolist() == [0, 0, 2, 3]
    assert p.parts["Unit"].to_pylist() == ["E12", "M7", "L3", "T1"]
    assert p.parts["At"].to_pylist() == ["14:03:22", "14:05:10", None, None]  # missing or blank part
    assert not p.unread.any()


def test_a_plain_list_of_units():
    p = explode(VALUES, SplitSpec(column="Units", by=";", into=("Unit",)))
    assert p.parts["Unit"].to_pylist() == ["E12@14:03:22", "M7@14:05:10", "L3", "T1@"]


def test_a_pattern_names_the_parts_and_marks_pieces_it_does_not_match():
    p = explode(VALUES, SplitSpec(column="Units", by=";", into=("Unit", "At"),
                                  pattern=r"^(?P<Unit>[A-Z]+\d+)@(?P<At>\d\d:\d\d:\d\d)$"))
    assert p.unread.tolist() == [False, False, True, True]
    assert p.parts["At"].to_pylist()[:2] == ["14:03:22", "14:05:10"]
    assert p.text.to_pylist()[2:] == ["L3", "T1@"]


def test_no_pieces_at_all():
    p = explode(pa.array([None, ""], pa.string()), SplitSpec(column="U", by=";", into=("Unit", "At"), sep="@"))
    assert p.parent.tolist() == [] and p.parts["At"].to_pylist() == []
