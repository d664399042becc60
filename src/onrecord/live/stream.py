"""Between the ingest nodes and the rule node: the embedded default (one process, an
asyncio queue) or NATS JetStream (several ingest nodes feed one board; a restarted rule
node takes up where it left: a durable stream holds every event, a durable consumer its
place). The message is the live event as JSON (`to_message` / `from_message`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import fields

from onrecord.live.events import LiveEvent

STREAM_PREFIX = "ONRECORD_LIVE"
# An event handed to a rule node that stopped before acknowledging it comes again this soon.
ACK_WAIT_S = 3.0
FIELDS = fields(LiveEvent)


def to_message(ev: LiveEvent) -> bytes:
    d = {f.name: getattr(ev, f.name) for f in FIELDS}  # shallow: asdict copies every value, deeply
    d["whats"] = list(ev.whats)
    d["unit"] = ev.unit if ev.unit is None or isinstance(ev.unit, int | str) else str(ev.unit)
    return json.dumps(d, separators=(",", ":")).encode()


def from_message(data: bytes) -> LiveEvent:
    d = json.loads(data)
    d["whats"] = tuple(d.get("whats") or ())
    return LiveEvent(**d)


class EmbeddedStream:
    """One process: events go from ingest to the rules through a bounded queue."""

    name = "embedded"

    def __init__(self, maxsize: int = 100_000):
        self.queue: asyncio.Queue = asyncio.Queue(maxsize)

    async def start(self) -> None:
        return None

    async def publish(self, events: list[LiveEvent]) -> None:
        for ev in events:
            await self.queue.put((ev, None))

    async def events(self, since: int = 0) -> AsyncIterator[tuple[LiveEvent, object]]:
        while True:
            yield await self.queue.get()

    async def ack(self, token) -> None:
        return None

    async def close(self) -> None:
        return None


class JetStream:
    """NATS JetStream: a durable stream per case (every event, kept), a durable pull
    consumer for the rule node (its place survives a restart); publishing waits for the
    server's acknowledgement, so an event handed over is stored."""

    name = "jetstream"

    def __init__(self, url: str, case_uid: str, durable: str = "rules"):
        self.url, self.case_uid, self.durable = url, case_uid, durable
        tag = case_uid.replace("-", "")
        self.stream, self.subject = f"{STREAM_PREFIX}_{tag}", f"onrecord.live.{tag}.events"
        self.nc = self.js = self.sub = None

    async def start(self) -> None:
        import nats
        from nats.js.api import RetentionPolicy, StorageType, StreamConfig

        self.nc = await nats.connect(self.url, connect_timeout=5, max_reconnect_attempts=-1)
        self.js = self.nc.jetstream()
        try:
            await self.js.stream_info(self.stream)
        except Exception:
            await self.js.add_stream(StreamConfig(name=self.stream, subjects=[self.subject],
                                                  retention=RetentionPolicy.LIMITS, storage=StorageType.FILE))

    async def publish(self, events: list[LiveEvent]) -> None:
        acks = [self.js.publish(self.subject, to_message(ev)) for ev in events]
        await asyncio.gather(*acks)

    async def history(self, upto: int) -> AsyncIterator[LiveEvent]:
        """The stream's events up to sequence `upto` (what a restarted rule node had seen),
        read with an ephemeral ordered consumer, leaving the durable one's place alone."""
        if upto <= 0:
            return
        sub = await self.js.subscribe(self.subject, ordered_consumer=True)
        try:
            while True:
                msg = await sub.next_msg(timeout=10)
                yield from_message(msg.data)
                if msg.metadata.sequence.stream >= upto:
                    break
        finally:
            await sub.unsubscribe()

    async def acked_upto(self) -> int:
        """The stream sequence up to which the durable consumer has acknowledged (0: new)."""
        try:
            info = await self.js.consumer_info(self.stream, self.durable)
        except Exception:
            return 0
        return int(info.ack_floor.stream_seq or 0)

    async def events(self, since: int = 0) -> AsyncIterator[tuple[LiveEvent, object]]:
        from nats.errors import TimeoutError as NatsTimeout
        from nats.js.api import AckPolicy, ConsumerConfig

        config = ConsumerConfig(ack_policy=AckPolicy.EXPLICIT, ack_wait=ACK_WAIT_S, max_ack_pending=100_000)
        self.sub = await self.js.pull_subscribe(self.subject, durable=self.durable, stream=self.stream, config=config)
        while True:
            try:
                msgs = await self.sub.fetch(batch=500, timeout=0.5)
            except NatsTimeout:
                continue
            except asyncio.TimeoutError:
                continue
            for msg in msgs:
                yield from_message(msg.data), msg

    async def ack(self, token) -> None:
        if token is not None:
            await token.ack()

    async def close(self) -> None:
        if self.nc is not None:
            await self.nc.drain()
