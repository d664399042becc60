"""Declarative mappings (TOML): how one agency's export becomes events. See docs/mappings.md."""

from __future__ import annotations

import re
import tomllib
import zoneinfo
from dataclasses import dataclass, field, replace
from pathlib import Path

from onrecord.attributes import TIME_ATTRIBUTES
from onrecord.errors import InputError
from onrecord.sources.conditions import RowFilter, row_filter
from onrecord.sources.explode import SplitSpec, split_spec
from onrecord.sources.lexicon import declared, lexicon_for
from onrecord.sources.mapping_keys import EVENT_OWN, FIELD_TABLE, TOP, suggestion, unknown
from onrecord.sources.strptime import format_problem, missing_date
from onrecord.sources.time_checks import TimeRules, time_rules
from onrecord.vocab import EVENT_KINDS, SOURCE_KINDS

BUNDLED = Path(__file__).parent / "mappings"
# a code table's own settings, kept beside its codes under keys no written value can be
# (sources/columns.py reads them: OTHER, REFUSE)
OTHER_CODE, REFUSE_CODE = "\x00default", "\x00refuse"
EVENT_FIELDS = ("call", "unit", "agency", "place", "text", "lat", "lon", "actor", "channel")
PRECISION_MS = {"second": 0, "minute": 59_999, "hour": 3_599_999, "day": 86_399_999}
TEMPLATE_COLUMN = re.compile(r"\{([^{}]+)\}")
# formats whose adapter knows the standard's own fields: no [[events]] needed (EIDO, CAP)
SELF_DESCRIBED = ("eido", "cap")
NAMED_FORMATS = ("iso", "epoch", "epoch_s", "epoch_ms")
# Fields an [[events]] block may take from a column of its own (a wide or packed layout's unit).
EVENT_OWN_FIELDS = ("unit", "agency", "call", "place", "actor", "channel", "lat", "lon")


@dataclass(frozen=True)
class FieldSpec:
    column: str | None = None
    codes: str | None = None
    template: str | None = None
    pick: str | None = None  # "lat" / "lon" out of a "(lat, lon)" point column
    default: str | None = None  # what a blank value reads as
    pattern: str | None = None  # a regular expression: its first group (or the match) is the value
    value: str | None = None  # one fixed value for every row ("dispatcher"), read from no column
    format: str | None = None  # a time attribute's own pattern (shown_time: attribute_times.py)

    def columns(self) -> list[str]:
        if self.template is not None:
            return TEMPLATE_COLUMN.findall(self.template)
        return [self.column] if self.column else []


@dataclass(frozen=True)
class EventSpec:
    kind: str | None
    kind_from: str | None
    kinds: dict[str, str]
    time: tuple[str, ...]
    format: str | None
    precision: str
    optional: bool
    once_per_call: bool
    text: str | None
    unit: bool
    key: str = "events"  # where it is in the mapping, for messages: "events[2]"
    rows: RowFilter = RowFilter()  # its own `when` / `unless`
    fields: dict[str, FieldSpec] = field(default_factory=dict)  # its own unit, agency, ... columns
    attributes: dict[str, FieldSpec] = field(default_factory=dict)  # its own attributes, beside the row's
    split: SplitSpec | None = None
    slot: tuple[str, ...] = ()  # a wide layout's columns for this slot: all blank = no event
    date: str | None = None  # [mapping] date, for a pattern that writes the time of day alone
    after: str | None = None  # the key of the block whose time (same row) this one's follows

    def columns(self) -> list[str]:
        """The file's columns this block reads (a packed column's parts are not columns)."""
        cols = list(self.time)
        if self.kind_from:  # a column, or a template of several ("{Status}/{Source}")
            cols += TEMPLATE_COLUMN.findall(self.kind_from) or [self.kind_from]
        if self.text:
            cols += TEMPLATE_COLUMN.findall(self.text)
        for spec in [*self.fields.values(), *self.attributes.values()]:
            cols += spec.columns()
        cols += self.rows.columns()
        parts = set(self.split.into) if self.split else set()
        return ([self.split.column] if self.split else []) + [c for c in cols if c not in parts]


@dataclass(frozen=True)
class TextSpec:
    event: str
    time: str | None
    format: str | None


