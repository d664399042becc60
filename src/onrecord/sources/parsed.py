"""What an adapter hands the importer: the file's records and the events read from them."""

from __future__ import annotations

from dataclasses import dataclass, field

from onrecord.sources.lines import Records

EVENT_COLUMNS = ("kind", "time_text", "t_src_lo", "t_src_hi", "agency", "unit", "call",
                 "actor", "channel", "place", "lat", "lon", "text", "attrs")


@dataclass
class Reject:
    line: int
    column: str | None
    value: str | None
    reason: str


@dataclass
class Parsed:
    records: Records
    # Events as columns (lists of equal length); `record_index` points into records.
    events: dict[str, list] = field(default_factory=dict)
    rejects: list[Reject] = field(default_factory=list)
    # Values that had no entry in their code table: (table, value) -> count.
    uncoded: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def event_count(self) -> int:
        return len(self.events.get("record_index", ()))


def empty_events() -> dict[str, list]:
    return {name: [] for name in ("record_index", *EVENT_COLUMNS)}
