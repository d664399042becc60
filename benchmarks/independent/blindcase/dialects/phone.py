"""911 call-handling equipment logs of one answering point.

- call_events  one row per call event (presented, answered, transferred, released)
- call_legs    one row per call as it reached this answering point, a column per moment
"""

from __future__ import annotations

from ..timeline import Incident
from . import common

PHONE_STYLES = [
    "epoch_s",
    "epoch_ms",
    "utc_plain",
    "iso_z_ms",
    "split_utc",
    "local_frac",
    "us24",
    "iso_offset_ms",
    "local_plain",
    "us12",
]
COS_CODES = {"wireless": ["WPH2", "WPH2", "WPH1"], "landline": ["BUSN", "RESD", "PBXB"], "voip": ["VOIP"]}
COS_WORDS = {
    "WPH2": "wireless, phase II location",
    "WPH1": "wireless, phase I (tower sector only)",
    "BUSN": "business landline",
    "RESD": "residential landline",
    "PBXB": "business PBX",
    "VOIP": "VoIP",
}
EVENT_SETS = [
    {
        "ring": "PRESENTED",
        "answer": "ANSWERED",
        "transfer": "TRANSFERRED",
        "release": "RELEASED",
        "abandon": "ABANDONED",
    },
    {"ring": "RING", "answer": "ANS", "transfer": "XFER", "release": "DISC", "abandon": "ABND"},
    {"ring": "10", "answer": "20", "transfer": "40", "release": "90", "abandon": "91"},
]
EVENT_MEANING = {
    "ring": "call presented (ringing) at this answering point",
    "answer": "call answered by a call taker",
    "transfer": "call transferred to another answering point",
    "release": "call ended (line released)",
    "abandon": "caller hung up before answer",
}


def _legs(inc: Incident, psap: str):
    out = []
    for call in inc.calls:
        for leg in call.legs:
            if leg.psap == psap:
                out.append((call, leg))
    return sorted(out, key=lambda cl: cl[1].ring)


def _cos(rng, call, cache):
    if call.id not in cache:
        cache[call.id] = rng.choice(COS_CODES[call.cos])
    return cache[call.id]


def call_events(world, inc: Incident, psap: str, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, PHONE_STYLES)
    ev = rng.choice(EVENT_SETS)
    n = rng.choice(
        [
            dict(
                rid="EventID",
                call="CallID",
                time=["EventTime"],
                what="Event",
                pos="Position",
                ani="ANI",
                cos="COS",
                trunk="Trunk",
                dest="XferTarget",
            ),
            dict(
                rid="evt_seq",
                call="call_ref",
                time=["evt_utc"] if st.style.zone == "utc" else ["evt_local"],
                what="evt_code",
                pos="pos",
                ani="ani",
                cos="class_of_service",
                trunk="trunk_group",
                dest="xfer_to",
            ),
        ]
    )
    if st.style.columns == 2:
        n["time"] = ["EventDate", "EventTime"] if n["rid"] == "EventID" else ["evt_date", "evt_time"]
    cols = [n["rid"], n["call"]] + n["time"] + [n["what"], n["pos"], n["ani"], n["cos"], n["trunk"], n["dest"]]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="call911",
        agency=psap,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="call911/events",
        title=title,
        delimiter=rng.choice([",", ",", "|"]),
    )
    fmt, ani_style = common.ani_form(rng)
    cos_cache: dict = {}
    trunks = {
        "wireless": "WRLS-" + str(rng.randint(1, 4)),
        "landline": "CAMA-" + str(rng.randint(1, 8)),
        "voip": "SIP-" + str(rng.randint(1, 3)),
    }
    rows = []
    for call, leg in _legs(inc, psap):
        ref = f"{rng.randint(100, 999)}{len(rows):04d}"
        trunk = ("XFER " + leg.from_psap) if leg.from_psap else trunks[call.cos]
        rows.append((leg.ring, "ring", call, leg, leg.ring_ev, "call_received", ref, trunk, ""))
        if leg.answer is not None:
            rows.append((leg.answer, "answer", call, leg, leg.answer_ev, "call_answered", ref, trunk, ""))
        else:
            rows.append((leg.release, "abandon", call, leg, None, None, ref, trunk, ""))
        if leg.transfer is not None:
            rows.append((leg.transfer, "transfer", call, leg, leg.transfer_ev, "call_transferred", ref, trunk, leg.to))
        if leg.release is not None and leg.answer is not None:
            rows.append((leg.release, "release", call, leg, None, None, ref, trunk, ""))
    rows.sort(key=lambda r: r[0])
    rid = rng.randint(10_000, 800_000)
    for t, what, call, leg, event, kind, ref, trunk, dest in rows:
        rid += rng.randint(1, 4)
        r = str(rid)
        row = {
            n["rid"]: r,
            n["call"]: ref,
            n["what"]: ev[what],
            n["pos"]: "" if what == "ring" else leg.position,
            n["ani"]: fmt(call.ani),
            n["cos"]: _cos(rng, call, cos_cache),
            n["trunk"]: trunk,
            n["dest"]: dest,
        }
        p = st.parts(t)
        for c, v in zip(n["time"], p):
            row[c] = v
        exp.add(row)
        if kind:
            exp.record(r, kind, event, t, " ".join(p), caller=call.ani)
    col_doc = {
        n["rid"]: "event number (unique)",
        n["call"]: "call reference: all events of one call at this answering point share it",
        n["what"]: "what happened (table below)",
        n["pos"]: "call-taker position",
        n["ani"]: f"caller's number (ANI), written {ani_style}",
        n["cos"]: "class of service (table below)",
        n["trunk"]: "incoming trunk; `XFER <agency>` = transferred in from that answering point",
        n["dest"]: "for a transfer: the answering point it was sent to (agency code)",
    }
    for c in n["time"]:
        col_doc[c] = "when the event happened"
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Call detail records from the 911 call-handling system at the {world.agencies[psap].name} "
        "answering point: one row per call event, every 911 call of the afternoon.",
        [(c, col_doc[c]) for c in cols],
        [
            ("Events", common.code_table([(ev[k], v) for k, v in EVENT_MEANING.items()], ("event", "meaning"))),
            ("Class of service", common.code_table([(k, v) for k, v in COS_WORDS.items()])),
            ("Times", common.time_columns_doc(st, zone_stated) + ". Times are the phone system's own."),
        ],
        clock_note=f"911 call-handling equipment; {clock.statement}.",
    )
    return exp


