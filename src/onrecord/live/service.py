"""`onrecord live CASE`: the live process — feeds, ingest, the stream, the rule node, the
board. Roles: `all` (the embedded default, one process), or across machines through NATS
JetStream: `ingest` nodes (feeds and webhooks onto the chain, events onto the stream) and
one `rules` node (the stream through the rules, the board, the alerts).

Feeds are declared in the case's onrecord.toml, `[[live.feeds]]` (docs/live.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from onrecord.errors import InputError
from onrecord.live.clocks import LiveClocks
from onrecord.live.engine import AlertEngine, Change
from onrecord.live.events import LiveEvent
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.outbox import Outbox
from onrecord.live.rules import Rule, load_rules
from onrecord.live.state import Incident
from onrecord.live.units import UnitDirectory
from onrecord.store.case import Case, open_case

FEED_TYPES = ("eido-websocket", "webhook", "folder", "csv-tail")
DEFAULT_MAPPING = {"eido-websocket": "eido"}


def feed_specs(case: Case) -> list[FeedSpec]:
    """The feeds the case's onrecord.toml declares."""
    from onrecord.sources.mapping import load_mapping

    origin = str(Path(case.path) / "onrecord.toml")
    out = []
    for i, f in enumerate(case.settings.get("live", {}).get("feeds", [])):
        key = f"live.feeds[{i + 1}]"
        if not isinstance(f, dict) or not f.get("name"):
            raise InputError("a feed needs a name", file=origin, field=f"{key}.name")
        kind = f.get("type")
        if kind not in FEED_TYPES:
            raise InputError(f"must be one of {', '.join(FEED_TYPES)}", file=origin, field=f"{key}.type", value=kind)
        need = {"eido-websocket": "url", "folder": "path", "csv-tail": "path"}.get(kind)
        if need and not f.get(need):
            raise InputError("is required for this feed type", file=origin, field=f"{key}.{need}")
        mapping = f.get("mapping", DEFAULT_MAPPING.get(kind))
        if mapping is None and kind in ("folder", "csv-tail"):
            raise InputError("a mapping is required for this feed type", file=origin, field=f"{key}.mapping")
        if mapping is not None and (Path(case.path) / mapping).exists():
            mapping = str(Path(case.path) / mapping)
        spec = FeedSpec(name=str(f["name"]), type=kind, mapping=load_mapping(mapping) if mapping else None,
                        agency=f.get("agency"), tz=f.get("tz"), source_kind=f.get("source_kind", "sensor"),
                        clock_of=f.get("clock_of"), offset_s=f.get("offset_s"),
                        unknown_units=f.get("unknown_units", "accept"), max_rate=float(f.get("max_rate", 5000)),
                        options={k: f[k] for k in ("url", "path", "pattern", "incident", "subtype", "min_rate")
                                 if k in f})
        out.append(spec)
    return out


