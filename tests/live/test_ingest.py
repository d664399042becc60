"""The ingest node on both stores: every frame on the case's chain before it is read, bad
frames kept and rejected with a reason, `verify` intact, a restart taking up where it was."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone

import pytest

from onrecord.live.clocks import LiveClocks
from onrecord.live.ingest import REJECTS_FILE, FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.pipeline import verify_case
from onrecord.sources.mapping import parse_mapping
from onrecord.store.case import open_case
from onrecord.store.reader import open_reader


def now_iso(offset_s: float = 0.0) -> str:
    return datetime.fromtimestamp(time.time() + offset_s, tz=timezone.utc).isoformat()


def node(case_dir, published=None):
    case = open_case(case_dir)
    return IngestNode(case, UnitDirectory(), LiveClocks(), published.extend if published is not None else
                      (lambda evs: None))


def frame(**kw) -> bytes:
    return json.dumps({"kind": "unit_arrived", "time": now_iso(), "unit": "12A4", "agency": "NCSO"} | kw).encode()


def test_frames_are_on_the_chain_and_bad_ones_kept_with_a_reason(case_dir):
    published = []
    n = node(case_dir, published)
    feed = n.open_feed(FeedSpec("sensors", "webhook", max_rate=1000))
    good = frame()
    bad = [b"{not json", frame(kind="teleported"), frame(time="yesterday"), frame(time=now_iso(-5 * 3600))]
    outcomes = n.accept(feed, [good, *bad])
    assert outcomes[0].reject is None and len(outcomes[0].events) == 1
    reasons = [o.reject for o in outcomes[1:]]
    assert "not JSON" in reasons[0] and "kind" in reasons[1] and "time" in reasons[2]
    assert "hours from now" in reasons[3]
    assert len(published) == 1 and published[0].unit == "12A4" and published[0].id > 0
    # every frame, the rejected too, is a record on the chain, byte for byte
    src = next(s for s in open_reader(case_dir).sources() if s["file_name"] == "live:sensors")
    held = [bytes(r) for (r,) in open_reader(case_dir).source_bytes(src["id"])]
    assert held[1:] == [good, *bad] and src["record_count"] == 6 and src["event_count"] == 1
    assert verify_case(open_case(case_dir)).intact
    log = [json.loads(x) for x in (case_dir / REJECTS_FILE).read_text().splitlines()]
    assert [r["raw_record"] for r in log] == [o.raw_id for o in outcomes[1:]]


def test_a_restart_takes_up_the_same_source_and_the_chain_stays_intact(case_dir):
    first = node(case_dir)
    feed = first.open_feed(FeedSpec("sensors", "webhook"))
    first.accept(feed, [frame(), frame(unit="12A5")])
    again = node(case_dir)
    feed2 = again.open_feed(FeedSpec("sensors", "webhook"))
    assert feed2.source_id == feed.source_id and feed2.frames == 3
    again.accept(feed2, [frame(unit="12A6")])
    assert verify_case(open_case(case_dir)).intact
    assert len([s for s in open_reader(case_dir).sources() if s["file_name"] == "live:sensors"]) == 1


def test_unknown_units_and_floods_are_rejected_but_kept(case_dir):
    n = node(case_dir)
    feed = n.open_feed(FeedSpec("cad", "webhook", unknown_units="reject"))
    out = n.accept(feed, [frame(unit="ZZ9")])
    assert "on no roster" in out[0].reject
    flood = n.open_feed(FeedSpec("flood", "webhook", max_rate=5))
    outs = n.accept(flood, [frame(unit=f"12A{i}") for i in range(40)])
    assert sum(1 for o in outs if o.reject and o.reject.startswith("flood")) >= 30
    assert sum(1 for o in outs if o.reject is None) >= 5  # the feed keeps running
    assert verify_case(open_case(case_dir)).intact


CSV_MAPPING = """
[mapping]
name = "test-cad-tail"
source_kind = "cad"
agency = "NCSO"
timezone = "UTC"
[file]
format = "csv"
[fields]
unit = "Unit"
[attributes]
rid = "Id"
[[events]]
kind_from = "Status"
kinds = { ONSC = "unit_arrived", DISP = "unit_dispatched", INBLD = "entry" }
time = "Time"
format = "%Y-%m-%d %H:%M:%S"
"""


@pytest.mark.parametrize("store", ["sqlite"])
def test_a_tailed_csv_waits_for_a_partial_last_line(tmp_path, store):
    import asyncio

    from onrecord.live.feeds.csv_tail import run
    from onrecord.store.case import init_case

    case = init_case(tmp_path / "case")
    export = tmp_path / "cad.csv"
    t = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    export.write_bytes(f"Id,Unit,Status,Time\n1,12A4,DISP,{t}\n2,12A4,ON".encode())
    published = []
    n = IngestNode(case, UnitDirectory(), LiveClocks(), published.extend)
    feed = n.open_feed(FeedSpec("cad", "csv-tail", parse_mapping(CSV_MAPPING, "t.toml"), options={"path": export}))

    async def until(count: int) -> None:
        # Polled, not slept for a fixed time: a loaded machine only makes the feed slower.
        for _ in range(400):
            if len(published) >= count:
                return
            await asyncio.sleep(0.05)

    async def go():
        stop = asyncio.Event()
        task = asyncio.create_task(run(n, feed, stop))
        await until(1)
        await asyncio.sleep(0.3)  # time for a wrongly read partial row to show up
        assert [e.kind for e in published] == ["unit_dispatched"]  # row 2 is not finished
        with export.open("ab") as fh:
            fh.write(f"SC,{t}\n3,12A4,INBLD,{t}\n".encode())
        await until(3)
        stop.set()
        await task

    asyncio.run(go())
    assert [e.kind for e in published] == ["unit_dispatched", "unit_arrived", "entry"]
    held = [bytes(r) for (r,) in open_reader(case).source_bytes(feed.source_id)]
    assert b"".join(held[1:]) == export.read_bytes()  # the chain holds the export, byte for byte
    assert verify_case(open_case(tmp_path / "case")).intact
