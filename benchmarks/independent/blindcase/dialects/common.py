"""Pieces every export shares: time styles, zone wording, casing, the data dictionary."""

from __future__ import annotations

import random

from .. import timefmt
from ..clocks import Clock
from ..export import Export, Stamp
from ..world import World


def stamp(rng: random.Random, world: World, clock: Clock, allowed: list[str]) -> Stamp:
    return Stamp(clock, timefmt.STYLES[rng.choice(allowed)], world.zone)


def zone_words(rng: random.Random, world: World, st: Stamp) -> str:
    if st.style.zone == "utc":
        return rng.choice(timefmt.UTC_WORDS)
    if st.style.key.startswith("iso_offset") or st.style.key == "offset_compact":
        return rng.choice(timefmt.ZONE_WORDS[world.zone]) + ", offset written with each time"
    return rng.choice(timefmt.ZONE_WORDS[world.zone])


def caser(rng: random.Random):
    how = rng.choice(["asis", "asis", "upper", "lower"])
    if how == "upper":
        return str.upper
    if how == "lower":
        return str.lower
    return lambda s: s


def new_export(
    world: World,
    *,
    name: str,
    folder: str,
    kind: str,
    agency: str,
    clock: Clock | None,
    st: Stamp | None,
    zone_stated: str,
    columns: list[str],
    rid_col: str,
    dialect: str,
    title: str,
    **kw,
) -> Export:
    zone = st.true_zone if st else world.zone
    return Export(
        name=name,
        folder=folder,
        kind=kind,
        agency=agency,
        clock=clock,
        zone=zone,
        zone_stated=zone_stated,
        columns=columns,
        rid_col=rid_col,
        dialect=dialect,
        title=title,
        style_key=st.style.key if st else None,
        **kw,
    )


def time_columns_doc(st: Stamp, zone_stated: str) -> str:
    return f"{st.style.words}; time zone: {zone_stated}"


def dictionary(
    exp: Export,
    world: World,
    intro: str,
    columns: list[tuple[str, str]],
    sections: list[tuple[str, str]] = (),
    clock_note: str = "",
) -> str:
    agency = world.agencies[exp.agency]
    lines = [
        f"# {exp.title}",
        "",
        f"Agency: {agency.name} (agency code: {agency.code})",
        "",
        f"File: `{exp.name}`",
        "",
        intro.strip(),
        "",
    ]
    fmt = (
        "JSON Lines (one JSON object per line; empty fields are left out)"
        if exp.fmt == "jsonl"
        else (
            {",": "comma-separated", "|": "pipe-delimited (|)", "\t": "tab-delimited", ";": "semicolon-separated"}[
                exp.delimiter
            ]
            + (
                ", first line is the column header"
                if exp.header
                else ", **no header line** (columns in the order below)"
            )
        )
    )
    lines += [f"Format: {fmt}, UTF-8.", ""]
    lines += [f"Record id: `{exp.rid_col}` (unique within this file).", ""]
    if clock_note:
        lines += [f"Clock: {clock_note}", ""]
    lines += ["## Columns", "", "| # | column | meaning |", "|---|---|---|"]
    for i, (col, meaning) in enumerate(columns, 1):
        lines.append(f"| {i} | `{col}` | {meaning} |")
    lines.append("")
    for title, body in sections:
        lines += [f"## {title}", "", body.strip(), ""]
    return "\n".join(lines)


def code_table(pairs: list[tuple[str, str]], head=("code", "meaning")) -> str:
    out = [f"| {head[0]} | {head[1]} |", "|---|---|"]
    out += [f"| `{a}` | {b} |" for a, b in pairs]
    return "\n".join(out)


def ani_form(rng: random.Random):
    style = rng.choice(["plain", "dashed", "paren", "dotted"])

    def form(ani: str) -> str:
        a, b, c = ani[:3], ani[3:6], ani[6:]
        return {"plain": ani, "dashed": f"{a}-{b}-{c}", "paren": f"({a}) {b}-{c}", "dotted": f"{a}.{b}.{c}"}[style]

    return form, style