@dataclass
class Mapping:
    name: str
    origin: str  # the file it was read from, for messages
    raw_text: str
    source_kind: str
    agency: str | None
    timezone: str | None
    layout: str
    description: str
    format: str
    header: bool
    columns: tuple[str, ...]
    delimiter: str
    quote: str
    encoding: str
    required: tuple[str, ...]
    null_values: tuple[str, ...] = ("",)
    date: str | None = None  # the day an export writing only times of day is of (YYYY-MM-DD)
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    attributes: dict[str, str] = field(default_factory=dict)  # name -> the column it copies
    # columns made from others ([columns], and [attributes] given as tables), in order
    derived: dict[str, FieldSpec] = field(default_factory=dict)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    events: list[EventSpec] = field(default_factory=list)
    text: TextSpec | None = None
    # how far its clock is trusted, as declared ([clock]; docs/mappings.md): "reference" holds
    # it near true time within clock_uncertainty_s; "estimated" (the default) measures it
    clock_trust: str = "estimated"
    clock_uncertainty_s: float | None = None
    # the geofence the dispatch system marks a car on scene by ([geofence]): (lat, lon, radius_m)
    geofence: tuple[float, float, float] | None = None
    # nested formats: where the records are (JSONPath for JSON, XPath for XML), the XML
    # prefixes those paths use; workbooks: the sheet and the row that names the columns
    records: str | None = None
    namespaces: dict[str, str] = field(default_factory=dict)
    sheet: str | None = None
    header_row: int = 1
    # a bundled adapter's own settings, from the table named after its format ([eido], [cap])
    options: dict = field(default_factory=dict)
    rows: RowFilter = RowFilter()  # [rows] when / unless: the rows read at all
    defaults: dict[str, str] = field(default_factory=dict)  # [defaults] column -> value for a blank
    time_rules: TimeRules = field(default_factory=TimeRules)  # years, DST gaps and overlaps

    def columns_used(self) -> list[str]:
        cols: list[str] = list(self.required) + list(self.defaults) + self.rows.columns()
        for spec in self.fields.values():
            cols += spec.columns()
        cols += list(self.attributes.values())
        for ev in self.events:
            cols += ev.columns()
        for spec in self.derived.values():
            cols += spec.columns()
        # a derived column is made, not read: only the columns it is made of must be in the file
        return [c for c in dict.fromkeys(cols) if c not in self.derived]


def bundled_names() -> list[str]:
    return sorted(p.stem for p in BUNDLED.glob("*.toml"))


def load_mapping(name_or_path: str) -> Mapping:
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or path.exists()):
        path = BUNDLED / f"{name_or_path}.toml"
        if not path.exists():
            raise InputError(
                f"unknown mapping {name_or_path!r}: give a .toml file or one of {', '.join(bundled_names())}"
            )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read mapping: {exc.strerror}", file=str(path)) from exc
    return parse_mapping(text, str(path))


def parse_mapping(text: str, origin: str) -> Mapping:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", file=origin) from exc
    return _Reader(doc, origin, text).mapping()


