"""Every finding of one build: the registered metrics in order, then the claims read from
statements and press pieces, checked against them and against each other.

METRICS is the registry a new metric joins (docs/extending.md): a function of the build
(reconstruct.build.Reconstruction) and the findings before it, returning its own.
"""

from __future__ import annotations

from collections.abc import Callable

from onrecord.findings.clock_offsets import clock_offsets
from onrecord.findings.discrepancies import read_claims
from onrecord.findings.lags import call_transfers, camera_lag
from onrecord.findings.metrics import response_metrics
from onrecord.findings.understood import source_checks
from onrecord.model import Finding

Metric = Callable[[object, list[Finding]], list[Finding]]

# In this order: a later metric may read an earlier one's findings (transfer delays count
# from the first shots).
METRICS: list[Metric] = [
    lambda r, found: response_metrics(r),
    camera_lag,
    call_transfers,
    clock_offsets,
    source_checks,
]


def compute_findings(r) -> tuple[list[Finding], list[dict]]:
    """(findings, rows of the claims table) for a reconstruction."""
    found: list[Finding] = []
    for metric in METRICS:
        found += metric(r, found)
    said = read_claims(r.events, found, r.who)
    return found + said.findings, said.rows
