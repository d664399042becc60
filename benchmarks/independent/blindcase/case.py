"""One seed's case: simulate, draw each agency's exports, write files, truth and manifest."""

from __future__ import annotations

import json
import random
from pathlib import Path

from . import clocks
from .dialects import avl, cad, camera, district, patients, phone, radio, roster, sensors
from .export import Export
from .metrics import compute
from .timeline import simulate
from .truth import build_truth
from .world import World, build_world

GENERATOR = "independent/1"


class _Names:
    """File names in the habits of each agency's records unit."""

    def __init__(self, rng: random.Random, world: World):
        self.rng, self.world = rng, world
        self.used: set[str] = set()
        self.d = world.local_date.replace("-", "")

    def __call__(self, code: str, what: str, ext: str = "csv") -> str:
        rng = self.rng
        options = [
            f"{code}_{what}_{self.d}.{ext}",
            f"{code.lower()}-{what.lower().replace('_', '-')}.{ext}",
            f"{what.upper()}_{code}_{self.d[4:]}{self.d[2:4]}.{ext}",
            f"{code} {what.replace('_', ' ')} export.{ext}",
        ]
        name = rng.choice(options)
        while name in self.used:
            name = name.replace(f".{ext}", f"_2.{ext}")
        self.used.add(name)
        return name


def plan_exports(world: World, inc, rng: random.Random) -> list[Export]:
    names = _Names(rng, world)
    t0 = inc.t0
    out: list[Export] = []
    agencies = world.agencies
    fire = world.code_of("fire")
    sd = world.code_of("schools")
    inc.notes["county_hosts_fire_dispatch"] = agencies[fire].unit_style == "long" or rng.random() < 0.3
    folder = {c: c.lower() for c in agencies}

    cad_families = ["unit_rows", "status_rows", "packed", "wide", "chronology"]
    rng.shuffle(cad_families)
    dispatchers = [
        c
        for c, a in agencies.items()
        if a.kind in ("sheriff", "police", "state", "fire")
        and any(u.responds and u.agency == c for u in world.units.values())
    ]
    shared = None
    pd = next((c for c in dispatchers if agencies[c].kind == "police" and c != world.primary), None) or next(
        (c for c in dispatchers if agencies[c].kind == "police"), None
    )
    if pd and agencies[fire].name.startswith(world.city) and rng.random() < 0.35:
        shared = [pd, fire]
    clock_of: dict = {}

    def clock(code, profile):
        key = (code, profile)
        if key not in clock_of:
            clock_of[key] = clocks.draw(rng, profile, t0)
        return clock_of[key]

    k = 0
    done = set()
    for code in dispatchers:
        if code in done:
            continue
        codes = shared if shared and code in shared else [code]
        done.update(codes)
        fam = cad_families[k % len(cad_families)]
        k += 1
        c = clock(code, "cad")
        title = (
            f"{agencies[code].name} — CAD "
            + {
                "unit_rows": "calls for service by unit",
                "status_rows": "unit status history",
                "packed": "incident summary",
                "wide": "incident report",
                "chronology": "incident chronology",
            }[fam]
        )
        if shared and code in shared:
            title = f"{world.city} Consolidated Dispatch — CAD {'unit status history' if fam == 'status_rows' else 'calls by unit'}"  # noqa: E501 (prose)
            fam = rng.choice(["unit_rows", "status_rows"])
        what = {
            "unit_rows": "CFS_Units",
            "status_rows": "UnitStatus",
            "packed": "IncidentSummary",
            "wide": "IncidentReport",
            "chronology": "Chronology",
        }[fam]
        out.append(
            cad.FAMILIES[fam](
                world,
                inc,
                codes,
                rng,
                c,
                names(code, what, "txt" if fam == "status_rows" and rng.random() < 0.5 else "csv"),
                folder[code],
                title,
            )
        )
        if fam in ("status_rows", "chronology") and rng.random() < 0.7:
            out.append(
                cad.calls_summary(
                    world,
                    inc,
                    codes,
                    rng,
                    c,
                    names(code, "Calls"),
                    folder[code],
                    f"{agencies[code].name} — CAD calls for service",
                )
            )
    if any(u.agency == sd and inc.responses.get(u.id) for u in world.units.values()) or inc.notes.get(
        "district_incident"
    ):
        out.append(
            district.activity_log(
                world,
                inc,
                sd,
                rng,
                clock(sd, "pc"),
                names(sd, "CampusSafetyLog"),
                folder[sd],
                f"{agencies[sd].name} — Campus Safety activity log",
            )
        )
    # 911 answering points
    for code in (world.primary, world.wireless_psap):
        fam = rng.choice(list(phone.FAMILIES))
        out.append(
            phone.FAMILIES[fam](
                world,
                inc,
                code,
                rng,
                clock(code, "phone"),
                names(code, "911_CDR"),
                folder[code],
                f"{agencies[code].name} — 911 call detail records",
            )
        )
    # radio recorders
    for code, a in agencies.items():
        p = {"sheriff": 1.0, "police": 0.9, "fire": 0.85, "schools": 0.3, "state": 0.0}[a.kind]
        if a.kind == "schools" and not world.units_of(code):
            p = 0.0
        if rng.random() < p:
            fam = rng.choices(["logger", "typed", "headerless", "jsonl"], [0.45, 0.2, 0.2, 0.15])[0]
            ext = "jsonl" if fam == "jsonl" else ("txt" if fam == "headerless" else "csv")
            out.append(
                radio.FAMILIES[fam](
                    world,
                    inc,
                    code,
                    rng,
                    clock(code, "logger"),
                    names(code, "RadioLog", ext),
                    folder[code],
                    f"{a.name} — radio " + ("log" if fam == "typed" else "recorder export"),
                )
            )
    # vehicle location
    for code, a in agencies.items():
        if any(u.avl and u.agency == code for u in world.units.values()) and rng.random() < 0.9:
            fam = rng.choice(list(avl.FAMILIES))
            ext = "jsonl" if fam == "jsonl" else "csv"
            out.append(
                avl.FAMILIES[fam](
                    world,
                    inc,
                    code,
                    rng,
                    clock(code, "gps"),
                    names(code, "AVL", ext),
                    folder[code],
                    f"{a.name} — AVL fixes",
                )
            )
    # campus systems
    if rng.random() < 0.85:
        out.append(
            sensors.gunshot(
                world,
                inc,
                sd,
                rng,
                clock(sd, "gunshot"),
                names(sd, "GunshotAlerts"),
                folder[sd],
                f"{agencies[sd].name} — gunshot detection alerts",
            )
        )
    if rng.random() < 0.9:
        out.append(
            sensors.doors(
                world,
                inc,
                sd,
                rng,
                clock(sd, "door"),
                names(sd, "AccessControl"),
                folder[sd],
                f"{agencies[sd].name} — access control transactions",
            )
        )
    if inc.alarm and rng.random() < 0.85:
        out.append(
            sensors.alarm_panel(
                world,
                inc,
                sd,
                rng,
                clock(sd, "panel"),
                names(sd, "FirePanelHistory", "txt"),
                folder[sd],
                f"{agencies[sd].name} — fire alarm panel history",
            )
        )
    if inc.panic:
        out.append(
            sensors.panic_app(
                world,
                inc,
                sd,
                rng,
                clock(sd, "app"),
                names(sd, "PanicAlerts"),
                folder[sd],
                f"{agencies[sd].name} — staff panic alerts",
            )
        )
    if rng.random() < 0.9:
        out.append(
            camera.review_log(
                world,
                inc,
                sd,
                rng,
                clock(sd, "nvr"),
                names(sd, "VideoReview"),
                folder[sd],
                f"{agencies[sd].name} — video review log",
            )
        )
    if inc.live_views and rng.random() < 0.9:
        out.append(
            camera.monitor_log(
                world,
                inc,
                sd,
                rng,
                clock(sd, "nvr"),
                names(sd, "CP_CameraMonitor"),
                folder[sd],
                f"{agencies[sd].name} — command post camera monitoring log",
            )
        )
    # rosters and patient records
    for code, a in agencies.items():
        if world.units_of(code) and (code == world.primary or rng.random() < 0.95):
            out.append(
                roster.roster(
                    world, inc, code, rng, None, names(code, "Roster"), folder[code], f"{a.name} — shift roster"
                )
            )
    if rng.random() < 0.9:
        out.append(
            patients.epcr(
                world,
                inc,
                fire,
                rng,
                clock(fire, "tablet"),
                names(fire, "ePCR"),
                folder[fire],
                f"{agencies[fire].name} — patient care reports",
            )
        )
    return [e for e in out if e.rows]  # a recorder that caught nothing is not handed over