@dataclass
class Board:
    """What the board shows, kept by the rule node; each change wakes the pages watching."""

    incident: Incident
    engine: AlertEngine
    recent_shots: deque = field(default_factory=lambda: deque(maxlen=30))
    recent_calls: deque = field(default_factory=lambda: deque(maxlen=30))
    rejects: deque = field(default_factory=lambda: deque(maxlen=30))
    cleared: deque = field(default_factory=lambda: deque(maxlen=30))
    evidence: dict = field(default_factory=dict)  # event id -> what the board says of it
    feeds: list = field(default_factory=list)
    version: int = 0
    last_event: dict | None = None

    def __post_init__(self):
        self.changed = asyncio.Event()
        # alert id -> who acknowledged it on the board, and when (kept in the store, access/alert_acks.py:
        # loaded before a restarted node replays its events, so its cleared alerts say it too)
        self.acknowledged: dict[str, dict] = {}
        self._alert_sources: dict[str, tuple[int, set[int]]] = {}

    def note_event(self, ev: LiveEvent) -> None:
        self.evidence[ev.id] = {"id": ev.id, "kind": ev.kind, "t": ev.t, "t_lo": ev.t_lo, "t_hi": ev.t_hi,
                                "clock": ev.clock, "unit": ev.unit_name, "agency": ev.agency, "text": ev.text,
                                "raw_record": ev.frame, "source": ev.source_id}
        if len(self.evidence) > 50_000:
            for k in list(self.evidence)[:10_000]:
                del self.evidence[k]
        if "shots" in ev.whats:
            self.recent_shots.appendleft(self.evidence[ev.id])
        if any(w.startswith("call_") for w in ev.whats):
            self.recent_calls.appendleft(self.evidence[ev.id] | {"what": ev.whats[0]})
        self.last_event = {"id": ev.id, "t": ev.t, "applied": time.time() * 1000, "source": ev.source_id,
                           "sent": ev.attrs.get("sent_ms") if isinstance(ev.attrs, dict) else None}
        self.touch()

    def touch(self) -> None:
        self.version += 1
        self.changed.set()

    def snapshot(self) -> dict:
        """The whole picture, with the sources of what it shows (board_view.py filters it for
        each reader: sources withheld from them, protected names)."""
        from onrecord.findings.render import sentence

        agencies: dict[str, list] = {}
        for u in self.incident.units.values():
            agencies.setdefault(u.agency or "?", []).append(
                {"unit": u.name, "status": u.status, "since": u.since, "armed": u.armed,
                 "sources": sorted(self._sources(u.evidence.get(u.status, ())))})
        active = [{"alert": a.id, "rule": a.rule.name, "title": a.rule.title, "subject": a.subject,
                   "severity": a.rule.severity, "held_since": a.held_since, "fired_at": a.fired_at,
                   "values": _plain(a.values), "sentence": sentence(a.finding()),
                   "evidence": [self.evidence.get(e, {"id": e}) for e in a.evidence[-12:]],
                   "sources": sorted(self.alert_sources(a)), "acknowledged": self.acknowledged.get(a.id),
                   "withheld": False}
                  for a in self.engine.active.values()]
        return {"now": time.time() * 1000, "version": self.version,
                "agencies": {k: sorted(v, key=lambda x: x["unit"]) for k, v in sorted(agencies.items())},
                "alerts": active, "cleared": list(self.cleared), "shots": list(self.recent_shots),
                "calls": list(self.recent_calls), "feeds": self.feeds, "rejects": list(self.rejects),
                "last_event": self.last_event}

    def event_sources(self) -> dict[int, int]:
        return {i: e["source"] for i, e in self.evidence.items()}

    def _sources(self, event_ids) -> set[int]:
        from onrecord.live.board_view import NOT_KNOWN

        return {self.evidence.get(e, {}).get("source", NOT_KNOWN) for e in event_ids}

    def alert_sources(self, alert) -> set[int]:
        """The sources of all of an alert's evidence, kept up as it grows (an alert held for
        minutes at thousands of shots a second rests on hundreds of thousands of events)."""
        n, found = self._alert_sources.get(alert.id, (0, set()))
        if n < len(alert.evidence):
            found = found | self._sources(alert.evidence[n:])
            self._alert_sources[alert.id] = (len(alert.evidence), found)
        return found

    def forget(self, alert_id: str) -> dict | None:
        """A cleared alert: what the board kept on it while active goes; its acknowledgement is returned."""
        self._alert_sources.pop(alert_id, None)
        return self.acknowledged.pop(alert_id, None)

    def is_active(self, alert_id: str) -> bool:
        return any(a.id == alert_id for a in self.engine.active.values())

    def acknowledge(self, alert_id: str, done: dict) -> dict | None:
        """An active alert's acknowledgement by a signed-in person ({"by", "at"}, as kept in
        the store: access/alert_acks.py) shown on the board; None if it is no longer active."""
        if not self.is_active(alert_id):
            return None
        self.acknowledged[alert_id] = done
        self.touch()
        return done


def _plain(values: dict) -> dict:
    return {k: v for k, v in values.items() if isinstance(v, str | int | float | bool | list | type(None))}


class RuleNode:
    """The stream through the rules: the engine on the wall clock, the outbox, the board."""

    def __init__(self, case: Case, rules: list[Rule], directory: UnitDirectory, zone, webhooks=()):
        self.incident = Incident(directory)
        self.engine = AlertEngine(rules, self.incident)
        self.outbox = Outbox(Path(case.path), case.uid, zone, webhooks)
        self.board = Board(self.incident, self.engine)
        self.recovering = False

    def now(self) -> float:
        return time.time() * 1000

    def apply(self, ev: LiveEvent, at: float | None = None) -> None:
        self.board.note_event(ev)
        self.handle(self.engine.apply(ev, self.now() if at is None else max(at, ev.t or at)))

    def tick(self) -> None:
        self.handle(self.engine.advance(self.now()))
        self.outbox.sync(due_only=True)  # the updates of the last second on the disk

    def handle(self, changes: list[Change]) -> None:
        for c in changes:
            if c.action == "fire":
                from onrecord.live.replay import seen_by

                c.alert.values["seen_by"] = seen_by(self.incident)
            if self.recovering and c.action == "update":
                continue
            sent = self.outbox.send(c)
            if c.action == "clear":
                a = c.alert
                self.board.cleared.appendleft({"alert": a.id, "title": a.rule.title, "subject": a.subject,
                                               "fired_at": a.fired_at, "cleared_at": a.cleared_at,
                                               "reason": a.clear_reason, "logged": sent,
                                               "sources": sorted(self.board.alert_sources(a)),
                                               "acknowledged": self.board.forget(a.id), "withheld": False})
            self.board.touch()


