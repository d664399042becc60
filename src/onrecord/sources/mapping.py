"""Declarative mappings (TOML): how one agency's export becomes events. See docs/mappings.md."""

from __future__ import annotations

import re
import tomllib
import zoneinfo
from dataclasses import dataclass, field
from pathlib import Path

from onrecord.errors import InputError
from onrecord.sources.time_checks import TimeRules, time_rules
from onrecord.vocab import EVENT_KINDS, SOURCE_KINDS

BUNDLED = Path(__file__).parent / "mappings"
EVENT_FIELDS = ("call", "unit", "agency", "place", "text", "lat", "lon", "actor", "channel")
PRECISION_MS = {"second": 0, "minute": 59_999, "hour": 3_599_999, "day": 86_399_999}
TEMPLATE_COLUMN = re.compile(r"\{([^{}]+)\}")


@dataclass(frozen=True)
class FieldSpec:
    column: str | None = None
    codes: str | None = None
    template: str | None = None
    pick: str | None = None  # "lat" / "lon" out of a "(lat, lon)" point column

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

    def columns(self) -> list[str]:
        cols = list(self.time)
        if self.kind_from:
            cols.append(self.kind_from)
        if self.text:
            cols += TEMPLATE_COLUMN.findall(self.text)
        return cols


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
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    attributes: dict[str, str] = field(default_factory=dict)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    events: list[EventSpec] = field(default_factory=list)
    text: TextSpec | None = None
    time_rules: TimeRules = field(default_factory=TimeRules)  # years, DST gaps and overlaps

    def columns_used(self) -> list[str]:
        cols: list[str] = list(self.required)
        for spec in self.fields.values():
            cols += spec.columns()
        cols += list(self.attributes.values())
        for ev in self.events:
            cols += ev.columns()
        return list(dict.fromkeys(cols))


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

    def fail(self, key: str, message: str, value=None):
        raise InputError(message, file=self.origin, field=key, value=None if value is None else str(value))

    def table(self, key: str) -> dict:
        value = self.doc.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, "must be a table")
        return value

    def mapping(self) -> Mapping:
        head, file = self.table("mapping"), self.table("file")
        name = head.get("name") or self.fail("mapping.name", "is required")
        kind = head.get("source_kind") or self.fail("mapping.source_kind", "is required")
        if kind not in SOURCE_KINDS:
            self.fail("mapping.source_kind", f"is not one of {', '.join(sorted(SOURCE_KINDS))}", kind)
        tz = head.get("timezone")
        if tz is not None:
            self._check_zone("mapping.timezone", tz)
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
            description=head.get("description", ""), format=fmt, header=header, columns=columns,
            delimiter=file.get("delimiter", ","), quote=file.get("quote", '"'),
            encoding=file.get("encoding", "utf-8"), required=tuple(file.get("required", ())),
            null_values=("", *file.get("null_values", ())),
        )
        self._check_encoding(m.encoding)
        m.time_rules = time_rules(head, self.fail)
        m.codes = {k: {str(a): str(b) for a, b in v.items()} for k, v in self.table("codes").items()}
        m.fields = {k: self._field(k, v, m.codes) for k, v in self.table("fields").items()}
        m.attributes = {str(k): str(v) for k, v in self.table("attributes").items()}
        events = self.doc.get("events", [])
        m.events = [self._event(i, e) for i, e in enumerate(events)]
        if fmt == "text":
            m.text = self._text(self.table("text"))
        elif not m.events:
            self.fail("events", "at least one [[events]] block is needed")
        return m

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

    def _field(self, key: str, value, codes: dict) -> FieldSpec:
        if key not in EVENT_FIELDS:
            self.fail(f"fields.{key}", f"is not an event field ({', '.join(EVENT_FIELDS)})")
        if isinstance(value, str):
            return FieldSpec(column=value)
        if not isinstance(value, dict):
            self.fail(f"fields.{key}", "must be a column name or a table")
        spec = FieldSpec(column=value.get("column"), codes=value.get("codes"),
                         template=value.get("template"), pick=value.get("pick"))
        if spec.column is None and spec.template is None:
            self.fail(f"fields.{key}", "needs column or template")
        if spec.codes is not None and spec.codes not in codes:
            self.fail(f"fields.{key}.codes", "names a code table that is not defined", spec.codes)
        if spec.pick not in (None, "lat", "lon"):
            self.fail(f"fields.{key}.pick", "must be lat or lon", spec.pick)
        return spec

    def _event(self, i: int, e: dict) -> EventSpec:
        key = f"events[{i + 1}]"
        kind, kind_from, kinds = e.get("kind"), e.get("kind_from"), dict(e.get("kinds", {}))
        if (kind is None) == (kind_from is None):
            self.fail(key, "needs exactly one of kind or kind_from")
        for k in [kind] if kind else [v for v in kinds.values()]:
            if k not in EVENT_KINDS:
                self.fail(f"{key}.kind", "is not an event kind (see docs/events.md)", k)
        if kind_from and not kinds:
            self.fail(f"{key}.kinds", "is required with kind_from")
        time = e.get("time")
        time = () if time is None else (time,) if isinstance(time, str) else tuple(time)
        fmt = e.get("format")
        if time and not fmt:
            self.fail(f"{key}.format", "is required when time is given")
        precision = e.get("precision") or guess_precision(fmt)
        if precision not in PRECISION_MS:
            self.fail(f"{key}.precision", f"must be one of {', '.join(PRECISION_MS)}", precision)
        return EventSpec(kind=kind, kind_from=kind_from, kinds=kinds, time=time, format=fmt,
                         precision=precision, optional=bool(e.get("optional", False)),
                         once_per_call=bool(e.get("once_per_call", False)), text=e.get("text"),
                         unit=bool(e.get("unit", True)))

    def _text(self, t: dict) -> TextSpec:
        event = t.get("event", "statement")
        if event not in EVENT_KINDS:
            self.fail("text.event", "is not an event kind", event)
        if t.get("time") and not t.get("format"):
            self.fail("text.format", "is required when text.time is given")
        return TextSpec(event=event, time=t.get("time"), format=t.get("format"))


def guess_precision(fmt: str | None) -> str:
    """What the written pattern can say: a date alone is a day, no seconds is a minute."""
    if not fmt or fmt in ("iso", "epoch", "epoch_ms"):
        return "second"
    if "%S" in fmt or "%T" in fmt or "%s" in fmt:
        return "second"
    if "%M" in fmt or "%R" in fmt:
        return "minute"
    if "%H" in fmt or "%I" in fmt:
        return "hour"
    return "day"
