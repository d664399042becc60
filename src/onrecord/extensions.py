"""Every kind of thing a contributor adds to onrecord, one line each, and where the built-in
ones are registered (as datasette's hookspecs.py lists its hooks). docs/extending.md shows
how to add one of each; tests/test_extensions.py checks that every registry named here
exists and holds what it says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from onrecord.model import Claim, Finding


class SourceAdapter(Protocol):
    """Reads one file format into raw records and events (-> sources.parsed.Parsed)."""

    def __call__(self, data: bytes, mapping: Any, file: str, tz: str | None, agency: str | None) -> Any: ...


class Metric(Protocol):
    """Measures the response on a build: its own findings, from the build and the findings before it."""

    def __call__(self, build: Any, found: list[Finding]) -> list[Finding]: ...


class ClaimCheck(Protocol):
    """Sets one measure a statement makes against what the records establish (-> claim_checks.Check or None)."""

    def __call__(self, claim: Claim, facts: Any, ctx: Any) -> Any: ...


# A linkage backend makes Splink's database API for one engine: (spark_session=None) -> DBAPI.
LinkageBackend = Callable[..., Any]


@dataclass(frozen=True)
class ExtensionPoint:
    name: str
    doc: str  # one line
    registry: str  # "module:attribute" where the built-in ones are registered
    issue: int | None = None  # the issue that brings it, while it is still to come


EXTENSION_POINTS = (
    ExtensionPoint("source adapter", SourceAdapter.__doc__, "onrecord.sources.registry:ADAPTERS"),
    ExtensionPoint("code table", "Translates one agency's codes (natures, statuses, agencies) as its mapping "
                   "declares them in [codes.NAME]; the bundled mappings are data files.",
                   "onrecord.sources.mapping:bundled_names"),
    ExtensionPoint("lexicon", "What the words of radio traffic, ten-codes and statuses mean, as data a mapping "
                   "can extend.", "onrecord.sources.lexicon:bundled_lexicons"),
    ExtensionPoint("metric", Metric.__doc__ + " Its sentence: findings.render.SENTENCES.",
                   "onrecord.findings.compute:METRICS"),
    ExtensionPoint("claim check", ClaimCheck.__doc__, "onrecord.findings.claim_checks:CHECKS"),
    ExtensionPoint("linkage backend", "Runs the person linkage's SQL on one engine (Splink's database API).",
                   "onrecord.warnings.backends:BACKENDS"),
    ExtensionPoint("exporter", "Writes a case out in one interchange format (Timesketch, EIDO, CAP, CSV, Parquet).",
                   "onrecord.views.export:EXPORTERS"),
    ExtensionPoint("alert rule", "A rule over the live stream of events that raises an alert, as a TOML file "
                   "(bundled: live/rules/*.toml; a user's: onrecord live --rules FILE).",
                   "onrecord.live.rules:bundled_rules"),
    ExtensionPoint("alert test", "One condition a rule's [[when]] block names (unit status, shots within, a call "
                   "waiting after transfer...), asked of a subject at a moment.", "onrecord.live.rules.tests:TESTS"),
    ExtensionPoint("live feed", "Takes frames from one kind of origin (EIDO over WebSocket, a watched folder, a "
                   "tailed CSV; webhooks are a route) onto the case's chain.", "onrecord.live.feeds:FEEDS"),
)
