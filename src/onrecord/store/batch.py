"""The rows one import adds, as Arrow tables the store's bulk paths take whole.

Ids are handed out by the writer under the case's write lock, so the tables are built
only once the first free ids are known.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from onrecord.model import EVENT_COLUMNS

RAW_COLUMNS = ("id", "case_id", "source_id", "seq", "ordinal", "path", "raw", "sha256", "chain")
EVENT_KEYS = ("id", "case_id", "source_id", "raw_record_id")


def _run(start: int, n: int) -> pa.Array:
    return pa.array(np.arange(start, start + n, dtype=np.int64))


def _same(value: int, n: int) -> pa.Array:
    return pa.array(np.full(n, value, dtype=np.int64))


def raw_table(case_id: int, source_id: int, first_id: int, first_seq: int, ordinals: list[int],
              raws: list[bytes], hashes: list[bytes], chain: list[bytes],
              paths: list[str | None] | None = None) -> pa.Table:
    n = len(raws)
    path = pa.array(paths, pa.string()) if paths else pa.nulls(n, pa.string())
    return pa.Table.from_arrays(
        [_run(first_id, n), _same(case_id, n), _same(source_id, n), _run(first_seq, n),
         pa.array(ordinals, pa.int64()), path, pa.array(raws, pa.binary()), pa.array(hashes, pa.binary()),
         pa.array(chain, pa.binary())], names=list(RAW_COLUMNS))


def event_table(case_id: int, source_id: int, first_id: int, first_raw: int, events: pa.Table) -> pa.Table:
    n = events.num_rows
    keys = [_run(first_id, n), _same(case_id, n), _same(source_id, n),
            pc.add(events.column("record_index"), first_raw)]
    return pa.Table.from_arrays(keys + [events.column(name) for name in EVENT_COLUMNS],
                                names=[*EVENT_KEYS, *EVENT_COLUMNS])
