"""What an import prints: a progress bar while it runs, then one summary."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

err = Console(stderr=True)


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


def print_result(result, mapping_name: str) -> None:
    # Values come from the imported file: never read as rich markup.
    out = Console(soft_wrap=True, markup=False, highlight=False)
    if result.already:
        out.print(f"{result.file}: already imported as source {result.source_id}; nothing changed")
        return
    out.print(f"{result.file}: imported as source {result.source_id} with mapping {mapping_name}: "
              f"{result.records:,} records, {result.events:,} events")
    if result.left_out:
        out.print(f"  {result.left_out:,} rows left out by the mapping's [rows] when / unless (kept as raw records)")
    if result.rejects:
        out.print(f"  {len(result.rejects):,} rows rejected (kept as raw records, no events); "
                  f"listed in {result.rejects_file}")
        for r in result.rejects[:10]:
            out.print(f"  line {r.line}: {r.column}: {r.reason} (value {r.value!r})")
        if len(result.rejects) > 10:
            out.print(f"  ... and {len(result.rejects) - 10:,} more")
    notes = getattr(result, "notes", [])
    for note in notes[:20]:
        out.print(f"  {note}", style="yellow" if note.startswith("deviation") else None)
    if len(notes) > 20:
        out.print(f"  ... and {len(notes) - 20:,} more notes")
    for (table, value), n in sorted(result.uncoded.items())[:10]:
        out.print(f"  code table {table}: no entry for {value!r} ({n} rows, kept as written)", style="yellow")
    sys.stdout.flush()
