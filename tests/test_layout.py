"""The stages read one way (DESIGN.md, "The flow"): sources -> store -> reconstruct ->
findings -> views, with the CLI and the pipeline on top. A module that imports a stage
above its own — at module level or inside a function — fails here."""

from __future__ import annotations

from tests.source_tree import internal_imports, modules

# What each room may import besides itself. The common language (model, vocab, attributes, errors,
# timetext) is below everything.
BASE = {"onrecord", "onrecord.model", "onrecord.vocab", "onrecord.attributes", "onrecord.errors", "onrecord.timetext"}
MAY_IMPORT = {
    "base": set(),
    "store": set(),
    "sources": {"store"},
    "claims": set(),
    "reconstruct": {"store", "sources"},
    "findings": {"store", "sources", "reconstruct", "claims"},
    "warnings": {"store", "findings"},
}
NEVER_BELOW_THE_TOP = ("onrecord.views", "onrecord.cli", "onrecord.pipeline", "onrecord.scenario")


def room(name: str) -> str:
    if name in BASE:
        return "base"
    return name.split(".")[1] if name.count(".") else "base"


def test_no_stage_imports_the_views_or_the_cli():
    bad = []
    for name, m in modules().items():
        if room(name) not in MAY_IMPORT:
            continue
        bad += [(name, i) for i in internal_imports(m) if i.startswith(NEVER_BELOW_THE_TOP)]
    assert not bad, f"a stage imports the views, the CLI, the pipeline or the scenario tools: {bad}"


def test_each_stage_imports_only_the_stages_below_it():
    bad = []
    for name, m in modules().items():
        here = room(name)
        if here not in MAY_IMPORT:
            continue  # views, cli, pipeline, scenario, live...: the top may use any stage
        allowed = MAY_IMPORT[here] | {here}
        for i in internal_imports(m):
            if i in BASE or room(i) == "base":
                continue
            if room(i) not in allowed:
                bad.append((name, i))
    assert not bad, f"imports against the flow (DESIGN.md): {bad}"


def test_the_checks_see_function_level_imports():
    # cli/build.py imports the pipeline inside its functions only (so --help stays fast)
    assert "onrecord.pipeline" in internal_imports(modules()["onrecord.cli.build"])
