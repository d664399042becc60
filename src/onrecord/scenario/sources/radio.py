"""Radio logger exports, one per agency, each in its own dialect.

A logger records the talkgroups its agency monitors. Until the patch, the sheriff's
logger never hears the city channel and the other way round; after it, one transmission
is logged by both: two records, one true event.
"""

from __future__ import annotations

import random

from onrecord.scenario import written_times
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story, Transmission
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


def radio_log(story: Story, book: TruthBook, rng: random.Random, agency: str, off: float,
              phones: random.Random | None = None) -> Table:
    """With `phones`, the logger also records the agency's 911 lines (as dispatch-center
    recorders do, radio and telephone on one clock): a row per call answered, from the
    moment the call-taker picks up, with the caller's number. `phones` draws only those
    rows' own numbers, so the rest of the file keeps its draws."""
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
    said = [x for x in story.radio if x.channel in heard(x.t)]
    answered = _answered_calls(story, agency, phones) if phones else []
    for x in sorted(said + answered, key=lambda x: (x.t, x.channel)):
        phone = x.channel.endswith("-911")
        n += 1 if phone else rng.randint(1, 3)
        rid = f"{n}"
        alias = w.unit(x.uid).call_sign if x.uid else ("" if phone else "DISPATCH")
        written = written_times.local(x.t + off, tz, fmt)
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


def _answered_calls(story: Story, agency: str, phones: random.Random) -> list[Transmission]:
    """The 911 calls this agency's call-takers answered, as its recorder logs them."""
    w = story.world
    out = []
    for c in story.calls:
        if agency == w.sheriff:
            at, eid, line = c.county_answered, f"{c.cid}-answered-county", f"{w.sheriff}-911"
        elif agency == w.police and c.mobile:
            at, eid, line = c.city_answered, f"{c.cid}-answered-city", f"{w.police}-911"
        else:
            continue
        start = at + phones.uniform(0.0, 0.4)  # recording starts as the line goes off hook
        out.append(Transmission(eid, round(start, 3), line, None, f"911 call answered, ANI {c.phone}",
                                round(c.ended - at, 1)))
    return out


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
