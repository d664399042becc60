"""The time access decisions are taken at: UTC milliseconds, replaceable in tests (idle
timeouts, lockouts) without sleeping."""

from __future__ import annotations

import time


def wall_ms() -> int:
    return time.time_ns() // 1_000_000
