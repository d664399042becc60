"""Dispatch (CAD) exports in five layouts agencies really hand over:

- unit_rows    one row per unit per call, a column per status time
- status_rows  one row per status change, with a status code and how it was entered
- packed       one row per call, every unit and its time packed into one column
- wide         one row per call, Unit1/Time1/Unit2/Time2... columns
- chronology   the incident history report: status, call and comment rows mixed
"""

from __future__ import annotations

import random

from ..export import Export
from ..timefmt import STYLES, render, time_only
from ..timeline import CadIncident, Incident
from . import common
from .cadlog import cad_log

STATUS_SETS = {
    "words": {
        "dispatched": "DISP",
        "enroute": "ENRT",
        "staged": "STAGE",
        "arrived": "ONSC",
        "entered": "INBLD",
        "transporting": "TRANS",
        "available": "AVAIL",
        "reassigned": "REASGN",
    },
    "ten": {
        "dispatched": "DSP",
        "enroute": "10-76",
        "staged": "STG",
        "arrived": "10-97",
        "entered": "ENTRY",
        "transporting": "TRNSPT",
        "available": "10-8",
        "reassigned": "XFER",
    },
    "numeric": {
        "dispatched": "1",
        "enroute": "2",
        "arrived": "3",
        "transporting": "4",
        "staged": "6",
        "entered": "7",
        "available": "8",
        "reassigned": "9",
    },
    "verbose": {
        "dispatched": "Dispatched",
        "enroute": "En Route",
        "staged": "Staged",
        "arrived": "On Scene",
        "entered": "Entered Building",
        "transporting": "Transporting",
        "available": "Available",
        "reassigned": "Reassigned",
    },
}
MEANINGS = {
    "dispatched": "unit assigned to the incident by the dispatcher",
    "enroute": "unit responding",
    "staged": "unit waiting at a staging area (not at the scene)",
    "arrived": "unit at the scene",
    "entered": "unit's officers entered the building",
    "transporting": "ambulance left the scene with a patient",
    "available": "unit cleared, available",
    "reassigned": "unit taken off this incident and sent to another",
}
SHORT = {
    "dispatched": "DISPATCHED",
    "enroute": "ENROUTE",
    "staged": "AT STAGING",
    "arrived": "ON SCENE",
    "entered": "ENTERED BLDG",
    "transporting": "TRANSPORTING",
    "available": "AVAILABLE",
    "reassigned": "REASSIGNED",
}
HOW_WORDS = {
    "CAD": "entered by the dispatcher in CAD",
    "MDT": "pressed by the crew on the vehicle terminal",
    "AVL": "set automatically when the vehicle's GPS position entered the incident area",
    "RADIO": "typed by the dispatcher from a radio transmission",
}
HOW_CODES = [
    {"CAD": "CAD", "MDT": "MDT", "AVL": "AVL", "RADIO": "RAD"},
    {"CAD": "D", "MDT": "M", "AVL": "A", "RADIO": "R"},
    {"CAD": "Dispatcher", "MDT": "Terminal", "AVL": "AVL", "RADIO": "Radio"},
]

SINGLE = [
    "iso_offset",
    "offset_compact",
    "local_frac",
    "epoch_s",
    "epoch_ms",
    "us24",
    "us24",
    "us12",
    "us12_nopad",
    "dayfirst",
    "monname",
    "utc_plain",
    "local_plain",
    "compact",
    "iso_z",
    "iso_offset_ms",
    "local_micro",
]
SPLIT = ["split_iso", "split_us", "split_us12", "split_compact", "split_dayfirst", "split_utc"]
NATURE_CODES = {
    "SHOOTING": "SHOTS",
    "ASSIST OTHER AGENCY - SHOOTING": "AOA",
    "MCI - ACTIVE SHOOTER STAGING": "MCI",
    "FIRE ALARM COMMERCIAL": "FACOM",
    "ACTIVE THREAT": "THREAT",
    "TRAFFIC ACCIDENT": "TA",
    "MEDICAL": "MED",
    "ALARM BURGLARY": "ALRMB",
    "SUSPICIOUS PERSON": "SUSP",
    "NOISE COMPLAINT": "NOISE",
    "THEFT REPORT": "THEFT",
    "WELFARE CHECK": "WELF",
}


