"""Every key a mapping may hold, so a misspelt one is an error naming it, not a silent
no-op (`optinal = true` once dropped every blank-time row). docs/mappings.md lists them."""

from __future__ import annotations

import difflib

# Tables whose keys are the user's own (column names, codes, attribute names) are None.
TOP = {
    "mapping": {"name", "description", "source_kind", "agency", "timezone", "layout", "lexicon", "date",
                # how doubtful times are read (sources/time_checks.py)
                "years", "dst_gap", "dst_overlap"},
    "file": {"format", "header", "columns", "delimiter", "quote", "encoding", "required", "null_values",
             # nested formats and workbooks (JSON/XML records path and prefixes, sheet and header row)
             "records", "namespaces", "sheet", "header_row"},
    "rows": {"when", "unless"},
    "defaults": None,
    "columns": None,  # derived columns: the user's names
    "fields": None,  # event field names: checked against EVENT_FIELDS
    "attributes": None,
    "codes": None,
    "events": None,  # a list of tables: EVENT below
    "text": {"event", "time", "format"},
    "people": {"dob_format"},
    # clock trust and lexicons (docs/mappings.md, docs/lexicons.md) check their own keys where read
    "clock": None,
    "lexicon": None,
    # the dispatch system's geofence an AVL export states (docs/mappings.md, [geofence])
    "geofence": {"lat", "lon", "radius_m"},
    # a bundled adapter's own settings, the table named after its format
    "eido": None,
    "cap": None,
}
FIELD_TABLE = {"column", "codes", "template", "pick", "default", "pattern", "value", "format"}
EVENT_OWN = {"kind", "kind_from", "kinds", "time", "format", "precision", "optional", "once_per_call",
             "text", "when", "unless", "split", "wide", "attributes", "after"}
CONDITION = {"column", "equals", "in", "matches", "blank"}
SPLIT = {"column", "by", "into", "sep", "pattern"}


def unknown(keys, known, where: str, fail) -> None:
    """Fail on the first key not in `known`, suggesting the nearest known one."""
    for key in keys:
        if key not in known:
            near = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
            hint = f" (did you mean {near[0]!r}?)" if near else f" (known: {', '.join(sorted(known))})"
            fail(f"{where}.{key}" if where else str(key), f"is not a key of {where or 'a mapping'}{hint}")


def suggestion(value: str, choices) -> str:
    near = difflib.get_close_matches(value, sorted(choices), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""
