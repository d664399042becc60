"""Clock drift: a clock that runs long gains or loses time; its rate is measured where the
shared moments span long enough, and every event is aligned at its own time."""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct.align import aligned_times
from onrecord.reconstruct.clocks import pair_estimates, solve
from onrecord.reconstruct.drift import best_slope

T0 = 1_700_000_000_000
DAY = 86_400.0


def _line(days: float, ppm: float, n: int = 200, wrong: int = 40, seed: int = 1):
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(-days * DAY / 2, days * DAY / 2, n))
    d = 2.0 + ppm * 1e-6 * t + rng.uniform(-0.5, 0.5, n)
    bad_t = rng.uniform(t.min(), t.max(), wrong)
    return np.concatenate([t, bad_t]), np.concatenate([d, rng.uniform(-600, 600, wrong)])


def test_a_drift_over_days_is_measured_despite_wrong_matches():
    t, d = _line(days=3, ppm=40)
    slope, sd, clear = best_slope(t, d, 3.0)
    assert clear and abs(slope * 1e6 - 40) < 2 and sd * 1e6 < 2


def test_no_drift_is_measured_as_none_and_an_hour_is_too_short_to_tell():
    t, d = _line(days=3, ppm=0)
    slope, _, clear = best_slope(t, d, 3.0)
    assert not clear and abs(slope * 1e6) < 2
    t, d = _line(days=1 / 24, ppm=40)
    assert best_slope(t, d, 3.0) is None


def _moments(ppm: float, days: float = 3, n: int = 120):
    """GPS-timed AVL (right) and CAD's copy of each fix, stamped on a clock 2 s fast at the
    middle of the span that gains `ppm` millionths; n fixes over `days`."""
    rng = np.random.default_rng(4)
    rows, k = [], 0
    for i, t in enumerate(np.sort(rng.uniform(-days * DAY / 2, days * DAY / 2, n))):
        true_ms = T0 + t * 1000
        cad_ms = true_ms + (2.0 + ppm * 1e-6 * t) * 1000 + rng.uniform(0, 0.9) * 1000
        unit = 10 + i % 7
        rows.append((k := k + 1, 1, true_ms, 0, "unit_position", unit, 0, "CO"))
        rows.append((k := k + 1, 2, float(np.floor(cad_ms / 1000) * 1000 + 500), 999, "unit_position", unit, 0, "CO"))
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency"])


def test_a_drifting_cad_is_aligned_at_every_hour_of_three_days():
    m = _moments(ppm=30)
    clocks = solve(pd.DataFrame({"id": [1, 2], "kind": ["avl", "cad"]}), pair_estimates(m), {}, {1: 0.1})
    cad = clocks[2]
    assert cad.status == "estimated" and abs(cad.drift_ppm - 30) < 3
    for t in (-1.4 * DAY, 0.0, 1.4 * DAY):  # the offset it had then, within a second
        truth = 2.0 + 30e-6 * t + 0.45
        assert abs(cad.offset_at(T0 + t * 1000) - truth) < 1.0
    # every CAD record lands within its stated interval around the true time
    cad_rows = m[m["source_id"] == 2]
    ev = pd.DataFrame({"id": cad_rows["id"], "source_id": 2, "t_src_lo": cad_rows["t_mid"] - 500,
                       "t_src_hi": cad_rows["t_mid"] + 499})
    got = aligned_times(ev, clocks)
    true_ms = m[m["source_id"] == 1]["t_mid"].to_numpy()
    assert ((got["t_lo"].to_numpy() <= true_ms + 1000) & (true_ms <= got["t_hi"].to_numpy() + 1000)).mean() > 0.95


def test_without_drift_nothing_changes():
    m = _moments(ppm=0)
    clocks = solve(pd.DataFrame({"id": [1, 2], "kind": ["avl", "cad"]}), pair_estimates(m), {}, {1: 0.1})
    cad = clocks[2]
    assert abs(cad.drift_ppm or 0.0) < 3 and abs(cad.offset_s - 2.45) < 0.6