class _Ctx:
    def __init__(self, world, inc: Incident, codes, rng: random.Random, clock, name, folder, title):
        self.world, self.inc, self.codes, self.rng, self.clock = world, inc, codes, rng, clock
        self.name, self.folder, self.title = name, folder, title
        practice = {
            "mdt": rng.uniform(0.0, 0.6),
            "avl_arrival": any(world.units[u].avl for u in world.units if world.units[u].agency in codes)
            and rng.random() < 0.65,
        }
        self.practice = practice
        self.incidents, self.statuses, self.notes = cad_log(inc, codes, rng, practice)
        self.multi = len(codes) > 1
        self.ani_fmt, _ = common.ani_form(rng)
        self.status_set = rng.choice(list(STATUS_SETS))
        self.codes_of = STATUS_SETS[self.status_set]
        self._ani: dict = {}

    def unit_form(self, uid):
        return self.world.units[uid].cad_id

    def answered_leg(self, cad: CadIncident):
        if not cad.from_call:
            return None
        call = next(c for c in self.inc.calls if c.id == cad.from_call)
        return call, next((leg for leg in call.legs if leg.psap == cad.agency and leg.answer), None)

    def ani_t(self, cad):
        """The caller's number reaches CAD a fraction of a second after the pick-up."""
        if cad.number not in self._ani:
            got = self.answered_leg(cad)
            if not got or not got[1]:
                self._ani[cad.number] = None
            else:
                call, leg = got
                self._ani[cad.number] = (call, leg, leg.answer + self.rng.uniform(0.1, 0.8))
        return self._ani[cad.number]


def _mention_unit(exp: Export, rid, uid, form, multi=False):
    exp.mention(rid, "unit", uid, form, multi=multi)


def _status_code_doc(ctx: _Ctx, avl_code: str | None = None) -> str:
    pairs = [(code, MEANINGS[what]) for what, code in ctx.codes_of.items()]
    if avl_code:
        pairs.append((avl_code, "unit at the scene, set automatically from the vehicle's GPS (AVL)"))
    return common.code_table(pairs, ("status", "meaning"))


def _nature_doc(ctx: _Ctx, coded: bool) -> str:
    used = sorted({c.nature for c in ctx.incidents})
    if coded:
        return common.code_table([(NATURE_CODES[n], n.title()) for n in used], ("type code", "call type"))
    return "Call types are written out in words (" + ", ".join(f"`{n}`" for n in used) + ")."


def _incident_records(ctx: _Ctx, exp: Export, rid: str, cad: CadIncident, stamp, col_created, col_ani_time):
    out = {}
    if col_created:
        parts = stamp.parts(cad.created)
        out[col_created] = parts
        exp.record(rid, "incident_created", cad.created_ev, cad.created, " ".join(parts))
    got = ctx.ani_t(cad)
    if col_ani_time and got:
        call, leg, t = got
        parts = stamp.parts(t)
        out[col_ani_time] = parts
        exp.record(rid, "call_answered", leg.answer_ev, t, " ".join(parts))
    return out, got


def _place(parts: list[str], cols: list[str], row: dict) -> None:
    for c, v in zip(cols, parts):
        row[c] = v


