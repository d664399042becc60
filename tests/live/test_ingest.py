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


# ---- group commit: the frames that arrive together, one transaction

def held_frames(case_dir, source_id) -> list[bytes]:
    return [bytes(r) for (r,) in open_reader(case_dir).source_bytes(source_id)]


def one_batch(n, frames: int) -> None:
    """The next batch is cut by its size, `frames`, not by time (a long wait for more)."""
    n.max_batch_frames, n.linger_s = frames, 60.0


def test_frames_of_several_feeds_arriving_together_are_one_batch(case_dir):
    published = []
    n = node(case_dir, published)
    a, b = n.open_feed(FeedSpec("a", "webhook")), n.open_feed(FeedSpec("b", "webhook"))
    one_batch(n, 5)
    sent = [(a, [frame(unit="12A1")]), (b, [frame(unit="12A2"), frame(unit="12A3")]), (a, [frame(unit="12A4")]),
            (b, [frame(unit="12A5")])]
    futures = [n.submit(feed, frames) for feed, frames in sent]
    outcomes = [f.result(timeout=120) for f in futures]
    assert [len(o) for o in outcomes] == [1, 2, 1, 1] and all(x.reject is None for o in outcomes for x in o)
    assert [b[0] for b in n.batches] == [5]  # one transaction for all five
    # each feed's frames on its own source in the order they came; each event cites its own frame
    assert held_frames(case_dir, a.source_id)[1:] == [sent[0][1][0], sent[2][1][0]]
    assert held_frames(case_dir, b.source_id)[1:] == [*sent[1][1], sent[3][1][0]]
    r = open_reader(case_dir)
    for ev in published:
        line = r.event_line(ev.id)
        feed = a if line["file_name"] == "live:a" else b
        assert json.loads(held_frames(case_dir, feed.source_id)[line["ordinal"] - 1])["unit"] == ev.unit_name
    assert sorted(e.unit_name for e in published) == ["12A1", "12A2", "12A3", "12A4", "12A5"]
    assert verify_case(open_case(case_dir)).intact


def test_a_bad_frame_in_a_batch_is_rejected_alone_and_the_others_go_in(case_dir):
    published = []
    n = node(case_dir, published)
    feed = n.open_feed(FeedSpec("sensors", "webhook"))
    one_batch(n, 6)
    good = [frame(unit="12A1"), frame(unit="12A2"), frame(unit="12A3")]
    bad = [b"{not json", frame(kind="teleported"), json.dumps([json.loads(frame(unit="12A9")), {"kind": 7}]).encode()]
    mixed = [good[0], bad[0], good[1], bad[1], bad[2], good[2]]
    futures = [n.submit(feed, [f]) for f in mixed[:2]] + [n.submit(feed, mixed[2:])]
    outcomes = [o for f in futures for o in f.result(timeout=120)]
    assert [b[0] for b in n.batches] == [6]
    reasons = [o.reject for o in outcomes]
    assert reasons[0] is None and reasons[2] is None and reasons[5] is None
    assert "not JSON" in reasons[1] and "kind" in reasons[3]
    assert "[1]kind" in reasons[4]  # a list with one bad item is rejected whole, naming the item
    assert [e.unit_name for e in published] == ["12A1", "12A2", "12A3"]
    assert [e.frame for e in published] == [outcomes[i].raw_id for i in (0, 2, 5)]
    src = next(s for s in open_reader(case_dir).sources() if s["file_name"] == "live:sensors")
    assert held_frames(case_dir, feed.source_id)[1:] == mixed and src["event_count"] == 3
    log = [json.loads(x) for x in (case_dir / REJECTS_FILE).read_text().splitlines()]
    assert [r["raw_record"] for r in log] == [outcomes[i].raw_id for i in (1, 3, 4)]
    assert verify_case(open_case(case_dir)).intact


def test_a_batch_cut_by_a_failure_loses_nothing_acknowledged(case_dir, monkeypatch):
    from onrecord.store import live_writer

    n = node(case_dir)
    a, b = n.open_feed(FeedSpec("a", "webhook")), n.open_feed(FeedSpec("b", "webhook"))
    acked = n.accept(a, [frame(unit="12A1")]) + n.accept(b, [frame(unit="12A2")])
    real = live_writer.LiveWrite.append_frames

    def failing(self, source_id, frames, sha):
        if source_id == b.source_id:  # a's frames of the batch are written, then b's fail
            raise OSError("disk I/O error")
        return real(self, source_id, frames, sha)

    monkeypatch.setattr(live_writer.LiveWrite, "append_frames", failing)
    one_batch(n, 3)
    lost = [n.submit(a, [frame(unit="12A3")]), n.submit(b, [frame(unit="12A4")]), n.submit(a, [frame(unit="12A5")])]
    for f in lost:
        with pytest.raises(OSError, match="disk I/O"):
            f.result(timeout=120)  # not acknowledged: the sender hears it failed
    monkeypatch.setattr(live_writer.LiveWrite, "append_frames", real)
    n.max_batch_frames, n.linger_s = 1, 0.0
    after = n.accept(a, [frame(unit="12A6")]) + n.accept(b, [frame(unit="12A7")])
    held = {f: [json.loads(x)["unit"] for x in held_frames(case_dir, f.source_id)[1:]] for f in (a, b)}
    assert held == {a: ["12A1", "12A6"], b: ["12A2", "12A7"]}  # nothing of the failed batch, nothing acked lost
    assert a.frames == 3 and b.frames == 3
    assert all(o.reject is None for o in acked + after)
    assert verify_case(open_case(case_dir)).intact  # each feed's running digest was put back too


