"""The options and arguments several commands share, and how they print JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

CaseArg = Annotated[Path, typer.Argument(help="case folder")]
DatabaseUrl = Annotated[Optional[str], typer.Option(
    "--database-url", help="PostgreSQL URL; default: SQLite file in the case folder (or $ONRECORD_DATABASE_URL)")]
JsonOut = Annotated[bool, typer.Option("--json", help="the documented JSON (docs/json.md)")]


def print_json(doc: dict) -> None:
    json.dump(doc, sys.stdout, indent=1, default=str)
    sys.stdout.write("\n")


def say_if_stale(reader) -> None:
    """On stderr, so a --json document on stdout stays whole: the build is older than the events."""
    note = reader.stale_build()
    if note:
        print(f"note: out of date: {note}", file=sys.stderr)