def unit_rows(world, inc, codes, rng, clock, name, folder, title) -> Export:
    ctx = _Ctx(world, inc, codes, rng, clock, name, folder, title)
    st = common.stamp(rng, world, clock, SINGLE)
    naming = rng.choice(
        [
            dict(
                rid="RecordId",
                inc="IncidentNo",
                nat="CallType",
                addr="Address",
                created="Created",
                ani="ANI",
                ani_t="AniAliTime",
                unit="Unit",
                agency="Agency",
                disp="Dispatched",
                enr="Enroute",
                stg="Staged",
                arr="OnScene",
                ent="InBuilding",
                trn="Transport",
                clr="Cleared",
                how="ArrivalSource",
            ),
            dict(
                rid="ROW_ID",
                inc="INC_NUM",
                nat="NATURE",
                addr="LOCATION",
                created="ENTRY_TM",
                ani="CALLER_NUM",
                ani_t="CALL_RCVD",
                unit="UNIT_ID",
                agency="AGENCY",
                disp="DISP_TM",
                enr="ENRT_TM",
                stg="STAGE_TM",
                arr="ARRV_TM",
                ent="ENTRY_BLDG_TM",
                trn="TRANS_TM",
                clr="CLR_TM",
                how="ARRV_SRC",
            ),
        ]
    )
    n = naming
    fire = any(world.agencies[c].kind == "fire" for c in codes)
    law = any(world.agencies[c].kind in ("sheriff", "police", "state") for c in codes)
    cols = [n["rid"], n["inc"], n["nat"], n["addr"], n["created"], n["ani"], n["ani_t"]]
    if ctx.multi:
        cols.append(n["agency"])
    cols += [n["unit"], n["disp"], n["enr"]]
    if fire:
        cols.append(n["stg"])
    cols.append(n["arr"])
    has_how = rng.random() < 0.5
    if has_how:
        cols.append(n["how"])
    if law and rng.random() < 0.6:
        cols.append(n["ent"])
    if fire:
        cols.append(n["trn"])
    cols.append(n["clr"])
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=codes[0],
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="cad/unit_rows",
        title=title,
    )
    what_col = {
        "dispatched": n["disp"],
        "enroute": n["enr"],
        "staged": n["stg"],
        "arrived": n["arr"],
        "entered": n["ent"],
        "transporting": n["trn"],
        "available": n["clr"],
    }
    rid = rng.randint(100000, 400000)
    for cad in sorted(ctx.incidents, key=lambda c: c.created):
        units = []
        for s in ctx.statuses:
            if s.incident is cad and s.unit not in units:
                units.append(s.unit)
        first = True
        for uid in units or [None]:
            rid += rng.randint(1, 3)
            row = {n["rid"]: str(rid), n["inc"]: cad.number, n["nat"]: cad.nature, n["addr"]: cad.place}
            r = str(rid)
            if first:
                vals, got = _incident_records(ctx, exp, r, cad, st, n["created"], n["ani_t"])
            else:
                got = ctx.ani_t(cad)
                vals = {n["created"]: st.parts(cad.created)}
                if got:
                    vals[n["ani_t"]] = st.parts(got[2])
            for c, p in vals.items():
                row[c] = p[0]
            if got:
                row[n["ani"]] = ctx.ani_fmt(got[0].ani)
            first = False
            if uid is None:
                exp.add(row)
                continue
            if ctx.multi:
                row[n["agency"]] = world.units[uid].agency
            row[n["unit"]] = ctx.unit_form(uid)
            _mention_unit(exp, r, uid, row[n["unit"]])
            for s in ctx.statuses:
                if s.incident is not cad or s.unit != uid or s.what not in what_col or what_col[s.what] not in cols:
                    continue
                col = what_col[s.what]
                if row.get(col):
                    continue  # the layout keeps the first time of each status
                p = st.parts(s.t)
                row[col] = p[0]
                if s.what == "arrived" and has_how:
                    row[n["how"]] = {"AVL": "AVL", "MDT": "MDT", "RADIO": "DISP", "CAD": "DISP"}[s.how]
                if s.kind:
                    exp.record(r, s.kind, s.event, s.t, p[0], how=s.how)
            exp.add(row)
    col_doc = {
        n["rid"]: "unique row number in this report",
        n["inc"]: "incident (call for service) number; every unit on one call repeats it",
        n["nat"]: "call type as entered by the call taker",
        n["addr"]: "incident location",
        n["created"]: "when the incident record was created in CAD (repeated on every unit row)",
        n["ani"]: "caller's telephone number (ANI) of the 911 call the incident was opened from, when there was one",
        n[
            "ani_t"
        ]: "when CAD received the caller's number and location from the 911 phone system (at the moment the call taker answered)",  # noqa: E501 (prose)
        n["agency"]: "agency the unit belongs to (" + ", ".join(codes) + ")",
        n["unit"]: "unit designator",
        n["disp"]: "unit dispatched (assigned) — blank if the unit put itself on the call",
        n["enr"]: "unit en route",
        n["stg"]: "unit at the staging area (fire/EMS), not yet at the scene",
        n["arr"]: "unit on scene — first time only",
        n[
            "how"
        ]: "how the on-scene time was entered: `AVL` automatic from vehicle GPS, `MDT` crew pressed the terminal button, `DISP` typed by the dispatcher",  # noqa: E501 (prose)
        n["ent"]: "time the dispatcher recorded the unit entering a building",
        n["trn"]: "ambulance transporting a patient (first transport only)",
        n["clr"]: "unit cleared the call",
    }
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Calls-for-service report from the {world.agencies[codes[0]].name} CAD, one row per unit assigned to each call "  # noqa: E501 (prose)
        f"(a call with no units has one row with blank unit columns). The report covers every call of the afternoon.",
        [(c, col_doc[c]) for c in cols],
        [
            (
                "Times",
                f"Every time column: {common.time_columns_doc(st, zone_stated)}. Times are when CAD recorded the status, "  # noqa: E501 (prose)
                "which may be after the fact when a dispatcher typed it in from the radio.",
            ),
            ("Call types", _nature_doc(ctx, False)),
        ],
        clock_note=f"CAD server; {clock.statement}.",
    )
    return exp