def test_events_that_cannot_be_stored_leave_their_frames_on_the_chain_rejected(case_dir, monkeypatch):
    from onrecord.store import live_writer

    published = []
    n = node(case_dir, published)
    feed = n.open_feed(FeedSpec("sensors", "webhook"))

    def broken(*args):
        raise ValueError("no room for events")

    monkeypatch.setattr(live_writer, "event_table", broken)
    out = n.accept(feed, [frame(unit="12A1"), frame(unit="12A2")])
    assert all("could not be stored: no room for events" in o.reject for o in out)
    assert published == []
    monkeypatch.undo()
    out = n.accept(feed, [frame(unit="12A3")])
    assert out[0].reject is None and [e.unit_name for e in published] == ["12A3"]
    src = next(s for s in open_reader(case_dir).sources() if s["file_name"] == "live:sensors")
    assert src["record_count"] == 4 and src["event_count"] == 1
    assert verify_case(open_case(case_dir)).intact


def test_a_tailed_csv_batch_is_read_in_one_pass_each_row_its_own_frame(tmp_path):
    from onrecord.store.case import init_case

    case = init_case(tmp_path / "case")
    published = []
    n = IngestNode(case, UnitDirectory(), LiveClocks(), published.extend)
    feed = n.open_feed(FeedSpec("cad", "csv-tail", parse_mapping(CSV_MAPPING, "t.toml"), options={"path": "x"}))
    t = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    lines = [b"Id,Unit,Status,Time\n", f"1,12A4,DISP,{t}\n".encode(), f"2,12A4,BOGUS,{t}\n".encode(),
             f"3,12A5,ONSC,{t}\n".encode(), b"4,12A6,ONSC,not a time\n", f"5,12A6,INBLD,{t}\n".encode()]
    out = n.accept(feed, lines[:3]) + n.accept(feed, lines[3:])
    assert out[0].reject is None and out[0].events == []  # the header: kept, the names of the columns
    assert "Status" in out[2].reject and "BOGUS" in out[2].reject and "Time" in out[4].reject
    assert [(e.kind, e.unit_name, e.frame) for e in published] == [
        ("unit_dispatched", "12A4", out[1].raw_id), ("unit_arrived", "12A5", out[3].raw_id),
        ("entry", "12A6", out[5].raw_id)]
    assert held_frames(tmp_path / "case", feed.source_id)[1:] == lines
    assert verify_case(open_case(tmp_path / "case")).intact


def test_batches_delivered_on_the_loop_are_published_in_order_before_they_are_acknowledged(case_dir):
    import asyncio

    n = node(case_dir)
    feed = n.open_feed(FeedSpec("sensors", "webhook"))
    published, acked_before = [], []

    async def go():
        async def publish(evs):
            await asyncio.sleep(0)  # a stream's publish awaits its server
            published.extend(evs)

        await n.deliver_on_loop(publish)
        n.max_batch_frames = 4  # several batches, each cut by its size

        async def one(i):
            out = await n.accept_async(feed, [frame(unit=f"12A{i}")])
            acked_before.append(all(e in published for e in out[0].events))  # its events already handed on
            return out[0].raw_id

        ids = await asyncio.gather(*(one(i) for i in range(12)))
        await asyncio.to_thread(n.close)
        return ids

    ids = asyncio.run(go())
    assert len(n.batches) >= 3 and all(acked_before) and len(acked_before) == 12
    assert [e.frame for e in published] == sorted(ids)  # in the order they are on the chain
    assert [e.id for e in published] == sorted(e.id for e in published)
    assert verify_case(open_case(case_dir)).intact


def test_a_batchs_events_are_found_by_search_as_soon_as_it_is_committed(case_dir):
    n = node(case_dir)
    feed = n.open_feed(FeedSpec("sensors", "webhook"))
    one_batch(n, 2)
    futures = [n.submit(feed, [frame(kind="radio_transmission", text="Quarry gate is open")]),
               n.submit(feed, [frame(kind="radio_transmission", text="heron staging")])]
    for f in futures:
        f.result(timeout=120)
    found = open_reader(case_dir).search("quarry")
    assert [e["text"] for e in found["events"]] == ["Quarry gate is open"]


