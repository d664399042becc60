"""`onrecord link` and `subjects`: prior warnings."""

from __future__ import annotations

from typing import Annotated

import typer

from onrecord.cli.options import CaseArg, DatabaseUrl, JsonOut, print_json


def link(case: CaseArg,
         backend: Annotated[str, typer.Option(help="duckdb (embedded), spark (statewide scale), or another "
                                                   "registered linkage backend")] = "duckdb",
         json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """Link the people named in prior-contact records across agencies (Splink)."""
    from onrecord.errors import UsageError
    from onrecord.pipeline import link_case
    from onrecord.store.case import open_case
    from onrecord.views.subjects_table import link_json, print_link
    from onrecord.warnings.backends import BACKENDS

    if backend not in BACKENDS:
        raise UsageError(f"--backend {backend!r}: choose {' or '.join(BACKENDS)}")
    result = link_case(open_case(case, database_url), backend)
    if json_out:
        print_json(link_json(result))
    else:
        print_link(result)


def subjects(case: CaseArg, json_out: JsonOut = False, database_url: DatabaseUrl = None) -> None:
    """Prior warnings per person, with flags: each contact, its agency, and what it said."""
    from onrecord.errors import UsageError
    from onrecord.store.reader import open_reader
    from onrecord.views.subjects_table import print_subjects, subjects_json

    reader = open_reader(case, database_url=database_url)
    doc = subjects_json(reader)
    if not doc["subjects"]:
        raise UsageError(f"{case}: no linked people yet: run `onrecord link {case}` first")
    if json_out:
        print_json(doc)
    else:
        print_subjects(doc)
