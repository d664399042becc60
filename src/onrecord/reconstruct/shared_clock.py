"""Sources that share one clock: solved as one.

A CAD's calls export and its unit history come from one server; a video review log and
the camera monitor log from one recorder. Estimated apart, each needs moments of its own
with other sources, and a one-row export gets none and stays unknown. Declared together
(`[clock] name = "WPD CAD server"` in each mapping, or `[clocks."FILE"] name = ...` in the
case's onrecord.toml, which wins), their shared moments count for all of them and they get
one offset, one uncertainty, one drift.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace

import pandas as pd

from onrecord.reconstruct import clocks as clk


def clock_names(case, sources: pd.DataFrame) -> dict[int, str]:
    """{source id: its clock's declared name}, where one is declared."""
    settings = case.settings.get("clocks", {}) if case is not None else {}
    out: dict[int, str] = {}
    for s in sources.itertuples():
        name = _mapping_clock_name(getattr(s, "mapping_text", None))
        case_says = settings.get(s.file_name)
        if isinstance(case_says, dict) and isinstance(case_says.get("name"), str):
            name = case_says["name"]
        if name and name.strip():
            out[int(s.id)] = " ".join(name.split()).lower()
    return out


def _mapping_clock_name(text: str | None) -> str | None:
    if not text:
        return None
    try:
        table = tomllib.loads(text).get("clock")
    except tomllib.TOMLDecodeError:
        return None  # a text source's own format: no [clock] table to read
    name = table.get("name") if isinstance(table, dict) else None
    return name if isinstance(name, str) else None


def clock_leaders(names: dict[int, str]) -> dict[int, int]:
    """{source: the source whose clock it is solved as} for every source of a clock two or
    more sources share (the lowest id of each, itself included)."""
    groups: dict[str, list[int]] = {}
    for sid, name in names.items():
        groups.setdefault(name, []).append(sid)
    return {sid: min(ids) for ids in groups.values() if len(ids) > 1 for sid in ids}


def solve_shared(sources: pd.DataFrame, anchored: pd.DataFrame, pinned: dict, trusted: dict,
                 lead: dict[int, int], extra: list[clk.PairEstimate] | None = None,
                 ) -> tuple[dict[int, clk.ClockEstimate], list[clk.PairEstimate]]:
    """The clocks (every source's) and the pairs they rest on, each shared clock solved once.
    `extra`: pairs found jointly beyond the pairwise ones (lagged_moments.py)."""
    extra = extra or []
    if not lead:
        pairs = clk.pair_estimates(anchored) + list(extra)
        return clk.solve(sources, pairs, pinned, trusted), pairs
    one = anchored.assign(source_id=anchored["source_id"].map(lambda s: lead.get(int(s), int(s))))
    solved_as = sources[~sources["id"].map(lambda s: lead.get(int(s), int(s)) != int(s))]
    pins: dict = {}
    for s, pin in sorted(pinned.items()):
        pins.setdefault(lead.get(s, s), pin)  # one pin of a shared clock pins it for all its sources
    held: dict = {}
    for s, unc in trusted.items():
        leader = lead.get(s, s)
        held[leader] = min(unc, held.get(leader, unc))
    pairs = clk.pair_estimates(one) + [replace(p, a=lead.get(p.a, p.a), b=lead.get(p.b, p.b)) for p in extra
                                       if lead.get(p.a, p.a) != lead.get(p.b, p.b)]
    clocks = clk.solve(solved_as, pairs, pins, held)
    for sid, leader in lead.items():
        if sid != leader and leader in clocks:
            clocks[sid] = replace(clocks[leader], source_id=sid,
                                  note=(clocks[leader].note + " " if clocks[leader].note else "")
                                  + "its clock is shared with other sources (declared [clock] name)")
    return clocks, pairs
