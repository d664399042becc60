"""CSV and Parquet: the aligned timeline with its provenance columns, every event kept."""

from __future__ import annotations

import pyarrow.csv as pcsv
import pyarrow.parquet as pq

from onrecord.store.reader import open_reader
from onrecord.views.export.table import SCHEMA


def test_csv_and_parquet_hold_every_event_with_its_provenance(exported_case, cli, tmp_path):
    n = len(open_reader(exported_case).export_events())
    assert cli("export", exported_case, "--format", "parquet", "--out", tmp_path / "t.parquet")[0] == 0
    assert cli("export", exported_case, "--format", "csv", "--out", tmp_path / "t.csv")[0] == 0
    table = pq.read_table(tmp_path / "t.parquet")
    assert table.schema.equals(SCHEMA) and table.num_rows == n
    csv = pcsv.read_csv(tmp_path / "t.csv")
    assert csv.num_rows == n and csv.column_names == SCHEMA.names
    rows = table.to_pylist()
    aligned = [r for r in rows if r["clock"] == "aligned"]
    assert aligned and any(r["fused_id"] is not None for r in aligned if r["kind"] == "unit_arrived")
    for r in rows:
        assert r["source_file"] and r["record_line"] >= 1 and len(r["record_sha256"]) == 64
    shifted = [r for r in aligned if r["clock_offset_s"]]
    assert shifted  # a source whose clock is off: both times given, the offset between them
    r = shifted[0]
    assert abs((r["source_t_lo_ms"] - r["t_lo_ms"]) / 1000 - r["clock_offset_s"]) < 5
