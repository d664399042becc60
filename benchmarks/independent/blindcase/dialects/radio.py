"""Radio recorder exports: what a logging recorder stamps at each key-up, with a
transcript added by whoever reviewed the audio.

- logger     one row per transmission: start, duration, talkgroup, radio id, alias, transcript
- typed      a radio log typed from the recordings: time, from, to, message (paraphrased)
- headerless the recorder's raw dump: positional columns, no header line
- jsonl      a recorder API dump, one JSON object per transmission
"""

from __future__ import annotations

from ..timeline import Incident
from . import common

LOGGER_STYLES = [
    "local_frac",
    "iso_offset",
    "us24",
    "us12",
    "local_plain",
    "iso_z_ms",
    "monname",
    "dayfirst",
    "epoch_ms",
    "utc_plain",
    "iso_offset_ms",
]


def _what_it_hears(inc: Incident, agency: str, rng, with_911: bool):
    """Transmissions this agency's recorder captures: its own channels, the county-hosted
    fire dispatch channel for the sheriff, the other agency's channel once patched."""
    world = inc.world
    tg = inc.talkgroups
    mine = {tg[agency]}
    if world.agencies[agency].kind == "fire":
        mine.add(tg[agency + ":dispatch"])
    fire = world.code_of("fire")
    if world.agencies[agency].kind == "sheriff" and inc.notes.get("county_hosts_fire_dispatch"):
        mine.add(tg[fire + ":dispatch"])
    heard = []
    for tx in inc.txs:
        if tx.tg in mine:
            heard.append((tx, tx.tg))
        elif inc.patch_t and agency in inc.patched and tx.t > inc.patch_t and tx.agency in inc.patched:
            heard.append((tx, "PATCH " + tx.tg))
    if with_911:
        for call in inc.calls:
            for leg in call.legs:
                if leg.psap == agency and leg.answer is not None:
                    heard.append((("911", call, leg), f"911 LINE {int(leg.position) % 6 + 1}"))
    return heard


def _alias(rng, world, uid, style):
    if uid == "DISPATCH":
        return {"cad": "DISPATCH", "spoken": "Dispatch", "name": "CONSOLE"}[style]
    unit = world.units[uid]
    if style == "cad":
        return f"{unit.cad_id} {'MOB' if unit.vehicle else 'PORT'}"
    if style == "spoken":
        return unit.call_sign.upper()
    p = world.people[unit.crew[0]]
    return f"{p.rank[:3].upper()} {p.last.upper()}"


