"""`onrecord export`: a case in the interchange formats other systems load."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from onrecord.cli.options import CaseArg


def export(
    case: CaseArg,
    format: Annotated[str, typer.Option("--format", help="timesketch, eido, cap, csv or parquet")],
    out: Annotated[Path, typer.Option("--out", help="file to write (cap: a folder when there are several alerts)")],
) -> None:
    """Write the case as Timesketch JSONL, EIDO, CAP alerts, CSV or Parquet (docs/export.md)."""
    from onrecord.pipeline import export_case
    from onrecord.views.export_summary import print_export

    print_export(export_case(case, format, out))
