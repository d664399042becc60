"""Clocks tied to nothing else, tied through moments reported a little after they happen.

A campus's gunshot detectors, door controllers and video recorder share moments with one
another (a burst heard by a sensor and seen on camera) but often with no other agency's
system: no unit, call or transmission of theirs is in another export. What they do share
is the shots themselves. An officer who hears a burst keys up within seconds ("10-71",
"more shots, sounds like upstairs"); which burst is not said, and bursts come seconds to
a minute apart, so no single report can be matched. Jointly they can: at the right clock
difference every report on every radio whose clock is known follows some burst by no
more than a report's lag; at a wrong one, some report does not. Where one difference
lines up clearly more reports than any other, those matches are the shared moments, and
clocks.py estimates each pair of sources from them as from any other reports (one-sided:
the earliest difference, as unsure as the lags allow). Where another difference lines
up as many, the records cannot choose, and nothing is tied.

A component of clocks lined up only with each other (clocks.py: `relative_s`) is moved as
one: its sensors' bursts and its own radio's reports count together. Tying one component
can let another be tied (the campus radio, through the bursts of the campus sensors once
those are placed), so it runs in rounds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct import clocks as clk

# report family -> the family of the moment it trails, recorded as it happens
TRAILS = {"shots_heard": "shots"}
KNOWN = ("reference", "estimated", "pinned")
VIA = "shots heard"  # how such a pair is named where a clock says what it was read against
# A report follows its burst within this many seconds (keying up, a sentence in).
HEARD_WINDOW_S = 12.0
# Lined up at one difference: at least this many reports, and more than at any other
# difference. Bursts often come a regular few seconds apart, so another difference can
# line up all but one of them; where those would be enough for a tie of their own, the
# tie stands as unsure as the distance between the two (the stated ± holds either); as
# many at another difference: no tie.
MIN_REPORTS = 3


def tie_components(anchored: pd.DataFrame, clocks: dict) -> list[clk.PairEstimate]:
    """Pair estimates that tie clocks of unknown offset to known ones through reported
    moments (TRAILS), each component of unknown clocks judged jointly. Empty when none can."""
    if anchored.empty or not anchored["family"].isin(list(TRAILS) + list(TRAILS.values())).any():
        return []
    known = {s: c.offset_s for s, c in clocks.items() if c.status in KNOWN and c.offset_s is not None}
    out = []
    for comp in _unknown_components(clocks):
        shift = {s: (clocks[s].relative_s or 0.0) for s in comp}
        pairs = _tie(anchored, comp, shift, known)
        out += pairs
    return out


def _unknown_components(clocks: dict) -> list[set[int]]:
    """Clocks of unknown offset, grouped by the moments they share with each other."""
    unknown = {s for s, c in clocks.items() if c.status == "unknown"}
    parent = {s: s for s in unknown}

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for s in unknown:
        for e in clocks[s].evidence:
            o = e["other_source"]
            if o in unknown:
                parent[root(s)] = root(o)
    groups: dict[int, set[int]] = {}
    for s in unknown:
        groups.setdefault(root(s), set()).add(s)
    return list(groups.values())


def _tie(anchored: pd.DataFrame, comp: set[int], shift: dict, known: dict) -> list[clk.PairEstimate]:
    """The best tie of one component (its detections against known reports, or its reports
    against known detections), as pair estimates per pair of real sources."""
    mine = anchored[anchored["source_id"].isin(list(comp))]
    theirs = anchored[anchored["source_id"].isin(list(known))]
    best = None
    for report, moment in TRAILS.items():
        for det, rep, moved in ((mine, theirs, "a"), (theirs, mine, "b")):
            m = _candidates(det[det["family"] == moment], rep[rep["family"] == report], shift, known, moved)
            found = _pile(m)
            if found is not None and (best is None or found[1] > best[1]):
                best = found
    if best is None:
        return []
    return _pair_estimates(best[0], best[2])


def _candidates(det: pd.DataFrame, rep: pd.DataFrame, shift: dict, known: dict, moved: str) -> pd.DataFrame:
    """Every detection against every report, with `e`: the report's time less the
    detection's, both on the common clock but for the component's one unknown shift
    (e = lag - shift where the component holds the detections, lag + shift where it holds
    the reports; either way one pile of lags, one sign, per component)."""
    if det.empty or rep.empty:
        return pd.DataFrame()
    cols = ["id", "source_id", "t_mid", "width", "rank"]
    m = det[cols].merge(rep[cols], how="cross", suffixes=("_a", "_b"))
    off = {**known, **shift}
    ta = m["t_mid_a"] - m["source_id_a"].map(off).astype(float) * 1000
    tb = m["t_mid_b"] - m["source_id_b"].map(off).astype(float) * 1000
    m = m.assign(e=(tb - ta) / 1000.0, d=(m["t_mid_b"] - m["t_mid_a"]) / 1000.0)
    return m[m["e"].abs() <= clk.MAX_OFFSET_S]


def _pile(m: pd.DataFrame) -> tuple[pd.DataFrame, int, float] | None:
    """The window of HEARD_WINDOW_S holding the most distinct reports, if it holds more
    than any window not overlapping it: (its matches, how many reports, how far off the
    farthest window holding all but one of them lies, s)."""
    if m.empty:
        return None
    m = m.sort_values("e")
    e, rep = m["e"].to_numpy(), m["id_b"].to_numpy()
    right = np.searchsorted(e, e + HEARD_WINDOW_S, side="right")
    counts = np.array([len(set(rep[i:right[i]])) for i in range(len(e))])
    best = int(counts.max())
    # of the windows holding them all, the one starting latest: it starts at the least lag
    start = int(np.flatnonzero(counts == best)[-1])
    far = np.abs(e - e[start]) > HEARD_WINDOW_S
    rival = int(counts[far].max()) if far.any() else 0
    if best < MIN_REPORTS or rival >= best:
        return None
    close = far & (counts >= best - 1) & (counts >= MIN_REPORTS)
    ambiguity = float(np.abs(e[close] - e[start]).max()) if close.any() else 0.0
    inliers = m.iloc[start:right[start]]
    # each report stands for the burst just before it: the least lag in the window
    inliers = inliers.drop_duplicates("id_b")
    return inliers, best, ambiguity


def _pair_estimates(inliers: pd.DataFrame, ambiguity: float = 0.0) -> list[clk.PairEstimate]:
    """One estimate per pair of real sources from its matches: the earliest difference
    (a report never comes before its burst), as unsure as so few one-sided lags leave it,
    and no surer than `ambiguity` (s) allows."""
    out = []
    for (a, b), g in inliers.groupby(["source_id_a", "source_id_b"]):
        d = np.sort(g["d"].to_numpy())
        n = len(d)
        sigma = max(float(np.median(d) - d[0]) / 2.0, clk.REPORT_MIN_LAG_S, HEARD_WINDOW_S / (n + 1), ambiguity)
        t_ref = float(np.median(g["t_mid_a"].to_numpy()))
        anchors = [(int(r.id_a), int(r.id_b), round(float(r.d) - float(d[0]), 3)) for r in g.itertuples()]
        out.append(clk.PairEstimate(int(a), int(b), float(d[0]), sigma, anchors, True, t_ref, via=VIA))
    return out
