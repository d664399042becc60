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
from onrecord.claims.named_entities import Resolution
from onrecord.claims.records import Mention
from onrecord.claims.speakers import in_quote, phrase_of
from onrecord.claims.text import Document
from onrecord.claims.voices import Attribution, Voice

# Verbs of saying and of making known, by lemma (every tense and form is one verb).
REPORTING = {"say", "tell", "add", "explain", "state", "write", "testify", "admit", "acknowledge", "claim",
             "note", "recall", "reveal", "confirm", "announce", "report", "insist", "argue", "estimate",
             "indicate", "maintain", "suggest", "conclude", "determine", "describe", "allege", "assert",
             "disclose", "recount", "emphasize", "emphasise", "stress", "contend", "concede", "affirm"}
# Verbs that tell an account only when the sentence's structure says they report something (a
# clause, a gerund, or a clause they trail): "She remembered reaching the door within six
# minutes", "he replied that it was about six minutes", "officers waited, she recounted". Alone
# with an object ("he answered 40 calls", "she relayed the order") they are acts, not speech.
REPORTING_IF_CLAUSE = {"remember", "reply", "respond", "answer", "relay", "recollect", "relate", "reiterate",
                       "repeat", "specify", "clarify", "swear", "attest", "declare", "remark", "observe",
                       "comment", "warn", "assure", "inform", "narrate", "detail", "recount", "testify",
                       "acknowledge", "concede", "admit", "estimate", "explain", "tell", "write"}
SUBJECT = {"nsubj", "nsubjpass"}
# Verbs of finding report only with a document (or investigators) as their subject and a clause.
FINDING = {"find", "show", "establish"}
FINDERS = {"report", "review", "investigation", "audit", "analysis", "inquiry", "study", "investigator",
           "finding", "timeline", "probe", "document"}
# The nouns of an account a prepositional phrase names as its source: "by Farrant's account",
# "in her telling", "by the department's count", "in his words", "per the chief".
ACCOUNT_NOUNS = {"account", "count", "estimate", "estimation", "reckoning", "telling", "words", "recollection",
                 "version", "testimony", "recounting", "memory", "calculation", "tally", "view", "retelling",
                 "description", "timeline", "statement"}


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
    source: bool = False  # a source phrase ("according to X", "by X's account"), not a verb
    after: tuple[int, int] | None = None  # the rest of a clause a set-in reporting clause interrupts
    replaces: int | None = None  # the verb whose rule reading this one replaces (a passive's agent)


def _span(tok) -> tuple[int, int]:
    left, right = tok.left_edge, tok.right_edge
    return left.idx, right.idx + len(right.text)


def _word(tok) -> tuple[int, int]:
    return tok.idx, tok.idx + len(tok.text)


