"""The list of known mapping keys, and the nearest-name hint of an unknown one."""

from __future__ import annotations

import pytest

from onrecord.errors import InputError
from onrecord.sources.mapping_keys import EVENT_OWN, TOP, suggestion, unknown


def fail(key, message, value=None):
    raise InputError(message, file="m.toml", field=key)


def test_an_unknown_key_is_named_with_the_nearest_known_one():
    with pytest.raises(InputError) as err:
        unknown({"kind": 1, "once_per_cal": True}, EVENT_OWN, "events[2]", fail)
    assert err.value.field == "events[2].once_per_cal" and "'once_per_call'" in str(err.value)


def test_a_key_far_from_every_known_one_lists_them():
    with pytest.raises(InputError) as err:
        unknown({"zzz": 1}, TOP["rows"], "rows", fail)
    assert "known: unless, when" in str(err.value)


def test_known_keys_pass():
    unknown({"when": {}, "unless": {}}, TOP["rows"], "rows", fail)
    assert suggestion("unit_arived", {"unit_arrived", "unit_dispatched"}) == "; did you mean 'unit_arrived'?"
    assert suggestion("qqq", {"unit_arrived"}) == ""
