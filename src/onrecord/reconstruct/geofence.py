"""An arrival seen by the AVL itself: the fix that first put a car inside the dispatch
system's geofence.

An AVL export's owner states the geofence its dispatch system marks a car on scene by (a
point and a radius: `[geofence]`, docs/mappings.md). A car's arrival is then the moment
it crossed into it: after its last fix outside, by its first fix inside — a record made
as it happens, with no clock to align but GPS. That fix is also the one CAD copies as the
car's on-scene time, so a CAD copy pairs with that one fix and no other (fixes every few
seconds would otherwise line up with CAD at a difference a fix or two away just as well).

A car that drives through the fence and out again has not arrived: the crossing counts
only if the car stays inside for STAY_S (its fixes that long all inside).
"""

from __future__ import annotations

import tomllib

import numpy as np
import pandas as pd

STAY_S = 120.0
EARTH_RADIUS_M = 6_371_000.0


def declared_fences(sources: pd.DataFrame) -> dict[int, tuple[float, float, float]]:
    """{source id: (lat, lon, radius_m)} of the sources whose mapping declares a geofence
    (checked at import: sources/mapping.py geofence)."""
    out = {}
    for s in sources.itertuples():
        text = getattr(s, "mapping_text", None)
        if not text:
            continue
        try:
            t = tomllib.loads(text).get("geofence")
        except tomllib.TOMLDecodeError:
            continue
        if isinstance(t, dict) and all(isinstance(t.get(k), (int, float)) for k in ("lat", "lon", "radius_m")):
            out[int(s.id)] = (float(t["lat"]), float(t["lon"]), float(t["radius_m"]))
    return out


def crossings(events: pd.DataFrame, positions: pd.DataFrame, unit_of_event: dict,
              fences: dict[int, tuple[float, float, float]]) -> dict[int, int]:
    """{fix event id: the same car's fix before it}, for each car's first crossing into
    its source's geofence after which it stays inside. `positions`: id, source_id, lat, lon."""
    if not fences or positions.empty:
        return {}
    times = events.loc[events["source_id"].isin(list(fences)), ["id", "t_src_lo"]]
    fixes = positions.merge(times, on="id").dropna(subset=["t_src_lo"])
    fixes = fixes.assign(unit=fixes["id"].map(unit_of_event)).dropna(subset=["unit"])
    out: dict[int, int] = {}
    for (source, _), car in fixes.groupby(["source_id", "unit"], sort=False):
        lat0, lon0, radius = fences[int(source)]
        car = car.sort_values("t_src_lo")
        inside = _metres(car["lat"].to_numpy(float), car["lon"].to_numpy(float), lat0, lon0) <= radius
        t = car["t_src_lo"].to_numpy(float)
        ids = car["id"].to_numpy()
        for k in np.flatnonzero(inside[1:] & ~inside[:-1]) + 1:
            stay = t <= t[k] + STAY_S * 1000
            if t[-1] >= t[k] + STAY_S * 1000 and inside[k:][stay[k:]].all():
                out[int(ids[k])] = int(ids[k - 1])
                break
    return out


def _metres(lat, lon, lat0, lon0):
    """Great-circle distance (haversine), metres."""
    p1, p2 = np.radians(lat), np.radians(lat0)
    dp, dl = p2 - p1, np.radians(lon0 - lon)
    a = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(a))
