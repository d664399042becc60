"""A clock written to the minute, against reports of the same moments: the estimate does not
lean on the longest lag the model allows, and says honestly how unsure it is."""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct.clocks import REPORT_WINDOW_S, pair_estimates
from onrecord.reconstruct.minute_bounds import _sum_of_uniforms_density, minute_pair_estimate

T0 = 1_700_000_000_000
FAST = 17.0  # the radio's clock runs this far ahead of the patient records'


def _patients_and_radio(rng: np.random.Generator, longest_lag: float) -> pd.DataFrame:
    """Patient records (contact, transport) written to the minute, and the crew's radio
    report of each, 0..longest_lag s after the moment, on a clock FAST s ahead."""
    rows, k = [], 0
    for i in range(int(rng.integers(12, 29))):
        t = T0 + i * 600_000 + rng.uniform(0, 60_000)
        minute = t - (t - T0) % 60_000
        family = ("patient_contact", "patient_transported")[i % 2]
        rows.append((k := k + 1, 1, minute + 30_000, 59_999, family, 7, 0, "FR"))
        said = t + (rng.uniform(0, longest_lag) + FAST) * 1000
        rows.append((k := k + 1, 2, round(said), 0, family, 7, 1, "FR"))
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency"])


def _errors(longest_lag: float, draws: int = 40) -> np.ndarray:
    rng = np.random.default_rng(4)
    out = []
    for _ in range(draws):
        (pair,) = pair_estimates(_patients_and_radio(rng, longest_lag))
        assert pair.lagged
        out.append((pair.delta_s - FAST, pair.sigma_s))
    return np.array(out)


def test_reports_that_come_soon_do_not_pull_the_estimate_to_the_window_edge():
    # The crew speaks within 10 s of each moment, well inside the 20 s the model allows.
    # The middle of the pairs' overlapping bounds assumed lags anywhere up to 20 s and sat
    # about 5 s off whatever the number of pairs (mean |error| 5.1 s over these draws);
    # weighing how soon the reports came, as the pairs show it, does not.
    e = _errors(10.0)
    assert np.mean(np.abs(e[:, 0])) <= 3.0
    assert np.mean(np.abs(e[:, 0]) <= 2 * e[:, 1]) >= 0.95  # and it says how unsure it is


def test_reports_said_at_once_are_told_apart_from_a_clock_difference():
    # reports within a second of the moment: the old midpoint was 10 s off on average
    e = _errors(1.0)
    assert np.mean(np.abs(e[:, 0])) <= 5.0
    assert np.mean(np.abs(e[:, 0]) <= 2 * e[:, 1]) >= 0.95


def test_reports_that_use_the_whole_window_still_hold_the_truth_mostly_within_two_sigma():
    # the least favourable case for this estimate (the middle of the bounds suits it
    # best): it leans a little early, and its stated uncertainty mostly covers it
    e = _errors(REPORT_WINDOW_S)
    assert np.mean(np.abs(e[:, 0])) <= 5.0
    assert np.mean(np.abs(e[:, 0]) <= 2 * e[:, 1]) >= 0.8


def test_a_wrong_match_whose_bounds_meet_no_other_is_left_out():
    rng = np.random.default_rng(7)
    sec = rng.uniform(-30, 30, 20)
    d = 5.0 + sec + rng.uniform(0, 10, 20)  # clock difference 5 s
    half_a, half_b = np.full(20, 30.0), np.zeros(20)
    alone, sd, used = minute_pair_estimate(d, half_a, half_b, REPORT_WINDOW_S)
    with_wrong, sd2, used2 = minute_pair_estimate(np.append(d, 400.0), np.append(half_a, 30.0),
                                                  np.append(half_b, 0.0), REPORT_WINDOW_S)
    assert 20 not in used2 and len(used2) == 20
    assert (with_wrong, sd2) == (alone, sd) and abs(alone - 5.0) <= 2 * max(sd, 3.0)


def test_the_likelihood_of_one_pair_is_a_density_over_its_bounds():
    x = np.linspace(-5, 140, 29_001)
    for p, q, r in ((60.0, 0.01, 20.0), (60.0, 60.0, 5.0), (1.0, 0.01, 0.5)):
        f = _sum_of_uniforms_density(x, np.full_like(x, p), np.full_like(x, q), r)
        assert abs(np.trapezoid(f, x) - 1.0) < 1e-3
        assert f[x < 0].max() == 0.0 and f[x > p + q + r + 1e-9].max() < 1e-9
