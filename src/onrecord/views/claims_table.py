"""The human-readable view of an Analysis: three Rich tables (claims by measure, the
people and agencies named, and the conflicts with both sides quoted)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from onrecord.claims.records import Analysis
from onrecord.model import Claim
from onrecord.timetext import clock_minutes
from onrecord.views.console import data_console_for

UNIT_SHOWN = {"minute": "min", "year": "years", "day": "days", "month": "months", "USD": "USD"}


def value_text(lo: float | None, hi: float | None, unit: str, words: str | None = None) -> str:
    if words:
        return words
    unit = UNIT_SHOWN.get(unit, unit)
    if unit == "bool" and lo is not None and lo == hi:
        return "yes" if lo else "no"
    if unit == "minute_of_day":
        lo_s = "…" if lo is None else clock_minutes(lo)
        hi_s = "…" if hi is None else clock_minutes(hi)
        return lo_s if lo == hi else f"{lo_s}–{hi_s}"
    if lo is not None and lo == hi:
        return f"{lo:g} {unit}"
    if hi is None:
        return f"≥ {lo:g} {unit}" if lo is not None else f"? {unit}"
    if lo is None or lo == 0:
        return f"≤ {hi:g} {unit}"
    return f"{lo:g}–{hi:g} {unit}"


def render(analysis: Analysis, console: Console | None = None) -> None:
    if console is None:
        console = data_console_for(140)  # piped to a file: room for the sentences
    names = {e.id: e.name for e in analysis.entities}
    if len(analysis.incidents) > 1:
        console.print(f"{len(analysis.incidents)} incidents: claims are compared only within each.")
        for i in analysis.incidents:
            console.print(f"  {i['id']}: {', '.join(i['documents'])}"
                          + (f" (named by {', '.join(i['named_by'])})" if i["named_by"] else ""))
    console.print(_claims_table(analysis, names))
    console.print(_entities_table(analysis))
    if analysis.conflicts:
        console.print(_conflicts_table(analysis, names))
    else:
        console.print("No conflicting claims.")


def _claims_table(analysis: Analysis, names: dict[str, str]) -> Table:
    t = Table(title="Claims", show_lines=False)
    t.add_column("measure", no_wrap=True)  # the key a reader scans for: never broken
    for col in ("subject", "value", "as written", "speaker", "document"):
        t.add_column(col)
    by_id = {c.id: c for c in analysis.claims}
    for g in analysis.groups:
        for cid in g["claims"]:
            c: Claim = by_id[cid]
            measure = c.measure + (f" ({c.qualifier})" if c.qualifier else "")
            speaker = "the author" if (c.speaker or "").startswith("author:") else \
                names.get(c.speaker or "", c.speaker_text or "?")
            t.add_row(measure, names.get(c.subject or "", c.subject_text or "?"),
                      value_text(c.lo, c.hi, c.unit, c.value_text), c.text[:60],
                      speaker + (" (quoted)" if c.quoted else ""), c.doc)
    return t


def _entities_table(analysis: Analysis) -> Table:
    t = Table(title="People and agencies")
    for col in ("id", "name", "also written", "roles"):
        t.add_column(col)
    for e in analysis.entities:
        if e.kind in {"person", "org"}:
            t.add_row(e.id, e.name, ", ".join(e.aliases[:6]), ", ".join(e.roles[:4]))
    return t


def _conflicts_table(analysis: Analysis, names: dict[str, str]) -> Table:
    t = Table(title="Conflicts (claims that cannot both hold)", show_lines=True)
    for col in ("subject", "measure", "one side", "other side", "why both cannot hold"):
        t.add_column(col)
    for c in analysis.conflicts:
        sides = [f"{s['speaker_name']}: {value_text(s['lo'], s['hi'], c.unit)}\n“{s['sentence'][:160]}”"
                 for s in c.sides]
        subject = names.get(c.subject or "", c.subject or "?")
        if len(analysis.incidents) > 1 and c.incident:
            subject += f" ({c.incident})"  # "the incident" of which of the incidents read
        t.add_row(subject, c.measure, *sides, c.reason)
    return t
