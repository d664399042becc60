"""Documents cut into paragraphs and sentences, with offsets into the original text.

Only spaCy's blank English pipeline is used (tokenizer + rule-based sentencizer): no
model is downloaded, so the default path works offline. spaCy is imported here, not at
the package top, so `onrecord --help` stays fast.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

OPEN_QUOTES = "“\"‘"


@dataclass
class Sentence:
    start: int
    end: int
    text: str
    paragraph: int


@dataclass
class Paragraph:
    start: int
    end: int
    text: str
    doc: Any = None  # the spaCy Doc of this paragraph (token offsets are paragraph-relative)


@dataclass
class Document:
    id: str
    text: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    sentences: list[Sentence] = field(default_factory=list)
    header: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # key -> span, value
    _starts: list[int] = field(default_factory=list, repr=False)

    def sentence_at(self, offset: int) -> Sentence:
        """The sentence holding `offset` (or the last one starting before it)."""
        starts = [s.start for s in self.sentences] if len(self._starts) != len(self.sentences) else self._starts
        self._starts = starts
        i = max(0, bisect_right(starts, offset) - 1)
        return self.sentences[i]


@lru_cache(maxsize=1)
def blank_english():
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Blank-line blocks when the text has them (hard-wrapped statements), else lines."""
    splitter = r"\n\s*\n" if re.search(r"\n\s*\n", text) else r"\n"
    spans, pos = [], 0
    for m in re.finditer(splitter, text):
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, len(text)))
    out = []
    for s, e in spans:
        chunk = text[s:e]
        lead = len(chunk) - len(chunk.lstrip())
        trail = len(chunk.rstrip())
        if chunk.strip():
            out.append((s + lead, s + trail))
    return out


HEADER_LINE = re.compile(r"^([A-Z][A-Za-z ]{0,20}):[ \t]+(\S.*)$")


def header_lines(text: str) -> tuple[dict[str, tuple[int, int, str]], int]:
    """Leading 'Key: value' lines (Author:, Agency:, Written:) that many statements and
    exports carry: metadata, not prose. Returns them and where the body starts."""
    header, pos = {}, 0
    for line in text.splitlines(keepends=True):
        m = HEADER_LINE.match(line.rstrip("\r\n"))
        if not m:
            break
        header[m.group(1).strip().lower()] = (pos + m.start(2), pos + m.end(2), m.group(2).strip())
        pos += len(line)
    return (header, pos) if len(header) >= 2 else ({}, 0)


def read_document(doc_id: str, text: str) -> Document:
    nlp = blank_english()
    doc = Document(doc_id, text)
    doc.header, body = header_lines(text)
    spans = [(s + body, e + body) for s, e in paragraph_spans(text[body:])]
    for i, ((s, e), sp) in enumerate(zip(spans, nlp.pipe(text[s:e] for s, e in spans))):
        doc.paragraphs.append(Paragraph(s, e, text[s:e], sp))
        doc.sentences.extend(_sentences(sp, s, i, text))
    return doc


def _sentences(sp, offset: int, para: int, text: str) -> list[Sentence]:
    bounds = [[offset + s.start_char, offset + s.end_char] for s in sp.sents]
    # The sentencizer leaves an opening quote at the end of the previous sentence.
    for a, b in zip(bounds, bounds[1:]):
        stripped = text[a[0]:a[1]].rstrip()
        if stripped and stripped[-1] in OPEN_QUOTES and _is_opening(text, a[0] + len(stripped) - 1):
            a[1] = a[0] + len(stripped) - 1
            b[0] = a[1]
    bounds = _join_after_abbreviation(text, bounds)
    bounds = [piece for b in bounds for piece in _split_after_clock(text, b)]
    bounds = _join_time_heads(text, bounds)
    out = []
    for s, e in bounds:
        chunk = text[s:e]
        s2 = s + len(chunk) - len(chunk.lstrip())
        e2 = s + len(chunk.rstrip())
        if e2 > s2:
            out.append(Sentence(s2, e2, text[s2:e2], para))
    return out


def _is_opening(text: str, i: int) -> bool:
    if text[i] in "“‘":
        return True
    # A straight quote opens when something follows it directly and a space precedes it.
    return (i == 0 or text[i - 1].isspace()) and i + 1 < len(text) and not text[i + 1].isspace()


CLOCK_END = re.compile(r"\b[ap]\.m\.\.?\s+(?=[A-Z])")
TIME_WORDS = {"at", "around", "about", "approximately", "by", "shortly", "after", "before", "just", "until"}


def _split_after_clock(text: str, bound: list[int]) -> list[list[int]]:
    """'I arrived at 2:20 p.m. I stayed...' is two sentences; the tokenizer keeps 'p.m.'
    whole, so the sentencizer cannot see the full stop."""
    s, e = bound
    out = []
    for m in CLOCK_END.finditer(text, s, e):
        words = [w for w in re.findall(r"[A-Za-z]+", text[s:m.start()]) if w.lower() not in TIME_WORDS]
        if len(words) < 2:
            continue  # "At around 2:10 p.m. I was near...": the time opens this sentence
        out.append([s, m.end()])
        s = m.end()
    return out + [[s, e]]


# titles, street words and a lone initial ("3430 N. Academy Blvd.", "Devin P. Kelley")
ABBREVIATION_END = re.compile(r"\b(?:Sgt|Lt|Capt|Cpl|Det|Dr|Mr|Mrs|Ms|Gov|Sen|Rep|Gen|Col|Maj|St|No|Insp|Supt|"
                              r"Blvd|Ave|Rd|Hwy|Mt|Ft|Pkwy|Ln|Ct|Jr|Sr|(?-i:[A-Z]))\.\s*$")


def _join_after_abbreviation(text: str, bounds: list[list[int]]) -> list[list[int]]:
    """'Sgt. Dana Hale' is not the end of a sentence at 'Sgt.'."""
    out: list[list[int]] = []
    for b in bounds:
        prev = text[out[-1][0]:out[-1][1]] if out else ""
        if out and (ABBREVIATION_END.search(prev) or prev.rstrip().endswith(",")):  # "Blvd.," ends no sentence
            out[-1][1] = b[1]
        else:
            out.append(list(b))
    return out


# A piece that is nothing but a time of day ("10:16 PM.", "10:16pm.", "At 10:18 p.m.:") heads the
# timeline entry after it: the tokenizer splits the dot off "PM." or a glued "pm." and the
# sentencizer ends a sentence there, which would leave the time with no verb.
TIME_HEAD = re.compile(r"^\(?(?:(?:at|about|around|approximately)\s+)?\d{1,2}(?::[0-5]\d){1,2}\s*"
                       r"(?:[ap]\.?\s?m\b\.?)?\)?\s*[.:—–-]?\s*$", re.IGNORECASE)


def _join_time_heads(text: str, bounds: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for b in bounds:
        if out and TIME_HEAD.match(text[out[-1][0]:out[-1][1]].strip()):
            out[-1][1] = b[1]
        else:
            out.append(list(b))
    return out
