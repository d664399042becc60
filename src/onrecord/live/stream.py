"""Between the ingest nodes and the rule node: the embedded default (one process, an
asyncio queue) or NATS JetStream (several ingest nodes feed one board; a restarted rule
node takes up where it left: a durable stream holds every event, a durable consumer its
place). A JetStream message is a batch of live events as JSON — those an ingest node
stored in one transaction, up to MESSAGE_EVENTS / MESSAGE_BYTES — so that a stream of
thousands of events a second costs tens of publishes and acknowledgements a second, not
thousands; the rule node still applies them one by one. The message is the unit the
stream stores, hands out and is acknowledged for: a rule node stopped inside one gets it
again whole (its state rebuilt from the messages it had acknowledged, so nothing counts
twice).
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
# A message's events: at most this many, and this many bytes (NATS refuses a message over
# its max_payload, 1 MB unless the server says otherwise).
MESSAGE_EVENTS = 500
MESSAGE_BYTES = 512 << 10
# How long a publish waits for the server's acknowledgement, and how many times it is sent
# (a loaded machine can hold an acknowledgement past nats-py's default of 2 s).
PUBLISH_WAIT_S = 10.0
PUBLISH_TRIES = 3


def _plain(ev: LiveEvent) -> dict:
    d = {f.name: getattr(ev, f.name) for f in FIELDS}  # shallow: asdict copies every value, deeply
    d["whats"] = list(ev.whats)
    d["unit"] = ev.unit if ev.unit is None or isinstance(ev.unit, int | str) else str(ev.unit)
    return d


def _event(d: dict) -> LiveEvent:
    d["whats"] = tuple(d.get("whats") or ())
    return LiveEvent(**d)


def to_message(ev: LiveEvent) -> bytes:
    return json.dumps(_plain(ev), separators=(",", ":")).encode()


def from_message(data: bytes) -> LiveEvent:
    return _event(json.loads(data))


def to_messages(events: list[LiveEvent]) -> list[bytes]:
    """Events as batch messages (JSON arrays), in order, each within the bounds."""
    return [m for _, m in _named(events)]


def _named(events: list[LiveEvent]) -> list[tuple[str, bytes]]:
    """The batch messages, each with the ids of its first and last event (what names it)."""
    out, part, size, first = [], [], 2, 0

    def close(upto: int) -> None:
        out.append((f"{events[first].id}-{events[upto - 1].id}", ("[" + ",".join(part) + "]").encode()))

    for i, ev in enumerate(events):
        one = json.dumps(_plain(ev), separators=(",", ":"))
        if part and (len(part) >= MESSAGE_EVENTS or size + len(one) + 1 > MESSAGE_BYTES):
            close(i)
            part, size, first = [], 2, i
        part.append(one)
        size += len(one) + 1
    if part:
        close(len(events))
    return out


def from_messages(data: bytes) -> list[LiveEvent]:
    """A message's events: a batch (JSON array), or one event (an object, as once sent)."""
    doc = json.loads(data)
    return [_event(d) for d in doc] if isinstance(doc, list) else [_event(doc)]


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
        # The stream sequences of the messages handed to the rule node (from the history too):
        # a message whose acknowledgement came later than its ack wait (a loaded rule node)
        # comes again, and is not applied twice. One that was never acknowledged before a
        # restart is not here, and is applied.
        self._handed: set[int] = set()

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
        """Each batch message stored by the server (its acknowledgements awaited together). A
        message is named by the ids of its events (`Nats-Msg-Id`): one whose acknowledgement
        was slow in coming is sent again, PUBLISH_TRIES times in all, and the server keeps it
        once however many times it came."""
        from nats.errors import TimeoutError as NatsTimeout

        async def one(ev_ids: str, m: bytes) -> None:
            for attempt in range(PUBLISH_TRIES):
                try:
                    await self.js.publish(self.subject, m, timeout=PUBLISH_WAIT_S,
                                          headers={"Nats-Msg-Id": f"{self.case_uid}:{ev_ids}"})
                    return
                except (NatsTimeout, asyncio.TimeoutError):
                    if attempt == PUBLISH_TRIES - 1:
                        raise

        await asyncio.gather(*(one(ids, m) for ids, m in _named(events)))

    async def history(self, upto: int) -> AsyncIterator[LiveEvent]:
        """The stream's events up to sequence `upto` (what a restarted rule node had seen),
        read with an ephemeral ordered consumer, leaving the durable one's place alone."""
        if upto <= 0:
            return
        sub = await self.js.subscribe(self.subject, ordered_consumer=True)
        try:
            while True:
                msg = await sub.next_msg(timeout=10)
                if msg.metadata.sequence.stream in self._handed:
                    continue
                self._handed.add(msg.metadata.sequence.stream)
                for ev in from_messages(msg.data):
                    yield ev
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
        """Each event with the token to acknowledge once it is applied: its message's, with
        the message's last event (None with the others)."""
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
                seq = msg.metadata.sequence.stream
                if seq in self._handed:  # come again after its ack wait, already applied: said so
                    await msg.ack()
                    continue
                self._handed.add(seq)
                evs = from_messages(msg.data)
                if not evs:
                    await msg.ack()
                for i, ev in enumerate(evs):
                    yield ev, (msg if i == len(evs) - 1 else None)

    async def ack(self, token) -> None:
        if token is not None:
            await token.ack()

    async def close(self) -> None:
        """Drained: what was published flushed. The rule node's pull subscription goes first
        (a fetch left waiting by its stopped reader would hold the drain to its timeout)."""
        if self.nc is not None:
            if self.sub is not None:
                try:
                    await self.sub.unsubscribe()
                except Exception:  # already gone with the connection: nothing left to drain
                    pass
            await self.nc.drain()