def reports(sentence: str) -> list[Report]:
    """The reporting verbs and according-to phrases of one sentence, with their reach."""
    out = []
    for tok in parse(sentence):
        source = _source_phrase(tok)
        if source is not None:
            # "according to X", "by X's account", "per X": the phrase's source speaks for the clause
            # the phrase hangs on
            to, obj = source
            head = tok.head
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
            out.append(Report(tok.idx, to.idx + len(to.text), _word(obj), _span(obj), covers, True,
                              source=True))
            continue
        agent = _reporting_agent(tok)
        if agent is not None:
            # "The suspect, identified by two law enforcement sources as X, 26, ...": a passive
            # verb of saying or naming speaks through its agent, for what the verb's phrase says
            by, obj = agent
            # "..., as first reported by the Ledger": an as-clause comments on the whole sentence
            aside = any(c.dep_ == "mark" and c.lower_ == "as" for c in tok.children)
            covers = (0, len(sentence)) if tok.dep_ == "ROOT" or aside else \
                (by.idx + len(by.text), tok.right_edge.idx + len(tok.right_edge.text))
            out.append(Report(by.idx, by.idx + len(by.text), _word(obj), _span(obj), covers, tok.dep_ == "ROOT",
                              source=True, replaces=tok.idx))
            continue
        told = _account_colon(tok)
        if told is not None:
            # "Farrant gave this account: officers were inside within four minutes": what follows
            # the colon is the account the subject gave
            subj = next((c for c in tok.children if c.dep_ in SUBJECT), None)
            out.append(Report(tok.idx, tok.idx + len(tok.text), _word(subj), _span(subj),
                              (told, len(sentence)), False))
            continue
        if tok.pos_ not in {"VERB", "AUX"} or not _reports(tok):
            continue
        subjects = [c for c in tok.children if c.dep_ in SUBJECT] or _controller(tok)
        # "Fourteen officers, Chief X said in an interview, were in the hallway": the small model
        # takes the reported clause's subject for a second subject of the set-in verb; the
        # reporting clause's own subject is the one nearest the verb
        subj = subjects[-1] if subjects else None
        said = next((c for c in tok.children if c.dep_ == "ccomp"), None)
        covers, whole, trailing, after = None, False, False, None
        # where the reporting clause itself begins: its subject, or the verb (not the complement)
        clause = min(subj.left_edge.idx, tok.idx) if subj is not None else tok.idx
        if len(subjects) > 1 and said is not None and said.i > tok.i:
            # the set-in clause interrupts the clause it reports: that clause, on both sides of it
            covers, whole, trailing = (0, len(sentence)), True, False
        elif (tok.dep_ == "parataxis" and tok.head.i < tok.i or said is not None and said.i < tok.i) \
                and not _set_off(tok.doc, subj if subj is not None and subj.i < tok.i else tok):
            # "The gunman enters the school — a previous timeline stated he entered at 11:40": a
            # clause after a dash or a full stop is no trailing clause; it reports what follows it
            covers = (tok.idx + len(tok.text), len(sentence)) if said is not None and said.i > tok.i else None
        elif tok.dep_ == "parataxis" and tok.head.i < tok.i:
            # "A total of 39 officers responded, police said, and ...": the clause before it;
            # "Officers were inside, Farrant said, within four minutes": and, set in, its rest
            covers, whole, trailing = (0, clause), True, True
            after = _resumed(tok)
        elif said is not None and said.i < tok.i:
            # "A died and B was wounded ..., police said Monday.": all before the reporting clause
            # (the small model often takes only the last of several joined clauses as the complement)
            covers, whole, trailing = (0, clause), True, True
        elif said is None and tok.dep_ == "relcl":
            # "a student named X who officials said carefully planned the attack": the relative
            # clause only, not the noun it describes
            covers = (tok.idx + len(tok.text), tok.right_edge.idx + len(tok.right_edge.text))
        elif said is not None or _gerund(tok) is not None:
            # "X said (of the 13 shot) that ...": from the verb on; a complement that follows the
            # verb runs to the end of the sentence, the small model's cuts inside it aside.
            # "X remembered reaching the door within six minutes": the gerund is what is told
            covers = (tok.idx + len(tok.text), len(sentence))
        # "..., Esparza said, adding that the first call came at 11:30": a participle of saying
        # with no subject of its own speaks with the verb it hangs on
        head = tok.head.idx if subj is None and tok.head is not tok and tok.head.lemma_.lower() in REPORTING \
            else None
        out.append(Report(tok.idx, tok.idx + len(tok.text), _word(subj) if subj is not None else None,
                          _span(subj) if subj is not None else None, covers, whole, trailing, head,
                          after=after))
    return out


def _reports(tok) -> bool:
    """Whether a verb reports speech here: a verb of saying, or a verb of telling whose
    structure carries what is told (a clausal complement, a gerund, a trailing clause)."""
    lemma = tok.lemma_.lower()
    if lemma in REPORTING:
        return True
    if lemma in FINDING:
        # "The review found 376 officers responded": a document (or investigators) that finds
        # reports what it found; "Officers found two people wounded" is an act
        subj = next((c for c in tok.children if c.dep_ in SUBJECT), None)
        return subj is not None and subj.lemma_.lower() in FINDERS \
            and any(c.dep_ == "ccomp" for c in tok.children)
    if lemma not in REPORTING_IF_CLAUSE:
        return False
    if any(c.dep_ == "ccomp" for c in tok.children) or _gerund(tok) is not None:
        return True
    return tok.dep_ == "parataxis" and tok.head.i < tok.i


RESUMING_NOT = {"and", "but", "while", "who", "which", "as", "so", "though", "although", "because", "when",
                "where", "whose", "whom", "or", "yet"}


