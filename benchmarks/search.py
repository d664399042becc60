"""Full-text search on a 1,000,000-event case, beside a baseline measured in the same run:

queries made from the words of randomly drawn events (a word, two words, a two-word
phrase, a prefix, the first two words of the event's address: not chosen by hand, and a
fresh draw per --seed), run through the
reader's search (the FTS5 index, store/read_search.py), beside the LIKE scan search was
before the index (every word in any of text, actor, place, unit or the raw line, first 200
in time order). Printed: p50/p95 per kind of query for both, and how many hits each found.

Run: .venv/bin/python benchmarks/search.py [--events 1000000] [--work DIR] [--queries 5] [--seed 11]
The case is benchmarks/web_timeline.py's, kept in --work (opening it runs migration 0013,
which builds its index the first time).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def like_scan(db: sqlite3.Connection, text: str, limit: int = 200) -> int:
    """The search before the index: a LIKE per word over the event's fields and raw line."""
    terms = [t for t in text.lower().replace('"', " ").replace("*", " ").split() if t][:8]
    fields = ["coalesce(e.text,'')", "coalesce(e.actor,'')", "coalesce(e.place,'')", "coalesce(e.unit,'')",
              "coalesce(CAST(r.raw AS TEXT),'')"]
    where = " AND ".join("(" + " OR ".join(f"{f} LIKE ? ESCAPE '\\'" for f in fields) + ")" for _ in terms)
    args = [f"%{t}%" for t in terms for _ in fields]
    sql = ("SELECT e.id FROM events e JOIN raw_records r ON r.id = e.raw_record_id "
           f"WHERE {where} ORDER BY e.t_src_lo, e.id LIMIT {limit}")
    return len(db.execute(sql, args).fetchall())


def queries(case_dir: Path, n: int, seed: int) -> list[tuple[str, str]]:
    from onrecord.store.search_query import words

    rng = random.Random(seed)
    db = sqlite3.connect(f"file:{case_dir / 'case.db'}?mode=ro", uri=True)
    top = db.execute("select max(id) from events").fetchone()[0]
    out: list[tuple[str, str]] = []
    while len(out) < n * 5:
        row = db.execute("select text, place from events where id = ?", (rng.randint(1, top),)).fetchone()
        w = [x for x in words(row[0] if row else "") if len(x) >= 3]
        place = words(row[1] if row else "")
        if len(w) < 2 or len(place) < 2:
            continue
        i = rng.randrange(len(w) - 1)
        out += [("word", w[i]), ("two words", f"{w[i]} {w[i + 1]}"), ("phrase", f'"{w[i]} {w[i + 1]}"'),
                ("prefix", w[i][:3] + "*"),
                ("address", f'"{place[0]} {place[1]}"')]  # a rare phrase: few events share an address
    db.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "onrecord-web-bench")
    ap.add_argument("--queries", type=int, default=5)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    from web_timeline import build_case

    from onrecord.store.case import open_case
    from onrecord.store.reader import open_reader

    args.work.mkdir(parents=True, exist_ok=True)
    case_dir = build_case(args.work, args.events)
    t = time.perf_counter()
    case = open_case(case_dir)  # migrates (and indexes) a case made before the index
    opened = time.perf_counter() - t
    reader = open_reader(case, read_only=True)
    db = sqlite3.connect(f"file:{case_dir / 'case.db'}?mode=ro", uri=True)
    results: dict[str, dict[str, list]] = {}
    for kind, q in queries(case_dir, args.queries, args.seed):
        r = results.setdefault(kind, {"fts": [], "like": [], "fts_n": [], "like_n": []})
        t = time.perf_counter()
        found = reader.search(q, 200)
        r["fts"].append(time.perf_counter() - t)
        r["fts_n"].append(len(found["events"]))
        t = time.perf_counter()
        r["like_n"].append(like_scan(db, q))
        r["like"].append(time.perf_counter() - t)
    try:  # the index's pages, where SQLite was built with the dbstat table
        size = db.execute("select sum(pgsize) from dbstat where name like 'events_fts%' "
                          "or name like 'claims_fts%'").fetchone()[0]
    except sqlite3.OperationalError:
        size = None
    print(f"case: {args.events:,} events; opened in {opened:.1f} s (the index built then if the case predates it)"
          + (f"; index {size / 2**20:.0f} MiB" if size else ""))
    print(f"{args.queries} queries of each kind from the words of randomly drawn events (seed {args.seed})")
    for kind, r in results.items():
        print(f"  {kind:9s}: full-text p50 {pct(r['fts'], 50) * 1000:7.1f} ms  p95 {pct(r['fts'], 95) * 1000:7.1f} ms"
              f"   LIKE scan p50 {pct(r['like'], 50) * 1000:7.1f} ms  p95 {pct(r['like'], 95) * 1000:7.1f} ms"
              f"   (baseline, same run)   hits p50 {pct(r['fts_n'], 50):.0f} / {pct(r['like_n'], 50):.0f}")
    db.close()


if __name__ == "__main__":
    main()
