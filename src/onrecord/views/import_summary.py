"""What an import prints: a progress bar while it runs, then one summary."""

from __future__ import annotations

import shlex
import sys

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from onrecord.errors import shorten
from onrecord.views.console import data_console

err = data_console(stderr=True)


class ImportProgress:
    def __init__(self, name: str):
        self.name = name
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,} rows"),
                            TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal)
        self.tasks: dict[str, int] = {}

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def update(self, stage: str, n: int) -> None:
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(f"{self.name}: {stage}", total=None)
        self.bar.advance(self.tasks[stage], n)


def _listed(out: Console, rows) -> None:
    # imported text is never markup (a value may well hold "[...]")
    for r in rows[:10]:
        value = "" if r.value is None else f" (value {shorten(repr(r.value))})"
        out.print(f"  line {r.line}: {r.column or 'record'}: {r.reason}{value}", markup=False)
    if len(rows) > 10:
        out.print(f"  ... and {len(rows) - 10:,} more")


def print_result(result, mapping_name: str, case: str = "CASE") -> None:
    # Values come from the imported file: never read as rich markup.
    out = data_console(soft_wrap=True)
    if result.already:
        out.print(f"{result.file}: already imported as source {result.source_id}; nothing changed", markup=False)
        # the same bytes again are most often a corrected mapping, zone or agency: say how
        out.print(f"  to import it again (another mapping, zone or agency), withdraw it first: onrecord "
                  f"remove-source {shlex.quote(str(case))} {result.source_id} --reason \"...\", then import it "
                  "(docs/store.md)", markup=False, highlight=False)
        return
    out.print(f"{result.file}: imported as source {result.source_id} with mapping {mapping_name}: "
              f"{result.records:,} records, {result.events:,} events")
    if result.receipt:
        chain = result.receipt["chain"]
        # the head to write down or send elsewhere: `onrecord verify` checks the case against it
        out.print(f"  chain head {chain['head']} after {chain['records']:,} records; "
                  f"signed receipt #{result.receipt['number']}: {result.receipt['file']}", highlight=False)
    if result.left_out:
        out.print(f"  {result.left_out:,} rows left out by the mapping's [rows] when / unless (kept as raw records)")
    if result.rejects:
        out.print(f"  {len(result.rejects):,} rows rejected (kept as raw records, no events); "
                  f"listed in {result.rejects_file}")
        _listed(out, result.rejects)
    if result.notes:
        out.print(f"  {len(result.notes):,} values read by a rule of the mapping, worth a look; "
                  f"listed in {result.notes_file}", markup=False)
        _listed(out, result.notes)
    remarks = getattr(result, "remarks", [])
    for remark in remarks[:20]:
        out.print(f"  {remark}", style="yellow" if remark.startswith("deviation") else None, markup=False)
    if len(remarks) > 20:
        out.print(f"  ... and {len(remarks) - 20:,} more remarks")
    for (table, value), n in sorted(result.uncoded.items())[:10]:
        out.print(f"  code table {table}: no entry for {value!r} ({n} rows, kept as written)", style="yellow",
                  markup=False)
    sys.stdout.flush()