def _resumed(tok) -> tuple[int, int] | None:
    """Where the clause a set-in reporting clause (", Farrant said,") interrupts goes on: after
    the comma that closes the reporting clause, to the end of the sentence; None when the
    reporting clause ends the sentence or a new clause follows ("..., police said, and ...")."""
    doc = tok.doc
    j = tok.i + 1
    while j < len(doc) and doc[j].dep_ in {"npadvmod", "advmod", "nsubj", "compound", "det", "prep", "pobj"} \
            and doc[j].head.i in {tok.i} | {k for k in range(tok.i, j)} and doc[j].text != ",":
        j += 1  # ", said Farrant on Tuesday," / ", Farrant said Tuesday,"
    if j >= len(doc) - 1 or doc[j].text != ",":
        return None
    nxt = doc[j + 1]
    if nxt.lower_ in RESUMING_NOT or nxt.is_punct or any(t.lemma_.lower() in REPORTING for t in doc[j + 1:]):
        return None
    return nxt.idx, len(doc.text)


def _set_off(doc, first) -> bool:
    """Whether the reporting clause that begins with token `first` is set off after what it
    reports as a trailing clause is: by a comma, or after a closing quotation mark."""
    start = first.left_edge.i
    return start > 0 and doc[start - 1].text.endswith((",", "”", "\"", "’", "'"))


# Verbs that, passive with an agent, say who told it: "identified by police as", "described by
# witnesses as", "was estimated by investigators at".
NAMING = REPORTING | {"identify", "name", "describe", "put", "place", "confirm", "estimate"}


def _reporting_agent(tok):
    """The 'by' and its object of a passive verb of saying or naming; None otherwise."""
    if tok.pos_ != "VERB" or tok.lemma_.lower() not in NAMING or tok.tag_ != "VBN":
        return None
    by = next((c for c in tok.children if c.dep_ == "agent"), None)
    obj = next((c for c in by.children if c.dep_ == "pobj"), None) if by is not None else None
    return (by, obj) if obj is not None else None


# The nouns of an account a speaker gives, lays out or offers before a colon.
ACCOUNT_GIVEN = {"account", "sequence", "timeline", "version", "details", "chronology", "description", "picture",
                 "summary", "breakdown", "rundown", "recollection"}


def _account_colon(tok) -> int | None:
    """Where the account begins when a verb with a subject takes a noun of account that a
    colon closes ("Farrant gave this account:", "the chief laid out the sequence:"); else None."""
    if tok.pos_ != "VERB" or not any(c.dep_ in SUBJECT for c in tok.children):
        return None
    obj = next((c for c in tok.children if c.dep_ == "dobj" and c.lemma_.lower() in ACCOUNT_GIVEN), None)
    if obj is None or obj.right_edge.i + 1 >= len(tok.doc):
        return None
    colon = tok.doc[obj.right_edge.i + 1]
    return colon.idx + 1 if colon.text == ":" else None


# What an agency or a person puts out in its own words ("issued a statement saying").
STATEMENT_NOUNS = {"statement", "release", "message", "post", "letter", "notice", "update", "announcement"}


def _controller(tok) -> list:
    """The subject a reporting verb without its own takes from the verb it completes: "She went
    on to explain that ...", "Farrant was quoted as saying ...", "he declined to say whether"
    (an infinitive or a gerund after a preposition, up to three verbs up)."""
    if tok.dep_ == "acl" and tok.head.lemma_.lower() in STATEMENT_NOUNS and tok.head.dep_ in {"dobj", "pobj"}:
        # "X issued a statement saying ...", "X posted a message on Facebook stating that ...": the
        # statement's words are the subject's, who put it out
        verb = tok.head.head if tok.head.dep_ == "dobj" else tok.head.head.head
        found = [c for c in verb.children if c.dep_ in SUBJECT] if verb.pos_ in {"VERB", "AUX"} else []
        if found:
            return found
    node = tok
    for _ in range(3):
        if node.dep_ == "xcomp" or (node.dep_ == "advcl" and any(c.dep_ == "aux" and c.lower_ == "to"
                                                                 for c in node.children)):
            node = node.head  # "went on to explain": the small model reads the infinitive as advcl
        elif node.dep_ == "pcomp" and node.head.dep_ == "prep" and node.head.head.pos_ in {"VERB", "AUX"}:
            node = node.head.head
        else:
            return []
        found = [c for c in node.children if c.dep_ in SUBJECT]
        if found:
            return found
    return []


def _gerund(tok):
    """'remembered reaching the door', 'described waiting outside': a gerund told as the account."""
    return next((c for c in tok.children if c.dep_ == "xcomp" and c.tag_ == "VBG"), None)


