"""Which clocks are trusted, and how well: declared, never guessed from a source's kind.

A mapping declares it for every file read with it (`[clock]`, docs/mappings.md); the case's
onrecord.toml declares it for one file and wins (`[clocks."FILE"] trust = ...`). A clock
declared `reference` is held near true time within its stated uncertainty; every other
clock is measured against the references through the moments they share (clocks.py).

A declaration can be wrong (a door log said to be NTP-timed that runs minutes off): a
reference that two other clocks, tied to true time without it, contradict by more than
both uncertainties allow is not held (contradicted_references), and a finding says so.
"""

from __future__ import annotations

import tomllib

import numpy as np
import pandas as pd

from onrecord.errors import InputError
from onrecord.sources.mapping import clock_trust


def declared_trust(case, sources: pd.DataFrame) -> tuple[dict[int, float], list[str]]:
    """{source id: ± seconds} of the clocks declared reference; and what could not be read."""
    settings = case.settings.get("clocks", {}) if case is not None else {}
    out, problems = {}, []
    for s in sources.itertuples():
        sid, name = int(s.id), s.file_name
        found = _from_mapping(getattr(s, "mapping_text", None), name, problems)
        case_says = settings.get(name)
        if isinstance(case_says, dict) and "trust" in case_says:
            found = _read({k: v for k, v in case_says.items() if k != "offset_s"},
                          f'clocks."{name}"', "onrecord.toml", problems, found)
        if found is not None:
            out[sid] = found
    return out, problems


def _from_mapping(text: str | None, name: str, problems: list[str]) -> float | None:
    if not text:
        return None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None  # a text source's mapping was checked at import; nothing declared here
    table = doc.get("clock")
    if not isinstance(table, dict):
        return None
    return _read(table, "clock", f"the mapping of {name}", problems, None)


def _read(table: dict, key: str, where: str, problems: list[str], default: float | None) -> float | None:
    def fail(k, message, value=None):
        raise InputError(message, file=where, field=k, value=None if value is None else str(value))

    try:
        trust, unc = clock_trust(table, key, fail)
    except InputError as exc:
        problems.append(str(exc))
        return default
    return unc if trust == "reference" else None


# A reference is contradicted when a neighbour's pair puts it further from true time than
# this many combined standard deviations beyond its declared bound.
CONTRADICTION_SIGMAS = 3.0


def contradicted_references(trusted: dict[int, float], solve_without) -> dict[int, dict]:
    """References the other clocks contradict: {source: {offset_s, sigma_s, by: [sources]}}.

    Each reference in turn is left free (`solve_without(trusted minus it)` gives every clock
    without it, and the pairs that fit kept); each pair it shares with a clock still tied to true time then says where
    it stands. Two such clocks saying it is further off than its declared bound and their
    own uncertainty allow: the declaration does not hold. Worst first, one at a time, so
    a wrong reference cannot make a right one look wrong; and only by others that hold
    together (each solved within its own bound) is one judged."""
    out: dict[int, dict] = {}
    held = dict(trusted)
    while len(held) > 1:
        worst = None
        for s, bound in held.items():
            others = {k: v for k, v in held.items() if k != s}
            clocks, kept = solve_without(others)
            if not _holds(others, clocks):
                continue  # the others contradict each other: they cannot judge s
            said = _what_neighbours_say(s, kept, clocks)
            off = [(o, x, sd) for o, x, sd in said if abs(x) > bound + CONTRADICTION_SIGMAS * sd]
            if len(off) >= 2:
                xs, sds = np.array([x for _, x, _ in said]), np.array([sd for _, _, sd in said])
                w = 1.0 / np.maximum(sds, 0.1) ** 2
                offset = float((xs * w).sum() / w.sum())
                score = abs(offset) / max(bound, 0.1)
                if worst is None or score > worst[1]:
                    worst = (s, score, {"offset_s": round(offset, 3), "sigma_s": round(float(np.sqrt(1 / w.sum())), 3),
                                        "declared_s": bound, "by": sorted(o for o, _, _ in off)})
        if worst is None:
            break
        out[worst[0]] = worst[2]
        del held[worst[0]]
    return out


def _holds(held: dict[int, float], clocks) -> bool:
    """Every held reference solved within its declared bound: a consistent set to judge by."""
    for k, bound in held.items():
        c = clocks.get(k)
        if c is not None and c.offset_s is not None and \
                abs(c.offset_s) > bound + CONTRADICTION_SIGMAS * (c.uncertainty_s or 0.0):
            return False
    return True


def _what_neighbours_say(s: int, pairs, clocks) -> list[tuple[int, float, float]]:
    """(other source, s's offset it implies, ± one sd) for each tied clock s shares moments with."""
    said = []
    for p in pairs:
        if s not in (p.a, p.b):
            continue
        other = p.b if p.a == s else p.a
        c = clocks.get(other)
        if c is None or c.offset_s is None or c.status not in ("reference", "estimated", "pinned"):
            continue
        # delta = offset_b - offset_a
        mine = c.offset_s - p.delta_s if p.b == other else c.offset_s + p.delta_s
        said.append((other, mine, float(np.hypot(p.sigma_s, c.uncertainty_s or 0.0))))
    return said