def status_rows(world, inc, codes, rng, clock, name, folder, title) -> Export:
    ctx = _Ctx(world, inc, codes, rng, clock, name, folder, title)
    st = common.stamp(rng, world, clock, SINGLE + SPLIT)
    naming = rng.choice(
        [
            dict(
                rid="LogID",
                inc="Incident",
                unit="UnitID",
                code="Status",
                src="Source",
                op="Operator",
                rem="Remarks",
                time=["StatusTime"] if st.style.columns == 1 else ["StatusDate", "StatusTime"],
                agency="Agency",
            ),
            dict(
                rid="SEQ_NO",
                inc="CFS_NO",
                unit="UNIT",
                code="STAT_CD",
                src="ENTRY_METHOD",
                op="POSITION",
                rem="COMMENT",
                time=["STAT_DTTM"] if st.style.columns == 1 else ["STAT_DT", "STAT_TM"],
                agency="AGCY",
            ),
        ]
    )
    n = naming
    distinct_avl = ctx.practice["avl_arrival"] and rng.random() < 0.4
    avl_code = (
        {"words": "AVLOS", "ten": "10-97A", "numeric": "3A", "verbose": "On Scene (AVL)"}[ctx.status_set]
        if distinct_avl
        else None
    )
    how_codes = rng.choice(HOW_CODES)
    cols = (
        [n["rid"], n["inc"]]
        + ([n["agency"]] if ctx.multi else [])
        + [n["unit"], n["code"]]
        + n["time"]
        + [n["src"], n["op"], n["rem"]]
    )
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=codes[0],
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="cad/status_rows",
        title=title,
        delimiter=rng.choice([",", ",", "|", "\t"]),
    )
    case = common.caser(rng)
    rid = rng.randint(5000, 90000)
    ops = [f"{rng.choice('ABCDEFGHJK')}{rng.randint(10, 99)}" for _ in range(4)]
    for s in ctx.statuses:
        rid += 1
        r = str(rid)
        code = avl_code if (s.how == "AVL" and avl_code) else ctx.codes_of[s.what]
        row = {
            n["rid"]: r,
            n["inc"]: s.incident.number,
            n["unit"]: ctx.unit_form(s.unit),
            n["code"]: code,
            n["src"]: how_codes[s.how],
            n["op"]: "" if s.how in ("MDT", "AVL") else rng.choice(ops),
            n["rem"]: "",
        }
        if ctx.multi:
            row[n["agency"]] = world.units[s.unit].agency
        if s.what == "reassigned":
            row[n["rem"]] = case(
                "moved to "
                + next(c.number for c in inc.incidents if c.agency == s.incident.agency and c.nature.startswith("MCI"))
            )
        elif s.what == "staged":
            row[n["rem"]] = case(world.fire_staging["name"])
        p = st.parts(s.t)
        _place(p, n["time"], row)
        exp.add(row)
        _mention_unit(exp, r, s.unit, row[n["unit"]])
        if s.kind:
            exp.record(r, s.kind, s.event, s.t, " ".join(p), how=s.how)
    sources = "\n".join(f"- `{how_codes[h]}`: {w}" for h, w in HOW_WORDS.items())
    col_doc = {
        n["rid"]: "log entry number, increasing",
        n["inc"]: "incident number",
        n["agency"]: "unit's agency",
        n["unit"]: "unit designator",
        n["code"]: "new status (table below)",
        n["src"]: "how the status was entered (list below)",
        n["op"]: "dispatcher console that entered it (blank when the unit or AVL did)",
        n["rem"]: "free text",
    }
    for c in n["time"]:
        col_doc[c] = "when the status was recorded" + (
            " (date part)"
            if c.endswith("DATE") or c.endswith("_DT")
            else (" (time part)" if len(n["time"]) > 1 else "")
        )
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Unit status history from the {world.agencies[codes[0]].name} CAD: one row each time a unit's status changed, "
        "for every incident of the afternoon. Incident details are in the calls report.",
        [(c, col_doc[c]) for c in cols],
        [
            ("Status codes", _status_code_doc(ctx, avl_code)),
            ("Entry method", sources),
            ("Times", f"{common.time_columns_doc(st, zone_stated)}. The time is when CAD stored the status."),
        ],
        clock_note=f"CAD server; {clock.statement}.",
    )
    return exp


