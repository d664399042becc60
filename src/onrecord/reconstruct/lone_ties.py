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
from dataclasses import replace

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
# An entry at a door and an opening logged there are one moment when they lie this close
# (s) on a clock's offset: a radio "making entry" leads or trails the door by seconds, a
# camera's review is written to the second, a typed one to a report's lag.
DOOR_FIT_S = 2 * clk.SAME_TOLERANCE_S + clk.REPORT_WINDOW_S
DOORS_NEED = ("it would need its door events mapped as the openings they are (docs/mappings.md, door log); "
              "or pin it (onrecord pin-clock CASE FILE -- OFFSET --uncertainty S, docs/mappings.md)")
PLACED_MS = 2_000  # a record this narrow (ms) places its moment to the second
# A record typed by one agency of a moment another agency's record holds, naming no unit
# of its own that said it (a district's campus log "PD advises suspect in custody" against
# the sheriff's radio "suspect 10-15"), was told to its typist second-hand (a phone call,
# a liaison, a radio relayed on), by a delay nobody recorded: minutes, not the seconds a
# dispatcher takes to type what a unit says on the channel (REPORT_WINDOW_S per rank).
# Up to this long (s): wider than any name may leave a clock (LOOSEST_S), so one such match
# ties nothing. (Blind set 9: a campus log's one typed "suspect in custody", five minutes
# after the radio's, was tied at +271 ± 40 s for a clock truly at -38.5 s.)
RELAYED_LAG_S = 600.0
TYPED_RANK = 2  # moments.py: typed into a log from a report

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


def tie_alone(anchored: pd.DataFrame, clocks: dict, events: pd.DataFrame | None = None,
              refused: list | None = None) -> list[clk.PairEstimate]:
    """Pair estimates tying each component of unknown clocks to known clocks through the
    named moments they share. Every name says where the component's clock stands (a
    range); the range most names agree on ties it, and where names disagree as strongly
    (a door's one logged opening an hour off the entry a radio names), nothing does; nor
    does a tie the component's other doors contradict (_doors_against): it is put in
    `refused`, to be said (a build problem), never taken silently."""
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
        ties, chosen = _agreed(spans, known, shift)
        against = _doors_against(named, known, shift, chosen) if ties else None
        if against is not None:
            if refused is not None:
                refused.append({"sources": sorted(comp), "offset_s": chosen, **against})
            continue  # a tie the clock's other doors contradict is no tie
        out += ties
    return out


def _doors_against(named: pd.DataFrame, known: dict, shift: dict, chosen: tuple[float, float]) -> dict | None:
    """Where the component's doors say its clock may stand elsewhere as well: None, or how
    many records at known clocks the tie explains and how many entries at the component's
    doors an offset elsewhere explains as well or better. A door log whose one logged
    opening at a door is taken for the team's entry there (its later opening there mapped
    to another kind) is tied many minutes off; at the true offset its other doors' openings
    meet the entries known clocks record there as well. The name then leaves the clock two
    places the records cannot choose between: no tie (never picked silently). A record
    counts once, explained when some match says an offset within DOOR_FIT_S of the range."""
    if named.empty:
        return None
    x = named["source_id_b"].map(known) - named["d"] - named["source_id_a"].map(shift)  # the offset each match says
    ids = named["id_b"].to_numpy()
    # the doors weighed are those the component logs as they open, to the second (a door
    # log's openings); an entry typed to the minute fits anywhere within a minute of many
    door = ((named["by"] != "who") & (named["rank_a"] == 0) & (named["width_a"] <= PLACED_MS)).to_numpy()
    lo, hi = chosen

    def explained(a: float, b: float, only=None) -> int:
        near = ((x >= a - DOOR_FIT_S) & (x <= b + DOOR_FIT_S)).to_numpy()
        return len(set(ids[near & (only if only is not None else True)]))

    here = explained(lo, hi)
    apart = [v for v, d in zip(x, door) if d and not lo - DOOR_FIT_S <= v <= hi + DOOR_FIT_S]
    elsewhere = [(explained(v, v, door), v) for v in apart]
    if not elsewhere:
        return None
    best = max(n for n, _ in elsewhere)
    if best < here:
        return None
    at: list[float] = []  # every offset elsewhere as good, once each
    for n, v in sorted(elsewhere, key=lambda e: e[1]):
        if n == best and not (at and v - at[-1] <= DOOR_FIT_S):
            at.append(round(float(v), 1))
    return {"explained": here, "elsewhere": best, "elsewhere_s": at}


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


