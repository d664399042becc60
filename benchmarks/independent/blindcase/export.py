"""One agency export: its rows as the agency hands them over, and what truth knows
about each of them (which real event a row's time stands for, which entity a column
names)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from .clocks import Clock
from .timefmt import Style, render


@dataclass
class Stamp:
    """How one source writes a moment: its clock, its style, the zone it writes in."""

    clock: Clock
    style: Style
    zone: str  # IANA zone of local styles

    def parts(self, true_t: float) -> list[str]:
        return render(self.style, self.clock.written(true_t), self.zone)

    @property
    def true_zone(self) -> str:
        return "UTC" if self.style.zone == "utc" else self.zone


@dataclass
class Export:
    name: str  # file name, unique within the case
    folder: str  # under exports/
    kind: str  # cad, radio, call911, avl, sensor, camera, roster, patient...
    agency: str
    clock: Clock | None
    zone: str  # zone the times are really written in ("UTC" or IANA)
    zone_stated: str  # the agency's words for it
    columns: list[str]
    rid_col: str
    dialect: str
    title: str
    header: bool = True
    delimiter: str = ","
    fmt: str = "csv"  # csv or jsonl
    rows: list[dict] = field(default_factory=list)
    records: dict = field(default_factory=dict)
    mentions: dict = field(default_factory=dict)
    forms: dict = field(default_factory=dict)
    dictionary: str = ""
    style_key: str | None = None

    @property
    def path(self) -> str:
        return f"exports/{self.folder}/{self.name}"

    def add(self, row: dict) -> str:
        missing = [c for c in row if c not in self.columns]
        if missing:
            raise KeyError(f"{self.name}: columns {missing} not declared")
        self.rows.append(row)
        return str(row[self.rid_col])

    def record(
        self,
        rid: str,
        kind: str,
        event: str,
        true_time: float,
        written: str,
        unit_written: str | None = None,
        row_kind: str | None = None,
        **extra,
    ) -> None:
        # a row that holds the same kind of moment for several units (packed, wide) names
        # the unit in the key
        key = f"{self.name}#{rid}#{kind}" + (f"#{unit_written}" if unit_written is not None else "")
        if key in self.records:
            raise KeyError(f"duplicate record key {key}")
        rec = {"event": event, "true_time": true_time, "written": written, "row_kind": row_kind or kind}
        if unit_written is not None:
            rec["unit_written"] = unit_written
        rec.update(extra)
        self.records[key] = rec

    def mention(self, rid: str, fieldname: str, entity: str, form: str, multi: bool = False) -> None:
        key = f"{self.name}#{rid}#{fieldname}"
        if multi:
            key = f"{key}#{form}"
        self.mentions[key] = entity
        self.forms[key] = form

    def text(self) -> str:
        if self.fmt == "jsonl":
            return "".join(
                json.dumps({c: r.get(c) for c in self.columns if r.get(c) not in (None, "")}) + "\n" for r in self.rows
            )
        buf = io.StringIO()
        writer = csv.writer(
            buf,
            delimiter=self.delimiter,
            lineterminator="\r\n" if self.delimiter == "," else "\n",
            quoting=csv.QUOTE_MINIMAL,
        )
        if self.header:
            writer.writerow(self.columns)
        for r in self.rows:
            writer.writerow(["" if r.get(c) is None else r.get(c) for c in self.columns])
        return buf.getvalue()