def recover(node: RuleNode, case: Case, clocks: LiveClocks, directory: UnitDirectory) -> int:
    """A restarted embedded node: the live feeds' events already in the case, through the
    rules again in order (their own times), so its state and alerts are what they were;
    the outbox's log keeps what was said from being said twice. Returns how many."""
    from onrecord.live.replay import live_events_of_sources
    from onrecord.store.reader import open_reader

    n = 0
    node.recovering = True
    try:
        for ev in live_events_of_sources(open_reader(case), clocks, directory):
            node.board.note_event(ev)
            node.handle(node.engine.apply(ev, ev.t))
            n += 1
    finally:
        node.recovering = False
    node.tick()
    return n


def load_context(case_path: Path, rules_file: Path | None):
    from onrecord.store.reader import open_reader

    case = open_case(Path(case_path))
    reader = open_reader(case)
    ents = reader.entities("unit") if reader.is_built() else []
    directory = UnitDirectory(ents)
    sources = reader.sources()
    clocks = LiveClocks(reader.clock_estimates(), {s["file_name"]: s["id"] for s in sources})
    zone = reader.display_zone()
    rules = load_rules(rules_file)
    return case, directory, clocks, zone, rules


async def run_live(case_path: Path, host: str, port: int, rules_file: Path | None = None,
                   broker: str | None = None, role: str = "all", ready=None, *,
                   allowed_hosts: tuple[str, ...] = (), tls: tuple[Path, Path] | None = None,
                   secure_cookies: bool = False, oidc=None) -> None:
    """Serve the board and run the feeds until stopped (Ctrl-C). `allowed_hosts`, `tls`
    (certificate and key files), `secure_cookies` and `oidc` as for `onrecord serve`."""
    import uvicorn

    from onrecord.store.engine import one_sqlite_library

    # The ingest writes while the board reads accounts, sessions and the audit: on SQLite,
    # one SQLite library in this process for both (store/python_sqlite.py says why)
    one_sqlite_library()

    from onrecord.live.board_app import create_board_app
    from onrecord.live.feeds import FEEDS
    from onrecord.live.stream import EmbeddedStream, JetStream

    case, directory, clocks, zone, rules = load_context(case_path, rules_file)
    specs = feed_specs(case)
    webhooks = case.settings.get("live", {}).get("alert_webhooks", [])
    stream = JetStream(broker, case.uid) if broker else EmbeddedStream()
    await stream.start()
    loop = asyncio.get_running_loop()
    node = RuleNode(case, rules, directory, zone, webhooks) if role in ("all", "rules") else None
    if node is not None:
        from onrecord.access import alert_acks as acks

        node.board.acknowledged.update(await asyncio.to_thread(acks.load, case.engine, case.id))

    def publish(events):
        asyncio.run_coroutine_threadsafe(stream.publish(events), loop).result()

    def on_reject(row):
        if node is not None:
            loop.call_soon_threadsafe(lambda: (node.board.rejects.appendleft(row), node.board.touch()))

    ingest = IngestNode(case, directory, clocks, publish, on_reject) if role in ("all", "ingest") else None
    if ingest is not None:
        await ingest.deliver_on_loop(stream.publish)  # batches published on this loop, then acknowledged
        for spec in specs:
            await asyncio.to_thread(ingest.open_feed, spec)
    stop = asyncio.Event()
    tasks = []
    if node is not None:
        if broker:
            upto = await stream.acked_upto()
            async for ev in stream.history(upto):
                node.recovering = True
                node.board.note_event(ev)
                node.handle(node.engine.apply(ev, ev.t))
            node.recovering = False
        else:
            await asyncio.to_thread(recover, node, case, clocks, directory)
        tasks.append(asyncio.create_task(_consume(stream, node)))
        tasks.append(asyncio.create_task(_tick(node, ingest, stop)))
    if ingest is not None:
        for name, feed in ingest.feeds.items():
            runner = FEEDS[feed.spec.type]
            if runner is not None:
                tasks.append(asyncio.create_task(runner(ingest, feed, stop)))
    app = create_board_app(case, node, ingest, host=host, allowed_hosts=allowed_hosts,
                           secure_cookies=secure_cookies or tls is not None, oidc=oidc)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off",
                                           server_header=False, ssl_certfile=str(tls[0]) if tls else None,
                                           ssl_keyfile=str(tls[1]) if tls else None))
    if ready is not None:
        ready(server)
    try:
        await server.serve()
    finally:
        stop.set()
        for t in tasks:
            t.cancel()
        if ingest is not None:  # the frames taken written, their events published (on this loop)
            await asyncio.to_thread(ingest.close)
        await stream.close()
        if node is not None:
            node.outbox.close()  # the last updates' lines synced


async def _consume(stream, node: RuleNode) -> None:
    async for ev, token in stream.events():
        node.apply(ev)
        await stream.ack(token)


async def _tick(node: RuleNode, ingest, stop: asyncio.Event) -> None:
    while not stop.is_set():
        node.tick()
        if ingest is not None:
            node.board.feeds = ingest.feed_status()
        try:
            await asyncio.wait_for(stop.wait(), 0.1)
        except asyncio.TimeoutError:
            pass


def feeds_json(ingest) -> str:
    return json.dumps(ingest.feed_status() if ingest else [])
