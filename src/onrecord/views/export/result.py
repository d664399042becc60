"""What an export wrote, and what it left out and why."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ExportResult:
    format: str
    files: list[Path]
    written: int  # events (or alerts, for CAP) written
    left_out: Counter = field(default_factory=Counter)  # reason -> how many events
    notes: list[str] = field(default_factory=list)


def event_time(row: dict) -> tuple[int | None, int | None, str]:
    """(lo, hi, clock): on the common clock once built and aligned, else the source's own."""
    if row.get("t_aligned_lo") is not None:
        return int(row["t_aligned_lo"]), int(row["t_aligned_hi"]), "aligned"
    if row.get("t_src_lo") is not None:
        return int(row["t_src_lo"]), int(row["t_src_hi"]), "source"
    return None, None, "none"


def offset_applied(row: dict, clocks: dict) -> float | None:
    """Seconds taken off the source's clock to put the event on the common clock (None: none applied)."""
    c = clocks.get(row["source_id"])
    if row.get("t_aligned_lo") is None or not c or c.get("offset_s") is None:
        return None
    return float(c["offset_s"])
