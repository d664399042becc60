"""Text documents (statements, press pieces) built sentence by sentence, so every claim
that truth cares about has its exact character span in the body."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from onrecord.scenario import mappings
from onrecord.scenario.truth import TruthBook


@dataclass
class TextDoc:
    name: str                       # file name (unique in the case)
    kind: str                       # statement or press
    agency: str
    header: dict[str, str]          # Author, Agency, Unit, Rid, Written/Published, Title
    body: str = ""
    spans: list[dict] = field(default_factory=list)

    @property
    def rid(self) -> str:
        return self.header["Rid"]

    def say(self, sentence: str, **tag) -> None:
        """Append a sentence; with tags, remember where it is (a claim truth knows about)."""
        if self.body and not self.body.endswith(("\n", " ")):
            self.body += " "
        start = len(self.body)
        self.body += sentence
        if "name" in tag:  # a mention: the span is the name itself
            start += sentence.index(tag["name"])
            sentence = tag["name"]
        if tag:
            self.spans.append({"span": [start, start + len(sentence)], "quote": sentence, **tag})

    def paragraph(self) -> None:
        self.body += "\n\n"


def write_doc(root: Path, doc: TextDoc, book: TruthBook, tz: str, time_key: str) -> Path:
    folder = root / ("statements" if doc.kind == "statement" else "press")
    folder.mkdir(parents=True, exist_ok=True)
    head = "".join(f"{k}: {v}\n" for k, v in doc.header.items())
    path = folder / doc.name
    path.write_text(head + "\n" + doc.body.strip() + "\n", encoding="utf-8")
    event = "statement" if doc.kind == "statement" else "report_filed"
    m = {"mapping": {"name": path.stem.replace("_", "-"), "description": doc.header.get("Title", ""),
                     "source_kind": doc.kind, "agency": doc.agency, "timezone": tz},
         "file": {"format": "text", "encoding": "utf-8"},
         "text": {"event": event, "time": time_key, "format": "%Y-%m-%d %H:%M"}}
    path.with_suffix(".toml").write_text(mappings.dump(m), encoding="utf-8")
    book.source(doc.name, kind=doc.kind, agency=doc.agency, path=f"{folder.name}/{doc.name}",
                mapping=f"{folder.name}/{path.with_suffix('.toml').name}", timezone=tz, clock_offset_s=None,
                rid_attribute="rid", rows=1, dialect="text: 'Key: value' header lines, a blank line, the body")
    return path