def call_legs(world, inc: Incident, psap: str, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, [s for s in PHONE_STYLES if not s.startswith("split")])
    n = rng.choice(
        [
            dict(
                rid="CallRef",
                ani="ANI",
                cos="ClassOfService",
                ring="PresentedAt",
                ans="AnsweredAt",
                xfer="TransferredAt",
                to="TransferredTo",
                rel="ReleasedAt",
                pos="Position",
                frm="TransferredFrom",
                ringsec="RingSecs",
            ),
            dict(
                rid="CALL_ID",
                ani="CALLING_NUM",
                cos="COS",
                ring="SEIZE_TM",
                ans="ANS_TM",
                xfer="XFER_TM",
                to="XFER_DEST",
                rel="DISC_TM",
                pos="POSN",
                frm="ORIG_PSAP",
                ringsec="RING_SEC",
            ),
        ]
    )
    cols = [
        n["rid"],
        n["ani"],
        n["cos"],
        n["frm"],
        n["ring"],
        n["ans"],
        n["ringsec"],
        n["xfer"],
        n["to"],
        n["rel"],
        n["pos"],
    ]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="call911",
        agency=psap,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=n["rid"],
        dialect="call911/legs",
        title=title,
        delimiter=rng.choice([",", "\t"]),
    )
    fmt, ani_style = common.ani_form(rng)
    cos_cache: dict = {}
    rid = rng.randint(2000, 90000)
    for call, leg in _legs(inc, psap):
        rid += rng.randint(1, 6)
        r = str(rid)
        row = {
            n["rid"]: r,
            n["ani"]: fmt(call.ani),
            n["cos"]: _cos(rng, call, cos_cache),
            n["frm"]: leg.from_psap or "",
            n["to"]: leg.to or "",
            n["pos"]: leg.position if leg.answer else "",
        }
        for col, t, kind, event in (
            (n["ring"], leg.ring, "call_received", leg.ring_ev),
            (n["ans"], leg.answer, "call_answered", leg.answer_ev),
            (n["xfer"], leg.transfer, "call_transferred", leg.transfer_ev),
            (n["rel"], leg.release, None, None),
        ):
            if t is None:
                continue
            p = st.parts(t)
            row[col] = p[0]
            if kind:
                exp.record(r, kind, event, t, p[0], caller=call.ani)
        if leg.answer is not None:
            row[n["ringsec"]] = str(int(leg.answer - leg.ring))
        exp.add(row)
    col_doc = {
        n["rid"]: "call reference (unique)",
        n["ani"]: f"caller's number (ANI), written {ani_style}",
        n["cos"]: "class of service (table below)",
        n["frm"]: "answering point the call was transferred from (blank: rang here first)",
        n["ring"]: "call presented (started ringing) here",
        n["ans"]: "answered by a call taker (blank: abandoned)",
        n["ringsec"]: "seconds ringing before answer (whole seconds, rounded down)",
        n["xfer"]: "call transferred onward",
        n["to"]: "answering point it was transferred to",
        n["rel"]: "line released (call ended here)",
        n["pos"]: "call-taker position that answered",
    }
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"911 calls at the {world.agencies[psap].name} answering point, one row per call as it reached this "
        "answering point (a call transferred in from another answering point is a row of its own).",
        [(c, col_doc[c]) for c in cols],
        [
            ("Class of service", common.code_table([(k, v) for k, v in COS_WORDS.items()])),
            ("Times", common.time_columns_doc(st, zone_stated)),
        ],
        clock_note=f"911 call-handling equipment; {clock.statement}.",
    )
    return exp


FAMILIES = {"call_events": call_events, "call_legs": call_legs}