def _source_phrase(tok):
    """The preposition and object of a phrase naming a source: 'according to X' (the object),
    'per X', 'by/in X's account' (the possessor of a noun of account). None otherwise."""
    if tok.lower_ == "according":
        to = next((c for c in tok.children if c.lower_ == "to"), None)
        obj = next((c for c in to.children if c.dep_ == "pobj"), None) if to is not None else None
        return (to, obj) if obj is not None else None
    if tok.dep_ != "prep" or tok.lower_ not in {"per", "by", "in"}:
        return None
    obj = next((c for c in tok.children if c.dep_ == "pobj"), None)
    if obj is None:
        return None
    if tok.lower_ == "per":
        return (tok, obj) if obj.pos_ in {"PROPN", "NOUN"} else None
    owner = next((c for c in obj.children if c.dep_ == "poss"), None)
    if obj.lemma_.lower() in ACCOUNT_NOUNS and owner is not None:
        return (tok, owner)
    return None


def parsed_attributions(doc: Document, sent, mentions: list[Mention], rules: list[Attribution],
                        earlier: list[Attribution] = (), res: Resolution | None = None) -> list[Attribution]:
    """The attributions of a sentence as its parse reads them (attribution.py): the parse
    decides the speaker (the verb's subject, when it names someone) and the reach (the
    verb's complement); what the parse leaves open keeps the rules' reading. A reporting verb
    or source phrase the rules do not know gets its speaker as the rules would find it at the
    place the parse found ("She recounted ...": the pronoun's person; "per the department")."""
    by_verb = {a.start: a for a in rules}
    out: list[Attribution] = []
    for r in reports(sent.text):
        vs, ve = sent.start + r.verb_start, sent.start + r.verb_end
        if in_quote(doc, vs):
            continue
        rule = by_verb.pop(vs, None)
        if r.replaces is not None:
            by_verb.pop(sent.start + r.replaces, None)  # "identified by sources": not the verb's subject
        voice = _subject_voice(doc, sent, mentions, r)
        if voice is None and rule is None and r.head_start is not None:
            said = [a for a in out + rules if a.start == sent.start + r.head_start]
            voice = said[0].voice if said else None
        if voice is None and rule is None:
            voice = _voice_by_rules(doc, sent, mentions, r, vs, ve, list(earlier) + out, res)
        if voice is None and rule is None:
            continue
        if voice is not None and rule is not None and (rule.voice.speaker or "").startswith("person:") \
                and (voice.speaker or "").startswith("org:"):
            # "according to Halden police spokesperson Lt. Tom Vey": where the parse stops at the
            # agency (the small model cuts the sentence at "Lt.") and the rules read the person
            # named with it, the person, the more particular speaker, stands
            voice = rule.voice
        voice = voice or rule.voice
        trailing = r.whole and r.trailing
        if r.covers is not None:
            # a clause before the verb begins after the reporting clause before it, if any
            begin = max([sent.start + r.covers[0]] + [a.end for a in out if a.end <= vs] if r.whole
                        else [sent.start + r.covers[0]])
            covers, whole = [(begin, sent.start + r.covers[1])], r.whole
            if r.after is not None:
                covers.append((sent.start + r.after[0], sent.start + r.after[1]))
        elif rule is not None:
            covers, whole, trailing = rule.covers, rule.whole, rule.trailing
        else:
            covers, whole = [(ve, sent.end)], False
        out.append(Attribution(voice, vs, ve, covers, whole, trailing))
    return sorted(out + list(by_verb.values()), key=lambda a: a.start)


def _voice_by_rules(doc: Document, sent, mentions: list[Mention], r: Report, vs: int, ve: int,
                    earlier: list[Attribution], res: Resolution | None) -> Voice | None:
    """The speaker of a reporting verb or source phrase only the parse found, as the rules read a
    speaker at that place: a pronoun subject (or possessor: "in her telling") is the person it
    means, a source phrase's object is read as "according to" reads its object, a verb's
    subject as the rules read the words before a verb of saying."""
    from onrecord.claims.speakers import _voice_near, person_pronoun

    word = doc.text[sent.start + r.subject[0]:sent.start + r.subject[1]].lower() if r.subject else ""
    pronoun = {"he": "he", "she": "she", "his": "he", "her": "she"}.get(word)
    if pronoun is not None:
        return person_pronoun(doc, res, sent, word, vs, earlier, mentions)
    if r.source:
        return _voice_near(doc, "according to", vs, ve, sent, mentions, earlier, res)
    if r.subject is None:
        return None
    return _voice_near(doc, "said", vs, ve, sent, mentions, earlier, res)


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