def logger(world, inc: Incident, agency, rng, clock, name, folder, title, variant="logger"):
    st = common.stamp(
        rng,
        world,
        clock,
        LOGGER_STYLES if variant != "headerless" else ["split_iso", "split_us", "split_dayfirst", "split_compact"],
    )
    with_911 = world.agencies[agency].answers_911 and rng.random() < 0.5
    alias_style = rng.choice(["cad", "spoken", "name"])
    case = common.caser(rng)
    if variant == "headerless":
        cols = ["id", "date", "time", "channel", "radio", "alias", "secs", "text"]
        rid_col = "id"
    elif variant == "jsonl":
        cols = ["txn", "start", "dur_ms", "talkgroup", "src_id", "src_alias", "transcript"]
        rid_col = "txn"
    else:
        n = rng.choice(
            [
                ["TxID", "StartTime", "Duration", "Talkgroup", "RadioID", "Alias", "Transcript"],
                ["Call#", "Start", "Secs", "TG", "Unit ID", "Unit Alias", "Text"],
            ]
        )
        cols = n
        rid_col = n[0]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="radio",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=rid_col,
        dialect=f"radio/{variant}",
        title=title,
        header=variant != "headerless",
        fmt="jsonl" if variant == "jsonl" else "csv",
        delimiter=rng.choice([",", "|"]) if variant == "headerless" else ",",
    )
    fmt_ani, _ = common.ani_form(rng)
    heard = _what_it_hears(inc, agency, rng, with_911)
    items = []
    for item, tgname in heard:
        if isinstance(item, tuple):
            _, call, leg = item
            t = leg.answer + rng.uniform(0.0, 0.4)
            items.append((t, tgname, None, call, leg))
        else:
            items.append((item.t, tgname, item, None, None))
    items.sort(key=lambda x: x[0])
    rid = rng.randint(100_000, 900_000)
    consoles = [f"{rng.randint(9000, 9099)}" for _ in range(3)]
    for t, tgname, tx, call, leg in items:
        rid += rng.randint(1, 7)
        r = str(rid)
        p = st.parts(t)
        if tx is None:
            radio_id, alias = "", fmt_ani(call.ani)
            text = ""
            dur = max(5.0, (leg.release or leg.answer + 60) - leg.answer)
        else:
            radio_id = rng.choice(consoles) if tx.speaker == "DISPATCH" else world.units[tx.speaker].radio_id
            alias = _alias(rng, world, tx.speaker, alias_style)
            text = case(tx.text)
            dur = tx.dur
        if variant == "headerless":
            row = {
                "id": r,
                "date": p[0],
                "time": p[1],
                "channel": tgname,
                "radio": radio_id,
                "alias": alias,
                "secs": f"{dur:.1f}",
                "text": text,
            }
        elif variant == "jsonl":
            row = {
                "txn": r,
                "start": p[0],
                "dur_ms": str(int(dur * 1000)),
                "talkgroup": tgname,
                "src_id": radio_id,
                "src_alias": alias,
                "transcript": text,
            }
        else:
            row = {
                cols[0]: r,
                cols[1]: p[0],
                cols[2]: f"{dur:.1f}",
                cols[3]: tgname,
                cols[4]: radio_id,
                cols[5]: alias,
                cols[6]: text,
            }
        exp.add(row)
        if tx is None:
            exp.record(r, "call_answered", leg.answer_ev, t, " ".join(p), caller=call.ani)
        else:
            exp.record(
                r,
                tx.kind,
                tx.event,
                t,
                " ".join(p),
                row_kind="radio_transmission",
                text_mentions=[m for m in tx.mentions if m != tx.speaker],
            )
            if tx.speaker != "DISPATCH":
                exp.mention(r, "unit", tx.speaker, alias)
                exp.mention(r, "radio_id", tx.speaker, radio_id)
    who = {
        "cad": "unit designator plus `MOB` (vehicle radio) or `PORT` (portable)",
        "spoken": "unit's radio call sign",
        "name": "rank abbreviation and surname of the radio's assigned user",
    }[alias_style]
    docs = {
        "id": "transmission number",
        "date": "start date",
        "time": "start time (key-up)",
        "channel": "talkgroup",
        "radio": "radio (subscriber) ID of the transmitting radio; dispatch consoles are 90xx",
        "alias": f"alias programmed for that radio: {who}; `DISPATCH`/`CONSOLE` for dispatchers",
        "secs": "duration in seconds",
        "text": "transcript (added during the review; blank where unintelligible or a phone line)",
    }
    if variant == "jsonl":
        docs = {
            "txn": docs["id"],
            "start": "start of the transmission (key-up)",
            "dur_ms": "duration in milliseconds",
            "talkgroup": docs["channel"],
            "src_id": docs["radio"],
            "src_alias": docs["alias"],
            "transcript": docs["text"],
        }
    elif variant == "logger":
        docs = dict(
            zip(
                cols,
                [
                    docs["id"],
                    "start of the transmission (key-up)",
                    docs["secs"],
                    docs["channel"],
                    docs["radio"],
                    docs["alias"],
                    docs["text"],
                ],
            )
        )
    sections = [
        (
            "Talkgroups",
            "Channels recorded: "
            + ", ".join(sorted({tg for _, tg, *_ in items}))
            + ". A talkgroup written `PATCH <name>` is another agency's channel heard through a patch once it was set up."  # noqa: E501 (prose)
            + (
                " `911 LINE n` rows are the 911 phone lines this recorder also captures: the start is when the call "
                "taker picked up, the alias is the caller's number."
                if with_911
                else ""
            ),
        ),
        (
            "Times",
            f"{'Columns date + time' if variant == 'headerless' else 'Start'}: "
            f"{common.time_columns_doc(st, zone_stated)}. Stamped by the recorder when the transmission began.",
        ),
    ]
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Logging recorder export of the {world.agencies[agency].name} dispatch center: one row per recorded "
        "radio transmission, with a transcript prepared afterwards from the audio.",
        [(c, docs[c]) for c in cols],
        sections,
        clock_note=f"logging recorder; {clock.statement}.",
    )
    return exp


