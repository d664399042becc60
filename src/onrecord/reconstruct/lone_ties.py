"""Clocks still tied to nothing, tied through a moment both records name.

Matched by time, a clock needs a pile of two or more shared moments (clocks.py: one match
is a coincidence). But some moments are named as well as timed: a unit's arrival in a CAD
and its car's crossing into its own AVL's geofence (the same unit, the same agency), a door
a door log names and a radio line names ("making entry northeast doors"), a camera and a
door log naming one door. Where a clock of unknown offset and a known one each hold such a
named moment, and the name leaves at most a few candidates on either side within the
±30 min searched, the match is no coincidence: it ties the clock, as unsure as one match
of its records' kinds allows, and, where the name leaves several candidates, as unsure as
the distance between them (never picked silently).

Run only for clocks nothing else ties (lagged_moments.py runs in the same rounds, so a
clock tied here can tie the next: A to B once B is tied).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from onrecord.reconstruct import clocks as clk
from onrecord.reconstruct.lagged_moments import KNOWN, _unknown_components

VIA = "one named moment"  # how such a pair is named where a clock says what it was read against
# A name that leaves more candidates than this on either side names nothing in particular.
MAX_CANDIDATES = 3
# A name whose candidates leave the clock anywhere in more than this (±, s) ties it no
# better than not at all (an unknown clock's ±5 min): the clock stays unknown and says so.
# (Blind set 3: a door log's few openings, minutes apart, left one at ±216 s.)
LOOSEST_S = 60.0

# A door named by its side ("northeast doors", "SW entrance"): a door log's reader names
# it so ("South Hall Northeast Doors"), and so does a radio line at the door.
SIDES = {"north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne", "northwest": "nw",
         "southeast": "se", "southwest": "sw", "n": "n", "s": "s", "e": "e", "w": "w", "ne": "ne",
         "nw": "nw", "se": "se", "sw": "sw"}
DOOR_SIDE = re.compile(r"\b(" + "|".join(sorted(SIDES, key=len, reverse=True)) +
                       r")(?:[\s-]+side)?[\s-]+(?:doors?|entrance|entry)\b", re.IGNORECASE)


def door_side(*texts) -> str | None:
    """The side a door is named by, from the first text that names one."""
    for t in texts:
        if isinstance(t, str):
            m = DOOR_SIDE.search(t)
            if m:
                return SIDES[m.group(1).lower()]
    return None


def tie_alone(anchored: pd.DataFrame, clocks: dict, events: pd.DataFrame | None = None) -> list[clk.PairEstimate]:
    """Pair estimates tying each component of unknown clocks to known clocks through the
    named moments they share. Every name says where the component's clock stands (a
    range); the range most names agree on ties it, and where names disagree as strongly
    (a door's one logged opening an hour off the entry a radio names), nothing does."""
    if anchored.empty:
        return []
    known = {s: c.offset_s for s, c in clocks.items() if c.status in KNOWN and c.offset_s is not None}
    if not known:
        return []
    table = _with_door_sides(anchored, events)
    out = []
    for comp in _unknown_components(clocks):
        shift = {s: (clocks[s].relative_s or 0.0) for s in comp}
        named = _named(table[table["source_id"].isin(list(comp))], table[table["source_id"].isin(list(known))])
        if named.empty:
            continue
        spans = []  # (lo, hi, matches): the component's offset each name allows
        units = named[named["by"] == "who"]
        for _, g in units.groupby(["source_id_a", "source_id_b", "family", "name"]):
            r = _unit_span(g, known, shift)
            if r is not None:
                spans.append(r)
        for _, g in named[named["by"] != "who"].groupby(["source_id_a", "family", "name", "by"]):
            r = _door_span(g, known, shift, table)
            if r is not None:
                spans.append(r)
        out += _agreed(spans, known, shift)
    return out


def _unit_span(g: pd.DataFrame, known: dict, shift: dict) -> tuple | None:
    """The component's offset one unit's (caller's) moment allows: a unit arrives, a call
    is answered, once, so every known source's record of it is a record of that moment."""
    r = _span(g)
    if r is None:
        return None
    a, b = int(g["source_id_a"].iloc[0]), int(g["source_id_b"].iloc[0])
    base = known[b] - shift[a]  # off_a = off_b - delta; the component's = off_a - its shift
    return base - r[1], base - r[0], g


def _door_span(g: pd.DataFrame, known: dict, shift: dict, table: pd.DataFrame) -> tuple | None:
    """The component's offset an entry at a named door allows. A door is gone through more
    than once (a first team, a second one two minutes on, a student running out), and one
    source's record of an entry there need not be of the moment another's is: the record
    is of one of the door's moments, not of the one a known source happens to hold. So
    every known source's candidates count together (their union, never the one they have
    in common), widened by how far apart the door's moments are that the sources of
    unknown clock record on their own clocks (differences within one clock need no
    offset); a door whose moments spread over minutes ties nothing (LOOSEST_S)."""
    a = int(g["source_id_a"].iloc[0])
    los, his = [], []
    for b, sub in g.groupby("source_id_b"):
        r = _span(sub)
        if r is None:
            return None  # the name leaves too many candidates in one source: it names nothing in particular
        base = known[int(b)] - shift[a]
        los.append(base - r[1])
        his.append(base - r[0])
    spread = _door_moments_spread(g, table, set(known) | {a})
    lo, hi = min(los) - spread, max(his) + spread
    return (lo, hi, g) if hi - lo <= 2 * LOOSEST_S else None


def _door_moments_spread(g: pd.DataFrame, table: pd.DataFrame, placed: set) -> float:
    """How far apart (s) the moments at g's door are that one source of unknown clock (not
    in `placed`) records within the ±MAX_OFFSET_S searched around g's records: the most
    of any such source."""
    family, name, by = g["family"].iloc[0], g["name"].iloc[0], g["by"].iloc[0]
    there = table[(table["family"] == family) & (table[by] == name) & ~table["source_id"].isin(list(placed))]
    if there.empty:
        return 0.0
    t, reach = g["t_mid_a"].to_numpy(), clk.MAX_OFFSET_S * 1000
    near = there[(there["t_mid"] >= t.min() - reach) & (there["t_mid"] <= t.max() + reach)]
    if near.empty:
        return 0.0
    spans = near.groupby("source_id")["t_mid"].agg(lambda x: x.max() - x.min())
    return float(spans.max()) / 1000.0


def _agreed(spans: list, known: dict, shift: dict) -> list[clk.PairEstimate]:
    if not spans:
        return []
    support = [sum(1 for o in spans if o[0] <= s[1] and o[1] >= s[0]) for s in spans]
    best = max(support)
    seeds = sorted((i for i, n in enumerate(support) if n == best), key=lambda i: spans[i][1] - spans[i][0])
    seed = spans[seeds[0]]
    if any(spans[i][0] > seed[1] or spans[i][1] < seed[0] for i in seeds[1:]):
        return []  # names that disagree as strongly: the records cannot choose
    lo, hi, used = seed[0], seed[1], [seed[2]]
    for s_lo, s_hi, g in spans:
        if g is not seed[2] and s_lo <= hi and s_hi >= lo:
            lo, hi = max(lo, s_lo), min(hi, s_hi)
            used.append(g)
    g = pd.concat(used)
    out = []
    pairs = g.groupby(["source_id_a", "source_id_b"])
    # one conclusion, stated once: the range is what all the names together allow, and
    # each pair estimate of it would otherwise weigh as an independent measurement
    sigma = max((hi - lo) / 2, clk.RECORD_LEAN_S) * np.sqrt(pairs.ngroups)
    for (a, b), m in pairs:
        a, b = int(a), int(b)
        centre = known[b] - shift[a] - (lo + hi) / 2
        anchors = [(int(r.id_a), int(r.id_b), round(float(r.d) - centre, 3)) for r in m.itertuples()]
        out.append(clk.PairEstimate(a, b, centre, sigma, anchors, False, float(np.median(m["t_mid_a"])), via=VIA))
    return out


def _with_door_sides(anchored: pd.DataFrame, events: pd.DataFrame | None) -> pd.DataFrame:
    side = pd.Series([None] * len(anchored), index=anchored.index, dtype=object)
    entry = (anchored["family"] == "entry").to_numpy()
    if events is not None and entry.any():
        ev = events.set_index("id")
        ids = anchored.loc[entry, "id"]
        place = ids.map(ev["place"]) if "place" in ev else pd.Series(None, index=ids.index)
        text = ids.map(ev["text"]) if "text" in ev else pd.Series(None, index=ids.index)
        side[entry] = [door_side(p, t) for p, t in zip(place, text)]
    return anchored.assign(door_side=side)


def _named(mine: pd.DataFrame, theirs: pd.DataFrame) -> pd.DataFrame:
    """Every match of a record of the unknown clock with a record of a known one naming the
    same moment: the same unit's status of the same agency, the same caller's call, the
    same door (by name, or by its side). `d`: their written difference, s."""
    if mine.empty or theirs.empty:
        return pd.DataFrame()
    cols = ["id", "source_id", "t_mid", "width", "rank", "family", "agency"]
    parts = []
    for key in ("who", "place", "door_side"):
        a, b = mine.dropna(subset=[key]), theirs.dropna(subset=[key])
        if key != "who":
            a, b = a[a["family"] == "entry"], b[b["family"] == "entry"]
        if a.empty or b.empty:
            continue
        m = a[cols + [key]].merge(b[cols + [key]], on=["family", key], suffixes=("_a", "_b"))
        m = m[~m["family"].isin(clk.UNIT_FAMILIES) | (m["agency_a"] == m["agency_b"])]
        parts.append(m.rename(columns={key: "name"}).assign(by=key)[
            ["id_a", "id_b", "source_id_a", "source_id_b", "t_mid_a", "t_mid_b", "width_a", "width_b",
             "rank_a", "rank_b", "family", "name", "by"]])
    if not parts:
        return pd.DataFrame()
    m = pd.concat(parts, ignore_index=True).drop_duplicates(["id_a", "id_b"])
    m = m.assign(d=(m["t_mid_b"] - m["t_mid_a"]) / 1000.0)
    return m[m["d"].abs() <= clk.MAX_OFFSET_S]


def _span(g: pd.DataFrame) -> tuple[float, float] | None:
    """The clock difference (delta = offset b - offset a) one name's candidates allow,
    or None where the name names nothing in particular."""
    if g["id_a"].nunique() > MAX_CANDIDATES or g["id_b"].nunique() > MAX_CANDIDATES:
        return None
    if g["id_a"].nunique() > 1 and g["id_b"].nunique() > 1:
        return None  # several on both sides: which with which is not said
    bounds = [_one_match(r) for r in g.itertuples()]
    lo, hi = min(c - s for c, s in bounds), max(c + s for c, s in bounds)
    return (lo, hi) if hi - lo <= 2 * LOOSEST_S else None


def _one_match(r) -> tuple[float, float]:
    """The clock difference one match says, and how unsure (as clocks.py's rules for one
    match of these kinds): two records made as it happens agree within SAME_TOLERANCE_S
    (an entry said at the door: twice that); a report trails its moment by up to
    REPORT_WINDOW_S per step of rank, never leads it; two reports each trail their own way."""
    width = max(r.width_a, r.width_b) / 2000.0
    if r.rank_a == r.rank_b:
        same = clk.SAME_TOLERANCE_S * (2 if r.family == "entry" else 1)
        spread = same if r.rank_a == 0 else clk.REPORT_WINDOW_S
        return r.d, spread + width
    gap = abs(r.rank_b - r.rank_a)
    late = clk.REPORT_WINDOW_S * gap
    # b later than a: d = delta + lag, 0 <= lag <= late (mirrored when a is the later)
    centre = r.d - late / 2 if r.rank_b > r.rank_a else r.d + late / 2
    return centre, late / 2 + width + clk.SAME_TOLERANCE_S * (r.family == "entry")