def _agreed(spans: list, known: dict, shift: dict) -> tuple[list[clk.PairEstimate], tuple[float, float]]:
    """The pair estimates of the range most names agree on, and that range (the
    component's offset, s)."""
    if not spans:
        return [], (0.0, 0.0)
    support = [sum(1 for o in spans if o[0] <= s[1] and o[1] >= s[0]) for s in spans]
    best = max(support)
    seeds = sorted((i for i, n in enumerate(support) if n == best), key=lambda i: spans[i][1] - spans[i][0])
    seed = spans[seeds[0]]
    if any(spans[i][0] > seed[1] or spans[i][1] < seed[0] for i in seeds[1:]):
        return [], (0.0, 0.0)  # names that disagree as strongly: the records cannot choose
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
    return out, (lo, hi)


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
    cols = ["id", "source_id", "t_mid", "width", "rank", "family", "agency", "own_unit"]
    mine, theirs = mine.assign(own_unit=mine["who"].map(is_unit)), theirs.assign(own_unit=theirs["who"].map(is_unit))
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
             "rank_a", "rank_b", "agency_a", "agency_b", "own_unit_a", "own_unit_b", "family", "name", "by"]])
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
    if _relayed(r):
        late = RELAYED_LAG_S
    # b later than a: d = delta + lag, 0 <= lag <= late (mirrored when a is the later)
    centre = r.d - late / 2 if r.rank_b > r.rank_a else r.d + late / 2
    return centre, late / 2 + width + clk.SAME_TOLERANCE_S * (r.family == "entry")


def _relayed(r) -> bool:
    """The later record was typed (rank 2) by another agency than the earlier one's, and
    names no unit of its own that said it: its typist was told (RELAYED_LAG_S)."""
    later_rank, later, earlier, own = ((r.rank_b, r.agency_b, r.agency_a, r.own_unit_b) if r.rank_b > r.rank_a
                                       else (r.rank_a, r.agency_a, r.agency_b, r.own_unit_a))
    # (an agency not said on one side: nothing says it was relayed)
    a, b = _agency_key(later), _agency_key(earlier)
    return later_rank >= TYPED_RANK and not own and a is not None and b is not None and a != b


def _agency_key(agency) -> str | None:
    return agency.strip().lower() if isinstance(agency, str) and agency.strip() else None


def is_unit(who) -> bool:
    """A moment's `who` is a unit (an entity id), not a call's number or a placeless moment's name."""
    # (numbers: entity ids, floats where a column of them holds a blank; the rest are text)
    return isinstance(who, (int, float, np.integer, np.floating)) and not isinstance(who, bool) and who == who


def refused_ties(refused: list[dict], names: dict, clocks: dict) -> list[str]:
    """The build's problems for the ties refused, once per component (the rounds retry
    them), for those clocks still tied to nothing; each such clock's note and needs (in
    `clocks`, replaced) say why it is unknown and what would tie it."""
    out, said = [], set()
    for r in refused:
        key = tuple(r["sources"])
        if key in said or any(getattr(clocks.get(s), "offset_s", None) is not None for s in key):
            continue
        said.add(key)
        for s in key:  # its clock says why it is unknown: not for want of a shared moment
            if clocks.get(s) is not None:
                clocks[s] = replace(clocks[s], note=clk.DOORS_DISAGREE, needs=DOORS_NEED)
        lo, hi = r["offset_s"]
        files = ", ".join(str(names.get(s, s)) for s in key)
        out.append(f"{files}: clock not tied through one named moment: it put the clock at {lo:+.1f} to {hi:+.1f} s, "
                   f"where {r['explained']} entr{'y' if r['explained'] == 1 else 'ies'} at its doors that tied clocks "
                   f"record find an opening of its own, but at {' or '.join(f'{v:+.1f}' for v in r['elsewhere_s'])} s "
                   f"{r['elsewhere']} do; "
                   "its door events may be mapped to the wrong kind (an opening mapped as alarm: docs/mappings.md, "
                   "door log), "
                   "or pin the clock (onrecord pin-clock)")
    return out
