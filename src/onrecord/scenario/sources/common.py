"""What every dialect writer shares: a table of rows, its mapping, and writing both."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from onrecord.scenario import mappings
from onrecord.scenario.truth import TruthBook


@dataclass
class Table:
    name: str                       # file name, unique within the case (truth keys use it)
    kind: str                       # source kind (docs/mappings.md)
    agency: str
    header: list[str]
    mapping: dict
    offset: float | None            # the source clock's true error, seconds (None: untimed)
    dialect: str                    # one line for docs and truth: how this source writes
    rows: list[list[str]] = field(default_factory=list)
    folder: str = "sources"
    header_line: bool = True        # False: the export has no header; the mapping names the columns
    encoding: str = "utf-8"

    def encoded(self, encoding: str) -> "Table":
        self.encoding = self.mapping["file"]["encoding"] = encoding
        return self

    def without_header(self) -> "Table":
        self.header_line = False
        self.mapping["file"]["header"] = False
        self.mapping["file"]["columns"] = list(self.header)
        return self

    def add(self, values: dict[str, str]) -> None:
        self.rows.append([values.get(h, "") for h in self.header])


def mapping_doc(name: str, kind: str, agency: str, tz: str | None, description: str,
                fields: dict, attributes: dict, events: list[dict], layout: str = "row-per-call",
                required: list[str] | None = None, codes: dict | None = None, clock: dict | None = None) -> dict:
    head = {"name": name, "description": description, "source_kind": kind, "agency": agency}
    if tz:
        head["timezone"] = tz
    head["layout"] = layout
    doc = {"mapping": head, "file": {"format": "csv", "header": True, "delimiter": ",",
                                    "encoding": "utf-8", "required": required or []},
           "fields": fields, "attributes": attributes}
    if codes:
        doc["codes"] = codes
    if clock:  # how far the export's clock is trusted, as its owner would declare it
        doc["clock"] = clock
    doc["events"] = events
    return doc


def write_table(root: Path, table: Table, book: TruthBook) -> Path:
    folder = root / table.folder
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / table.name
    with path.open("w", newline="", encoding=table.encoding) as fh:
        w = csv.writer(fh, lineterminator="\n")
        if table.header_line:
            w.writerow(table.header)
        w.writerows(table.rows)
    _written_forms(table, book)
    mapping_path = path.with_suffix(".toml")
    mapping_path.write_text(mappings.dump(table.mapping), encoding="utf-8")
    book.source(table.name, kind=table.kind, agency=table.agency,
                path=f"{table.folder}/{table.name}", mapping=f"{table.folder}/{mapping_path.name}",
                timezone=table.mapping["mapping"].get("timezone"),
                clock_offset_s=None if table.offset is None else round(table.offset, 3),
                rid_attribute="rid", rows=len(table.rows), dialect=table.dialect)
    return path


def _render(spec, row: dict) -> str:
    if isinstance(spec, str):
        return row.get(spec, "")
    if "template" in spec:
        return re.sub(r"\{([^{}]+)\}", lambda m: row.get(m.group(1), ""), spec["template"])
    return row.get(spec["column"], "")


def _written_forms(table: Table, book: TruthBook) -> None:
    """How each mention of a unit or person is written in this table (for scoring by form)."""
    m = table.mapping
    rid_col = m["attributes"]["rid"]
    rows = {r[rid_col]: r for r in (dict(zip(table.header, row)) for row in table.rows)}
    prefix = table.name + "#"
    for key in [k for k in book.mentions if k.startswith(prefix) and k not in book.forms]:
        _, rid, what = key.split("#")
        spec = m["fields"].get(what) or m["attributes"].get(what)
        book.forms[key] = _render(spec, rows[rid])
