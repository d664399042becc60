"""One clock: each source's clock error, estimated from the moments several sources record.

For every pair of sources that record the same moments (the same unit's arrival, the same
transferred call, the same burst of shots), the differences between their written times
pile up at the difference of their clock errors; wrong matches scatter. The densest pile
is taken (robust to wrong matches and outliers) and its median is the pair's estimate.
(Reports only bound a difference from above: their earliest is taken, and they weigh
less; records written to the minute only bound it, from both sides.) Pairs become a
graph; the clocks pinned by the user, or else the clocks declared reference (a GPS-timed
AVL, an NTP-timed sensor network: each held near zero as firmly as its declared
uncertainty says; clock_trust.py; never assumed from a source's kind), anchor it, and every source
connected to an anchor gets its offset by weighted least squares, with the uncertainty
that follows. A source connected to none keeps its offset unknown: its events get wide
intervals, never a silent zero.

Offsets are `written - true`, in seconds: a clock 20 s fast has offset +20.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from onrecord.reconstruct.clock_trust import contradicted_references
from onrecord.reconstruct.drift import best_slope, solve_rates
from onrecord.reconstruct.minute_bounds import minute_pair_estimate

MAX_OFFSET_S = 1800.0  # no clock is assumed more than 30 minutes wrong
# An unaligned clock: +/- 5 minutes, said out loud. Measured on the independent cases,
# that does not hold every campus clock (video recorders and door controllers set by hand
# run 2.5-15 minutes off); ±30 min (MAX_OFFSET_S) would, but the metrics read calls
# "after the first shots" against it and then name calls of the hour before: widened only
# with them (findings/metrics.py).
UNKNOWN_UNCERTAINTY_S = 300.0
SAME_TOLERANCE_S = 3.0  # two records of one moment made as it happens agree this closely
REPORT_WINDOW_S = 20.0  # a report follows its moment by at most this much
REPORT_MIN_LAG_S = 3.0  # ... and by at least about this much, unrecorded: the floor of its uncertainty
LAGGED_YIELD = 3.0  # how much less a bound from reports weighs than its spread alone says
MINUTE_S = 60.0
WIDE_RECORD_S = 30.0  # a record this wide (written to the minute) only bounds its moment
# A record "made as it happens" still trails its moment by up to about a second (a modem,
# an interface, a time stamped on receipt), and every record one system makes that way
# trails alike: no number of shared moments averages that away. No estimated clock is
# stated surer than this.
RECORD_LEAN_S = 0.5


@dataclass
class PairEstimate:
    a: int  # source ids; delta = offset_b - offset_a
    b: int
    delta_s: float
    sigma_s: float
    anchors: list[tuple[int, int, float]]  # (event a, event b, residual s)
    lagged: bool
    t_ref_ms: float = 0.0  # when delta_s holds (a's clock): the middle of the shared moments
    slope: float | None = None  # d(delta)/dt, where the shared moments span long enough to tell (drift.py)
    slope_sd: float = 0.0
    via: str = ""  # what the pair was matched through, where not its records one by one ("shots heard")


@dataclass
class ClockEstimate:
    source_id: int
    status: str  # reference, estimated, pinned, loose (LOOSE below), unknown
    offset_s: float | None
    uncertainty_s: float | None
    anchors: int = 0
    evidence: list[dict] = field(default_factory=list)
    note: str = ""
    # For a clock that cannot be tied to a trusted one: its offset relative to the other
    # clocks it shares moments with, enough to line their records up with each other.
    relative_s: float | None = None
    relative_unc_s: float | None = None
    # A clock that runs long can run fast or slow (drift.py): offset_s then holds at
    # drift_ref_ms (UTC ms) and changes by drift_ppm millionths of the time since.
    drift_ppm: float | None = None
    drift_sd_ppm: float | None = None
    drift_ref_ms: float | None = None
    # A clock declared reference that the records contradict (clock_trust.py): what its
    # declaration said, where the other clocks put it, and which of them say so.
    contradicted: dict | None = None
    # For a clock tied to nothing: what would tie it, in the mapping's words (untied.py).
    needs: str = ""
    # The offsets (s, low and high) the order of records leaves an unsure clock
    # (order_bounds.py): narrower than offset_s ± uncertainty_s on one side or both; every
    # event's interval on the clock is read with it (align.py).
    offset_range: tuple[float, float] | None = None

    def offset_at(self, t_ms):
        """The offset (s) at time(s) t_ms: the drift carried from drift_ref_ms."""
        if not self.drift_ppm or self.drift_ref_ms is None:
            return self.offset_s
        return self.offset_s + self.drift_ppm * 1e-6 * (t_ms - self.drift_ref_ms) / 1000.0


def pair_estimates(anchored: pd.DataFrame) -> list[PairEstimate]:
    """`anchored`: events with a moment (columns: id, source_id, t_mid, width, family,
    who, lag). Returns one robust estimate per pair of sources sharing moments."""
    out = []
    by_source = {s: g for s, g in anchored.groupby("source_id")}
    ids = sorted(by_source)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            est = _estimate(by_source[a], by_source[b], a, b)
            if est is not None:
                out.append(est)
    return out


UNIT_FAMILIES = ("unit_dispatched", "unit_enroute", "unit_arrived", "unit_available", "patient_transported",
                 "patient_contact", "unit_position")


def _candidates(ga: pd.DataFrame, gb: pd.DataFrame) -> pd.DataFrame:
    # the same moment of the same unit / call: a join on (family, who), cheap at any size
    keyed = ga.dropna(subset=["who"]).merge(gb.dropna(subset=["who"]), on=["family", "who"], suffixes=("_a", "_b"))
    keyed = keyed.assign(who_a=keyed["who"], who_b=keyed["who"]).drop(columns="who")
    # a moment of the place as a whole (shots, a door) pairs with any record of its kind,
    # but not with a typed record, which can lag minutes and would pair with anything
    pa_, pb_ = ga[ga["who"].isna()], gb[gb["who"].isna()]
    loose = pd.concat([pa_.merge(gb[gb["rank"] < 2], on="family", suffixes=("_a", "_b")),
                       ga[ga["who"].notna() & (ga["rank"] < 2)].merge(pb_, on="family", suffixes=("_a", "_b"))])
    m = pd.concat([keyed, loose, _copied(ga, gb), _copied(gb, ga, swap=True)], ignore_index=True)
    if m.empty:
        return m.assign(d=pd.Series(dtype=float))
    # two agencies' systems each dispatching or logging one unit are two acts, not one
    m = m[~m["family"].isin(UNIT_FAMILIES) | (m["agency_a"] == m["agency_b"])]
    m = m.assign(d=(m["t_mid_b"] - m["t_mid_a"]) / 1000.0)
    return m[m["d"].abs() <= MAX_OFFSET_S]


# A CAD stamps an AVL fix that put a car on scene as it receives it: over the car's modem
# and through the CAD server, after the fix by up to about a second and a half.
COPY_LATENCY_S = (0.0, 1.5)


def _copied(gc: pd.DataFrame, gf: pd.DataFrame, swap: bool = False) -> pd.DataFrame:
    """CAD arrivals that are copies of AVL fixes (avl_copies.py, column `copy_of`) against
    the fixes of the same unit: the same moment, both made as it happens."""
    if "copy_of" not in gc or not gc["copy_of"].any():
        return gc.iloc[:0]
    copies = gc[gc["copy_of"].fillna(False).astype(bool) & (gc["family"] != "unit_position")]
    if copies.empty:
        return gc.iloc[:0]  # (mapped as unit_position, a copy already pairs with its fix)
    # the copy is stamped as CAD receives the fix, a moment after it: read at the fix's
    # time, the middle of that latency, and as unsure as all of it
    lo_s, hi_s = COPY_LATENCY_S
    copies = copies.assign(family="unit_position", rank=0, t_mid=copies["t_mid"] - (lo_s + hi_s) / 2 * 1000,
                           width=copies["width"] + (hi_s - lo_s) * 1000)
    fixes = fix_records(gf)
    left, right = (fixes, copies) if swap else (copies, fixes)
    m = left.merge(right, on=["family", "who"], suffixes=("_a", "_b"))
    return m.assign(who_a=m["who"], who_b=m["who"]).drop(columns="who")


def fix_records(g: pd.DataFrame) -> pd.DataFrame:
    """The AVL fixes a CAD copy can be a copy of, at the fix's own time: every fix of a car,
    or, where its geofence crossing is known (geofence.py), that fix alone (CAD copies
    the fix that put the car inside; its neighbours, a few seconds off, are not it)."""
    crossing = g["crossing"].eq(True) if "crossing" in g else pd.Series(False, index=g.index)
    fixes = g[((g["family"] == "unit_position") | crossing) & g["who"].notna()]
    if not crossing.any():
        return fixes
    on = crossing.loc[fixes.index]
    crossed = set(fixes.loc[on, "who"])
    fixes = fixes[on | ~fixes["who"].isin(crossed)]
    return fixes.assign(t_mid=fixes["t_fix"], width=fixes["w_fix"], family="unit_position", rank=0)


def _estimate(ga, gb, a, b) -> PairEstimate | None:
    # a year-long source meets an hour-long one only in that hour
    span = MAX_OFFSET_S * 1000
    ga = ga[(ga["t_mid"] >= gb["t_mid"].min() - span) & (ga["t_mid"] <= gb["t_mid"].max() + span)]
    gb = gb[(gb["t_mid"] >= ga["t_mid"].min() - span) & (gb["t_mid"] <= ga["t_mid"].max() + span)]
    if ga.empty or gb.empty:
        return None
    m = _candidates(ga, gb)
    if m.empty:
        return None
    order = np.sign(m["rank_b"].to_numpy() - m["rank_a"].to_numpy())
    # two reports of one moment of the same rank (a crew's terminal and its radio call)
    # each trail it their own way: their difference is no measure of the clocks as made-as-
    # it-happens records are; the same words logged by two recorders are one moment
    spoken = (m["spoken_a"].eq(True) & m["spoken_b"].eq(True)).to_numpy() if "spoken_a" in m \
        else np.zeros(len(m), dtype=bool)
    reports = (order == 0) & (m["rank_a"].to_numpy() >= 1) & ~spoken
    best = None
    # Records made as it happens on both sides first; then records in a known order;
    # then reports against reports.
    for rel, part, both_reports in ((0, m[(order == 0) & ~reports], False), (1, m[order == 1], False),
                                    (-1, m[order == -1], False), (0, m[reports], True)):
        if len(part):
            est = _densest(part, rel, a, b, reports=both_reports)
            lagged = rel != 0 or both_reports
            if est is not None and (best is None or len(est.anchors) > len(best.anchors) + 2 * lagged):
                best = est
        if best is not None and not best.lagged and len(best.anchors) >= 3:
            break
    if best is None:
        best = _same_place(m, order, a, b)
    return best


PLACED_VIA = "same door"  # how a pair matched through the doors both name is named (places.py)


def _same_place(m: pd.DataFrame, order: np.ndarray, a: int, b: int) -> PairEstimate | None:
    """Doors and camera entries that time alone cannot match (chance would line up as
    many): matched again among those at the door both records name (places.py). The
    candidates are then few, and the chance test is theirs."""
    if "place_a" not in m:
        return None
    placed = (m["place_a"].notna() & (m["place_a"] == m["place_b"])).to_numpy() & (order == 0) \
        & (m["rank_a"].to_numpy() == 0)
    if placed.sum() < 2:
        return None
    est = _densest(m[placed], 0, a, b)
    return replace(est, via=PLACED_VIA) if est is not None else None


def _densest(m: pd.DataFrame, rel: int, a: int, b: int, reports: bool = False) -> PairEstimate | None:
    """The window of differences holding the most distinct events on both sides.
    `reports`: both sides are reports of the same rank (each trails the moment by a lag of
    its own, up to REPORT_WINDOW_S): matched within that window, and as unsure."""
    # an entry said on the radio comes within a few seconds of the door opening, either side
    same = SAME_TOLERANCE_S * (2 if (m["family"] == "entry").all() else 1)
    if reports:
        same = REPORT_WINDOW_S
    # records written to the minute: their differences spread over the minute as well
    wide = float(np.maximum(m["width_a"], m["width_b"]).mean()) / 1000.0 >= WIDE_RECORD_S
    tol = same if rel == 0 else REPORT_WINDOW_S / 2 + (MINUTE_S / 2 if wide else 0.0)
    t_ref, drift = float(np.median(m["t_mid_a"].to_numpy())), None
    if rel == 0 and not reports:  # records made as it happens, over days: does one clock run faster?
        t = (m["t_mid_a"].to_numpy() - t_ref) / 1000.0
        drift = best_slope(t, m["d"].to_numpy(), same)
        if drift is not None and drift[2]:
            m = m.assign(d=m["d"] - drift[0] * t)  # lined up on the slope, read at t_ref
    # rel = 1: b is made after a, so d = delta + lag with lag >= 0 (and mirrored for -1)
    d = m["d"].to_numpy() * (rel or 1)
    order = np.argsort(d)
    ds, ida, idb = d[order], m["id_a"].to_numpy()[order], m["id_b"].to_numpy()[order]
    right = np.searchsorted(ds, ds + 2 * tol, side="right")
    counts = _distinct_in(ds, right, ida, idb)
    # Most events (among equals, the smaller clock difference: clocks are seldom far off);
    # but for records made as it happens, of two piles as full, the tighter (with a
    # fix every ten seconds, CAD's copies line up within a second at the right difference
    # and every neighbouring fix piles up too, but spread over the seconds between fixes:
    # jointly, over all shared moments, the right difference is the one that lines them
    # all up closely; reports trail their moments by lags that vary, so how closely they
    # line up says nothing).
    tight = _distinct_in(ds, np.searchsorted(ds, ds + 2 * tol / 3, side="right"), ida, idb) if rel == 0 \
        else np.zeros(len(ds), dtype=int)
    start = int(np.lexsort((np.abs(ds + tol), -counts))[0])
    best = counts[start]
    here = int(tight[start:right[start]].max())  # how closely this pile lines up, at best
    other = (np.abs(ds - ds[start]) > 2 * tol) & (counts >= best) & (tight > here)
    if other.any():  # another pile, as full and closer lined up: that one (within a pile, as before)
        start = int(np.flatnonzero(other)[np.lexsort((np.abs(ds[other] + tol), -tight[other]))[0]])
        here = int(tight[start:right[start]].max())
    far = np.abs(ds - ds[start]) > 2 * tol
    placeless = m["who_a"].isna().any() or m["who_b"].isna().any()
    if placeless and far.any() and counts[far].max() >= best:
        return None  # matched by time alone, and another difference fits as well: ambiguous
    if placeless and by_chance(len(m), 2 * tol, best) > CHANCE:
        return None  # matched by time alone, and so many records that some difference lines up as many anyway
    # another difference, far off, that lines up as many as closely: the records cannot
    # choose between them; the estimate stands, as unsure as the distance between them
    rival = far & (counts >= best) & (tight >= here) & (rel == 0)
    ambiguity = float(np.abs(ds[rival] - ds[start]).max()) / 2 if rival.any() else 0.0
    # words matched by their text alone ("copy", "10-4, en route") repeat: one is a coincidence
    worded = bool((m["family"] == "transmission").all())
    if best < 2 and (rel != 0 or placeless or worded):
        return None  # one coincidence is not evidence
    inliers = m.iloc[order[start:right[start]]]
    inliers = inliers.assign(e=inliers["d"] * (rel or 1)).sort_values("e")
    inliers = inliers.drop_duplicates("id_a").drop_duplicates("id_b")
    vals = inliers["e"].to_numpy()
    if reports:
        # each report's lag anywhere in the window, independently: a difference of two
        # such lags spreads over twice the window; n of them narrow it by sqrt(n)
        centre = float(np.median(vals))
        spread = float(np.median(np.abs(vals - centre))) * 1.4826 if len(vals) > 2 else 0.0
        sigma = max(spread, 2 * REPORT_WINDOW_S / np.sqrt(12)) / np.sqrt(len(vals))
    elif rel == 0:
        centre = float(np.median(vals))
        widths = (inliers["width_a"].to_numpy() + inliers["width_b"].to_numpy()) / 2000.0
        if len(vals) > 2:
            spread = float(np.median(np.abs(vals - centre))) * 1.4826
            sigma = max(spread, float(widths.mean()) / np.sqrt(3)) / np.sqrt(len(vals))
        else:
            # too few to measure their scatter, or whether they lean one way ("going in" is
            # often said a step before the door opens): as unsure as the window allows
            sigma = max(same / np.sqrt(3) / (np.sqrt(len(vals)) if same <= SAME_TOLERANCE_S else 1.0),
                        float(widths.mean()) / np.sqrt(3))
    elif wide:
        centre, sigma = _bounded(inliers, rel)
    else:
        # the earliest consistent difference bounds the clock difference; the lags
        # make the rest later, so the spread of what is left is the uncertainty
        centre = float(vals[0])
        # even the earliest report trails its moment by a few seconds nobody recorded; and
        # of a few reports the earliest may still trail it by much of the window (the least
        # of n lags anywhere in it lies about window/(n+1) in)
        # (a status typed from a spoken report trails the moment by both lags: a window each)
        gap = int(np.abs(inliers["rank_b"].to_numpy() - inliers["rank_a"].to_numpy()).max())
        sigma = max(float(np.median(vals) - vals[0]) / 2.0, REPORT_MIN_LAG_S,
                    REPORT_WINDOW_S * max(gap, 1) / (len(vals) + 1))
    sigma = max(sigma, 0.1, ambiguity)
    centre *= rel or 1
    anchors = [(int(r.id_a), int(r.id_b), round(float(r.d) - centre, 3)) for r in inliers.itertuples()]
    if drift is None or not drift[2]:
        t_ref = float(np.median(inliers["t_mid_a"].to_numpy()))  # the middle of what it rests on
    return PairEstimate(a, b, centre, sigma, anchors, rel != 0 or reports, t_ref,
                        drift[0] if drift else None, drift[1] if drift else 0.0)


# Records matched by time alone (a door log's days of badge use against a camera's few
# "officers enter"): of n_a x n_b candidate differences spread over the +-MAX_OFFSET_S
# searched, some window lines up a few by chance. A pile is kept only if chance would
# give one as full somewhere in the search less often than this.
CHANCE = 0.2


def by_chance(candidates: int, window_s: float, count: int) -> float:
    """How many windows of `window_s`, over the whole search, would hold `count` or more
    of `candidates` differences spread evenly at random (a Poisson tail, summed)."""
    windows = 2 * MAX_OFFSET_S / window_s
    lam = candidates / windows
    term, below = np.exp(-lam), 0.0
    for k in range(count):
        below += term
        term *= lam / (k + 1)
    return windows * max(1.0 - below, 0.0)


def _distinct_in(ds: np.ndarray, right: np.ndarray, ida: np.ndarray, idb: np.ndarray) -> np.ndarray:
    """For each window [i, right[i]): how many distinct events of the scarcer side it holds."""
    return np.array([min(len(set(ida[i:right[i]])), len(set(idb[i:right[i]]))) for i in range(len(ds))])


def _bounded(inliers: pd.DataFrame, rel: int) -> tuple[float, float]:
    """Records written to the minute against reports of them: each pair only bounds the
    clock difference (the moment somewhere in its written minute, the report after it by
    at most REPORT_WINDOW_S); minute_bounds.py weighs every pair's bounds exactly and
    reads how soon the reports came off the pairs themselves."""
    later, earlier = ("b", "a") if rel > 0 else ("a", "b")
    d = (inliers[f"t_mid_{later}"].to_numpy() - inliers[f"t_mid_{earlier}"].to_numpy()) / 1000.0
    centre, sd, _ = minute_pair_estimate(d, inliers[f"width_{earlier}"].to_numpy() / 2000.0,
                                         inliers[f"width_{later}"].to_numpy() / 2000.0, REPORT_WINDOW_S)
    # even the earliest report trails its moment by a few seconds nobody recorded, and the
    # model (any second of the minute alike, any lag up to the window) is itself a model
    return centre, max(sd, REPORT_MIN_LAG_S)


def solve(sources: pd.DataFrame, pairs: list[PairEstimate], pinned: dict[int, tuple[float, float]],
          trusted: dict[int, float] | None = None) -> dict[int, ClockEstimate]:
    """Weighted least squares over the graph of pair estimates, anchored by the pinned
    clocks, or else by the `trusted` ones ({source: ± s}, declared reference). A reference
    the other clocks contradict is not held (clock_trust.py): solved again without it, it
    is estimated like any other clock and says so."""
    trusted = dict(trusted or {})
    clocks, _ = _solve_trusting(sources, pairs, pinned, trusted)
    if pinned or len(trusted) < 2:
        return clocks

    wrong = contradicted_references(trusted, lambda held: _solve_trusting(sources, pairs, pinned, held))
    if not wrong:
        return clocks
    clocks, _ = _solve_trusting(sources, pairs, pinned, {s: u for s, u in trusted.items() if s not in wrong})
    for s, said in wrong.items():
        c = clocks.get(s)
        if c is not None:
            c.contradicted = said
            c.note = (f"declared reference (within ±{said['declared_s']:g} s), but the clocks of sources "
                      f"{', '.join(map(str, said['by']))} put it at {said['offset_s']:+.1f} s: estimated instead")
    return clocks


def _solve_trusting(sources: pd.DataFrame, pairs: list[PairEstimate], pinned: dict[int, tuple[float, float]],
                    trusted: dict[int, float]) -> tuple[dict[int, ClockEstimate], list[PairEstimate]]:
    """The best-supported pairs form a backbone; a pair the backbone contradicts (a wrong
    match that slipped through) is dropped, and so is any pair the final fit still
    contradicts, worst first. Returns the clocks and the pairs they rest on."""
    rates = solve_rates(pairs, set(trusted) | set(pinned))
    ref_ms = float(np.median([p.t_ref_ms for p in pairs if p.slope is not None])) if rates else None
    if rates:  # every pair's difference read at one moment, the drifts carried to it
        pairs = [_carried(p, rates, ref_ms) for p in pairs]
    pairs = _consistent_with_backbone(pairs)
    while True:
        clocks = _solve_all(sources, pairs, pinned, trusted)
        worst = _worst_pair(pairs, clocks)
        if worst is None:
            break
        pairs.remove(worst)
    for s, (rate, sd) in rates.items():
        c = clocks.get(s)
        if c is not None and c.status == "estimated":
            c.drift_ppm, c.drift_sd_ppm, c.drift_ref_ms = round(rate * 1e6, 3), round(sd * 1e6, 3), ref_ms
    return clocks, pairs


def _carried(p: PairEstimate, rates: dict[int, tuple[float, float]], ref_ms: float) -> PairEstimate:
    rel = rates.get(p.b, (0.0, 0.0))[0] - rates.get(p.a, (0.0, 0.0))[0]
    return replace(p, delta_s=p.delta_s + rel * (ref_ms - p.t_ref_ms) / 1000.0, t_ref_ms=ref_ms)


def _quality(p: PairEstimate) -> float:
    return len(p.anchors) * (1.0 if p.lagged else 2.0)


def _consistent_with_backbone(pairs: list[PairEstimate]) -> list[PairEstimate]:
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    backbone, rest = [], []
    for p in sorted(pairs, key=_quality, reverse=True):
        ra, rb = root(p.a), root(p.b)
        if ra != rb:
            parent[ra] = rb
            backbone.append(p)
        else:
            rest.append(p)
    offsets = _tree_offsets(backbone)
    kept = list(backbone)
    for p in rest:
        implied = offsets[p.b][0] - offsets[p.a][0]
        sigma = np.sqrt(p.sigma_s ** 2 + offsets[p.b][1] + offsets[p.a][1])
        if abs(p.delta_s - implied) <= max(3 * sigma, 5.0):
            kept.append(p)
    return kept


def _tree_offsets(tree: list[PairEstimate]) -> dict[int, tuple[float, float]]:
    """Offsets (and variances) along a spanning forest, each tree from its first node."""
    adj: dict[int, list[PairEstimate]] = {}
    for p in tree:
        adj.setdefault(p.a, []).append(p)
        adj.setdefault(p.b, []).append(p)
    out: dict[int, tuple[float, float]] = {}
    for start in adj:
        if start in out:
            continue
        out[start] = (0.0, 0.0)
        todo = [start]
        while todo:
            s = todo.pop()
            for p in adj[s]:
                other, sign = (p.b, 1.0) if p.a == s else (p.a, -1.0)
                if other not in out:
                    out[other] = (out[s][0] + sign * p.delta_s, out[s][1] + p.sigma_s ** 2)
                    todo.append(other)
    return out


def _worst_pair(pairs, clocks) -> PairEstimate | None:
    worst, score = None, 1.0
    for p in pairs:
        ca, cb = clocks.get(p.a), clocks.get(p.b)
        if ca is None or cb is None or ca.offset_s is None or cb.offset_s is None:
            continue
        miss = abs(p.delta_s - (cb.offset_s - ca.offset_s))
        bound = max(3 * p.sigma_s, 5.0)
        if miss / bound > score:
            worst, score = p, miss / bound
    return worst


def _solve_all(sources: pd.DataFrame, pairs, pinned, trusted) -> dict[int, ClockEstimate]:
    out: dict[int, ClockEstimate] = {}
    timed = [int(s) for s in sources["id"]]
    adj: dict[int, list[PairEstimate]] = {s: [] for s in timed}
    for p in pairs:
        adj.setdefault(p.a, []).append(p)
        adj.setdefault(p.b, []).append(p)
    seen: set[int] = set()
    for s in timed:
        if s in seen:
            continue
        comp = _component(s, adj)
        seen |= comp
        out.update(_solve_component(comp, [p for p in pairs if p.a in comp], trusted, pinned))
    return out


def _component(start: int, adj) -> set[int]:
    comp, todo = set(), [start]
    while todo:
        s = todo.pop()
        if s in comp:
            continue
        comp.add(s)
        todo += [p.b if p.a == s else p.a for p in adj.get(s, [])]
    return comp


def _solve_component(comp: set[int], pairs, trusted: dict[int, float], pinned) -> dict[int, ClockEstimate]:
    fixed = {s: pinned[s] for s in comp if s in pinned}
    # Without a pin, every reference clock is held near zero, each as firmly as declared
    # (a GPS-timed AVL to a tenth of a second, a networked sensor system to a second or so):
    # the records then weigh one reference against another instead of taking one as
    # exact and passing its own error on to every other clock.
    priors = {} if fixed else {s: trusted[s] for s in comp if s in trusted}
    if not fixed and not priors:
        return _unanchored(comp, pairs)
    free = sorted(comp - set(fixed))
    col = {s: i for i, s in enumerate(free)}
    rows, rhs, w = [], [], []
    for p in pairs:
        row = np.zeros(len(free))
        value = p.delta_s
        for s, sign in ((p.b, 1.0), (p.a, -1.0)):
            if s in fixed:
                value -= sign * fixed[s][0]
            else:
                row[col[s]] += sign
        rows.append(row)
        rhs.append(value)
        # one pin: its uncertainty is common to all, added at the end; several pinned
        # clocks: each one's uncertainty weighs on the pairs that touch it
        pinned_var = sum(fixed.get(s, (0, 0))[1] ** 2 for s in (p.a, p.b)) if len(fixed) > 1 else 0.0
        # a pair of reports only bounds the difference (reports come late, never early):
        # it yields to any pair that measures the same difference
        yield_ = LAGGED_YIELD if p.lagged else 1.0
        w.append(1.0 / ((p.sigma_s * yield_) ** 2 + pinned_var))
    for s, unc in priors.items():
        row = np.zeros(len(free))
        row[col[s]] = 1.0
        rows.append(row)
        rhs.append(0.0)
        # "within about ±x", anywhere in it alike: a standard deviation of x/sqrt(3)
        w.append(3.0 / max(unc, 0.01) ** 2)
    out = {s: ClockEstimate(s, "pinned", fixed[s][0], fixed[s][1], _anchor_count(s, pairs), _evidence(s, pairs),
                            "pinned by the user") for s in fixed}
    if free:
        A, y, W = np.array(rows), np.array(rhs), np.diag(w)
        cov = np.linalg.pinv(A.T @ W @ A)
        x = cov @ A.T @ W @ y
        # every estimate is relative to a single pin, so its own uncertainty adds in
        ref_var = max(u for _, u in fixed.values()) ** 2 if len(fixed) == 1 else 0.0
        for s in free:
            i = col[s]
            unc = round(float(np.sqrt(max(cov[i, i], 0) + ref_var)), 3)
            if s in priors:
                out[s] = ClockEstimate(s, "reference", round(float(x[i]), 3), unc, _anchor_count(s, pairs),
                                       _evidence(s, pairs), f"declared reference (within about ±{priors[s]:g} s), "
                                       "weighed against the other trusted clocks")
                continue
            unc = max(unc, RECORD_LEAN_S)
            out[s] = ClockEstimate(s, "estimated", round(float(x[i]), 3), unc,
                                   _anchor_count(s, pairs), _evidence(s, pairs),
                                   "from shared moments" + (" (reports only: wider)" if _only_lagged(s, pairs) else ""),
                                   relative_unc_s=unc)
    return out


# A clock whose offset the records only bound: estimated, but within a ± wider than an
# unknown clock's (a tie through reports of shots minutes apart: ±861 s), or bounded on both
# sides by the order of records alone (order_bounds.py). Said so, not "estimated": its
# events are as unsure as an unknown clock's, or more (docs/metrics.md, "Clocks").
LOOSE = "loose"
LOOSE_NOTE = "offset only bounded: its ± is wider than an unknown clock's ±{:g} s"


def loosened(clocks: dict[int, ClockEstimate]) -> dict[int, ClockEstimate]:
    """The clocks, each estimated one whose ± is wider than an unknown clock's (±300 s)
    said to be what it is: loose."""
    out = {}
    for s, c in clocks.items():
        if c is not None and c.status == "estimated" and (c.uncertainty_s or 0.0) > UNKNOWN_UNCERTAINTY_S:
            said = LOOSE_NOTE.format(UNKNOWN_UNCERTAINTY_S)
            c = replace(c, status=LOOSE, note=said + (f"; {c.note}" if c.note else ""))
        out[s] = c
    return out


# Why a clock's offset is unknown (its `note`; findings/clock_offsets.py words the finding from it).
NO_SHARED_MOMENT = "offset unknown: it shares no recorded moment with another source"
DOORS_DISAGREE = ("offset unknown: the doors it shares with tied sources put it at several offsets alike "
                  "(a tie through one named moment, refused)")
NO_TRUSTED_CLOCK = ("offset unknown: none of the sources it shares moments with has a clock declared "
                    "reference or pinned; lined up with them only")


def _unanchored(comp: set[int], pairs) -> dict[int, ClockEstimate]:
    if not pairs:
        return {s: ClockEstimate(s, "unknown", None, None, 0, [], NO_SHARED_MOMENT) for s in comp}
    root = max(comp, key=lambda s: _anchor_count(s, pairs))
    # lined up on the best-connected clock, only to say how the others stand to it
    local = _solve_component(comp, pairs, {root: 0.1}, {})
    return {s: ClockEstimate(s, "unknown", None, None, c.anchors, c.evidence, NO_TRUSTED_CLOCK, relative_s=c.offset_s,
                             relative_unc_s=c.uncertainty_s) for s, c in local.items()}


def _anchor_count(s: int, pairs) -> int:
    return sum(len(p.anchors) for p in pairs if s in (p.a, p.b))


def _only_lagged(s: int, pairs) -> bool:
    mine = [p for p in pairs if s in (p.a, p.b)]
    return bool(mine) and all(p.lagged for p in mine)


def _evidence(s: int, pairs) -> list[dict]:
    out = []
    for p in pairs:
        if s not in (p.a, p.b):
            continue
        other = p.b if p.a == s else p.a
        out.append({"other_source": other, "difference_s": round(p.delta_s if p.a == s else -p.delta_s, 3),
                    "sigma_s": round(p.sigma_s, 3), "reports_only": p.lagged, "via": p.via,
                    "anchors": [{"event": ea if p.a == s else eb, "other_event": eb if p.a == s else ea,
                                 "residual_s": r} for ea, eb, r in p.anchors]})
    return out


def pinned_conflicts(pairs, pinned: dict[int, tuple[float, float]], names: dict[int, str]) -> list[str]:
    """Pinned offsets the records contradict: two pinned clocks whose shared moments say otherwise."""
    out = []
    for p in pairs:
        if p.a in pinned and p.b in pinned:
            implied = pinned[p.b][0] - pinned[p.a][0]
            if abs(implied - p.delta_s) > 3 * p.sigma_s + 2.0:
                out.append(f"pinned offsets of {names[p.a]} and {names[p.b]} differ by {implied:.1f} s, "
                           f"but their {len(p.anchors)} shared moments say {p.delta_s:.1f} s (±{p.sigma_s:.1f})")
    return out
