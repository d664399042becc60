"""CAD arrivals that copy AVL fixes are found by the records, however they were mapped,
and then share their moments with the AVL log."""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct.avl_copies import fix_copies
from onrecord.reconstruct.clocks import pair_estimates, solve

T0 = 1_700_000_000_000


def _case(copied: bool, seed: int = 3, cad_offset_s: float = 25.0, cars: int = 10):
    """AVL (source 1) fixes every 8-14 s for `cars` cars; CAD (source 2) one arrival per car:
    a copy of one fix (received 0.7 s later), or typed 10-90 s after it."""
    rng = np.random.default_rng(seed)
    rows, n = [], 0
    for car in range(cars):
        t, fixes = T0 + car * 400_000.0, []
        for _ in range(60):
            t += rng.uniform(8_000, 14_000)
            fixes.append(t)
            rows.append((n := n + 1, 1, t, 0, "unit_position", 100 + car, 0, "CO"))
        at = fixes[30] + (700 if copied else rng.uniform(10_000, 90_000)) + cad_offset_s * 1000
        rows.append((n := n + 1, 2, float(np.floor(at / 1000) * 1000 + 500), 999, "unit_arrived", 100 + car, 2, "CO"))
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency"])


def test_arrivals_stamped_with_the_fix_that_put_the_car_on_scene_are_copies():
    m = _case(copied=True)
    copies = fix_copies(m)
    assert copies == set(m[m["family"] == "unit_arrived"]["id"])
    # shared with the AVL log, they tie the CAD clock to it within a second: its own offset
    # (+25 s), not that plus the moment a copy trails its fix, and within the uncertainty said
    pairs = pair_estimates(m.assign(copy_of=m["id"].isin(copies)))
    clocks = solve(pd.DataFrame({"id": [1, 2], "kind": ["avl", "cad"]}), pairs, {}, {1: 0.1})
    assert abs(clocks[2].offset_s - 25.0) <= clocks[2].uncertainty_s


def test_typed_arrivals_are_not_taken_for_copies():
    for seed in range(8):
        assert fix_copies(_case(copied=False, seed=seed)) == set()


def test_where_the_clocks_already_say_where_to_look_fewer_copies_suffice():
    from onrecord.reconstruct.clocks import ClockEstimate

    m = _case(copied=True, cars=5)
    assert fix_copies(m) == set()  # five alone, anywhere in half an hour: could be chance
    said = {1: ClockEstimate(1, "reference", 0.0, 0.1), 2: ClockEstimate(2, "estimated", 23.0, 3.0)}
    assert len(fix_copies(m, said)) == 5  # the CAD's reports put its clock near +23 s: there they line up
    for seed in range(8):
        assert fix_copies(_case(copied=False, seed=seed, cars=5), said) == set()


AVL = """
[mapping]
name = "fleet-avl"
source_kind = "avl"
agency = "EVSO"
timezone = "UTC"
[clock]
trust = "reference"
uncertainty_s = 0.1
[fields]
unit = "Car"
[[events]]
kind = "unit_position"
time = "Ms"
format = "epoch_ms"
"""
CAD = """
[mapping]
name = "eastvale-status"
source_kind = "cad"
agency = "EVSO"
timezone = "UTC"
[fields]
unit = "Car"
[attributes]
entered_by = "Via"
[[events]]
kind = "unit_arrived"
time = "At"
format = "iso"
"""


def test_arrivals_the_mapping_says_are_avl_copies_tie_the_cad_clock_to_the_avl(case_dir, cli, tmp_path):
    from datetime import datetime, timezone

    from onrecord.store.reader import open_reader

    rng = np.random.default_rng(11)
    avl, cad = ["Car,Ms"], ["Car,At,Via"]
    for car in range(3):
        t = 1_700_000_000.0 + car * 400
        for k in range(30):
            t += rng.uniform(8, 14)
            avl.append(f"E{car + 1},{int(t * 1000)}")
            if k == 15:  # CAD took this fix as on scene: stamped 0.7 s later on a clock 25 s fast
                at = datetime.fromtimestamp(int(t + 25.7), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                cad.append(f"E{car + 1},{at},AVL")
    for name, rows, mapping in (("avl", avl, AVL), ("cad", cad, CAD)):
        (tmp_path / f"{name}.csv").write_text("\n".join(rows) + "\n")
        (tmp_path / f"{name}.toml").write_text(mapping)
        assert cli("import", case_dir, tmp_path / f"{name}.csv", "--mapping", tmp_path / f"{name}.toml")[0] == 0
    code, out, err = cli("build", case_dir)
    assert code == 0, err
    reader = open_reader(case_dir)
    by_name = {s["id"]: s["file_name"] for s in reader.sources()}
    est = {by_name[s]: c for s, c in reader.clock_estimates().items()}
    assert est["cad.csv"]["status"] == "estimated" and abs(est["cad.csv"]["offset_s"] - 25.7) < 1.0


def test_a_spoken_on_scene_is_never_taken_for_a_copy_of_a_gps_fix():
    import pandas as pd

    from onrecord.reconstruct.avl_copies import fix_copies

    rows = []
    for u in range(4):  # four radio "on scene" calls, each 1 s after its car's geofence fix
        t = 1_700_000_000_000 + u * 60_000
        rows.append((100 + u, 1, t, 0, "unit_arrived", u, 0, "PD", False, True, t, False))
        rows.append((200 + u, 2, t + 1000, 0, "unit_arrived", u, 1, "PD", False, False, t + 1000, True))
    cols = ["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency", "copy_of", "crossing", "t_fix",
            "spoken"]
    anchored = pd.DataFrame(rows, columns=cols).assign(w_fix=0)
    assert fix_copies(anchored) == set()  # reports, not copies
    assert fix_copies(anchored.assign(spoken=False)) == {200, 201, 202, 203}  # a CAD's would be
