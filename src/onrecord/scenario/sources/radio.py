"""Radio logger exports, one per agency, each in its own dialect.

A logger records the talkgroups its agency monitors. Until the patch, the sheriff's
logger never hears the city channel and the other way round; after it, one transmission
is logged by both: two records, one true event.
"""

from __future__ import annotations

import random

from onrecord.scenario import timefmt
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

DIALECTS = {
    # agency kind: file, columns (id, time..., channel, unit, seconds, text), time format
    "sheriff": ("county_radio.csv", ["TxId", "Start", "Talkgroup", "RadioAlias", "DurationSec", "Summary"],
                "%Y-%m-%d %H:%M:%S", "local YYYY-MM-DD HH:MM:SS, 24-hour"),
    "police": ("city_radio.csv", ["Event#", "Time Stamp", "Channel", "Unit ID", "Duration", "Note"],
               "%d-%b-%Y %I:%M:%S %p", "local DD-Mon-YYYY hh:mm:ss AM/PM"),
    "fire": ("fire_radio.csv", ["ID", "Date", "Time", "TG", "Src", "Secs", "Text"],
             "%m-%d-%Y %H:%M:%S", "local date MM-DD-YYYY and 24-hour time in separate columns"),
}


def radio_log(story: Story, book: TruthBook, rng: random.Random, agency: str, off: float) -> Table:
    w, tz = story.world, story.world.tz
    kind = w.agencies[agency].kind
    name, head, fmt, dialect = DIALECTS[kind]
    idc, chan, unit, secs, text = head[0], head[-4], head[-3], head[-2], head[-1]
    time_cols = head[1:3] if kind == "fire" else head[1]
    ev = [{"kind": "radio_transmission", "time": time_cols, "format": fmt}]
    m = mapping_doc(f"{name[:-4].replace('_', '-')}", "radio", agency, tz,
                    f"{w.agencies[agency].name} radio logger", {"unit": unit, "channel": chan, "text": text},
                    {"rid": idc, "seconds": secs}, ev, required=[idc, chan])
    t = Table(name, "radio", agency, head, m, off, f"one row per transmission; {dialect}")
    if kind == "fire":
        t.without_header()  # the fire logger exports bare rows
        t.dialect += "; no header line"
    heard = _heard_by(story, agency)
    n = rng.randint(1000, 9000)
    for x in (x for x in story.radio if x.channel in heard(x.t)):
        n += rng.randint(1, 3)
        rid = f"{n}"
        alias = w.unit(x.uid).call_sign if x.uid else "DISPATCH"
        written = timefmt.local(x.t + off, tz, fmt)
        row = {idc: rid, chan: x.channel, unit: alias, secs: f"{x.seconds:.1f}", text: x.text}
        if kind == "fire":
            row["Date"], row["Time"] = written.split(" ")
        else:
            row[head[1]] = written
        t.add(row)
        book.record(name, rid, "radio_transmission", x.eid, x.t, written)
        if x.uid:
            book.mention(name, rid, "unit", x.uid)
        for said, pid in x.names:  # a person named in what was said
            at = x.text.index(said)
            what = f"text@{at}-{at + len(said)}"
            book.mention(name, rid, what, pid)
            book.forms[f"{name}#{rid}#{what}"] = said
    return t


def _heard_by(story: Story, agency: str):
    w = story.world
    own = story.channels[agency]
    patched = {story.channels[w.sheriff], story.channels[w.police]}
    # the fire dispatch talkgroup is on the county's system: the county's logger records
    # it beside its own, and so does the fire department's
    extra = {story.fire_dispatch_channel} - {""} if agency in (w.sheriff, w.fire) else set()

    def heard(t: float) -> set[str]:
        if own in patched and t >= story.patched:
            return patched | extra
        return {own} | extra
    return heard