def generate_case(seed: int, out_dir: str | Path) -> dict:
    out = Path(out_dir)
    world = build_world(seed)
    inc = simulate(world)
    rng = random.Random(f"independent/{seed}/exports")
    exports = plan_exports(world, inc, rng)
    (out / "exports").mkdir(parents=True, exist_ok=True)
    (out / "data_dictionary").mkdir(parents=True, exist_ok=True)
    manifest = {
        "schema": "independent-case-manifest/1",
        "case": f"{world.school} incident, {world.local_date}",
        "exports": [],
    }
    for exp in exports:
        path = out / exp.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(exp.text(), encoding="utf-8", newline="")
        dd = f"data_dictionary/{Path(exp.name).stem}.md"
        (out / dd).write_text(exp.dictionary, encoding="utf-8")
        manifest["exports"].append(
            {
                "file": exp.name,
                "path": exp.path,
                "agency": exp.agency,
                "agency_name": world.agencies[exp.agency].name,
                "kind": exp.kind,
                "data_dictionary": dd,
                "time_zone": exp.zone_stated,
            }
        )
    camera_exported = any(e.dialect == "camera/monitor" for e in exports)
    metrics = compute(inc, camera_exported)
    truth = build_truth(world, inc, exports, metrics, seed, GENERATOR)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (out / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return truth
