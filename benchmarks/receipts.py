"""What receipts cost: the digests an import's receipt reads back (its raw records and
events, as Arrow) beside the import itself, and `verify` against the receipts beside
verify's walk of the chain inside the database alone, in the same run, on SQLite.

Run: .venv/bin/python benchmarks/receipts.py [--rows N]
(the CAD export is benchmarks/import_cad.py's fictional one: one row per unit, three times)
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import import_cad  # noqa: E402  (the benchmark export and its mapping)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="onrecord-bench-receipts-"))
    os.environ["ONRECORD_KEY_DIR"] = str(work / "keys")  # the benchmark's keys, not the user's
    try:
        from onrecord.sources.importer import import_file
        from onrecord.sources.mapping import load_mapping
        from onrecord.store import receipts
        from onrecord.store.case import init_case
        from onrecord.store.reader import open_reader
        from onrecord.store.verify import _check_sources, _walk_chain, verify_records

        csv, mapping = work / "county-cad.csv", work / "bench.toml"
        mapping.write_text(import_cad.MAPPING)
        import_cad.generate(csv, args.rows)
        case = init_case(work / "case")
        start = time.perf_counter()
        result = import_file(case, csv, load_mapping(str(mapping)))
        whole = time.perf_counter() - start
        reader = open_reader(case)
        start = time.perf_counter()
        receipts.source_section(reader, result.source_id)
        digests = time.perf_counter() - start
        start = time.perf_counter()
        head, srcs = reader.chain_head(), reader.sources()
        _walk_chain(reader.raw_chain(), {s["id"]: s["file_name"] for s in srcs}, head)
        _check_sources(reader, srcs)
        chain_only = time.perf_counter() - start
        start = time.perf_counter()
        checked = verify_records(reader)
        full = time.perf_counter() - start
        assert checked.intact, checked.problems
        print(f"rows: {args.rows:,} ({result.records:,} raw records, {result.events:,} events)")
        print(f"baseline  import without its receipt: {whole - digests:7.2f} s")
        print(f"the receipt's digests (raw records and events read back as Arrow): {digests:7.2f} s "
              f"= {digests / (whole - digests):.2f}x the import without it")
        print(f"baseline  verify inside the database (chain walk, files re-hashed): {chain_only:7.2f} s")
        print(f"verify against the receipts too: {full:7.2f} s = {full / chain_only:.2f}x the chain walk alone")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
