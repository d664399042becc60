"""Clock drift: a clock that runs long (a DVR left for months, a CAD server without time
sync) does not keep one error; it gains or loses a little every hour.

Over an hour's incident that is nothing (20 ppm is 0.07 s an hour). Over days it is
seconds, and the differences between two sources' records of shared moments then lie
on a sloping line instead of piling up at one value. So a pair of sources whose shared
moments span at least DRIFT_MIN_SPAN_S is also tried with slopes (how much faster one
clock runs than the other): the slope that lines up the most shared moments wins, but
only if it lines up clearly more of them than no slope does; then it is refined by
least squares over the moments it lined up.

Rates are solved like offsets: per source, with trusted and pinned clocks held at no
drift (GPS and NTP do not drift), by weighted least squares over the pairs that could
measure it. A source no long pair touches is given no drift (its rate is unknown, and
over its short span does not matter).
"""

from __future__ import annotations

import numpy as np

DRIFT_MIN_SPAN_S = 6 * 3600.0  # shorter than this, a few ppm cannot show against a second's noise
MAX_DRIFT = 200e-6  # 200 ppm (17 s a day): worse than any clock worth reading
SLOPE_STEPS = 201  # slopes tried between -MAX_DRIFT and +MAX_DRIFT, before refining
CLEARLY_MORE = 1.2  # a slope must line up this many times the moments no slope does
NO_DRIFT_SIGMA = 1e-7  # trusted and pinned clocks: no drift, to 0.1 ppm
FREE_SIGMA = 1e-3  # everyone else: any rate, held at zero only where nothing measures it


def best_slope(t_s: np.ndarray, d_s: np.ndarray, tol_s: float) -> tuple[float, float, bool] | None:
    """For shared moments at times `t_s` (s, from the middle of their span) with clock
    differences `d_s`: (slope, its standard deviation, whether it is clear), fitted to
    the moments a slope lines up within ±tol_s — or, unless a slope lines up clearly more
    of them, to those no slope lines up. None when they span too short a time to tell.
    Wrong matches scatter and are left out."""
    span = float(t_s.max() - t_s.min()) if len(t_s) else 0.0
    if span < DRIFT_MIN_SPAN_S or len(t_s) < 6:
        return None
    flat = _most_within(d_s, tol_s)
    coarse = np.linspace(-MAX_DRIFT, MAX_DRIFT, SLOPE_STEPS)
    k = _best_of(coarse, t_s, d_s, tol_s)
    step = coarse[1] - coarse[0]
    k = _best_of(np.linspace(k - step, k + step, 41), t_s, d_s, tol_s)  # finer, around the best
    lined_up = _inliers(d_s - k * t_s, tol_s)
    clear = lined_up.sum() >= max(flat * CLEARLY_MORE, flat + 3)
    if not clear:
        lined_up = _inliers(d_s, tol_s)  # no clear drift: measured as (about) none
    t, d = t_s[lined_up], d_s[lined_up]
    slope, intercept = np.polyfit(t, d, 1)
    resid = d - (slope * t + intercept)
    spread = max(float(np.std(resid)), 0.3)  # whole-second records: not better than this
    sd = spread / (np.sqrt(len(t)) * max(float(np.std(t)), 1.0))
    return float(slope), float(sd), bool(clear)


def _most_within(d: np.ndarray, tol: float) -> int:
    ds = np.sort(d)
    return int((np.searchsorted(ds, ds + 2 * tol, side="right") - np.arange(len(ds))).max()) if len(ds) else 0


def _best_of(slopes: np.ndarray, t: np.ndarray, d: np.ndarray, tol: float) -> float:
    counts = [_most_within(d - k * t, tol) for k in slopes]
    best = max(counts)
    # among equals, the slowest drift (clocks seldom drift much)
    return float(min((k for k, c in zip(slopes, counts) if c == best), key=abs))


def _inliers(d: np.ndarray, tol: float) -> np.ndarray:
    ds = np.sort(d)
    right = np.searchsorted(ds, ds + 2 * tol, side="right")
    start = int(np.argmax(right - np.arange(len(ds))))
    return (d >= ds[start]) & (d <= ds[right[start] - 1])


def solve_rates(pairs: list, held: set[int]) -> dict[int, tuple[float, float]]:
    """Per source: (rate, its standard deviation), rate = how much faster than true time
    its clock runs (s per s). `pairs` carry `slope` (rate_b - rate_a) and `slope_sd`, or
    None where their span could not measure it. `held`: trusted or pinned clocks (no
    drift). Sources no measuring pair reaches are left out (no drift known)."""
    measuring = [p for p in pairs if p.slope is not None]
    if not measuring:
        return {}
    reached = {s for p in measuring for s in (p.a, p.b)}
    free = sorted(reached)
    col = {s: i for i, s in enumerate(free)}
    rows, rhs, w = [], [], []
    for p in measuring:
        row = np.zeros(len(free))
        row[col[p.b]], row[col[p.a]] = 1.0, -1.0
        rows.append(row)
        rhs.append(p.slope)
        w.append(1.0 / max(p.slope_sd, 1e-9) ** 2)
    for s in free:
        row = np.zeros(len(free))
        row[col[s]] = 1.0
        rows.append(row)
        rhs.append(0.0)
        w.append(1.0 / (NO_DRIFT_SIGMA if s in held else FREE_SIGMA) ** 2)
    A, y, W = np.array(rows), np.array(rhs), np.diag(w)
    cov = np.linalg.pinv(A.T @ W @ A)
    x = cov @ A.T @ W @ y
    return {s: (float(x[col[s]]), float(np.sqrt(max(cov[col[s], col[s]], 0.0)))) for s in free}