def typed(world, inc: Incident, agency, rng, clock, name, folder, title):
    """A radio log a communications supervisor typed from the recordings, paraphrased in
    caps; times read off the recorder's playback."""
    st = common.stamp(rng, world, clock, ["us24", "split_us", "split_iso", "local_plain", "us12"])
    tcols = ["Time"] if st.style.columns == 1 else ["Date", "Time"]
    cols = ["Line"] + tcols + ["From", "To", "Message"]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="radio",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col="Line",
        dialect="radio/typed",
        title=title,
    )
    heard = [(tx, tg) for tx, tg in _what_it_hears(inc, agency, rng, False)]
    line = 0
    for tx, tg in sorted(heard, key=lambda x: x[0].t):
        if tx.kind == "radio_transmission" and rng.random() < 0.4:
            continue  # the typist skipped routine traffic
        line += 1
        r = str(line)
        p = st.parts(tx.t)
        frm = "DISPATCH" if tx.speaker == "DISPATCH" else world.units[tx.speaker].cad_id
        to = (
            "ALL UNITS"
            if tx.speaker == "DISPATCH" and not tx.mentions
            else (world.units[tx.mentions[0]].cad_id if tx.speaker == "DISPATCH" else "DISPATCH")
        )
        msg = tx.text.upper()
        if tx.speaker != "DISPATCH":
            msg = msg.replace(world.units[tx.speaker].call_sign.upper(), "").strip(" ,")
        row = {"Line": r, "From": frm, "To": to, "Message": msg + (" [PATCH]" if tg.startswith("PATCH") else "")}
        for c, v in zip(tcols, p):
            row[c] = v
        exp.add(row)
        exp.record(
            r,
            tx.kind,
            tx.event,
            tx.t,
            " ".join(p),
            row_kind="radio_transmission",
            text_mentions=[m for m in tx.mentions if m != tx.speaker],
        )
        if tx.speaker != "DISPATCH":
            exp.mention(r, "unit", tx.speaker, frm)
        elif tx.mentions:
            exp.mention(r, "to", tx.mentions[0], to)
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Radio log of the {world.agencies[agency].name} main channel, typed by the communications supervisor "
        "from the recorder after the incident. Messages are paraphrased; routine acknowledgements were left out.",
        [
            ("Line", "line number"),
            *[(c, "time the transmission began, read off the recorder") for c in tcols],
            ("From", "who transmitted: unit designator, or DISPATCH"),
            ("To", "who was addressed"),
            ("Message", "what was said, in capitals; `[PATCH]` marks traffic heard from the patched channel"),
        ],
        [("Times", common.time_columns_doc(st, zone_stated))],
        clock_note=f"times as shown by the logging recorder; {clock.statement}.",
    )
    return exp


FAMILIES = {
    "logger": logger,
    "typed": typed,
    "headerless": lambda *a, **k: logger(*a, variant="headerless", **k),
    "jsonl": lambda *a, **k: logger(*a, variant="jsonl", **k),
}
