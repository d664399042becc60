"""A clock written to the minute, against spoken reports of the same moments.

A medic's patient record says "1404": the moment was somewhere in 14:04, and nothing in
the record says where. The crew's radio "receiving one patient" came after it, by a lag
nobody recorded. So each pair (minute record, report) says only this much about the
difference of the two clocks, `e`:

    d = e + lag + u        d: the report's time minus the middle of the written minute
                           u: where in its minute the moment fell (any second alike)
                           lag: how long after the moment the report came, 0 .. L

Any one pair leaves `e` anywhere in a stretch about a minute wide; many pairs narrow it,
because their moments fall at different seconds of their minutes. The midpoint of where
the pairs' bounds overlap is not a good estimate: it leans on the longest lag the model
allows (REPORT_WINDOW_S), and when the reports in fact come sooner it is off by about
half the difference, however many pairs there are.

So the longest lag of *this* source's reports, L, is not assumed but weighed: anything
from 0 to REPORT_WINDOW_S alike beforehand, and the pairs themselves say which is likely
(pairs whose report came late in the window need a long L; a short L explains pairs
near the minute's start better). The likelihood of each pair is then exact for that
model — flat where the moment can be anywhere in its minute with the lag inside 0..L,
ramping at the edges — and the estimate is the mean of `e` over all of it, with its
standard deviation as the uncertainty. Nothing here knows how soon any particular
source's reports really come; it is read off the pairs.
"""

from __future__ import annotations

import numpy as np

LAG_STEPS = 40  # the longest lag, weighed at this many values from 0 to the window
GRID_STEPS = 600  # the clock difference, weighed at this many values over its bounds
MIN_HALF_S = 0.005  # a time written to the second or finer: a width of (almost) nothing


def minute_pair_estimate(d: np.ndarray, half_a: np.ndarray, half_b: np.ndarray,
                         window_s: float) -> tuple[float, float, np.ndarray]:
    """`d` (s): each report's time minus the middle of the record it reports, on their own
    clocks; `half_a`, `half_b` (s): half the width of each side's written time (30 s for
    a minute). Returns the clock difference `e` (mean), its standard deviation, and which
    pairs were used: those whose bounds overlap the most others' (a wrong match that
    slipped through says nothing here)."""
    h = np.maximum(half_a, MIN_HALF_S) + 0.0
    k = np.maximum(half_b, MIN_HALF_S) + 0.0
    lo, hi = d - h - k - window_s, d + h + k  # e can lie only here, whatever L is
    used = _most_covering(lo, hi)
    d, h, k = d[used], h[used], k[used]
    x = np.linspace(lo[used].max(), hi[used].min(), GRID_STEPS)
    if x[-1] - x[0] < 1e-6:
        return float(x[0]), 0.0, used
    s = d[None, :] - x[:, None]  # lag + u, per candidate e (rows) and pair (columns)
    logs = []
    for L in (np.arange(LAG_STEPS) + 0.5) * window_s / LAG_STEPS:
        with np.errstate(divide="ignore"):
            logs.append(np.log(_sum_of_uniforms_density(s + h + k, 2 * h, 2 * k, L)).sum(axis=1))
    log_post = np.logaddexp.reduce(np.array(logs), axis=0)  # every L alike beforehand
    if not np.isfinite(log_post).any():  # cannot happen inside the bounds; be safe
        return float((x[0] + x[-1]) / 2), float((x[-1] - x[0]) / np.sqrt(12)), used
    p = np.exp(log_post - log_post.max())
    p /= p.sum()
    mean = float((p * x).sum())
    return mean, float(np.sqrt((p * (x - mean) ** 2).sum())), used


def _sum_of_uniforms_density(x: np.ndarray, p: np.ndarray, q: np.ndarray, r: float) -> np.ndarray:
    """Density at x of U(0,p) + U(0,q) + U(0,r) (p, q per pair; all > 0): a box spline,
    sum over the box's corners of +-max(x - corner, 0)^2, over 2pqr."""
    out = np.zeros(np.broadcast(x, p).shape)
    for cp in (0, 1):
        for cq in (0, 1):
            for cr in (0, 1):
                sign = -1.0 if (cp + cq + cr) % 2 else 1.0
                out += sign * np.maximum(x - cp * p - cq * q - cr * r, 0.0) ** 2
    return np.maximum(out / (2 * p * q * r), 0.0)  # rounding can leave -1e-16 outside


def _most_covering(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The pairs whose bounds [lo, hi] hold the stretch that the most of them share."""
    points = sorted([(float(x), 0) for x in lo] + [(float(x), 1) for x in hi])  # opens before closes at a tie
    depth, best, at = 0, -1, float(lo[0])
    for x, closes in points:
        depth += -1 if closes else 1
        if not closes and depth > best:
            best, at = depth, x
    return np.flatnonzero((lo <= at) & (hi >= at))
