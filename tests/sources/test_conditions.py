"""Row filters: each test on trimmed values, blanks matching nothing but `blank`."""

from __future__ import annotations

import pyarrow as pa
import pytest

from onrecord.errors import InputError
from onrecord.sources.conditions import row_filter

TABLE = {"Type": pa.array(["NOTE", " STATUS ", None, "  ", "status"], pa.string())}


def fail(key, message, value=None):
    raise InputError(message, file="m.toml", field=key)


def keeps(**table) -> list[bool]:
    return row_filter(table, "rows.", fail).keeps(TABLE, 5).tolist()


@pytest.mark.parametrize("test, want", [
    ({"equals": "STATUS"}, [False, True, False, False, False]),  # case counts, spaces do not
    ({"in": ["NOTE", "status"]}, [True, False, False, False, True]),
    ({"matches": "(?i)^stat"}, [False, True, False, False, True]),
    ({"blank": True}, [False, False, True, True, False]),
    ({"blank": False}, [True, True, False, False, True]),
])
def test_each_test(test, want):
    assert keeps(when={"column": "Type", **test}) == want
    assert keeps(unless={"column": "Type", **test}) == [not w for w in want]


def test_a_list_holds_when_every_test_holds():
    both = [{"column": "Type", "blank": False}, {"column": "Type", "matches": "(?i)status"}]
    assert keeps(when=both) == [False, True, False, False, True]
    assert keeps(unless=both) == [True, False, True, True, False]


def test_no_filter_keeps_every_row():
    f = row_filter({}, "rows.", fail)
    assert not f and f.keeps(TABLE, 5).all()