def calls_summary(world, inc, codes, rng, clock, name, folder, title, ctx_from=None) -> Export:
    """One row per call (call level only); the companion of a status-rows export."""
    ctx = _Ctx(world, inc, codes, rng, clock, name, folder, title)
    st = common.stamp(rng, world, clock, SINGLE + SPLIT)
    n = rng.choice(
        [
            dict(
                rid="Call Number",
                nat="Call Type",
                addr="Location",
                ani="Caller ANI",
                pri="Priority",
                created=["Create Time"] if st.style.columns == 1 else ["Create Date", "Create Time"],
                ani_t=["ANI/ALI Time"] if st.style.columns == 1 else ["ANI/ALI Date", "ANI/ALI Time"],
                closed=["Close Time"] if st.style.columns == 1 else ["Close Date", "Close Time"],
                disp="Disposition",
            ),
            dict(
                rid="CFS_NO",
                nat="TYPE_CD",
                addr="ADDR",
                ani="ANI_NUM",
                pri="PRI",
                created=["CREATE_DTTM"] if st.style.columns == 1 else ["CREATE_DT", "CREATE_TM"],
                ani_t=["ALI_RCVD_DTTM"] if st.style.columns == 1 else ["ALI_DT", "ALI_TM"],
                closed=["CLOSE_DTTM"] if st.style.columns == 1 else ["CLOSE_DT", "CLOSE_TM"],
                disp="DISPO",
            ),
        ]
    )
    coded = n["nat"] == "TYPE_CD"
    cols = (
        [n["rid"], n["nat"], n["pri"], n["addr"]] + n["created"] + [n["ani"]] + n["ani_t"] + n["closed"] + [n["disp"]]
    )
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=codes[0],
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="cad/calls",
        title=title,
    )
    dispo = {
        "SHOOTING": "RPT",
        "ASSIST OTHER AGENCY - SHOOTING": "AOA",
        "MCI - ACTIVE SHOOTER STAGING": "TRANS",
        "FIRE ALARM COMMERCIAL": "CANC",
        "ACTIVE THREAT": "RPT",
    }
    for cad in sorted(ctx.incidents, key=lambda c: c.created):
        row = {
            n["rid"]: cad.number,
            n["nat"]: NATURE_CODES[cad.nature] if coded else cad.nature,
            n["pri"]: "1" if cad.related else str(rng.randint(2, 4)),
            n["addr"]: cad.place,
            n["disp"]: dispo.get(cad.nature, rng.choice(["RPT", "ADV", "GOA", "UTL"])),
        }
        vals, got = _incident_records(ctx, exp, cad.number, cad, st, "c", "a")
        _place(vals.get("c", []), n["created"], row)
        if got:
            _place(vals["a"], n["ani_t"], row)
            row[n["ani"]] = ctx.ani_fmt(got[0].ani)
        if cad.closed:
            p = st.parts(cad.closed)
            _place(p, n["closed"], row)
            exp.record(cad.number, "incident_closed", cad.closed_ev, cad.closed, " ".join(p))
        exp.add(row)
    col_doc = {
        n["rid"]: "call for service number (the same number the unit status history uses)",
        n["nat"]: "call type" + (" code (table below)" if coded else ""),
        n["pri"]: "priority, 1 highest",
        n["addr"]: "location",
        n["ani"]: "caller's number from the 911 system, when the call came in on 911",
        n["disp"]: "disposition code",
    }
    for c in n["created"]:
        col_doc[c] = "incident record created"
    for c in n["ani_t"]:
        col_doc[c] = "caller's number and location received from the 911 phone system (on answer)"
    for c in n["closed"]:
        col_doc[c] = "incident closed (blank while open at the time of the export)"
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Calls for service from the {world.agencies[codes[0]].name} CAD, one row per call, the afternoon of the incident.",  # noqa: E501 (prose)
        [(c, col_doc[c]) for c in cols],
        [
            ("Call types", _nature_doc(ctx, coded)),
            (
                "Dispositions",
                common.code_table(
                    [
                        ("RPT", "report taken"),
                        ("AOA", "assisted other agency"),
                        ("TRANS", "patient(s) transported"),
                        ("CANC", "cancelled"),
                        ("ADV", "advised"),
                        ("GOA", "gone on arrival"),
                        ("UTL", "unable to locate"),
                    ]
                ),
            ),
            ("Times", common.time_columns_doc(st, zone_stated)),
        ],
        clock_note=f"CAD server; {clock.statement}.",
    )
    return exp