class _Reader:
    """Turns the TOML document into a Mapping, naming the key that is wrong."""

    def __init__(self, doc: dict, origin: str, text: str):
        self.doc, self.origin, self.text = doc, origin, text
        self.date: str | None = None  # [mapping] date, read first: the event blocks' patterns depend on it
        self.codes: dict[str, dict[str, str]] = {}

    def fail(self, key: str, message: str, value=None):
        raise InputError(message, file=self.origin, field=key, value=None if value is None else str(value))

    def table(self, key: str) -> dict:
        value = self.doc.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, "must be a table")
        return value

    def mapping(self) -> Mapping:
        unknown(self.doc, TOP, "", self.fail)
        for key, known in TOP.items():
            if known is not None and key in self.doc:
                unknown(self.table(key), known, key, self.fail)
        head, file = self.table("mapping"), self.table("file")
        name = head.get("name") or self.fail("mapping.name", "is required")
        kind = head.get("source_kind") or self.fail("mapping.source_kind", "is required")
        if kind not in SOURCE_KINDS:
            self.fail("mapping.source_kind", f"is not one of {', '.join(sorted(SOURCE_KINDS))}"
                      f"{suggestion(str(kind), SOURCE_KINDS)}", kind)
        tz = head.get("timezone")
        if tz is not None:
            self._check_zone("mapping.timezone", tz)
        self.date = self._check_date(head.get("date"))
        fmt = file.get("format", "csv")
        from onrecord.sources.registry import ADAPTERS  # the adapters import this module: here, not above

        if fmt not in ADAPTERS:
            self.fail("file.format", f"must be {' or '.join(ADAPTERS)} (the formats an adapter reads)", fmt)
        header = bool(file.get("header", True))
        columns = tuple(file.get("columns", ()))
        if fmt == "csv" and not header and not columns:
            self.fail("file.columns", "is required when header = false (name each position)")
        m = Mapping(
            name=str(name), origin=self.origin, raw_text=self.text, source_kind=kind,
            agency=head.get("agency"), timezone=tz, layout=head.get("layout", "row-per-call"),
            description=head.get("description", ""), date=self.date, format=fmt, header=header, columns=columns,
            delimiter=file.get("delimiter", ","), quote=file.get("quote", '"'),
            encoding=file.get("encoding", "utf-8"), required=tuple(file.get("required", ())),
            null_values=("", *file.get("null_values", ())),
        )
        self._check_encoding(m.encoding)
        self._nested(m, file)
        m.time_rules = time_rules(head, self.fail)
        m.codes = {str(k): self._code_table(f"codes.{k}", v) for k, v in self.table("codes").items()}
        self.codes = m.codes
        m.fields = {k: self._field(k, v, m.codes) for k, v in self.table("fields").items()}
        m.derived = {str(k): self._derived(f"columns.{k}", v) for k, v in self.table("columns").items()}
        for k, v in self.table("attributes").items():
            if isinstance(v, dict):  # made like a field: its values are a column of their own
                m.derived[f"\x00attributes.{k}"] = self._derived(f"attributes.{k}", v)
                m.attributes[str(k)] = f"\x00attributes.{k}"
            else:
                m.attributes[str(k)] = self._column(f"attributes.{k}", v)
        m.defaults = {str(k): self._text_value(f"defaults.{k}", v) for k, v in self.table("defaults").items()}
        m.rows = row_filter(self.table("rows"), "rows.", self.fail)
        events = self.doc.get("events", [])
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            self.fail("events", "must be [[events]] blocks (tables)")
        m.events = [spec for i, e in enumerate(events) for spec in self._events(i, e)]
        m.clock_trust, m.clock_uncertainty_s = clock_trust(self.table("clock"), "clock", self.fail)
        m.geofence = geofence(self.table("geofence"), "geofence", self.fail)
        # the lexicons its text is read with: checked now, read again at build (docs/lexicons.md)
        lexicon_for(declared(self.doc, self.origin), self.origin)
        m.options = dict(self.table(fmt)) if fmt in SELF_DESCRIBED else {}
        if fmt == "text":
            m.text = self._text(self.table("text"))
        elif not m.events and fmt not in SELF_DESCRIBED:
            self.fail("events", "at least one [[events]] block is needed")
        return m

    def _code_table(self, key: str, table) -> dict[str, str]:
        """Codes, and the table's own settings: `default` (what a value it does not list
        reads as) or `unlisted = "refuse"` (such a value is an error); without either, an
        unlisted value is kept as written and counted in the import summary."""
        if not isinstance(table, dict):
            self.fail(key, "must be a table of code = meaning")
        out = {}
        for code, meaning in table.items():
            if code in ("default", "unlisted"):
                continue
            if isinstance(meaning, dict | list):
                self.fail(f"{key}.{code}", "must be the text the code reads as", meaning)
            out[str(code)] = str(meaning)
        if "default" in table and "unlisted" in table:
            self.fail(f"{key}.unlisted", "is given beside default: a value the table does not list reads as the "
                      "default; give one of the two")
        if "default" in table:
            out[OTHER_CODE] = self._text_value(f"{key}.default", table["default"],
                                               "the text a value the table does not list reads as")
        unlisted = table.get("unlisted", "keep")
        if unlisted not in ("keep", "refuse"):
            self.fail(f"{key}.unlisted", "must be keep (a value the table does not list is kept as written and "
                      "counted) or refuse (it is an error naming the line)", unlisted)
        if unlisted == "refuse":
            out[REFUSE_CODE] = "refuse"
        return out

    def _nested(self, m: Mapping, file: dict) -> None:
        m.records = file.get("records")
        if m.format in ("json", "xml") and not m.records:
            self.fail("file.records", f"is required for {m.format}: the path that selects the records "
                      f"({'$.calls[*]' if m.format == 'json' else './/call'})")
        ns = file.get("namespaces", {})
        if not isinstance(ns, dict) or not all(isinstance(v, str) for v in ns.values()):
            self.fail("file.namespaces", "must be a table of prefix = namespace URI")
        m.namespaces = dict(ns)
        m.sheet = file.get("sheet")
        header_row = file.get("header_row", 1)
        if not isinstance(header_row, int) or header_row < 1:
            self.fail("file.header_row", "must be a row number from 1", header_row)
        m.header_row = header_row

    def _check_zone(self, key: str, tz: str) -> None:
        try:
            zoneinfo.ZoneInfo(tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            self.fail(key, "is not a known IANA time zone", tz)

    def _check_encoding(self, enc: str) -> None:
        try:
            "".encode(enc)
        except LookupError:
            self.fail("file.encoding", "is not a known text encoding", enc)

    def _column(self, key: str, value) -> str:
        if not isinstance(value, str) or not value:
            self.fail(key, "must be a column name", value)
        return value

    def _text_value(self, key: str, value, what: str = "the text a blank value reads as") -> str:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.fail(key, f"must be {what}", value)
        return str(value)

    def _field(self, key: str, value, codes: dict, where: str = "fields") -> FieldSpec:
        if key not in EVENT_FIELDS:
            self.fail(f"{where}.{key}", f"is not an event field ({', '.join(EVENT_FIELDS)})"
                      f"{suggestion(key, EVENT_FIELDS)}")
        return self._spec(f"{where}.{key}", value, codes)

    def _derived(self, key: str, value) -> FieldSpec:
        if isinstance(value, str):
            self.fail(key, "must be a table like { column = \"Opened\", pattern = \"^(\\\\S+)\" }", value)
        return self._spec(key, value, self.codes)

    def _spec(self, key: str, value, codes: dict) -> FieldSpec:
        """A column, or a table: column or template, then pattern, codes, pick, default."""
        if isinstance(value, str):
            return FieldSpec(column=value)
        if isinstance(value, bool):
            # users reach for `unit = false` in [fields]: say where it belongs
            self.fail(key, "must be a column name or a table; true/false is allowed only as `unit = false` "
                      "in an [[events]] block (that event has no unit). A source whose rows name no unit "
                      "leaves `unit` out of [fields]", value)
        if not isinstance(value, dict):
            self.fail(key, "must be a column name or a table")
        unknown(value, FIELD_TABLE, key, self.fail)
        default = value.get("default")
        fixed = value.get("value")
        fixed = None if fixed is None else self._text_value(f"{key}.value", fixed, "the text every row reads as")
        spec = FieldSpec(column=value.get("column"), codes=value.get("codes"),
                         template=value.get("template"), pick=value.get("pick"),
                         default=None if default is None else self._text_value(f"{key}.default", default),
                         pattern=value.get("pattern"),
                         value=fixed)
        given = [k for k in ("column", "template", "value") if value.get(k) is not None]
        if not given:
            self.fail(key, "needs column, template or value (one fixed value for every row)")
        if len(given) > 1:
            self.fail(key, f"gives {' and '.join(given)}: give one of column, template, value")
        if spec.codes is not None and spec.codes not in codes:
            self.fail(f"{key}.codes", "names a code table that is not defined", spec.codes)
        if spec.pick not in (None, "lat", "lon"):
            self.fail(f"{key}.pick", "must be lat or lon", spec.pick)
        if spec.pattern is not None:
            self._check_pattern(f"{key}.pattern", spec.pattern)
        if value.get("format") is not None:
            spec = replace(spec, format=self._attribute_format(key, value["format"]))
        return spec

    def _attribute_format(self, key: str, fmt) -> str:
        """`format` on a time attribute (shown_time): a strptime pattern or a named format; a
        time of day alone is allowed (it is dated by the event's own time)."""
        name = key.rsplit(".", 1)[-1]
        if ".attributes." not in f".{key}" or name not in TIME_ATTRIBUTES:
            self.fail(f"{key}.format", "is only for an attribute that is a time "
                      f"({', '.join(sorted(TIME_ATTRIBUTES))}); an event's time takes `format` in its [[events]] block")
        if not isinstance(fmt, str):
            self.fail(f"{key}.format", "must be a strptime pattern or one of " + ", ".join(NAMED_FORMATS), fmt)
        if fmt not in NAMED_FORMATS:
            problem = format_problem(fmt)
            if problem:
                self.fail(f"{key}.format", problem, fmt)
            missing = missing_date(fmt)
            if missing and len(missing) < 3:
                self.fail(f"{key}.format", f"reads no {' or '.join(missing)}: write the whole date, or the time "
                          "of day alone (then it is on the day of the event's own time)", fmt)
        return fmt

    def _check_pattern(self, key: str, pattern) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        if not isinstance(pattern, str):
            self.fail(key, "must be a regular expression", pattern)
        try:
            re.compile(pattern)
            pc.replace_substring_regex(pa.array([""]), pattern, "")
        except (re.error, pa.ArrowInvalid) as exc:
            self.fail(key, f"is not a regular expression this reads (RE2 syntax): {exc}", pattern)

    def _events(self, i: int, e: dict) -> list[EventSpec]:
        """One block, or one per slot of a wide layout (`wide = [1, 2, 3]`: `{n}` in its columns)."""
        key = f"events[{i + 1}]"
        unknown(e, EVENT_OWN | set(EVENT_OWN_FIELDS), key, self.fail)
        if "wide" not in e:
            return [self._event(i, e)]
        slots = e["wide"]
        if not isinstance(slots, list) or not slots or not all(isinstance(n, int | str) for n in slots):
            self.fail(f"{key}.wide", "must be a list of the slot numbers, e.g. [1, 2, 3, 4]", slots)
        block = {k: v for k, v in e.items() if k != "wide"}
        if "{n}" not in repr(block):
            self.fail(f"{key}.wide", "needs {n} in the columns it names, e.g. time = \"Time{n}\"")
        numbered = [c for c in self._event(i, block).columns() if "{n}" in c]
        specs = []
        for n in slots:
            spec = self._event(i, _fill(block, str(n)))
            specs.append(replace(spec, slot=tuple(c.replace("{n}", str(n)) for c in numbered)))
        return specs

    def _event(self, i: int, e: dict) -> EventSpec:
        key = f"events[{i + 1}]"
        kind, kind_from, kinds = e.get("kind"), e.get("kind_from"), dict(e.get("kinds", {}))
        if (kind is None) == (kind_from is None):
            self.fail(key, "needs exactly one of kind or kind_from")
        for name, k in [("kind", kind)] if kind else [(f"kinds.{a}", b) for a, b in kinds.items()]:
            if k not in EVENT_KINDS:
                self.fail(f"{key}.{name}", "is not an event kind (see docs/events.md)"
                          f"{suggestion(str(k), EVENT_KINDS)}", k)
        if kind_from and not kinds:
            self.fail(f"{key}.kinds", "is required with kind_from")
        time = e.get("time")
        time = () if time is None else (time,) if isinstance(time, str) else tuple(time)
        fmt = e.get("format")
        if time and not fmt:
            self.fail(f"{key}.format", "is required when time is given")
        if fmt is not None:
            self._check_format(f"{key}.format", fmt)
        date = self.date if fmt not in (None, *NAMED_FORMATS) and len(missing_date(fmt)) == 3 else None
        precision = e.get("precision") or guess_precision(fmt)
        if precision not in PRECISION_MS:
            self.fail(f"{key}.precision", f"must be one of {', '.join(PRECISION_MS)}", precision)
        # unit = false leaves the unit off (the call's own events); unit = "Column" reads its own
        unit = e["unit"] if isinstance(e.get("unit"), bool) else True
        own = {name: self._field(name, e[name], self.codes, key) for name in EVENT_OWN_FIELDS
               if name in e and not (name == "unit" and isinstance(e[name], bool))}
        attrs = e.get("attributes", {})
        if not isinstance(attrs, dict):
            self.fail(f"{key}.attributes", "must be a table of name = column (or field table)", attrs)
        attrs = {str(k): self._spec(f"{key}.attributes.{k}", v, self.codes) for k, v in attrs.items()}
        return EventSpec(kind=kind, kind_from=kind_from, kinds=kinds, time=time, format=fmt,
                         precision=precision, optional=bool(e.get("optional", False)),
                         once_per_call=bool(e.get("once_per_call", False)), text=e.get("text"),
                         unit=bool(unit), key=key, rows=row_filter(e, f"{key}.", self.fail), fields=own, date=date,
                         attributes=attrs, after=self._after(i, e.get("after")),
                         split=split_spec(e["split"], f"{key}.split", self.fail) if "split" in e else None)

    def _after(self, i: int, after) -> str | None:
        """`after = 1`: the number of an earlier block, one event a row, whose time this follows."""
        if after is None:
            return None
        key = f"events[{i + 1}].after"
        if isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= i:
            self.fail(key, f"must be the number of an earlier [[events]] block (1 to {i})" if i else
                      "must name an earlier [[events]] block, and this is the first", after)
        ref = self.doc["events"][after - 1]
        if "wide" in ref or "split" in ref or not ref.get("time"):
            self.fail(key, "must name a block with a time and one event a row (no wide, no split)", after)
        return f"events[{after}]"

    def _check_format(self, key: str, fmt) -> None:
        if not isinstance(fmt, str):
            self.fail(key, "must be a strptime pattern or one of " + ", ".join(NAMED_FORMATS), fmt)
        if fmt in NAMED_FORMATS:
            return
        problem = format_problem(fmt)
        if problem:
            self.fail(key, problem, fmt)
        missing = missing_date(fmt)
        if len(missing) == 3 and self.date is None and not key.startswith("text"):
            self.fail(key, "reads a time of day with no date: join the date column (time = [\"Date\", \"Time\"]) "
                      "or give the day in [mapping] date = \"YYYY-MM-DD\"", fmt)
        if missing and len(missing) < 3 or len(missing) == 3 and key.startswith("text"):
            self.fail(key, f"reads no {' or '.join(missing)}: every time would fall in 1900; "
                      "write the whole date in the pattern", fmt)

    def _check_date(self, date) -> str | None:
        import datetime

        if date is None:
            return None
        try:
            return datetime.date.fromisoformat(str(date)).isoformat()
        except ValueError:
            self.fail("mapping.date", "must be a day written YYYY-MM-DD", date)

    def _text(self, t: dict) -> TextSpec:
        event = t.get("event", "statement")
        if event not in EVENT_KINDS:
            self.fail("text.event", "is not an event kind", event)
        if t.get("time") and not t.get("format"):
            self.fail("text.format", "is required when text.time is given")
        if t.get("format") is not None:
            self._check_format("text.format", t["format"])
        return TextSpec(event=event, time=t.get("time"), format=t.get("format"))


CLOCK_TRUST = ("reference", "estimated")


def clock_trust(t: dict, key: str, fail) -> tuple[str, float | None]:
    """A declared clock trust (`[clock]` of a mapping, `[clocks."FILE"]` of onrecord.toml):
    ("reference", ± seconds) or ("estimated", None). Never inferred from the source kind:
    a sensor network may be NTP-timed or minutes off, only its owner can say."""
    for k in t:
        if k not in ("trust", "uncertainty_s", "offset_s", "name"):
            fail(f"{key}.{k}", "is not a clock setting (trust, uncertainty_s, name)")
    if "name" in t and not (isinstance(t["name"], str) and t["name"].strip()):
        fail(f"{key}.name", "must be the clock's name: sources of one name share one clock", t["name"])
    trust = t.get("trust", "estimated")
    if trust not in CLOCK_TRUST:
        fail(f"{key}.trust", "must be reference or estimated", trust)
    unc = t.get("uncertainty_s")
    if trust == "estimated":
        if unc is not None:
            fail(f"{key}.uncertainty_s", "is only for trust = \"reference\" (an estimate measures its own)", unc)
        return trust, None
    if isinstance(unc, bool) or not isinstance(unc, (int, float)) or not unc > 0:
        fail(f"{key}.uncertainty_s", "is required with trust = \"reference\": a number of seconds above 0", unc)
    return trust, float(unc)


def geofence(t: dict, key: str, fail) -> tuple[float, float, float] | None:
    """A declared geofence (`[geofence]` of an AVL mapping): the point and radius within
    which the dispatch system takes a car as arrived. None when not declared."""
    if not t:
        return None
    out = []
    for k, lo, hi in (("lat", -90.0, 90.0), ("lon", -180.0, 180.0), ("radius_m", 0.0, 100_000.0)):
        v = t.get(k)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi or (k == "radius_m" and v <= 0):
            fail(f"{key}.{k}", f"is required: a number from {lo:g} to {hi:g}" + (" (metres, above 0)"
                 if k == "radius_m" else " (decimal degrees, WGS84)"), v)
        out.append(float(v))
    return out[0], out[1], out[2]


def guess_precision(fmt: str | None) -> str:
    """What the written pattern can say: a date alone is a day, no seconds is a minute."""
    if not fmt or fmt in NAMED_FORMATS:
        return "second"
    if "%S" in fmt or "%T" in fmt or "%s" in fmt:
        return "second"
    if "%M" in fmt or "%R" in fmt:
        return "minute"
    if "%H" in fmt or "%I" in fmt:
        return "hour"
    return "day"


def _fill(value, n: str):
    """A wide block's slot: `{n}` replaced by the slot's number wherever the block names a column."""
    if isinstance(value, str):
        return value.replace("{n}", n)
    if isinstance(value, list):
        return [_fill(v, n) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, n) for k, v in value.items()}
    return value

