"""Who says each part of a document.

Three ways a speaker is named, tried in this order for every quotation:
1. right after it: `..." Israel said.`, `..." said Commissioner Dana Roe.`
2. before it in the same sentence: `Runcie said, "..."`, `X called the deputy a "coward"`;
   or a quotation that opens a sentence continues the speaker of the one before.
3. a paragraph that is all quotation takes the speaker of the paragraph before it (or,
   when that one has none, of the first sentence of the paragraph after it).
Text outside quotation marks belongs to an attribution in its sentence ("according to X",
"X said that ...", "..., sources told CNN.") and otherwise to the document's author.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from onrecord.claims.named_entities import Resolution
from onrecord.claims.records import Entity, Mention
from onrecord.claims.text import Document

VERBS = (r"said|says|say|told|tells|tell|added|explained|stated|wrote|writes|"
         r"testified|admitted|acknowledged|claimed|noted|recalled|revealed|confirmed|"
         r"announced|reported|insisted|argued|called|estimated|went on to say|"
         r"according to")
VERB_RE = re.compile(rf"\b(?:{VERBS})\b", re.IGNORECASE)
ORDERED = re.compile(r"^\s+(?:[\w’']+\s+){1,3}?(?:not\s+)?to\s+"
                     r"(?!(?:the|a|an|me|him|her|them|us|reporters|CNN)\b)[a-z]+")
QUOTE_RE = re.compile(r"“[^”]*(?:”|$)|\"[^\"]*(?:\"|$)", re.MULTILINE)
CROWD_RE = re.compile(r"\b(sources|authorities|officials|investigators|witnesses|prosecutors|police|"
                      r"officers|deputies|reports|documents|records)\s+(?:also\s+|have\s+|had\s+)?$", re.IGNORECASE)
PRONOUN_RE = re.compile(r"\b(he|she|they|I)\s*$", re.IGNORECASE)
# Between a speaker and the verb: "also", "on Thursday", "later", "has publicly".
LEFT_GAP = re.compile(r"^[\s,]*(?:(?:who|also|has|have|had|then|later|publicly|again|"
                      r"on \w+|last \w+|this \w+|earlier|yesterday|today|\w+ly)[\s,]+)*$")
RIGHT_GAP = re.compile(r"^\s+(?:the\s+)?(?:[A-Z][\w’'.]*\s+|of\s+)*$")
ACCORDING_GAP = re.compile(r"^\s+(?:the\s+)?(?:[a-z]+\s+)?(?:[A-Z][\w’'.]*,?\s+|of\s+|,\s*)*$")
APPOSITION = re.compile(r"^,\s*(?:the|a|an)\b[^,;“”\"]*$")
PARENTHETICAL = re.compile(r"^\s*,[^,“”\"]*,\s*$")


@dataclass
class Voice:
    speaker: str | None  # entity id
    text: str  # how the document names the speaker


@dataclass
class Attribution:
    voice: Voice
    start: int  # where the reporting verb is
    end: int
    covers: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Speakers:
    doc: Document
    author: Voice
    quotes: list[tuple[int, int, Voice]]
    attributions: list[Attribution]

    def who_said(self, offset: int) -> tuple[Voice, bool]:
        """The voice at a character offset, and whether it is inside a quotation."""
        for s, e, voice in self.quotes:
            if s <= offset < e:
                return voice or Voice(None, "an unnamed speaker"), True
        for a in self.attributions:
            if any(s <= offset < e for s, e in a.covers):
                return a.voice, False
        return self.author, False


def find_speakers(doc: Document, res: Resolution) -> Speakers:
    mentions = res.mentions.get(doc.id, [])
    author = Voice(f"author:{doc.id}", "the author")
    if "author" in doc.header or "by" in doc.header:
        key = "author" if "author" in doc.header else "by"
        s, _, value = doc.header[key]
        named = [m for m in mentions if m.start == s and m.entity]
        author = Voice(named[0].entity if named else f"author:{doc.id}", value)
    attributions: list[Attribution] = []
    for sent in doc.sentences:
        here = res.between(doc.id, sent.start, sent.end)
        attributions.extend(_attributions(doc, sent, here, attributions, res))
    quotes: list[tuple[int, int, Voice]] = []
    for i, para in enumerate(doc.paragraphs):
        for m in QUOTE_RE.finditer(para.text):
            s, e = para.start + m.start(), para.start + m.end()
            voice = _quote_voice(doc, s, e, attributions, quotes, i)
            quotes.append((s, e, voice))
    _fill_paragraph_quotes(doc, quotes, attributions)
    return Speakers(doc, author, quotes, attributions)


def _in_quote(doc: Document, offset: int) -> bool:
    for para in doc.paragraphs:
        if para.start <= offset < para.end:
            for m in QUOTE_RE.finditer(para.text):
                if para.start + m.start() < offset < para.start + m.end():
                    return True
    return False


def _attributions(doc: Document, sent, mentions: list[Mention], earlier: list[Attribution],
                  res: Resolution) -> list[Attribution]:
    out = []
    for v in VERB_RE.finditer(sent.text):
        vs, ve = sent.start + v.start(), sent.start + v.end()
        if _in_quote(doc, vs):
            continue
        if v.group(0).lower() == "called" and not re.search(r"[“\"]", sent.text[v.end():v.end() + 40]):
            continue  # "called 911" is a call; "called the deputy a 'coward'" is speech
        if v.group(0).lower() in {"told", "tell", "tells"} and ORDERED.match(sent.text[v.end():]):
            continue  # "Sgt. X told us to hold the perimeter" is an order he gave, not speech quoted
        voice = _voice_near(doc, v.group(0).lower(), vs, ve, sent, mentions, earlier[-3:] + out, res)
        if voice is None:
            continue
        tail = doc.text[ve:sent.end]
        covers = [(ve, sent.end)]
        if v.group(0).lower() == "according to" or (len(tail) <= 45 and not re.search(r"\d", tail)):
            covers = [(sent.start, sent.end)]  # "..., sources told CNN." speaks for all of it
        out.append(Attribution(voice, vs, ve, covers))
    return out


def _voice_near(doc, verb, vs, ve, sent, mentions, earlier=(), res: Resolution | None = None) -> Voice | None:
    named = [m for m in mentions
             if sent.start <= m.start < sent.end and (m.entity or m.kind in {"group", "description"})]
    if verb == "according to":
        for m in named:
            if m.start >= ve and m.start <= sent.end and ACCORDING_GAP.match(doc.text[ve:m.start]):
                return Voice(m.entity, _phrase(doc, m))
        rest = re.match(r"\s*([^,.;]+)", doc.text[ve:sent.end])
        return Voice(None, rest.group(1).strip()) if rest else None
    left = [m for m in named if sent.start <= m.end <= vs]
    if left:
        m = left[-1]
        gap = doc.text[m.end:vs]
        if LEFT_GAP.match(gap) or (PARENTHETICAL.match(gap) and m is left[0]):
            # "Steven X, the head of the Y Department, said": the person, not the agency.
            host = [p for p in left if p.kind == "person" and p.end <= m.start
                    and APPOSITION.match(doc.text[p.end:m.start])]
            m = host[-1] if m.kind != "person" and host else m
            return Voice(m.entity, _phrase(doc, m))
    right = [m for m in named if ve <= m.start <= sent.end]
    if right and RIGHT_GAP.match(doc.text[ve:right[0].start]):
        return Voice(right[0].entity, _phrase(doc, right[0]))
    crowd = CROWD_RE.search(doc.text[sent.start:vs])
    if crowd:
        # "..., sources said." / "authorities said": unnamed, but not the author.
        gid = "group:" + crowd.group(1).lower()
        if res is not None:
            res.entities.setdefault(gid, Entity(gid, "group", crowd.group(1).lower()))
        return Voice(gid, crowd.group(1))
    pron = PRONOUN_RE.search(doc.text[sent.start:vs])
    if pron and pron.group(1).lower() in {"he", "she"}:
        # "..., he said": the person last quoted, else the person last named.
        spoken = [a.voice for a in earlier if (a.voice.speaker or "").startswith("person:")]
        if spoken:
            return Voice(spoken[-1].speaker, pron.group(1))
        pool = res.between(doc.id, 0, vs) if res else mentions
        before = [m for m in pool if m.kind == "person" and m.entity and m.end <= vs]
        if before:
            return Voice(before[-1].entity, pron.group(1))
    return None


def _phrase(doc: Document, m: Mention) -> str:
    """The speaker as written, with the title and place that precede the name."""
    head = re.search(r"((?:[A-Z][\w’'.]*\s+|of\s+)*)$", doc.text[max(0, m.start - 60):m.start])
    return (head.group(1) + m.text).strip() if head else m.text


def _quote_voice(doc, s, e, attributions, quotes, para_index) -> Voice | None:
    para = doc.paragraphs[para_index]
    after = [a for a in attributions if e <= a.start <= min(e + 40, para.end)
             and '“' not in doc.text[e:a.start] and '"' not in doc.text[e:a.start]]
    if after:
        return after[0].voice
    sent = doc.sentence_at(s)
    before = [a for a in attributions if sent.start <= a.start < s]
    if before:
        return before[-1].voice
    covering = [a for a in attributions if any(cs <= s < ce for cs, ce in a.covers)]
    if covering:
        return covering[0].voice  # '... were "stunned", sources told CNN.'
    earlier = [(q[0], q[2]) for q in quotes if para.start <= q[0] < s and q[2] is not None]
    earlier += [(a.start, a.voice) for a in attributions if para.start <= a.start < sent.start]
    if earlier and doc.text[sent.start:s].strip() == "":
        return max(earlier, key=lambda x: x[0])[1]  # a new quoted sentence: the same speaker
    return _named_next(doc, e, attributions, para)


def _named_next(doc, e, attributions, para) -> Voice | None:
    """'"...," Then, after a pause, Officer X added that she was alone.': the sentence right
    after the quotation, in the same paragraph and without a quotation of its own, names
    a person as speaker."""
    nxt = next((t for t in doc.sentences if t.start >= e and t.start < para.end), None)
    if nxt is None or re.search(r"[“\"]", doc.text[e:nxt.end]):
        return None
    found = [a for a in attributions if nxt.start <= a.start < nxt.end
             and (a.voice.speaker or "").startswith("person:")]
    return found[0].voice if found else None


def _fill_paragraph_quotes(doc, quotes, attributions) -> None:
    """A paragraph that is all quotation: the speaker named around it."""
    for i, (s, e, voice) in enumerate(quotes):
        if voice is not None:
            continue
        p = next(j for j, para in enumerate(doc.paragraphs) if para.start <= s < para.end)
        para = doc.paragraphs[p]
        if s - para.start > 2:
            continue
        prev = _last_voice(doc, p - 1, quotes, attributions)
        nxt = _first_voice(doc, p + 1, attributions)
        quotes[i] = (s, e, prev or nxt)


def _last_voice(doc, p, quotes, attributions) -> Voice | None:
    if p < 0:
        return None
    para = doc.paragraphs[p]
    voiced = [(q[0], q[2]) for q in quotes if para.start <= q[0] < para.end and q[2]]
    voiced += [(a.start, a.voice) for a in attributions if para.start <= a.start < para.end]
    return max(voiced, key=lambda x: x[0])[1] if voiced else None


def _first_voice(doc, p, attributions) -> Voice | None:
    if p >= len(doc.paragraphs):
        return None
    first = next((s for s in doc.sentences if s.paragraph == p), None)
    if first is None:
        return None
    found = [a for a in attributions if first.start <= a.start < first.end]
    return found[0].voice if found else None