def packed(world, inc, codes, rng, clock, name, folder, title) -> Export:
    ctx = _Ctx(world, inc, codes, rng, clock, name, folder, title)
    st = common.stamp(rng, world, clock, ["us24", "local_plain", "us12", "monname", "iso_offset"])
    sep, joiner, shape = rng.choice([(";", "@", "{u}@{t}"), (",", " ", "{u} ({t})"), ("|", "-", "{u}-{t}")])
    tpat = "%H%M%S" if shape == "{u}-{t}" else "%H:%M:%S"
    n = rng.choice(
        [
            dict(
                rid="CallID",
                opened="Opened",
                nat="Type",
                addr="Location",
                ani="ANI",
                disp="UnitsDispatched",
                enr="UnitsEnroute",
                arr="UnitsArrived",
                clr="UnitsCleared",
                dispo="Disposition",
            ),
            dict(
                rid="INCIDENT",
                opened="RECEIVED",
                nat="NATURE",
                addr="ADDRESS",
                ani="CALLBACK",
                disp="DISPATCHED",
                enr="RESPONDING",
                arr="ON_SCENE",
                clr="CLEARED",
                dispo="DISPO",
            ),
        ]
    )
    cols = [n["rid"], n["opened"], n["nat"], n["addr"], n["ani"], n["disp"], n["enr"], n["arr"], n["clr"], n["dispo"]]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=codes[0],
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="cad/packed",
        title=title,
    )
    what_col = {"dispatched": n["disp"], "enroute": n["enr"], "arrived": n["arr"], "available": n["clr"]}
    for cad in sorted(ctx.incidents, key=lambda c: c.created):
        r = cad.number
        row = {
            n["rid"]: r,
            n["nat"]: cad.nature,
            n["addr"]: cad.place,
            n["dispo"]: rng.choice(["CLOSED", "RPT", "ADV"]),
        }
        vals, got = _incident_records(ctx, exp, r, cad, st, "o", None)
        row[n["opened"]] = vals["o"][0]
        if got:
            row[n["ani"]] = ctx.ani_fmt(got[0].ani)
        packs: dict[str, list[str]] = {c: [] for c in what_col.values()}
        seen = set()
        for s in ctx.statuses:
            if s.incident is not cad or s.what not in what_col or (s.unit, s.what) in seen:
                continue
            seen.add((s.unit, s.what))
            uform = ctx.unit_form(s.unit)
            tt = time_only(clock.written(s.t), world.zone, tpat)
            packs[what_col[s.what]].append(shape.format(u=uform, t=tt))
            exp.record(r, s.kind, s.event, s.t, tt, unit_written=uform, how=s.how, written_as=f"time_only:{tpat}")
            exp.mention(r, "unit", s.unit, uform, multi=True)
        for c, items in packs.items():
            row[c] = sep.join(items)
        exp.add(row)
    example = sep.join(
        [
            shape.format(u="E12", t="14:03:22" if tpat == "%H:%M:%S" else "140322"),
            shape.format(u="M7", t="14:05:10" if tpat == "%H:%M:%S" else "140510"),
        ]
    )
    col_doc = {
        n["rid"]: "incident number",
        n["opened"]: f"incident created ({common.time_columns_doc(st, zone_stated)})",
        n["nat"]: "call type",
        n["addr"]: "location",
        n["ani"]: "911 caller's number when opened from a 911 call",
        n["disp"]: "every unit dispatched, with the time of dispatch",
        n["enr"]: "every unit that went en route, with the time",
        n["arr"]: "every unit that arrived on scene, with the time",
        n["clr"]: "units cleared, with the time",
        n["dispo"]: "disposition",
    }
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Incident summary from the {world.agencies[codes[0]].name} dispatch system, one row per incident. "
        "The unit columns list every unit with the time of that status.",
        [(c, col_doc[c]) for c in cols],
        [
            (
                "Unit lists",
                f"Each unit column holds entries separated by `{sep}`; each entry is the unit designator and the "
                f"time ({'HH:MM:SS' if tpat == '%H:%M:%S' else 'HHMMSS'}, 24-hour, {zone_stated}, on the date of "
                f"`{n['opened']}`), e.g. `{example}`. A unit appears once per column, with its first time.",
            ),
            ("Times", common.time_columns_doc(st, zone_stated)),
        ],
        clock_note=f"dispatch server; {clock.statement}.",
    )
    return exp


