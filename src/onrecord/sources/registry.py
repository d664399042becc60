"""Adapters by file format: the one place a new format is declared (cf. plaso's manager)."""

from __future__ import annotations

from collections.abc import Callable

from onrecord.sources.cap_file import read_cap
from onrecord.sources.csv_file import read_csv
from onrecord.sources.eido.read import Part, read_eido, read_eido_parts
from onrecord.sources.json_file import read_json, read_ndjson
from onrecord.sources.parsed import Parsed
from onrecord.sources.text_file import read_text
from onrecord.sources.xlsx_file import read_xlsx
from onrecord.sources.xml_file import read_xml

# format name -> read(data, mapping, file, tz, agency) -> Parsed
ADAPTERS: dict[str, Callable[..., Parsed]] = {
    "csv": read_csv,
    "text": read_text,
    "json": read_json,
    "ndjson": read_ndjson,
    "xml": read_xml,
    "xlsx": read_xlsx,
    "eido": read_eido,
    "cap": read_cap,
}

# formats that read a folder as one source: (parts, mapping, file, tz, agency) -> Parsed,
# each part a file of the folder, in name order (the snapshots of one incident)
FOLDER_ADAPTERS: dict[str, Callable[..., Parsed]] = {
    "eido": read_eido_parts,
}
PART = Part
