"""What a built case claims, in the shape the scorer compares with truth.

Keys follow truth.json: events "FILE#RID#KIND", mentions "FILE#RID#FIELD", prior
records "FILE#RID". Until reconstruction writes its tables, a case has nothing to
score and every score is 0 (never "n/a").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class CaseResults:
    built: bool = False
    note: str = ""
    offsets: dict[str, float] = field(default_factory=dict)          # source file -> seconds
    event_groups: list[list[str]] = field(default_factory=list)      # fused events, by record key
    entity_clusters: list[list[str]] = field(default_factory=list)   # mentions resolved together
    metrics: dict[str, float] = field(default_factory=dict)          # name -> epoch s or seconds
    linkage_clusters: list[list[str]] = field(default_factory=list)  # prior records of one person


def collect_case_results(case_path: str | Path) -> CaseResults:
    """Read the case's reconstruction tables. The store has none yet: report that plainly."""
    # Wiring point: once reconstruct/ writes aligned clocks, entities, fused events,
    # metric findings and linkage clusters, translate them here into CaseResults keyed
    # as above (events carry their source file name and attribute `rid`).
    return CaseResults(built=False, note="case has not been built: nothing to score")