def wide(world, inc, codes, rng, clock, name, folder, title) -> Export:
    ctx = _Ctx(world, inc, codes, rng, clock, name, folder, title)
    dated = rng.random() < 0.5
    st = common.stamp(rng, world, clock, ["us24", "local_plain", "us12"] if not dated else ["us24"])
    slots = max(len({s.unit for s in ctx.statuses if s.incident is c}) for c in ctx.incidents)
    n = rng.choice(
        [
            dict(
                rid="Call No",
                date="Date",
                rec="Received",
                nat="Nature",
                addr="Address",
                u="Unit{i}",
                d="Disp{i}",
                e="Enrt{i}",
                a="Arrv{i}",
                c="Clr{i}",
            ),
            dict(
                rid="INCNO",
                date="INCDATE",
                rec="TIMERCVD",
                nat="CALLTYPE",
                addr="ADDR",
                u="UNIT_{i}",
                d="DISP_{i}",
                e="ENR_{i}",
                a="ONS_{i}",
                c="AVL_{i}",
            ),
        ]
    )
    cols = [n["rid"]] + ([n["date"]] if dated else []) + [n["rec"], n["nat"], n["addr"]]
    for i in range(1, slots + 1):
        cols += [n[k].format(i=i) for k in ("u", "d", "e", "a", "c")]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=codes[0],
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="cad/wide",
        title=title,
    )
    key = {"dispatched": "d", "enroute": "e", "arrived": "a", "available": "c"}
    for cad in sorted(ctx.incidents, key=lambda c: c.created):
        r = cad.number
        row = {n["rid"]: r, n["nat"]: cad.nature, n["addr"]: cad.place}
        if dated:
            row[n["date"]] = render(STYLES["us24"], clock.written(cad.created), world.zone)[0][:10]
            row[n["rec"]] = time_only(clock.written(cad.created), world.zone)
            exp.record(
                r, "incident_created", cad.created_ev, cad.created, row[n["rec"]], written_as="time_only:%H:%M:%S"
            )
        else:
            vals, _ = _incident_records(ctx, exp, r, cad, st, "c", None)
            row[n["rec"]] = vals["c"][0]
        units = []
        for s in ctx.statuses:
            if s.incident is cad and s.unit not in units:
                units.append(s.unit)
        for i, uid in enumerate(units, 1):
            uform = ctx.unit_form(uid)
            row[n["u"].format(i=i)] = uform
            exp.mention(r, "unit", uid, uform, multi=True)
            for s in ctx.statuses:
                if s.incident is not cad or s.unit != uid or s.what not in key:
                    continue
                col = n[key[s.what]].format(i=i)
                if row.get(col):
                    continue
                w = time_only(clock.written(s.t), world.zone) if dated else st.parts(s.t)[0]
                row[col] = w
                exp.record(
                    r,
                    s.kind,
                    s.event,
                    s.t,
                    w,
                    unit_written=uform,
                    how=s.how,
                    **({"written_as": "time_only:%H:%M:%S"} if dated else {}),
                )
        exp.add(row)
    col_doc = [(n["rid"], "incident number")]
    if dated:
        col_doc.append((n["date"], "incident date, MM/DD/YYYY; every time on the row is on this date"))
    col_doc += [(n["rec"], "incident created"), (n["nat"], "call type"), (n["addr"], "location")]
    col_doc += [
        (n["u"].format(i="N"), "Nth unit assigned, in the order assigned"),
        (n["d"].format(i="N"), "that unit dispatched"),
        (n["e"].format(i="N"), "that unit en route"),
        (n["a"].format(i="N"), "that unit on scene"),
        (n["c"].format(i="N"), "that unit cleared"),
    ]
    tdoc = (
        f"Times are HH:MM:SS, 24-hour, {zone_stated}, on the row's date"
        if dated
        else common.time_columns_doc(st, zone_stated)
    )
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Incident report from the {world.agencies[codes[0]].name} CAD: one row per incident with up to "
        f"{slots} units side by side (columns repeat for N = 1..{slots}; unused slots are blank).",
        col_doc,
        [("Times", tdoc)],
        clock_note=f"CAD server; {clock.statement}.",
    )
    return exp


