"""`onrecord export CASE --format F --out FILE`: a case in the formats other systems load
(docs/export.md). Every export is a read through the reader door, and says how many
events it left out and why."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from onrecord.views.export.result import ExportResult
from onrecord.views.export.table import write_csv, write_parquet
from onrecord.views.export.timesketch import write_timesketch


def _eido(reader, out: Path) -> ExportResult:
    from onrecord.views.export.eido_out import write_eido

    return write_eido(reader, out)


def _cap(reader, out: Path) -> ExportResult:
    from onrecord.views.export.cap_out import write_cap

    return write_cap(reader, out)


# format -> write(reader, out) -> ExportResult
EXPORTERS: dict[str, Callable[..., ExportResult]] = {
    "timesketch": write_timesketch,
    "eido": _eido,
    "cap": _cap,
    "csv": write_csv,
    "parquet": write_parquet,
}


def export_case(case, fmt: str, out: Path) -> ExportResult:
    from onrecord.errors import UsageError
    from onrecord.store.reader import open_reader

    if fmt not in EXPORTERS:
        raise UsageError(f"--format must be one of {', '.join(EXPORTERS)}")
    return EXPORTERS[fmt](open_reader(case), Path(out))
