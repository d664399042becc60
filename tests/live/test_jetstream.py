"""Ingest and rules through NATS JetStream (127.0.0.1:4222): a durable stream holds every
event two ingest nodes publish; the rule node's durable consumer keeps its place across a
restart, and the events it had seen come back from the stream to rebuild its state. In CI
these run, never skip (the server is started by .ci/run)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from onrecord.live.stream import JetStream
from tests.live.helpers import engine, ev

URL = os.environ.get("ONRECORD_TEST_NATS", "nats://127.0.0.1:4222")


def _need_server():
    import socket

    try:
        socket.create_connection(("127.0.0.1", 4222), timeout=1).close()
    except OSError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"NATS JetStream is required in CI and is not reachable: {exc}")
        pytest.skip(f"NATS JetStream not reachable at {URL}: {exc}")


async def _take(stream: JetStream, n: int, timeout: float = 10.0):
    got = []

    async def loop():
        async for e, msg in stream.events():
            got.append(e)
            await stream.ack(msg)
            if len(got) >= n:
                return

    await asyncio.wait_for(loop(), timeout)
    return got


def test_two_ingest_nodes_one_rule_node_that_restarts_without_losing_its_place():
    _need_server()
    case_uid = str(uuid.uuid4())

    async def go():
        a, b = JetStream(URL, case_uid), JetStream(URL, case_uid)
        rules = JetStream(URL, case_uid)
        for s in (a, b, rules):
            await s.start()
        await a.publish([ev("unit_arrived", 10, "12A4")])
        await b.publish([ev("shots_detected", t) for t in range(0, 100, 20)])
        first = await _take(rules, 3)
        await rules.close()  # the rule node stops after three
        await a.publish([ev("shots_detected", t) for t in range(100, 200, 20)])
        again = JetStream(URL, case_uid)
        await again.start()
        seen = [e async for e in again.history(await again.acked_upto())]
        rest = await _take(again, 10, timeout=20)
        await again.js.delete_stream(again.stream)
        for s in (a, b, again):
            await s.close()
        return first, seen, rest

    first, seen, rest = asyncio.run(go())
    # what it had acknowledged, to rebuild its state: a's message, not b's (stopped inside it)
    assert [e.id for e in seen] == [e.id for e in first[:1]]
    # b's message again whole, then the rest: with what was rebuilt, every event once
    assert len(seen) + len(rest) == 11 and len({e.id for e in seen + rest}) == 11
    assert {e.id for e in first} <= {e.id for e in seen + rest}  # nothing lost
    e = engine(["armed_unit_holding_outside"])
    changes = [c for x in sorted(seen + rest, key=lambda x: x.t) for c in e.apply(x)]
    assert [c.action for c in changes if c.action == "fire"] == ["fire"]


def test_events_travel_in_batch_messages_within_bounds(monkeypatch):
    from onrecord.live import stream

    monkeypatch.setattr(stream, "MESSAGE_EVENTS", 3)
    evs = [ev("shots_detected", t, text="x" * (200 if t == 5 else 1)) for t in range(8)]
    msgs = stream.to_messages(evs)
    assert [len(stream.from_messages(m)) for m in msgs] == [3, 3, 2]
    monkeypatch.setattr(stream, "MESSAGE_BYTES", 400)  # the long event alone fills a message
    msgs = stream.to_messages(evs)
    sizes = [(len(m), len(stream.from_messages(m))) for m in msgs]
    assert all(size <= 400 or n == 1 for size, n in sizes) and any(size > 400 for size, _ in sizes)
    assert len(msgs) > 3
    back = [e for m in msgs for e in stream.from_messages(m)]
    assert [(e.id, e.kind, e.t, e.whats) for e in back] == [(e.id, e.kind, e.t, e.whats) for e in evs]
    assert [e.id for e in stream.from_messages(stream.to_message(evs[0]))] == [evs[0].id]  # one, as once sent