def chronology(world, inc, codes, rng, clock, name, folder, title) -> Export:
    ctx = _Ctx(world, inc, codes, rng, clock, name, folder, title)
    st = common.stamp(rng, world, clock, SPLIT + ["us24", "local_plain", "us12", "monname", "dayfirst"])
    n = rng.choice(
        [
            dict(
                rid="Seq",
                inc="Incident",
                typ="EntryType",
                unit="Unit",
                code="Code",
                text="Narrative",
                time=["Date", "Time"] if st.style.columns == 2 else ["DateTime"],
            ),
            dict(
                rid="LINE_ID",
                inc="EVENT_NO",
                typ="REC_TYPE",
                unit="UNIT",
                code="STATUS",
                text="DETAIL",
                time=["LOG_DATE", "LOG_TIME"] if st.style.columns == 2 else ["LOG_DTTM"],
            ),
        ]
    )
    types = rng.choice(
        [
            dict(status="STATUS", note="COMMENT", call="CALL", system="SYSTEM"),
            dict(status="UNIT", note="NARR", call="INC", system="SYS"),
        ]
    )
    cols = [n["rid"], n["inc"]] + n["time"] + [n["typ"], n["unit"], n["code"], n["text"]]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=codes[0],
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="cad/chronology",
        title=title,
        delimiter=rng.choice([",", "|"]),
    )
    case = common.caser(rng)
    entries = []
    for cad in ctx.incidents:
        if not cad.related:
            continue
        entries.append(
            (
                cad.created,
                "call",
                cad,
                None,
                "CREATED",
                f"INCIDENT CREATED {cad.nature}",
                "incident_created",
                cad.created_ev,
            )
        )
        got = ctx.ani_t(cad)
        if got:
            call, leg, t = got
            entries.append(
                (
                    t,
                    "call",
                    cad,
                    None,
                    "ANI",
                    f"911 ANI/ALI {ctx.ani_fmt(call.ani)} POS {leg.position}",
                    "call_answered",
                    leg.answer_ev,
                )
            )
        if cad.closed:
            entries.append(
                (cad.closed, "call", cad, None, "CLOSED", "INCIDENT CLOSED", "incident_closed", cad.closed_ev)
            )
    for s in ctx.statuses:
        if s.incident.related:
            entries.append(
                (
                    s.t,
                    "status",
                    s.incident,
                    s.unit,
                    ctx.codes_of[s.what],
                    SHORT[s.what] + (" (AVL)" if s.how == "AVL" else (" (MDT)" if s.how == "MDT" else "")),
                    s.kind,
                    s.event,
                )
            )
    for note in ctx.notes:
        if note.incident.related:
            entries.append((note.t, "note", note.incident, note.unit, "", note.text, note.kind, note.event))
    entries.sort(key=lambda e: e[0])
    rid = rng.randint(1, 50)
    for t, typ, cad, uid, code, text, kind, ev in entries:
        rid += 1
        r = str(rid)
        row = {
            n["rid"]: r,
            n["inc"]: cad.number,
            n["typ"]: types[typ],
            n["unit"]: ctx.unit_form(uid) if uid else "",
            n["code"]: code,
            n["text"]: case(text),
        }
        p = st.parts(t)
        _place(p, n["time"], row)
        exp.add(row)
        if uid:
            _mention_unit(exp, r, uid, row[n["unit"]])
        if kind:
            exp.record(r, kind, ev, t, " ".join(p), row_kind="cad_comment" if typ == "note" else kind)
    col_doc = {
        n["rid"]: "line number of the history",
        n["inc"]: "incident number",
        n["typ"]: "kind of entry (list below)",
        n["unit"]: "unit the entry concerns, if any",
        n["code"]: "status code for unit entries (table below); `CREATED`, `ANI`, `CLOSED` for incident entries",
        n["text"]: "entry text; comments are free text typed by dispatchers",
    }
    for c in n["time"]:
        col_doc[c] = "when the entry was made"
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Incident history (chronology) from the {world.agencies[codes[0]].name} CAD for the incidents related "
        "to the shooting: every status change, incident event and dispatcher comment, in the order entered.",
        [(c, col_doc[c]) for c in cols],
        [
            (
                "Entry types",
                common.code_table(
                    [
                        (types["status"], "unit status change"),
                        (types["note"], "dispatcher comment (free text)"),
                        (types["call"], "incident event: created, 911 caller data received (ANI/ALI), closed"),
                        (types["system"], "system message"),
                    ],
                    ("type", "meaning"),
                ),
            ),
            ("Status codes", _status_code_doc(ctx)),
            (
                "Times",
                common.time_columns_doc(st, zone_stated) + ". Comments are stamped when the dispatcher saved them.",
            ),
        ],
        clock_note=f"CAD server; {clock.statement}.",
    )
    return exp


FAMILIES = {
    "unit_rows": unit_rows,
    "status_rows": status_rows,
    "packed": packed,
    "wide": wide,
    "chronology": chronology,
}
