"""The two 911 answering points' call logs.

City (mobile calls land here): one row per call, date YYYYMMDD and 24-hour time in
separate columns, local time. County: one row per presented call, epoch seconds (UTC);
a transferred call is a new row at the county pointing back at the city's sequence
number. The city's "Transferred" and the county's "Presented" are the same happening.
"""

from __future__ import annotations

import random

from onrecord.scenario import written_times
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

CITY_FMT = "%Y%m%d %H:%M:%S"


def city_911(story: Story, book: TruthBook, rng: random.Random) -> tuple[Table, dict[str, str]]:
    # The telephony server keeps UTC and writes it without saying so.
    w, tz, off = story.world, "UTC", round(rng.uniform(-5, 5), 3)
    name = "city_911.csv"
    head = ["Seq", "Date", "Presented", "Answered", "Transferred", "Released", "ClassOfService",
            "ANI", "Position", "XferTarget"]
    t3 = lambda col: ["Date", col]
    ev = [{"kind": "call_received", "time": t3("Presented"), "format": CITY_FMT},
          {"kind": "call_answered", "time": t3("Answered"), "format": CITY_FMT, "optional": True},
          {"kind": "call_transferred", "time": t3("Transferred"), "format": CITY_FMT, "optional": True}]
    m = mapping_doc("city-911", "call911", w.police, tz, f"{w.city} 911 answering point call log",
                    {"call": "Seq", "text": "ClassOfService"},
                    {"rid": "Seq", "ani": "ANI", "position": "Position", "transfer_to": "XferTarget",
                     "released": "Released"}, ev, required=["Seq", "Date", "Presented"])
    t = Table(name, "call911", w.police, head, m, off,
              "one row per call; date YYYYMMDD + 24-hour HH:MM:SS columns; UTC, not marked as such")
    seqs: dict[str, str] = {}
    seq = rng.randint(40000, 90000)
    for c in (c for c in story.calls if c.mobile):
        seq += rng.randint(1, 4)
        rid = str(seq)
        seqs[c.cid] = rid
        f = lambda x: written_times.local(x + off, tz, "%H:%M:%S")
        row = {"Seq": rid, "Date": written_times.local(c.city_presented + off, tz, "%Y%m%d"),
               "Presented": f(c.city_presented), "Answered": f(c.city_answered),
               "Transferred": f(c.transferred), "Released": f(c.transferred + 2),
               "ClassOfService": "WPH2", "ANI": c.phone, "Position": f"P{rng.randint(1, 6)}",
               "XferTarget": f"{w.sheriff} PSAP"}
        t.add(row)
        d = row["Date"]
        book.record(name, rid, "call_received", f"{c.cid}-presented-city", c.city_presented, f"{d} {row['Presented']}")
        book.record(name, rid, "call_answered", f"{c.cid}-answered-city", c.city_answered, f"{d} {row['Answered']}")
        book.record(name, rid, "call_transferred", f"{c.cid}-transferred", c.transferred, f"{d} {row['Transferred']}")
    return t, seqs


def county_911(story: Story, book: TruthBook, rng: random.Random, city_seq: dict[str, str]) -> Table:
    w, off = story.world, round(rng.uniform(-2, 2), 3)
    name = "county_911.csv"
    head = ["LogId", "PresentedEpoch", "AnsweredEpoch", "ReleasedEpoch", "CallType", "ANI",
            "ALI_Address", "TransferFromPSAP", "TransferFromSeq"]
    ev = [{"kind": "call_received", "time": "PresentedEpoch", "format": "epoch"},
          {"kind": "call_answered", "time": "AnsweredEpoch", "format": "epoch", "optional": True}]
    m = mapping_doc("county-911", "call911", w.sheriff, "UTC", f"{w.county} County 911 answering point call log",
                    {"call": "LogId", "place": "ALI_Address", "text": "CallType"},
                    {"rid": "LogId", "ani": "ANI", "transfer_from": "TransferFromPSAP",
                     "transfer_from_seq": "TransferFromSeq", "released": "ReleasedEpoch"}, ev,
                    required=["LogId", "PresentedEpoch"])
    t = Table(name, "call911", w.sheriff, head, m, off, "one row per presented call; epoch seconds UTC")
    for i, c in enumerate(sorted(story.calls, key=lambda c: c.county_presented)):
        rid = f"C{rng.randint(100, 999)}{i:03d}"
        e = lambda x: written_times.epoch(x + off)
        row = {"LogId": rid, "PresentedEpoch": e(c.county_presented), "AnsweredEpoch": e(c.county_answered),
               "ReleasedEpoch": e(c.ended), "CallType": "TRANSFER" if c.mobile else "911 LANDLINE",
               "ANI": c.phone, "ALI_Address": "" if c.mobile else (w.campus_address if c.related else "RESIDENCE"),
               "TransferFromPSAP": f"{w.police} PSAP" if c.mobile else "",
               "TransferFromSeq": city_seq.get(c.cid, "")}
        t.add(row)
        first = f"{c.cid}-transferred" if c.mobile else f"{c.cid}-presented-county"
        book.record(name, rid, "call_received", first, c.county_presented, row["PresentedEpoch"])
        book.record(name, rid, "call_answered", f"{c.cid}-answered-county", c.county_answered, row["AnsweredEpoch"])
    return t
