"""Times and durations as a reader sees them: local time with the zone, seconds rounded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from zoneinfo import ZoneInfo


@dataclass
class Formatter:
    zone: ZoneInfo

    @classmethod
    def for_case(cls, case, sources=None) -> "Formatter":
        from onrecord.store.read import CaseReader

        return cls(CaseReader(case).display_zone())

    def time(self, ms: float) -> str:
        t = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(self.zone)
        return t.strftime("%H:%M:%S %Z")

    def interval(self, lo: float, hi: float) -> str:
        if abs(hi - lo) < 1000:
            return self.time((lo + hi) / 2)
        day = datetime.fromtimestamp(lo / 1000, tz=timezone.utc).astimezone(self.zone).strftime("%Y-%m-%d")
        return f"between {self.time(lo)} and {self.time(hi)} ({day})"

    @staticmethod
    def seconds(lo: float, hi: float) -> str:
        if abs(hi - lo) < 1.0:
            return f"{(lo + hi) / 2:.0f} s"
        return f"{lo:.0f}–{hi:.0f} s"

    @staticmethod
    def offset(offset_s: float, unc_s: float | None) -> str:
        way = "fast" if offset_s > 0 else "slow"
        return f"{abs(offset_s):.1f} s {way} (±{unc_s or 0:.1f} s)"