AVL_MAPPING = """
[mapping]
name = "fleet-avl"
source_kind = "avl"
agency = "EVSO"
timezone = "UTC"
[clock]
trust = "reference"
uncertainty_s = 0.1
[file]
required = ["Fix", "Car", "Ms"]
[fields]
unit = "Car"
[attributes]
rid = "Fix"
[[events]]
kind = "unit_position"
time = "Ms"
format = "epoch_ms"
"""

CAD_MAPPING = """
[mapping]
name = "old-cad"
source_kind = "cad"
agency = "EVSO"
timezone = "America/Chicago"
[file]
required = ["Rec", "Unit", "AvlFix"]
[fields]
unit = "Unit"
[attributes]
rid = "Rec"
[[events]]
kind = "unit_position"
time = "AvlFix"
format = "%m/%d/%Y %H:%M:%S"
"""


def test_a_cad_server_that_gains_time_over_a_week_is_built_on_one_clock(tmp_path, cli):
    """Real files through import and build: a week of CAD copies of AVL fixes, the CAD
    server's clock 40 s fast at the start and gaining 25 ppm (2.2 s a day)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from sqlalchemy import select

    from onrecord.store.case import open_case
    from onrecord.store.schema import aligned_events, clock_estimates, events, sources

    rng = np.random.default_rng(9)
    start, zone = 1_736_000_000.0, ZoneInfo("America/Chicago")
    fixes = np.sort(rng.uniform(start, start + 7 * DAY, 300))
    avl, cad = ["Fix,Car,Ms"], ["Rec,Unit,AvlFix"]
    for i, t in enumerate(fixes):
        car = f"E{11 + i % 6}"
        avl.append(f"{i + 1},{car},{int(t * 1000)}")
        stamped = t + 0.3 + 40.0 + 25e-6 * (t - start)  # received 0.3 s later, on the drifting clock
        cad.append(f"C{i + 1},{car},{datetime.fromtimestamp(int(stamped), zone).strftime('%m/%d/%Y %H:%M:%S')}")
    (tmp_path / "avl.csv").write_text("\n".join(avl) + "\n")
    (tmp_path / "cad.csv").write_text("\n".join(cad) + "\n")
    (tmp_path / "avl.toml").write_text(AVL_MAPPING)
    (tmp_path / "cad.toml").write_text(CAD_MAPPING)
    case = tmp_path / "case"
    assert cli("init", case)[0] == 0
    assert cli("import", case, tmp_path / "avl.csv", "--mapping", tmp_path / "avl.toml")[0] == 0
    assert cli("import", case, tmp_path / "cad.csv", "--mapping", tmp_path / "cad.toml")[0] == 0
    code, out, err = cli("build", case)
    assert code == 0, err
    assert "drifting +2" in out  # the clock table says it
    c = open_case(case)
    with c.engine.connect() as conn:
        ce = clock_estimates.c
        est = conn.execute(select(ce.offset_s, ce.drift_ppm, ce.drift_ref_ms)
                           .join(sources, sources.c.id == clock_estimates.c.source_id)
                           .where(sources.c.file_name == "cad.csv")).one()
        rows = conn.execute(select(aligned_events.c.t_lo, aligned_events.c.t_hi)
                            .join(events, events.c.id == aligned_events.c.event_id)
                            .join(sources, sources.c.id == events.c.source_id)
                            .where(sources.c.file_name == "cad.csv").order_by(events.c.id)).all()
    assert abs(est.drift_ppm - 25) < 2
    assert abs(est.offset_s - (40.3 + 0.5 + 25e-6 * (est.drift_ref_ms / 1000 - start))) < 1.0
    # on the first day and the last, each CAD copy lands on its fix's true time, within a second or so
    middle = [(lo + hi) / 2 / 1000 - t for (lo, hi), t in zip(rows, fixes)]
    assert max(abs(x) for x in middle) < 1.5
