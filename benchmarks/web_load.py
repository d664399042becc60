"""The server under load (issue 16), beside a baseline measured in the same run:

50 concurrent signed-in clients (each its own account session through POST /login) read
`/api/events` pages (500 events, two a window) of a 1,000,000-event case for 60 s, on loopback
only. Printed: p50/p95/p99 latency, requests/s, errors, the server's peak RSS, and whether
every request is in the audit log; beside them the same requests made by one client alone
(the baseline: p99 under load / p50 alone is the ratio).
Targets: p99 <= 300 ms for /api/events pages, RSS <= 1 GB, 0 errors, every request audited.

`--workers 1 2` runs the whole measurement once per number of server processes
(`onrecord serve --workers N`), back to back on the same case; the server's CPU and RSS are
those of all its processes together. The load generator's own CPU is printed too: it runs
on the same cores as the server.

Run: .venv/bin/python benchmarks/web_load.py [--events 1000000] [--clients 50] [--seconds 60] [--work DIR]
                                             [--workers N [N ...]] [--role analyst|viewer] [--protect N]
The case is built by benchmarks/web_timeline.py's builder and kept in --work for later runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import h11

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
PASSWORD = "load test phrase 42"  # a fictional account on a throwaway copy of a generated case


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def accounts(case_dir: Path, n: int, role: str = "analyst") -> list[str]:
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case

    case = open_case(case_dir)
    access = AccessStore(case.engine)
    names = [f"load{'' if role == 'analyst' else role[0]}{i:02d}" for i in range(n)]  # audited(): "load..."
    for name in names:
        if access.accounts.find(name) is None:
            access.accounts.add(name, role, PASSWORD, case.id)
    case.engine.dispose()
    return names


def protected(case_dir: Path, n: int) -> int:
    """`n` people named in the case's first 20,000 events (the generated case's fictional
    names, the same ones whatever code reads them) marked protected: a viewer's pages then
    show them by pseudonym (`--role viewer`). The number the case has protected."""
    from onrecord.access.marks import protect
    from onrecord.store.case import open_case
    from onrecord.store.read_timeline import TimelineQuery
    from onrecord.store.reader import open_reader
    from onrecord.store.schema_access import protected_people

    case = open_case(case_dir)
    rows = open_reader(case).timeline(TimelineQuery(limit=20_000, columns="listing")).events
    with case.engine.connect() as conn:
        done = {r[0] for r in conn.execute(protected_people.select().with_only_columns(protected_people.c.name))}
    for name in sorted({r["actor"] for r in rows if r["actor"] and len(r["actor"].split()) >= 2})[:n]:
        if name not in done:
            protect(case.engine, case.id, name, "victim", "web_load.py")
            done.add(name)
    case.engine.dispose()
    return len(done)


def start_server(case_dir: Path, workers: int = 1) -> tuple[str, subprocess.Popen]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(HERE.parent / "src"))
    log = (case_dir.parent / "server-stderr.txt").open("ab")  # kept for reading after, and never a full pipe
    proc = subprocess.Popen([sys.executable, "-m", "onrecord.cli", "serve", str(case_dir), "--port", str(port)]
                            + (["--workers", str(workers)] if workers > 1 else []),
                            env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    import httpx

    for _ in range(600):
        try:
            if httpx.get(base + "/login", timeout=1).status_code == 200 and len(tree(proc.pid)) > workers - (
                    workers == 1):
                settle(proc.pid)
                return base, proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start: see {case_dir.parent / 'server-stderr.txt'}")


def tree(pid: int) -> list[int]:
    """The process and all its descendants (a server's worker processes)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def settle(pid: int, limit_s: float = 90) -> None:
    """Wait until every worker has started and read the case's facts (each does on start,
    seconds of CPU over a million events): until the server is idle for half a second."""
    until = time.monotonic() + limit_s
    while time.monotonic() < until:
        before = cpu_s(pid)
        time.sleep(0.5)
        if cpu_s(pid) - before < 0.05:
            return


def cpu_s(pid: int) -> float:
    """CPU time so far of the process and its descendants (all threads, user and system):
    what a request costs the server however busy the rest of the machine is."""
    total = 0
    for p in tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """Resident memory of the process and its descendants together."""
    total = 0.0
    for p in tree(pid):
        try:
            text = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        found = re.search(rf"{field}:\s+(\d+) kB", text)
        total += int(found.group(1)) / 1024 if found else 0
    return total


async def signed_in(base: str, name: str) -> str:
    """Sign in as a browser does (the form, its CSRF cookie, POST /login): the session's token."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        form = await client.get("/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
        r = await client.post("/login", data={"username": name, "password": PASSWORD, "csrf": csrf, "next": "/"})
    if r.status_code != 303:
        raise SystemExit(f"{name} could not sign in: {r.status_code}")
    return r.cookies["onrecord_session"]


class Connection:
    """One signed-in client's keep-alive HTTP/1.1 connection over h11 (the sans-IO parser httpx and
    uvicorn use): the load generator runs on the cores the server does, and httpx's client stack cost
    it about as much CPU per request as the server's own work; h11 on a bare stream costs a fraction.
    Every answer is read whole."""

    def __init__(self, base: str, token: str):
        self.host, self.port = base.split("//", 1)[1].split(":")
        self.headers = [("Host", f"{self.host}:{self.port}"), ("Cookie", f"onrecord_session={token}")]
        self.reader = self.writer = self.http = None

    async def get(self, target: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, int(self.port))
            self.http = h11.Connection(our_role=h11.CLIENT)
        elif self.http.our_state is h11.DONE:
            self.http.start_next_cycle()
        self.writer.write(self.http.send(h11.Request(method="GET", target=target, headers=self.headers)))
        self.writer.write(self.http.send(h11.EndOfMessage()))
        status, parts = 0, []
        while True:
            event = self.http.next_event()
            if event is h11.NEED_DATA:
                data = await self.reader.read(65536)
                if not data:
                    raise asyncio.IncompleteReadError(b"", None)
                self.http.receive_data(data)
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                parts.append(event.data)
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise asyncio.IncompleteReadError(b"", None)
        if self.http.their_state is not h11.DONE or self.http.our_state is not h11.DONE:
            await self.close()  # the server closes this connection: open a new one next time
        return status, b"".join(parts)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = self.http = None


# the page's last key (api.py events_page): read from the end of the answer, not by parsing it all
NEXT_CURSOR = re.compile(rb'"next_cursor":\s*(?:null|"([^"]*)")\s*}\s*$')
CHECK_EVERY = 50  # every 50th answer is parsed whole as JSON, to be sure the pages are what they claim


async def run_clients(base: str, names: list[str], windows: list[tuple[str, str]], seconds: float,
                      pid: int) -> dict:
    from urllib.parse import urlencode

    tokens = await asyncio.gather(*(signed_in(base, n) for n in names))
    clients = [Connection(base, t) for t in tokens]
    # Each worker reads the case's facts once when it starts (seconds over a million events);
    # the clock starts once they have: /api/cases/current answers only then, and answers from
    # every worker when asked over many connections at once.
    for status, _ in await asyncio.gather(*(Connection(base, tokens[0]).get("/api/cases/current")
                                            for _ in range(8))):
        if status != 200:
            raise SystemExit(f"/api/cases/current answered {status}")
    latencies, errors, peak, sizes = [], [], [0.0], []
    stop = time.perf_counter() + seconds

    async def one(client: Connection, seed: int):
        rng = random.Random(seed)
        while time.perf_counter() < stop:
            lo, hi = windows[rng.randrange(len(windows))]
            params = {"from": lo, "to": hi, "limit": 500}
            for _ in range(2):  # a page and the next one, as a reader scrolls
                t = time.perf_counter()
                try:
                    status, body = await client.get("/api/events?" + urlencode(params))
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:  # refused, dropped, garbled
                    errors.append(type(exc).__name__)
                    await client.close()
                    break
                latencies.append(time.perf_counter() - t)
                if status != 200:
                    errors.append(str(status))
                    break
                found = NEXT_CURSOR.search(body[-300:])
                whole = json.loads(body) if len(latencies) % CHECK_EVERY == 0 else None
                if found is None or (whole is not None and "events" not in whole):
                    errors.append("not a page of events")
                    break
                if whole is not None:
                    sizes.append(len(whole["events"]))
                if not found.group(1):
                    break
                params = params | {"cursor": found.group(1).decode()}

    async def watch():
        while time.perf_counter() < stop:
            peak[0] = max(peak[0], rss_mb(pid))
            await asyncio.sleep(0.5)

    t0, cpu0, mine0 = time.perf_counter(), cpu_s(pid), time.process_time()
    await asyncio.gather(watch(), *(one(c, i) for i, c in enumerate(clients)))
    took, cpu, mine = time.perf_counter() - t0, cpu_s(pid) - cpu0, time.process_time() - mine0
    for c in clients:
        await c.close()
    return {"latencies": latencies, "errors": errors, "seconds": took, "peak_rss": peak[0],
            "cpu_ms": cpu * 1000 / max(1, len(latencies)), "cores": cpu / took,
            "client_ms": mine * 1000 / max(1, len(latencies)), "client_cores": mine / took,
            "page_events": sum(sizes) / max(1, len(sizes))}


def listed(case_dir: Path) -> None:
    """The list's stored rows (store/listing.py) for a case kept in --work from before they
    were stored: an import renders them, and this case was imported by older code."""
    from onrecord.store.case import open_case

    try:
        from onrecord.store import listing
    except ImportError:  # a tree from before the stored rows (main, measured beside them)
        return
    case = open_case(case_dir)
    t = time.perf_counter()
    n = listing.refresh(case)
    case.engine.dispose()
    if n:
        print(f"rendered the list's rows of {n:,} events: {time.perf_counter() - t:.0f} s", flush=True)


def windows_of(case_dir: Path, n: int = 400, events: int = 1000) -> list[tuple[str, str]]:
    """Windows that each hold `events` events (two full pages of 500) from a random event on: a
    fixed length of time holds ~115 events of this case's year of background calls and thousands
    in the incident's hour, so a window is cut by count, the way a reader's page is."""
    from onrecord.timetext import to_utc_iso

    rng = random.Random(7)
    db = sqlite3.connect(f"file:{case_dir / 'case.db'}?mode=ro", uri=True)
    top = db.execute("select max(id) from events").fetchone()[0]
    out = []
    while len(out) < n:
        row = db.execute("select case_id, t_src_lo from events where id = ?", (rng.randint(1, top),)).fetchone()
        if not row or row[1] is None:
            continue
        # ix_events_case_time answers this without a scan
        end = db.execute("select t_src_lo from events where case_id = ? and t_src_lo >= ? order by t_src_lo "
                         "limit 1 offset ?", (row[0], row[1], events - 1)).fetchone()
        if end:  # a start too near the case's end is drawn again
            out.append((to_utc_iso(row[1]), to_utc_iso(end[0] + 1)))
    db.close()
    return out


def audited(case_dir: Path, since_ms: int, prefix: str = "load") -> int:
    """This run's page reads in the audit log (entries of earlier runs a server recovered from
    their spools are older)."""
    db = sqlite3.connect(f"file:{case_dir / 'case.db'}?mode=ro", uri=True)
    n = db.execute("select count(*) from audit_log where actor like ? and what like 'GET /api/events?%' "
                   "and at_ms >= ?", (prefix + "%", since_ms)).fetchone()[0]
    db.close()
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "onrecord-web-bench")
    ap.add_argument("--workers", type=int, nargs="+", default=[1], help="server processes; several: one run each")
    ap.add_argument("--role", choices=("analyst", "viewer"), default="analyst",
                    help="the clients' role: a viewer's pages show protected people by pseudonym")
    ap.add_argument("--protect", type=int, default=0, help="people of the case marked protected first")
    args = ap.parse_args()
    from web_timeline import build_case

    args.work.mkdir(parents=True, exist_ok=True)
    case_dir = build_case(args.work, args.events)
    listed(case_dir)
    args.protected = protected(case_dir, args.protect) if args.protect else 0
    names = accounts(case_dir, args.clients, args.role)
    windows = windows_of(case_dir)
    for workers in args.workers:
        measure(case_dir, names, windows, args, workers)


def measure(case_dir: Path, names: list[str], windows: list[tuple[str, str]], args, workers: int) -> None:
    base, proc = start_server(case_dir, workers)
    since = int(time.time() * 1000)
    try:
        alone = asyncio.run(run_clients(base, names[:1], windows, min(15.0, args.seconds), proc.pid))
        loaded = asyncio.run(run_clients(base, names, windows, args.seconds, proc.pid))
        hwm = rss_mb(proc.pid, "VmHWM")
        made = len(alone["latencies"]) + len(loaded["latencies"]) + len(alone["errors"]) + len(loaded["errors"])
        for _ in range(60):  # every answer's entry is safe in the server's spool; in the store within the second
            if audited(case_dir, since) >= made:
                break
            time.sleep(0.5)
        logged = audited(case_dir, since)
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    lat, one = loaded["latencies"], alone["latencies"]
    print(f"case: {args.events:,} events ({args.protected} people protected); {args.clients} signed-in "
          f"{args.role}s for {loaded['seconds']:.0f} s, "
          f"loopback, /api/events pages (limit 500; {loaded['page_events']:.0f} events a page served, "
          f"of {len(lat) // CHECK_EVERY} parsed) of windows holding 1,000 events; server: {workers} worker process"
          + ("es" if workers > 1 else ""))
    print(f"  under load : p50 {pct(lat, 50) * 1000:6.1f} ms  p95 {pct(lat, 95) * 1000:6.1f} ms  "
          f"p99 {pct(lat, 99) * 1000:6.1f} ms  {len(lat) / loaded['seconds']:6.1f} requests/s  "
          f"errors {len(loaded['errors'])}  (target p99 <= 300 ms, 0 errors)"
          + (f"  {dict(Counter(loaded['errors'] + alone['errors']))}" if loaded["errors"] or alone["errors"] else ""))
    print(f"  one client : p50 {pct(one, 50) * 1000:6.1f} ms  p95 {pct(one, 95) * 1000:6.1f} ms  "
          f"p99 {pct(one, 99) * 1000:6.1f} ms  {len(one) / alone['seconds']:6.1f} requests/s  (baseline, same run)")
    print(f"  ratio      : p99 under load / p50 alone = {pct(lat, 99) / pct(one, 50):.1f}x")
    print(f"  server CPU : {loaded['cpu_ms']:.1f} ms a request under load ({loaded['cores']:.2f} cores busy), "
          f"{alone['cpu_ms']:.1f} ms alone ({alone['cores']:.2f} cores); machine load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  client CPU : {loaded['client_ms']:.1f} ms a request under load ({loaded['client_cores']:.2f} cores: "
          "the load generator, on the same cores)")
    print(f"  server RSS : peak {max(hwm, loaded['peak_rss']):.0f} MB, all processes (each one's peak, summed; "
          "target <= 1024 MB)")
    print(f"  audit      : {logged:,} of {made:,} requests in the audit log"
          + ("" if logged >= made else "  << MISSING"), flush=True)


if __name__ == "__main__":
    main()
