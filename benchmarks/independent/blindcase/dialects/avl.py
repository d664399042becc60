"""Vehicle location (AVL) exports: GPS fixes as the AVL server stored them."""

from __future__ import annotations

import math

from ..timeline import GEOFENCE_M, Incident
from . import common


def _near(fix, lat, lon, metres):
    dlat = (fix.lat - lat) * 111_320.0
    dlon = (fix.lon - lon) * 111_320.0 * math.cos(math.radians(lat))
    return math.hypot(dlat, dlon) <= metres


def avl(world, inc: Incident, agency, rng, clock, name, folder, title, variant):
    styles = {
        "csv_epoch": ["epoch_ms", "epoch_s"],
        "csv_iso": ["iso_z", "iso_z_ms", "iso_offset"],
        "jsonl": ["epoch_s", "epoch_ms", "iso_z"],
        "csv_local": ["split_iso", "split_us", "local_plain"],
    }[variant]
    st = common.stamp(rng, world, clock, styles)
    ident = rng.choice(["vehicle", "unit"])
    mph = rng.random() < 0.6
    if variant == "csv_epoch":
        cols = [
            "FixID",
            "Vehicle" if ident == "vehicle" else "Unit",
            "GpsTime",
            "Lat",
            "Lon",
            "SpeedMph" if mph else "SpeedKph",
            "Heading",
        ]
        tcols = ["GpsTime"]
    elif variant == "csv_iso":
        cols = [
            "id",
            "vehicle_no" if ident == "vehicle" else "unit_id",
            "fix_time",
            "latitude",
            "longitude",
            "speed_mph" if mph else "speed_kmh",
            "course",
        ]
        tcols = ["fix_time"]
    elif variant == "jsonl":
        cols = ["seq", "veh" if ident == "vehicle" else "unit", "t", "lat", "lon", "spd", "hdg"]
        tcols = ["t"]
    else:
        tcols = ["FIX_DATE", "FIX_TIME"] if st.style.columns == 2 else ["FIX_DTTM"]
        cols = (
            ["REC_NO", "VEH_NO" if ident == "vehicle" else "UNIT_NO"]
            + tcols
            + ["LATITUDE", "LONGITUDE", "SPEED", "HEADING"]
        )
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="avl",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=cols[0],
        dialect=f"avl/{variant}",
        title=title,
        fmt="jsonl" if variant == "jsonl" else "csv",
    )
    units = [u for u in world.units_of(agency) if u.avl and u.id in inc.fixes]
    allfix = sorted(
        ((f.t, u.id, i, f) for u in units for i, f in enumerate(inc.fixes[u.id])), key=lambda x: (x[0], x[1])
    )
    rid = rng.randint(1_000_000, 9_000_000)
    for t, uid, i, fix in allfix:
        rid += 1
        r = str(rid)
        unit = world.units[uid]
        who = unit.vehicle if ident == "vehicle" else unit.cad_id
        speed = fix.speed * (2.23694 if mph else 3.6)
        p = st.parts(fix.t)
        row = dict(zip(cols, [r, who] + p + [f"{fix.lat:.6f}", f"{fix.lon:.6f}", f"{speed:.0f}", f"{fix.heading:.0f}"]))
        exp.add(row)
        exp.mention(r, "unit", uid, who)
        resp = inc.responses.get(uid)
        if inc.geofence_fix.get(uid) == i:
            exp.record(
                r, "unit_position", resp.arrived_ev, fix.t, " ".join(p), meaning="first fix inside the campus geofence"
            )
        elif (
            resp
            and resp.staged
            and resp.staged <= fix.t < resp.staged + 3600
            and _near(fix, world.fire_staging["lat"], world.fire_staging["lon"], 30)
            and not any(k.startswith(f"{name}#") and v.get("staging_of") == uid for k, v in exp.records.items())
        ):
            exp.record(
                r,
                "unit_position",
                resp.staged_ev,
                fix.t,
                " ".join(p),
                meaning="first fix at the staging area",
                staging_of=uid,
            )
    who_doc = (
        "fleet vehicle number painted on the car (see the roster for which unit drives it)"
        if ident == "vehicle"
        else "unit designator logged on to the vehicle's terminal"
    )
    docs = [(cols[0], "fix number"), (cols[1], who_doc)]
    docs += [(c, "GPS time of the fix") for c in tcols]
    docs += [
        (cols[-4], "latitude, WGS84 decimal degrees"),
        (cols[-3], "longitude, WGS84 decimal degrees"),
        (cols[-2], "speed, " + ("miles per hour" if mph else "km/h")),
        (cols[-1], "heading, degrees from north"),
    ]
    interval = world.avl_interval[agency]
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Automatic vehicle location fixes of {world.agencies[agency].name} vehicles, as stored by the AVL server: "
        f"one row per fix, about every {interval} seconds per vehicle, from shortly before the incident until "
        "about fifty minutes after.",
        docs,
        [
            ("Times", common.time_columns_doc(st, zone_stated)),
            (
                "Geofence",
                f"The dispatch system treats a vehicle as arriving when a fix falls within {int(GEOFENCE_M)} m of "
                f"the incident address ({world.lat:.5f}, {world.lon:.5f}).",
            ),
        ],
        clock_note=f"{clock.statement} (fix times come from the GPS receiver, not the server).",
    )
    return exp


FAMILIES = {
    v: (lambda v: lambda *a, **k: avl(*a, variant=v, **k))(v) for v in ("csv_epoch", "csv_iso", "jsonl", "csv_local")
}
