"""Row filters (`when` / `unless`): which rows of an export are read, or yield one event.

A chronology's comment lines, a log's heartbeat rows, a status an event block is for:
each is said as a test on one column. Values are compared with the spaces around them
trimmed; a blank value equals nothing and matches nothing (test it with `blank`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.sources.mapping_keys import CONDITION, unknown

TESTS = ("equals", "in", "matches", "blank")


@dataclass(frozen=True)
class Condition:
    column: str
    test: str  # one of TESTS
    value: object  # str, tuple of str, a regular expression, or bool

    def holds(self, table: dict[str, pa.Array]) -> np.ndarray:
        values = pc.utf8_trim_whitespace(table[self.column])
        blank = pc.fill_null(pc.equal(values, ""), True).to_numpy(zero_copy_only=False)
        if self.test == "blank":
            return blank.copy() if self.value else ~blank
        if self.test == "equals":
            out = pc.equal(values, self.value)
        elif self.test == "in":
            out = pc.is_in(values, value_set=pa.array(self.value, pa.string()))
        else:
            out = pc.match_substring_regex(values, self.value)
        return pc.fill_null(out, False).to_numpy(zero_copy_only=False) & ~blank


@dataclass(frozen=True)
class RowFilter:
    """`when`: every condition holds; `unless`: not every one of its conditions holds."""

    when: tuple[Condition, ...] = ()
    unless: tuple[Condition, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.when or self.unless)

    def columns(self) -> list[str]:
        return [c.column for c in self.when + self.unless]

    def keeps(self, table: dict[str, pa.Array], rows: int) -> np.ndarray:
        keep = np.ones(rows, dtype=bool)
        for c in self.when:
            keep &= c.holds(table)
        if self.unless:
            skip = np.ones(rows, dtype=bool)
            for c in self.unless:
                skip &= c.holds(table)
            keep &= ~skip
        return keep


def row_filter(table: dict, key: str, fail) -> RowFilter:
    """The `when` and `unless` keys of a table (`[rows]` or an `[[events]]` block)."""
    return RowFilter(when=_conditions(table.get("when"), f"{key}when", fail),
                     unless=_conditions(table.get("unless"), f"{key}unless", fail))


def _conditions(value, key: str, fail) -> tuple[Condition, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, dict) else value
    if not isinstance(items, list) or not items:
        fail(key, "must be a table like { column = \"Type\", equals = \"NOTE\" } or a list of them")
    return tuple(_condition(c, f"{key}[{i + 1}]" if len(items) > 1 else key, fail) for i, c in enumerate(items))


def _condition(c, key: str, fail) -> Condition:
    if not isinstance(c, dict):
        fail(key, "must be a table like { column = \"Type\", equals = \"NOTE\" }")
    unknown(c, CONDITION, key, fail)
    column = c.get("column")
    if not isinstance(column, str) or not column:
        fail(f"{key}.column", "is required: the column the test reads")
    tests = [t for t in TESTS if t in c]
    if len(tests) != 1:
        fail(key, f"needs exactly one test of {', '.join(TESTS)}")
    test, value = tests[0], c[tests[0]]
    if test == "equals":
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            fail(f"{key}.equals", "must be the text the column holds", value)
        value = str(value).strip()
    elif test == "in":
        if not isinstance(value, list) or not value:
            fail(f"{key}.in", "must be a list of the texts the column may hold", value)
        value = tuple(str(v).strip() for v in value)
    elif test == "matches":
        if not isinstance(value, str):
            fail(f"{key}.matches", "must be a regular expression", value)
        try:
            pc.match_substring_regex(pa.array([""]), value)
        except pa.ArrowInvalid as exc:
            fail(f"{key}.matches", f"is not a regular expression this reads (RE2 syntax): {exc}", value)
    elif not isinstance(value, bool):
        fail(f"{key}.blank", "must be true or false", value)
    return Condition(column=column, test=test, value=value)
