"""Digests of stored rows (store/digests.py): the same rows give the same digest however
the driver batches them; any change of a value, of the order, of where one value ends and
the next begins, is a different digest, named at its row or its block."""

from __future__ import annotations

import pyarrow as pa
import pytest

from onrecord.store.digests import MAX_BLOCKS, difference, digest_batches

SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string()), ("x", pa.float64()), ("h", pa.binary())])


def _rows(n: int, **change) -> list[dict]:
    rows = [{"id": i, "name": f"unit {i}", "x": i / 3, "h": bytes([i % 256]) * 32} for i in range(1, n + 1)]
    for i, values in change.items():
        rows[int(i[1:]) - 1].update(values)
    return rows


def _digest(rows: list[dict], batch: int = 7) -> dict:
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    return digest_batches(len(rows), table.to_batches(max_chunksize=batch), SCHEMA, "id")


def test_batching_does_not_change_the_digest():
    rows = _rows(50)
    assert _digest(rows, 1) == _digest(rows, 7) == _digest(rows, 50)


@pytest.mark.parametrize("change", [
    {"r7": {"name": "unit 77"}}, {"r7": {"name": None}}, {"r7": {"x": 7 / 3 + 1e-12}}, {"r7": {"x": None}},
    {"r7": {"h": bytes(32)}}, {"r7": {"name": "unit 7\x1f"}}, {"r7": {"name": "unit 7\n"}},
    {"r7": {"name": "\\N"}},
])
def test_a_changed_value_is_named_at_its_row(change):
    diff = difference(_digest(_rows(50)), _digest(_rows(50, **change)))
    assert diff is not None and diff.key == 7 and diff.verb == "was altered"


def test_a_value_moved_across_a_field_boundary_is_a_change():
    a = _rows(3, r2={"name": "a\x1fb"})
    b = _rows(3, r2={"name": "a"})
    assert _digest(a)["sha256"] != _digest(b)["sha256"]
    assert _digest(_rows(3, r2={"name": None}))["sha256"] != _digest(_rows(3, r2={"name": "\\N"}))["sha256"]


def test_removed_and_added_rows_are_named():
    rows = _rows(50)
    gone = [r for r in rows if r["id"] != 20]
    diff = difference(_digest(rows), _digest(gone))
    assert diff.key == 20 and diff.verb == "was removed"
    diff = difference(_digest(rows), _digest(rows + [_rows(51)[-1]]))
    assert diff.key == 51 and diff.verb == "was added"


def test_a_large_table_is_named_by_the_block_that_changed():
    n = MAX_BLOCKS * 3 + 5
    then, now = _digest(_rows(n), 1000), _digest(_rows(n, r2000={"name": "x"}), 1000)
    assert then["block"] == 4 and len(then["blocks"]) <= MAX_BLOCKS
    diff = difference(then, now)
    assert diff.key is None and diff.key_lo <= 2000 <= diff.key_hi and diff.key_hi - diff.key_lo == 3
    assert diff.where("event") == f"one of event {diff.key_lo} to {diff.key_hi}"


def test_unchanged_rows_have_no_difference():
    assert difference(_digest(_rows(10)), _digest(_rows(10), 3)) is None
    assert _digest([])["rows"] == 0 and difference(_digest([]), _digest([])) is None
