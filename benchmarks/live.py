"""Event -> alert latency of the live path (issue 18: p99 <= 250 ms at a sustained 2,000
events/s for 5 minutes, on the embedded default and through JetStream), loopback, bounded.

Each event is a webhook-style frame handed to the ingest node (onto the case's chain in
the store, read, stored as an event), through the stream, into the rule engine; a unit
holds outside while shots come, so every shot updates (or fires) the holding alert. The
latency is from the frame's arrival to the alert change it caused. Baseline, same run: the
same events straight into the engine, no store and no stream.

The board: each of `--board` events posted to a webhook feed of `onrecord live`, timed until it
shows on the board open in Chromium (target: within 1 s); baseline, the POST's round trip.

Run: .venv/bin/python benchmarks/live.py [--seconds 300] [--rate 2000] [--broker nats://127.0.0.1:4222] [--board 50]
     [--sqlite-library python|adbc]   (python, the default: as `onrecord live` writes; adbc: as before)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from onrecord.live.clocks import LiveClocks
from onrecord.live.engine import AlertEngine
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.native import read_event_json
from onrecord.live.rules import load_rules
from onrecord.live.state import Incident
from onrecord.live.stream import EmbeddedStream, JetStream
from onrecord.live.units import UnitDirectory
from onrecord.store.case import init_case


def frame(kind: str, unit: str | None = None, ago_s: float = 0.0, seq: int | None = None) -> bytes:
    t = datetime.fromtimestamp(time.time() - ago_s, timezone.utc).isoformat()
    return json.dumps({"kind": kind, "time": t, "unit": unit, "agency": "NCSO",
                       "attrs": {"seq": seq} if seq is not None else {}}).encode()


SHOT = '{"kind":"shots_detected","time":"%s","unit":null,"agency":"NCSO","attrs":{"seq":%d,"sent_ms":%.3f}}'


def shot(seq: int, sent_ms: float) -> bytes:
    """A shot frame as `frame` makes it, at a fraction of its cost (the load generator runs in
    the measured process); `sent_ms`: when it is handed over (wall clock), for a rule node in
    another process to time it by."""
    return (SHOT % (datetime.now(timezone.utc).isoformat(), seq, sent_ms)).encode()


def waited_for_cpu_s() -> float:
    """Seconds this process's threads spent ready to run but waiting for a core (Linux
    schedstat; 0 where it cannot be read): what a loaded machine adds to every latency."""
    total = 0
    for task in Path("/proc/self/task").glob("*"):
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return total / 1e9


def thread_cpu_s() -> dict[str, float]:
    """Each live thread's CPU so far (s), by its name (Linux schedstat: time on a core)."""
    import threading

    out: dict[str, float] = {}
    for t in threading.enumerate():
        try:
            ns = int(Path(f"/proc/self/task/{t.native_id}/schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError, TypeError):
            continue
        name = "event loop" if t is threading.main_thread() else t.name.split(" ")[0]
        out[name] = out.get(name, 0.0) + ns / 1e9
    return out


def profiled(fn, out: Path):
    """`fn` run under cProfile (its own thread's calls only), the stats dumped to `out` at its end."""
    import cProfile
    import functools

    @functools.wraps(fn)
    def run(*args, **kw):
        prof = cProfile.Profile(time.thread_time)  # its CPU, not its waits
        prof.enable()
        try:
            return fn(*args, **kw)
        finally:
            prof.disable()
            prof.dump_stats(str(out))

    return run


def p(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def holding_engine() -> AlertEngine:
    rules = [r for r in load_rules() if r.name == "armed_unit_holding_outside"]
    return AlertEngine(rules, Incident(UnitDirectory()))


def rule_node(case_path, whole: bool):
    """What applies an event and gives the alert changes it made: the engine alone, or (`whole`)
    the rule node of `onrecord live` (service.py: the board noted, each change in the case's
    alert log before it is "made")."""
    if not whole:
        engine = holding_engine()
        return engine.apply
    from zoneinfo import ZoneInfo

    from onrecord.live.service import RuleNode
    from onrecord.store.case import open_case

    node = RuleNode(open_case(Path(case_path)), [r for r in load_rules() if r.name == "armed_unit_holding_outside"],
                    UnitDirectory(), ZoneInfo("UTC"))

    def apply(ev, now):
        changes = node.engine.apply(ev, now)
        node.board.note_event(ev)
        node.handle(changes)
        return changes

    return apply


def rules_process(broker: str, case_uid: str, case_path: str, whole: bool, ready, stop, out) -> None:
    """The rule node in a process of its own (`onrecord live --role rules`): the stream's durable
    consumer through the rules; each alert change timed from its frame's `sent_ms` (the wall
    clock when the frame was handed to the ingest node, in the other process). Puts its
    latencies (s) and its own CPU (s) on `out` once `stop` is set."""
    async def run():
        stream = JetStream(broker, case_uid)
        await stream.start()
        apply, lat = rule_node(case_path, whole), []

        async def consume():
            async for ev, token in stream.events():
                now = time.time() * 1000
                sent = ev.attrs.get("sent_ms")
                for c in apply(ev, now):
                    if c.action in ("fire", "update") and sent is not None:
                        lat.append((time.time() * 1000 - sent) / 1000)
                await stream.ack(token)

        cpu0 = time.process_time()
        task = asyncio.create_task(consume())
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        task.cancel()
        await stream.close()
        out.put((lat, time.process_time() - cpu0))

    asyncio.run(run())


async def run_path(case, stream, seconds: float, rate: float, rules_apart: bool = False,
                   whole: bool = False, profile_dir: Path | None = None) -> list[float]:
    """`rules_apart` (JetStream only): the rule node in its own process, as across machines;
    `whole`: the rule node of `onrecord live` (board and alert log), not the engine alone;
    `profile_dir`: the ingest writer's thread and the event loop's under cProfile, their
    stats dumped there (writer-PATH.prof, loop-PATH.prof)."""
    await stream.start()
    apply = None if rules_apart else rule_node(case.path, whole)
    loop = asyncio.get_running_loop()
    arrived: dict[int, float] = {}  # frame seq -> when it was handed to the ingest node
    lat: list[float] = []
    apart = None
    if rules_apart:
        import multiprocessing

        mp = multiprocessing.get_context("spawn")
        ready, stop, out = mp.Event(), mp.Event(), mp.Queue()
        apart = mp.Process(target=rules_process, args=(stream.url, stream.case_uid, str(case.path), whole, ready, stop,
                                                                  out), daemon=True)
        apart.start()
        await asyncio.to_thread(ready.wait, 120)

    def publish(evs):
        asyncio.run_coroutine_threadsafe(stream.publish(evs), loop).result()

    node = IngestNode(case, UnitDirectory(), LiveClocks(), publish)
    loop_prof = None
    if profile_dir is not None:
        import cProfile

        node._write_loop = profiled(node._write_loop, profile_dir / f"writer-{stream.name}.prof")
        loop_prof = cProfile.Profile(time.thread_time)
    await node.deliver_on_loop(stream.publish)  # as `onrecord live` does (service.py)
    feed = node.open_feed(FeedSpec(f"bench-{stream.name}", "webhook", max_rate=rate * 10))

    async def rules_node():
        async for ev, token in stream.events():
            now = time.time() * 1000
            for c in apply(ev, now):
                seq = ev.attrs.get("seq")
                if c.action in ("fire", "update") and seq in arrived:
                    lat.append(time.monotonic() - arrived[seq])
            await stream.ack(token)

    consumer = asyncio.create_task(rules_node()) if apart is None else None
    # off the loop: publish() waits on the loop, which would deadlock on its own thread
    # the holding alert needs the unit on scene and shots for 60 s: both a minute back, so that
    # every shot measured fires or updates it
    await asyncio.to_thread(node.accept, feed, [frame("unit_arrived", "12A4", 70), frame("shots_detected", None, 65)])
    # Each frame is handed over on its own as it comes due (as webhook POSTs come, none
    # waiting for another's acknowledgement); the node batches what arrives together.
    acked: list[float] = []  # when each frame was acknowledged (its batch committed)
    tick = 0.005
    cpu0, waited0, threads0 = time.process_time(), waited_for_cpu_s(), thread_cpu_s()
    if loop_prof is not None:
        loop_prof.enable()
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < seconds:
        due = int((time.monotonic() - start) * rate) - sent
        t, sent_ms = time.monotonic(), time.time() * 1000
        for i in range(due):
            arrived[sent + i] = t  # before it is handed over: the rules may see it before it is acknowledged
            fut = node.submit(feed, [shot(sent + i, sent_ms)])
            fut.add_done_callback(lambda f, t=t: acked.append(time.monotonic() - t))
        sent += due
        await asyncio.sleep(tick)
    end = time.monotonic()
    while len(acked) < sent and time.monotonic() - end < 120:
        await asyncio.sleep(0.05)
    drained = time.monotonic() - end
    threads = thread_cpu_s()
    if loop_prof is not None:
        loop_prof.disable()
        loop_prof.dump_stats(str(profile_dir / f"loop-{stream.name}.prof"))
    await asyncio.sleep(2)
    apart_cpu = 0.0
    if consumer is not None:
        consumer.cancel()
    else:
        stop.set()
        lat, apart_cpu = await asyncio.to_thread(out.get, True, 120)
        apart.join(30)
    await stream.close()
    await asyncio.to_thread(node.close)
    window = end - start
    done_in_window = len(acked)
    ack_ms = [a * 1000 for a in acked]
    print(f"  {stream.name}: {sent} frames offered in {window:.0f} s ({sent / window:.0f}/s); "
          f"{done_in_window} acknowledged, the last {drained:.1f} s after the offer ended "
          f"({done_in_window / (window + drained):.0f}/s sustained); frame -> acknowledged p50 {p(ack_ms, .5):.1f} ms, "
          f"p99 {p(ack_ms, .99):.1f} ms", flush=True)
    sizes, secs = [b[0] for b in node.batches], [b[1] * 1000 for b in node.batches]
    commits = [b[2] * 1000 for b in node.batches]
    print(f"    {len(sizes)} batches: frames p50 {p(sizes, .5)}, p99 {p(sizes, .99)}, max {max(sizes)}; written in "
          f"p50 {p(secs, .5):.1f} ms, p99 {p(secs, .99):.1f} ms, max {max(secs):.1f} ms; of which the commit "
          f"p50 {p(commits, .5):.1f} ms, p99 {p(commits, .99):.1f} ms", flush=True)
    took = [f"{r[2]:.1f} s at {r[1]} frames" for r in node.receipts]
    print(f"    the feed's signed receipts, the writer's time each took (a slice after each batch): "
          f"{', '.join(took) or 'none'}", flush=True)
    cpu = (time.process_time() - cpu0) * 1000
    print(f"    this process's CPU: {cpu / (end - start + drained) / 10:.0f}% of one core, "
          f"{cpu / max(1, sent):.3f} ms a frame (rules, stream and load generator included); its threads waited "
          f"{waited_for_cpu_s() - waited0:.1f} s in all for a free core", flush=True)
    by_thread = sorted(((v - threads0.get(k, 0.0)) * 1000 / max(1, sent), k) for k, v in threads.items())
    print("    of which, by thread (ms a frame): " + ", ".join(f"{k} {v:.3f}" for v, k in reversed(by_thread)
                                                                if v >= 0.001), flush=True)
    if apart is not None:
        print(f"    the rule node's own process: {apart_cpu * 1000 / (end - start + drained) / 10:.0f}% of one core, "
              f"{apart_cpu * 1000 / max(1, sent):.3f} ms a frame", flush=True)
    return lat


def baseline(seconds: float, rate: float) -> list[float]:
    rules = [r for r in load_rules() if r.name == "armed_unit_holding_outside"]
    engine = AlertEngine(rules, Incident(UnitDirectory()))
    lat = []
    from onrecord.live.events import LiveEvent, interpret

    def live(data: bytes, i: int) -> LiveEvent:
        row = read_event_json(data, "x").events.to_pylist()[0]
        return interpret(LiveEvent(i, 1, row["kind"], row["t_src_lo"], row["t_src_hi"], unit=row["unit"],
                                   agency="NCSO"))

    engine.apply(live(frame("unit_arrived", "12A4", 70), 0), time.time() * 1000)
    engine.apply(live(frame("shots_detected", None, 65), -1), time.time() * 1000)
    n = int(seconds * rate)
    for i in range(1, n + 1):
        t = time.monotonic()
        for c in engine.apply(live(frame("shots_detected"), i), time.time() * 1000):
            if c.action in ("fire", "update"):
                lat.append(time.monotonic() - t)
    return lat


def board_latency(n: int) -> tuple[list[float], list[float]]:
    """Event -> visible on the board in Chromium (issue 18: within 1 s): `onrecord live` as a
    subprocess with a webhook feed, the board open in headless Chromium; each event posted is
    timed until its line shows among the shots. Baseline, same run: the POST's own round trip."""
    import socket
    import subprocess
    import sys

    import httpx
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="onrecord-live-board-"))
    init_case(work / "case").engine.dispose()
    with (work / "case" / "onrecord.toml").open("a") as fh:
        fh.write('\n[[live.feeds]]\nname = "sensors"\ntype = "webhook"\n')
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "onrecord.cli", "live", str(work / "case"), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    shown, posted = [], []
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/board/state", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(url + "/board")
            page.wait_for_selector("#connection.on", timeout=30_000)
            with httpx.Client() as client:
                for i in range(n):
                    body = json.dumps({"kind": "shots_detected", "time": datetime.now(timezone.utc).isoformat(),
                                       "agency": "NCSO", "text": f"bench-{i}"}).encode()
                    t = time.monotonic()
                    client.post(url + "/feeds/sensors", content=body)
                    posted.append(time.monotonic() - t)
                    page.locator(f"#shots li:has-text('bench-{i}')").first.wait_for(timeout=30_000)
                    shown.append(time.monotonic() - t)
                    time.sleep(0.2)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return shown, posted


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--rate", type=float, default=2000)
    ap.add_argument("--broker", default="nats://127.0.0.1:4222")
    ap.add_argument("--board", type=int, default=50, help="events timed onto the board in Chromium (0: none)")
    ap.add_argument("--paths", default="embedded,jetstream", help="the paths measured (jetstream needs --broker)")
    ap.add_argument("--sqlite-library", choices=("python", "adbc"), default="python",
                    help="python: the store reached through Python's sqlite3 only, as `onrecord live` does "
                         "(store/python_sqlite.py); adbc: its writes through ADBC, as before the board took sign-in")
    ap.add_argument("--jetstream-rules", choices=("process", "thread", "both"), default="process",
                    help="through JetStream, the rule node in its own process (process: as `onrecord live --role "
                         "rules` runs it, the ingest node beside it) or in the ingest node's (thread: as before)")
    ap.add_argument("--rule-node", choices=("engine", "service"), default="engine",
                    help="engine: the alert engine alone (as before); service: the rule node of `onrecord live` "
                         "(the board noted, each change in the alert log, live-alerts.jsonl, before it counts)")
    ap.add_argument("--profile-dir", type=Path, default=None,
                    help="the writer's thread and the event loop's under cProfile, their stats dumped here")
    a = ap.parse_args()
    if a.profile_dir:
        a.profile_dir.mkdir(parents=True, exist_ok=True)
    whole = a.rule_node == "service"
    if a.sqlite_library == "python":
        from onrecord.store.engine import one_sqlite_library

        one_sqlite_library()
    if a.board and Path("/usr/bin/chromium").exists():
        shown, posted = board_latency(a.board)
        sh, po = [x * 1000 for x in shown], [x * 1000 for x in posted]
        print(f"event -> visible on the board in Chromium, {len(sh)} events: p50 {p(sh, .5):.1f} ms, "
              f"p99 {p(sh, .99):.1f} ms, max {max(sh):.1f} ms; baseline, the POST alone: p50 {p(po, .5):.1f} ms "
              f"(ratio p50 {p(sh, .5) / p(po, .5):.1f}x)", flush=True)
    work = Path(tempfile.mkdtemp(prefix="onrecord-live-bench-"))
    case = init_case(work / "case")
    print(f"event -> alert, {a.rate:.0f} events/s for {a.seconds:.0f} s (SQLite store through "
          f"{'sqlite3' if a.sqlite_library == 'python' else 'ADBC'}, loopback; rule node: {a.rule_node})")
    base = baseline(min(a.seconds, 10), a.rate)
    results = {"engine alone (baseline)": base}
    if "embedded" in a.paths:
        results["embedded"] = asyncio.run(run_path(case, EmbeddedStream(), a.seconds, a.rate, whole=whole,
                                                   profile_dir=a.profile_dir))
    if a.broker and "jetstream" in a.paths:
        import uuid

        if a.jetstream_rules in ("thread", "both"):
            results["jetstream"] = asyncio.run(run_path(case, JetStream(a.broker, str(uuid.uuid4())), a.seconds,
                                                        a.rate, whole=whole))
        if a.jetstream_rules in ("process", "both"):
            results["jetstream, rules apart"] = asyncio.run(run_path(case, JetStream(a.broker, str(uuid.uuid4())),
                                                                     a.seconds, a.rate, rules_apart=True,
                                                                     whole=whole))
    for name, lat in results.items():
        ms = [x * 1000 for x in lat]
        print(f"{name:>24}: {len(ms)} alert changes, p50 {p(ms, .5):.1f} ms, p99 {p(ms, .99):.1f} ms, "
              f"max {max(ms) if ms else float('nan'):.1f} ms")


if __name__ == "__main__":
    main()
