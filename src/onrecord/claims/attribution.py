"""Who says what, from the dependency parse of a sentence (optional, the `parse` extra).

The rules of speakers.py find a reporting verb and guess its speaker and its reach from the
words around it. Where the English pipeline is installed (grammar.py), the structure of the
sentence decides instead:

- the speaker is the verb's own subject (nsubj), however much stands between them: "The
  Georgia Bureau of Investigation (GBI) confirmed early Wednesday afternoon that ...";
- what is said is the verb's clausal complement (ccomp), and only it: in "a 28-year-old
  student named X who officials said carefully planned the attack" officials say that X
  planned the attack, not the age;
- a reporting clause set into another (", police said,": parataxis) or trailing it ("...,
  authorities said on Friday.": the main clause is its complement) speaks for the clause
  it comments on;
- "according to X" speaks for the clause its phrase attaches to: the whole sentence when it
  hangs on the main verb, a relative clause when it hangs on that clause's verb.

The speakers.py rules stay the fallback: a verb the parse reads otherwise, a subject that
names no one (a pronoun, "the department", an outlet), or no pipeline at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from onrecord.claims.grammar import parse
from onrecord.claims.records import Mention
from onrecord.claims.speakers import in_quote, phrase_of
from onrecord.claims.text import Document
from onrecord.claims.voices import Attribution, Voice

# Verbs of saying and of making known, by lemma (every tense and form is one verb).
REPORTING = {"say", "tell", "add", "explain", "state", "write", "testify", "admit", "acknowledge", "claim",
             "note", "recall", "reveal", "confirm", "announce", "report", "insist", "argue", "estimate",
             "indicate", "maintain", "suggest", "conclude", "determine", "describe", "allege", "assert",
             "disclose", "recount", "emphasize", "emphasise", "stress", "contend", "concede", "affirm"}
SUBJECT = {"nsubj", "nsubjpass"}


@dataclass
class Report:
    """A reporting verb read from the parse; offsets are relative to the sentence."""

    verb_start: int
    verb_end: int
    subject: tuple[int, int] | None  # the subject's head word
    subject_span: tuple[int, int] | None  # the subject's whole phrase
    covers: tuple[int, int] | None  # what the verb reports
    whole: bool  # a trailing, set-in or according-to clause: it comments on a clause, not a complement
    trailing: bool = False  # set off after what it reports (", police said."), not "according to"
    head_start: int | None = None  # the reporting verb this one depends on ("said, adding that")


def _span(tok) -> tuple[int, int]:
    left, right = tok.left_edge, tok.right_edge
    return left.idx, right.idx + len(right.text)


def _word(tok) -> tuple[int, int]:
    return tok.idx, tok.idx + len(tok.text)


def reports(sentence: str) -> list[Report]:
    """The reporting verbs and according-to phrases of one sentence, with their reach."""
    out = []
    for tok in parse(sentence):
        if tok.lower_ == "according" and any(c.lower_ == "to" for c in tok.children):
            to = next(c for c in tok.children if c.lower_ == "to")
            obj = next((c for c in to.children if c.dep_ == "pobj"), None)
            head = tok.head
            if obj is None:
                continue
            while head.dep_ == "conj" and head.head is not head:
                head = head.head  # "... and a suspect was arrested, according to authorities": all of it
            if head is tok or head.dep_ == "ROOT":
                covers = (0, len(sentence))
            else:
                covers = _span(head)
            # "... was wounded, according to a CNN tally, and the deadliest since ...": a clause
            # joined after the phrase, with its own subject, is not the source's
            later = [c for c in head.children if c.dep_ == "conj" and c.i > tok.i
                     and any(g.dep_ in SUBJECT for g in c.children)]
            if later:
                covers = (covers[0], later[0].left_edge.idx)
            out.append(Report(tok.idx, to.idx + len(to.text), _word(obj), _span(obj), covers, True))
            continue
        if tok.pos_ not in {"VERB", "AUX"} or tok.lemma_.lower() not in REPORTING:
            continue
        subj = next((c for c in tok.children if c.dep_ in SUBJECT), None)
        said = next((c for c in tok.children if c.dep_ == "ccomp"), None)
        covers, whole, trailing = None, False, False
        # where the reporting clause itself begins: its subject, or the verb (not the complement)
        clause = min(subj.left_edge.idx, tok.idx) if subj is not None else tok.idx
        if tok.dep_ == "parataxis" and tok.head.i < tok.i:
            # "A total of 39 officers responded, police said, and ...": the clause before it
            covers, whole, trailing = (0, clause), True, True
        elif said is not None and said.i < tok.i:
            # "A died and B was wounded ..., police said Monday.": all before the reporting clause
            # (the small model often takes only the last of several joined clauses as the complement)
            covers, whole, trailing = (0, clause), True, True
        elif said is None and tok.dep_ == "relcl":
            # "a student named X who officials said carefully planned the attack": the relative
            # clause only, not the noun it describes
            covers = (tok.idx + len(tok.text), tok.right_edge.idx + len(tok.right_edge.text))
        elif said is not None:
            # "X said (of the 13 shot) that ...": from the verb on; a complement that follows the
            # verb runs to the end of the sentence, the small model's cuts inside it aside
            covers = (tok.idx + len(tok.text), len(sentence))
        # "..., Esparza said, adding that the first call came at 11:30": a participle of saying
        # with no subject of its own speaks with the verb it hangs on
        head = tok.head.idx if subj is None and tok.head is not tok and tok.head.lemma_.lower() in REPORTING \
            else None
        out.append(Report(tok.idx, tok.idx + len(tok.text), _word(subj) if subj is not None else None,
                          _span(subj) if subj is not None else None, covers, whole, trailing, head))
    return out


def parsed_attributions(doc: Document, sent, mentions: list[Mention], rules: list[Attribution]) -> list[Attribution]:
    """The attributions of a sentence as its parse reads them (attribution.py): the parse
    decides the speaker (the verb's subject, when it names someone) and the reach (the
    verb's complement); what the parse leaves open keeps the rules' reading."""
    by_verb = {a.start: a for a in rules}
    out: list[Attribution] = []
    for r in reports(sent.text):
        vs, ve = sent.start + r.verb_start, sent.start + r.verb_end
        if in_quote(doc, vs):
            continue
        rule = by_verb.pop(vs, None)
        voice = _subject_voice(doc, sent, mentions, r)
        if voice is None and rule is None and r.head_start is not None:
            said = [a for a in out + rules if a.start == sent.start + r.head_start]
            voice = said[0].voice if said else None
        if voice is None and rule is None:
            continue
        voice = voice or rule.voice
        trailing = r.whole and r.trailing
        if r.covers is not None:
            # a clause before the verb begins after the reporting clause before it, if any
            begin = max([sent.start + r.covers[0]] + [a.end for a in out if a.end <= vs] if r.whole
                        else [sent.start + r.covers[0]])
            covers, whole = [(begin, sent.start + r.covers[1])], r.whole
        elif rule is not None:
            covers, whole, trailing = rule.covers, rule.whole, rule.trailing
        else:
            covers, whole = [(ve, sent.end)], False
        out.append(Attribution(voice, vs, ve, covers, whole, trailing))
    return sorted(out + list(by_verb.values()), key=lambda a: a.start)


def _subject_voice(doc: Document, sent, mentions: list[Mention], r: Report) -> Voice | None:
    """The named person or agency that is the reporting verb's subject, or None."""
    if r.subject is None:
        return None
    hs, he = sent.start + r.subject[0], sent.start + r.subject[1]
    ps, pe = sent.start + r.subject_span[0], sent.start + r.subject_span[1]
    rel = re.search(r"\b(?:who|whom|whose|that|which)\b", doc.text[ps:pe])
    pe = ps + rel.start() if rel else pe  # "the officer who shot X said": not X
    named = [m for m in mentions if m.entity and m.kind in {"person", "org"}]
    head = [m for m in named if m.start <= hs < m.end or hs <= m.start < he]
    inside = [m for m in named if ps <= m.start and m.end <= pe]
    # the phrase's own head word; else the name nearest the verb ("Dead and injured: Texas DPS
    # regional director Freeman Martin said", a heading the small model takes into the subject)
    m = head[0] if head else (inside[-1] if inside else None)
    return Voice(m.entity, phrase_of(doc, m)) if m is not None else None
