"""extensions.py names every extension point and where the built-in ones are registered:
each registry it names exists and holds what it says; those still to come name their issue."""

from __future__ import annotations

import importlib

from onrecord.extensions import EXTENSION_POINTS


def _resolve(registry: str):
    module, _, attr = registry.partition(":")
    return getattr(importlib.import_module(module), attr)


def test_every_extension_point_has_one_line_and_a_registry():
    names = [p.name for p in EXTENSION_POINTS]
    assert len(names) == len(set(names))
    for p in EXTENSION_POINTS:
        assert p.doc and "\n" not in p.doc.strip(), p.name
        if p.issue is None:
            assert _resolve(p.registry), p.name
        else:
            assert ":" not in p.registry  # a place to come, not yet a registry


def test_the_registries_hold_the_built_in_ones():
    found = {p.name: _resolve(p.registry) for p in EXTENSION_POINTS if p.issue is None}
    assert {"csv", "text"} <= set(found["source adapter"])
    assert {"reno-cad", "sf-fire"} <= set(found["code table"]())
    assert {"plain-english", "apco-ten-codes", "agency-variants"} <= set(found["lexicon"]())
    assert len(found["metric"]) >= 4 and all(callable(m) for m in found["metric"])
    assert "time_of_action" in found["claim check"] and all(callable(c) for c in found["claim check"].values())
    assert set(found["linkage backend"]) == {"duckdb", "spark"}
    assert "armed_unit_holding_outside" in {r.name for r in found["alert rule"]()}
    assert {"unit_status", "shots_within"} <= set(found["alert test"])
    assert {"eido-websocket", "folder", "csv-tail", "webhook"} <= set(found["live feed"])


def test_a_registered_metric_joins_every_build(monkeypatch):
    """A metric added to the registry is run by compute_findings and its findings are kept."""
    from onrecord.findings import compute
    from onrecord.findings.discrepancies import ClaimsRead
    from onrecord.model import Finding

    seen = []

    def sources_count(r, found):
        seen.append(len(found))
        return [Finding("sources_imported", "established", value_lo=len(r.sources), value_hi=len(r.sources),
                        unit="count")]

    class Build:
        sources = [1, 2, 3]

    monkeypatch.setattr(compute, "METRICS", [sources_count])
    monkeypatch.setattr(compute, "read_claims", lambda events, found, who: ClaimsRead())
    Build.events, Build.who = None, None
    found, claims = compute.compute_findings(Build())
    assert [f.name for f in found] == ["sources_imported"] and found[0].value_lo == 3 and seen == [0]
