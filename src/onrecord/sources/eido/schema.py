"""Validating EIDOs against the NENA schema (`nena-eido-schema/openapi.yaml`, OpenAPI 3.0
with NIEM types in `NIEMComponents/`), read where the user keeps it: the schema is NENA's
and is not shipped with onrecord. `ONRECORD_EIDO_SCHEMA` (or the mapping's
`[eido] schema`) names the openapi.yaml.

Two known defects of the 021.1.1 draft are patched in memory, never in the file, and the
import says so: `AgentType.agentRoleRegistryText` has `minItems: 1,` (a YAML string, not a
number), and `AlternateValuesType.Alternate.items` requires `TimeStamp` and `Value` where
its properties are `Timestamp` and `OtherValue` (required is set to the properties' names).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from onrecord.errors import InputError

SCHEMA_ENV = "ONRECORD_EIDO_SCHEMA"
ROOT_TYPE = "EmergencyIncidentDataObjectType"
PATCHES = (
    "AgentType.agentRoleRegistryText minItems '1,' read as 1",
    "AlternateValuesType.Alternate.items required [Constituent, TimeStamp, Value] read as "
    "[Constituent, Timestamp, OtherValue] (its properties' names)",
)


def schema_path(configured: str | None) -> Path | None:
    path = configured or os.environ.get(SCHEMA_ENV)
    return Path(path) if path else None


@functools.lru_cache(maxsize=4)
def _load(path: str):
    import yaml
    from jsonschema import Draft4Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT4

    base = Path(path).resolve()
    try:
        doc = yaml.safe_load(base.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"cannot read the EIDO schema: {exc}", file=str(base)) from exc
    patched = _patch(doc)

    def retrieve(uri: str) -> Resource:
        target = Path(uri.removeprefix("file://"))
        return Resource(contents=yaml.safe_load(target.read_text(encoding="utf-8")), specification=DRAFT4)

    uri = base.as_uri()
    registry = Registry(retrieve=retrieve).with_resource(uri, Resource(contents=doc, specification=DRAFT4))
    root = {"$ref": f"{uri}#/components/schemas/{ROOT_TYPE}"}
    return Draft4Validator(root, registry=registry), patched, _property_names(doc)


def _patch(doc: dict) -> list[str]:
    done = []
    schemas = doc.get("components", {}).get("schemas", {})
    for part in schemas.get("AgentType", {}).get("allOf", []):
        role = part.get("properties", {}).get("agentRoleRegistryText")
        if role and isinstance(role.get("minItems"), str):
            role["minItems"] = int(role["minItems"].strip(", "))
            done.append(PATCHES[0])
    items = schemas.get("AlternateValuesType", {}).get("properties", {}).get("Alternate", {}).get("items", {})
    if items.get("required") and not set(items["required"]) <= set(items.get("properties", {})):
        items["required"] = [n for n in ("Constituent", "Timestamp", "OtherValue") if n in items["properties"]]
        done.append(PATCHES[1])
    return done


def _property_names(node) -> set[str]:
    names: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if isinstance(n.get("properties"), dict):
                names.update(n["properties"])
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return names


class EidoSchema:
    """The validator, the patches applied to the schema, and the property names it declares."""

    def __init__(self, path: Path):
        self.path = path
        self.validator, self.patches, self.names = _load(str(path))

    def violations(self, eido: dict) -> list[tuple[str, str, str]]:
        """(JSON Pointer, field, message) of each violation, in document order."""
        out = []
        for err in sorted(self.validator.iter_errors(eido), key=lambda e: [str(p) for p in e.absolute_path]):
            for leaf in _leaves(err):
                path = list(leaf.absolute_path)
                pointer = "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in path)
                field = str(path[-1]) if path else ""
                if leaf.validator == "required":
                    missing = [k for k in leaf.validator_value if isinstance(leaf.instance, dict)
                               and k not in leaf.instance]
                    field = missing[0] if missing else field
                out.append((pointer, field, leaf.message))
        return list(dict.fromkeys(out))


def _leaves(err):
    """The most specific errors under an allOf/anyOf/oneOf (the schema nests its types in allOf)."""
    if not err.context:
        return [err]
    out = []
    for sub in err.context:
        out.extend(_leaves(sub))
    return out
