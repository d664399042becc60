"""What serving a case under a server of many cases costs, beside serving it alone, in the
same run on the same PostgreSQL store:

- baseline: `onrecord serve CASE` (app.py's create_app) answering `/api/events?limit=500`;
- measured: `onrecord serve --database-url URL` (server.py) with CASES cases in the store,
  answering `/cases/<uid>/api/events?limit=500` for the same case.

Both signed in with an API token, on uvicorn over loopback, REQUESTS requests from one
client and then from 8 at once: p50/p95 latency and requests/s of each. Also the first
answer of a case on the server (its app is made then) beside a later one.

Run: .venv/bin/python benchmarks/server_cases.py [--cases 5] [--requests 300]
(needs PostgreSQL at 127.0.0.1:5432; a database of its own is made and dropped.)
"""

from __future__ import annotations

import argparse
import socket
import statistics
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
PASSWORD = "correct horse battery"


def make_store(work: Path, n_cases: int) -> tuple[str, list]:
    from sqlalchemy import create_engine, text

    from onrecord.scenario.generate import generate_case
    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import init_case

    name = f"onrecord_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    manifest = generate_case(1, work / "scenario")
    cases = []
    for i in range(n_cases):
        case = init_case(work / f"case-{i}", url)
        for s in manifest["sources"]:
            import_file(case, work / "scenario" / s["file"], load_mapping(str(work / "scenario" / s["mapping"])))
        cases.append(case)
    return url, cases


def drop_store(url: str) -> None:
    from sqlalchemy import create_engine, text

    name = url.rsplit("/", 1)[1]
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"))
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))


def serve(app) -> tuple[str, object]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def measure(url: str, token: str, requests_n: int, clients: int) -> dict:
    import requests

    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"

    def one(_):
        t = time.perf_counter()
        r = session.get(url, timeout=60)
        r.raise_for_status()
        return time.perf_counter() - t

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        took = list(pool.map(one, range(requests_n)))
    wall = time.perf_counter() - start
    took.sort()
    return {"p50_ms": 1000 * statistics.median(took), "p95_ms": 1000 * took[int(0.95 * len(took)) - 1],
            "rps": requests_n / wall}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=5)
    ap.add_argument("--requests", type=int, default=300)
    args = ap.parse_args()

    import requests

    from onrecord.access.store import AccessStore
    from onrecord.views.web.app import create_app
    from onrecord.views.web.server import create_server

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        url, cases = make_store(Path(tmp), args.cases)
        print(f"store: {args.cases} cases of scenario seed 1 on PostgreSQL ({time.perf_counter() - t:.0f} s to import)")
        try:
            target = cases[0]
            access = AccessStore(target.engine)
            access.accounts.add("bench", "analyst", PASSWORD, target.id)
            _, token = access.tokens.create(access.accounts.find("bench").id)

            one_base, one_server = serve(create_app(target))
            many_base, many_server = serve(create_server(url))
            auth = {"Authorization": f"Bearer {token}"}
            t = time.perf_counter()
            requests.get(f"{many_base}/cases/{target.uid}/api/events?limit=500", headers=auth, timeout=60)
            first = time.perf_counter() - t
            t = time.perf_counter()
            requests.get(f"{many_base}/cases/{target.uid}/api/events?limit=500", headers=auth, timeout=60)
            later = time.perf_counter() - t
            print(f"first answer of a case on the server (its app made then): {1000 * first:.0f} ms; "
                  f"the next: {1000 * later:.0f} ms")
            for clients in (1, 8):
                # warm both, then measure each in turn
                measure(f"{one_base}/api/events?limit=500", token, 20, clients)
                measure(f"{many_base}/cases/{target.uid}/api/events?limit=500", token, 20, clients)
                base = measure(f"{one_base}/api/events?limit=500", token, args.requests, clients)
                many = measure(f"{many_base}/cases/{target.uid}/api/events?limit=500", token, args.requests, clients)
                for label, m in (("serve CASE (baseline)", base), (f"serve --database-url, {args.cases} cases", many)):
                    print(f"{clients} client(s), {args.requests} x /api/events?limit=500, {label}: "
                          f"p50 {m['p50_ms']:.1f} ms, p95 {m['p95_ms']:.1f} ms, {m['rps']:.0f} requests/s")
            one_server.should_exit = many_server.should_exit = True
            time.sleep(0.5)
            for c in cases:
                c.engine.dispose()
            access.engine.dispose()
        finally:
            drop_store(url)


if __name__ == "__main__":
    main()