def test_the_index_a_batch_writes_from_memory_is_what_a_rebuild_writes(case_dir, backend, monkeypatch):
    """A live batch indexes its events from the rows and frames it holds (not read back):
    word for word what search_index.refresh writes from the store, and its state moved on."""
    from sqlalchemy import select, text, update

    from onrecord.store import search_index
    from onrecord.store.schema import cases
    from onrecord.store.schema_search import search_state

    refreshed, real = [], search_index.refresh
    monkeypatch.setattr(search_index, "refresh", lambda sink, case_id: refreshed.append(case_id) or real(sink, case_id))
    n = node(case_dir)
    a, b = n.open_feed(FeedSpec("a", "webhook")), n.open_feed(FeedSpec("b", "webhook"))
    batches = [[(a, frame(kind="radio_transmission", text="Café door, Ünit 4 going in", place="North Gate")),
                (b, frame(unit="Ω-7", actor="Dispatch Kim")), (a, b"not json")],
               [(b, frame(kind="shots_detected", unit=None, text="two shots")), (a, frame(text=None))],
               [(a, frame(unit="12A9", text="12A9 staged at the lot")), (b, frame(kind="shots_detected", unit=None))]]
    for batch in batches:
        one_batch(n, len(batch))
        for f in [n.submit(feed, [data]) for feed, data in batch]:
            f.result(timeout=120)
    case = open_case(case_dir)
    query = (text("SELECT rowid, fields, raw, case_id, source_id FROM events_fts WHERE case_id = :c ORDER BY rowid")
             if backend == "sqlite" else
             text("SELECT event_id, CAST(tsv AS text), case_id, source_id FROM events_search WHERE case_id = :c "
                  "ORDER BY event_id"))

    def index():
        with case.engine.connect() as conn:
            state = conn.execute(select(search_state.c.generation, search_state.c.events_upto,
                                        search_state.c.events_indexed).where(search_state.c.case_id == case.id)).one()
            gen = conn.execute(select(cases.c.generation).where(cases.c.id == case.id)).scalar()
            return [tuple(r) for r in conn.execute(query, {"c": case.id})], tuple(state), gen

    written, state, gen = index()
    assert len(written) == 6 and state == (gen, written[-1][0], 6)
    assert len(refreshed) <= 1  # at most the first batch (no index state yet) read its events back
    monkeypatch.setattr(search_index, "refresh", real)
    with case.engine.begin() as conn:  # the index rebuilt from the store
        sink = search_index.connection_sink(conn)
        search_index._forget_events(sink, case.id)
        conn.execute(update(search_state).where(search_state.c.case_id == case.id)
                     .values(generation=-1, events_upto=0, events_indexed=0))
        search_index.refresh(sink, case.id)
    assert index() == (written, state, gen)


def test_a_batchs_events_are_stored_as_read_on_their_own_frames(case_dir):
    """A batch whose every frame is kept goes to the store as its reader's table stands; one
    with a frame rejected after reading (a time far off) has that frame's rows left out. In
    both, each stored event is on its own frame and reads back as the rules were given it."""
    from onrecord.live.replay import live_events_of_sources

    published = []
    n = node(case_dir, published)
    feed = n.open_feed(FeedSpec("sensors", "webhook"))
    pair = json.dumps([json.loads(frame(unit="12A3")), json.loads(frame(kind="shots_detected", unit=None,
                                                                          attrs={"rounds": 3}))]).encode()
    batches = [[frame(unit="12A1", attrs={"b": 1, "a": {"z": 2, "y": [1, 2]}}), pair, frame(unit="12A4")],
               [frame(unit="12A5"), frame(unit="12A6", time=now_iso(-5 * 3600)), pair, frame(unit="12A7")]]
    outcomes = []
    for frames in batches:
        one_batch(n, len(frames))
        futures = [n.submit(feed, [f]) for f in frames]
        outcomes += [o for f in futures for o in f.result(timeout=120)]
    assert [b[0] for b in n.batches] == [3, 4]
    assert [o.reject is None for o in outcomes] == [True, True, True, True, False, True, True]
    assert [e.unit_name for e in published] == ["12A1", "12A3", None, "12A4", "12A5", "12A3", None, "12A7"]
    of = (0, 1, 1, 2, 3, 5, 5, 6)  # each event's frame, in the order sent
    assert [e.frame for e in published] == [outcomes[i].raw_id for i in of]
    assert published[0].attrs == {"a": {"y": [1, 2], "z": 2}, "b": 1} and published[2].attrs == {"rounds": 3}
    sent, held, reader = batches[0] + batches[1], held_frames(case_dir, feed.source_id), open_reader(case_dir)
    assert [held[reader.event_line(e.id)["ordinal"] - 1] for e in published] == [sent[i] for i in of]
    again = list(live_events_of_sources(open_reader(case_dir), LiveClocks(), UnitDirectory()))
    assert [(e.id, e.kind, e.unit_name, e.attrs, e.t_lo) for e in again] == \
        [(e.id, e.kind, e.unit_name, e.attrs, e.t_lo) for e in published]
    assert verify_case(open_case(case_dir)).intact
