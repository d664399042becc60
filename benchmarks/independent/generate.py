#!/usr/bin/env python3
"""Write one fictional multi-agency incident: every agency's exports, their data
dictionaries, a manifest and the truth.

    python benchmarks/independent/generate.py --seed 3 --out /tmp/case-3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blindcase.case import generate_case  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True, help="folder to write (created if missing)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        print(f"error: {out} is not empty; choose a new folder", file=sys.stderr)
        return 2
    truth = generate_case(args.seed, out)
    print(
        f"seed {args.seed}: {len(truth['sources'])} exports, {len(truth['events'])} true events, "
        f"{len(truth['records'])} records -> {out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
