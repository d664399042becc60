"""Write a mapping (docs/mappings.md) as TOML. The standard library reads TOML but does
not write it; mappings use only strings, numbers, booleans, lists, tables, inline tables
and arrays of tables, which is all this emitter knows."""

from __future__ import annotations

import json
import re

BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if BARE_KEY.match(k) else json.dumps(k)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def dump(doc: dict) -> str:
    """Top-level keys must be tables, `codes` a table of tables, `events` a list of tables."""
    out: list[str] = []
    for name, body in doc.items():
        if name == "codes":
            for table, entries in body.items():
                out += [f"[codes.{_key(table)}]"] + [f"{_key(k)} = {_value(v)}" for k, v in entries.items()] + [""]
        elif isinstance(body, list):
            for item in body:
                out += [f"[[{name}]]"] + [f"{_key(k)} = {_value(v)}" for k, v in item.items()] + [""]
        else:
            out += [f"[{name}]"] + [f"{_key(k)} = {_value(v)}" for k, v in body.items()] + [""]
    return "\n".join(out)
