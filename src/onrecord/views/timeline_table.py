"""The timeline as a terminal table and as the documented JSON (docs/json.md)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from rich.console import Console
from rich.table import Table

from onrecord.timetext import to_local, to_utc_iso, when


def _when_interval(r: dict, zone: ZoneInfo) -> str:
    if r["t_lo"] is None:
        return "untimed"
    spread = (r["t_hi"] - r["t_lo"]) / 2000
    return when(_mid(r), zone, millis=False) + (f" ±{spread:.0f}s" if spread >= 1 else "")


def _mid(r: dict) -> int:
    return (r["t_lo"] + r["t_hi"]) // 2


def timeline_json(case_name: str, zone: ZoneInfo, rows: list[dict], total: int,
                  read: list[dict | None] | None = None) -> dict:
    """`read`: per row, what the lexicons read its text as (views/text_reading.py)."""
    read = read or [None] * len(rows)
    return {
        "case": case_name,
        "timezone": zone.key,
        "total": total,
        "events": [
            {
                "id": r["id"],
                "kind": r["kind"],
                "time_local": None if r["t_lo"] is None else to_local(_mid(r), zone).isoformat(),
                "t_lo": to_utc_iso(r["t_lo"]),
                "t_hi": to_utc_iso(r["t_hi"]),
                "clock": r["clock"],
                "t_source": to_utc_iso(r["t_src_lo"]),
                "time_text": r["time_text"],
                "agency": r["agency"],
                "unit": r["unit"],
                "call": r["call"],
                "actor": r["actor"],
                "channel": r["channel"],
                "place": r["place"],
                "lat": r["lat"],
                "lon": r["lon"],
                "text": r["text"],
                "read_as": said,
                "attributes": r["attrs"],
                "source": {"id": r["source_id"], "file": r["file_name"], "kind": r["source_kind"]},
                "record": {"id": r["record_id"], "line": r["ordinal"], "path": r.get("path"), "sha256": r["sha256"]},
            }
            for r, said in zip(rows, read)
        ],
    }


def _kind(kind: str, said: dict | None) -> str:
    """A radio or camera line's kind, and what its words were read as ("-> staging"), or
    "-> ?" where no phrase of its lexicons matched."""
    if said is None:
        return kind
    return f"{kind} → {said['kind'] or '?'}"


def print_timeline(console: Console, zone: ZoneInfo, rows: list[dict], total: int,
                   read: list[dict | None] | None = None) -> None:
    read = read or [None] * len(rows)
    aligned = any(r["clock"] != "source" for r in rows)
    clock = "on one clock (each source's error removed; ± shown where it is known only roughly)" if aligned \
        else "on each source's own clock (run onrecord build to align them)"
    table = Table(title=f"Timeline — times in {zone.key}, {clock}", expand=True)
    for name, style, wrap in (("time", "cyan", False), ("agency", "magenta", True), ("unit", "", False),
                              ("kind", "green", False), ("text", "", True), ("source:line", "dim", False)):
        table.add_column(name, style=style, overflow="fold", no_wrap=not wrap)
    for r, said in zip(rows, read):
        text = (r["text"] or "").replace("\n", " ")
        table.add_row(_when_interval(r, zone), r["agency"] or "", r["unit"] or "", _kind(r["kind"], said),
                      text[:120] + ("…" if len(text) > 120 else ""),
                      f"{r['file_name']}:{r['ordinal']}" + (f" {r['path']}" if r.get("path") else ""))
    console.print(table)
    if any(read):
        console.print("→ what the lexicons read a radio or camera line as (? none of their phrases; "
                      "docs/lexicons.md); --json gives the phrase that decided it")
    if total > len(rows):
        console.print(f"showing {len(rows)} of {total} events (use --limit 0 for all, or --from/--to)")
