"""Times and durations in a finding's sentence (kept until findings are rendered on read)."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from onrecord import timetext


@dataclass
class Formatter:
    zone: ZoneInfo

    @classmethod
    def for_case(cls, case, sources=None) -> "Formatter":
        from onrecord.store.reader import open_reader

        return cls(open_reader(case).display_zone())

    def time(self, ms: float) -> str:
        return timetext.sentence_time(ms, self.zone)

    def interval(self, lo: float, hi: float) -> str:
        return timetext.sentence_interval(lo, hi, self.zone)

    seconds = staticmethod(timetext.sentence_seconds)
    offset = staticmethod(timetext.sentence_offset)
