"""`onrecord claims FILE... [--json]`: free text -> attributed claims and their conflicts.

Imports of spaCy and the extraction code happen inside the function so that
`onrecord --help` does not pay for them.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from onrecord.errors import InputError


def read_texts(files: list[Path]) -> dict[str, str]:
    """File name -> text; a document id is the file name (made unique if repeated)."""
    texts: dict[str, str] = {}
    for path in files:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read the file ({exc.strerror or exc})", file=str(path)) from exc
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from exc
        doc_id, n = path.name, 2
        while doc_id in texts:
            doc_id, n = f"{path.name}~{n}", n + 1
        texts[doc_id] = text
    return texts


def claims(
    files: list[Path] = typer.Argument(..., help="Text files: statements, transcripts, articles."),
    json_out: bool = typer.Option(False, "--json", help="Print the documented JSON (docs/claims.md)."),
    one_incident: bool = typer.Option(False, "--one-incident",
                                      help="All files are about one incident: compare every claim with every other."),
    parse: bool = typer.Option(False, "--parse",
                               help="Decide durations, and numbers the rules leave unread, from a dependency "
                                    "parse (the 'parse' extra)."),
    rule_speakers: bool = typer.Option(False, "--rule-speakers",
                                       help="Decide who says each claim by the rules alone (by default the "
                                            "sentence's parse decides it when the 'parse' extra is installed)."),
) -> None:
    """Free text -> attributed claims (who says what number about whom) and their conflicts.
    Files are grouped by incident (shared names) and compared only within each."""
    from onrecord.claims.extract import analyse

    analysis = analyse(read_texts(files), one_incident=one_incident, parse=parse,
                       parse_speakers=False if rule_speakers else None)
    if json_out:
        typer.echo(json.dumps(analysis.to_json(), indent=2, ensure_ascii=False))
        return
    from onrecord.views.claims_table import render

    render(analysis)
