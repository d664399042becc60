"""Reading src/onrecord as Python syntax trees: each module's imports (function-level ones
too) and what in it touches the case store, for the tests that keep the layout one way."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "onrecord"


@dataclass
class Module:
    name: str  # onrecord.store.reader
    path: Path
    tree: ast.Module
    imports: set[str] = field(default_factory=set)  # every module named by an import, at any depth


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(mod_name: str, is_package: bool, tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package upwards
                parts = mod_name.split(".")[: len(mod_name.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join(parts + ([base] if base else []))
            out.add(base)
            # `from onrecord.store import schema` names the module onrecord.store.schema
            out |= {f"{base}.{a.name}" for a in node.names}
    return {m for m in out if m == "onrecord" or m.startswith("onrecord.")}


@cache
def modules() -> dict[str, Module]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        name = _name(path)
        out[name] = Module(name, path, tree, _imports(name, path.name == "__init__.py", tree))
    return out


def internal_imports(m: Module) -> set[str]:
    """The onrecord modules `m` imports, as module names that exist (a name imported from a
    module, `from onrecord.store.schema import events`, counts as that module)."""
    known = modules()
    return {i for i in m.imports if i in known} | {i.rsplit(".", 1)[0] for i in m.imports
                                                     if i not in known and i.rsplit(".", 1)[0] in known}
