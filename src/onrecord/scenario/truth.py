"""truth.json: what really happened, and which written record stands for what.

Records are keyed "FILE#RID#KIND": the source's file name, the record id the mapping
copies into the event attribute `rid`, and the event kind the mapping makes of it. That
key survives import without relying on line numbers. Mentions of units and people are
keyed "FILE#RID#FIELD". Schema: docs/scenario.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = "onrecord-scenario-truth/1"


def record_key(file: str, rid: str, kind: str) -> str:
    return f"{file}#{rid}#{kind}"


def mention_key(file: str, rid: str, what: str) -> str:
    return f"{file}#{rid}#{what}"


class TruthBook:
    """Collects truth while the writers write; `write()` puts it in truth.json."""

    def __init__(self) -> None:
        self.sources: dict[str, dict] = {}
        self.records: dict[str, dict] = {}
        self.mentions: dict[str, str] = {}
        self.forms: dict[str, str] = {}     # mention key -> the text as written there
        self.contradictions: list[dict] = []
        self.press_errors: list[dict] = []
        self.approximations: list[dict] = []
        self.prior_records: dict[str, dict] = {}
        self.sections: dict[str, object] = {}

    def record(self, file: str, rid: str, kind: str, event: str, true_t: float, written: str) -> None:
        from onrecord.scenario.written_times import iso_true
        key = record_key(file, rid, kind)
        if key in self.records:
            raise ValueError(f"two truths for {key}")
        self.records[key] = {"event": event, "true_time": iso_true(true_t), "written": written}

    def mention(self, file: str, rid: str, what: str, entity: str) -> None:
        self.mentions[mention_key(file, rid, what)] = entity

    def source(self, file: str, **info) -> None:
        self.sources[file] = info

    def write(self, path: Path, head: dict) -> None:
        doc = {"schema": SCHEMA, **head, "sources": self.sources, **self.sections,
               "records": self.records, "mentions": self.mentions, "mention_forms": self.forms,
               "contradictions": self.contradictions, "press_errors": self.press_errors,
               "approximate_times": self.approximations,
               "prior_records": self.prior_records}
        path.write_text(json.dumps(doc, indent=1, sort_keys=False, ensure_ascii=False) + "\n",
                        encoding="utf-8")


@dataclass
class Truth:
    """truth.json read back, with the groupings the scorer needs."""

    doc: dict
    offsets: dict[str, float] = field(default_factory=dict)
    record_event: dict[str, str] = field(default_factory=dict)
    mention_entity: dict[str, str] = field(default_factory=dict)
    mention_form: dict[str, str] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    detail_metrics: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    prior_person: dict[str, str] = field(default_factory=dict)


def load_truth(path: str | Path) -> Truth:
    from onrecord.errors import InputError
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the truth file: {exc.strerror}", file=str(path)) from exc
    except ValueError as exc:
        raise InputError(f"not JSON: {exc}", file=str(path)) from exc
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InputError(f"not a scenario truth file (expected schema {SCHEMA})", file=str(path))
    try:
        return _read(doc)
    except (KeyError, TypeError, AttributeError) as exc:
        # a hand-made or foreign truth file: one sentence naming what is missing, never a traceback
        what = f"key {exc.args[0]!r}" if isinstance(exc, KeyError) else "a section"
        raise InputError(f"{what} is missing or not of the documented shape (docs/scenario.md)",
                         file=str(path)) from exc


def _read(doc: dict) -> Truth:
    """The parts the scorer reads. `sources` and `metrics.scored` are required; a case with no
    prior-contact records, mentions or per-unit detail simply has none of them."""
    offsets = {f: s["clock_offset_s"] for f, s in doc["sources"].items()
               if s.get("clock_offset_s") is not None}
    m = doc["metrics"]
    return Truth(doc, offsets=offsets, record_event={k: v["event"] for k, v in doc.get("records", {}).items()},
                 mention_entity=dict(doc.get("mentions", {})), mention_form=dict(doc.get("mention_forms", {})),
                 metrics=dict(m["scored"]),
                 detail_metrics=dict(m.get("scored_detail", {})), counts=dict(m.get("scored_counts", {})),
                 # A record that names nobody ("the son") is never linked, by design
                 # (docs/warnings.md): linkage is scored over the named ones.
                 prior_person={k: v["person"] for k, v in doc.get("prior_records", {}).items()
                               if v.get("named", True)})
