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
from onrecord.claims.outlets import (
    OUTLET_ANY,
    OUTLET_DOC,
    OUTLET_DOC_LEFT,
    OUTLET_LEFT,
    OUTLET_WORD,
    OUTLET_WORK_BY,
    outlet_voice,
)
from onrecord.claims.records import Entity, Mention
from onrecord.claims.text import Document
from onrecord.claims.voices import Attribution, Voice

VERBS = (r"said|says|say|told|tells|tell|added|explained|stated|wrote|writes|"
         r"testified|admitted|acknowledged|claimed|noted|notes|recalled|revealed|confirmed|confirms|"
         r"announced|reported|reports|insisted|argued|called|estimated|went on to say|"
         r"indicated|indicate|indicates|maintained|have maintained|has maintained|suggests|suggested|"
         r"found|concluded|determined|identified|believe|believes|"
         r"believed|highlights|"
         r"highlighted|shows|showed|details|detailed|laid out|outlined|described|according to|"
         # "per the department", "Per Metro police": as "according to" (not "per hour", "per cent")
         r"per(?=\s+(?:the\s|a\s|an\s|(?-i:[A-Z])))|"
         # "In its report, ...", "In the department's timeline, ...": the document's agency, for the sentence
         r"(?<![\w,] )in\s+(?:its|their|the\s+(?:[\w’'-]+\s+){0,3}?[\w-]+[’']s|the)\s+(?:[\w-]+\s+)?"
         r"(?:report|timeline|review|statement|account|findings|chronology)(?=\s*,)|"
         # "CNN has learned that ...": what an outlet found out, told as its own report
         r"has learned|have learned|"
         # "Renner's earlier statement that officers arrived within two minutes": an account
         # named as someone's says what its that-clause says (_possessor below)
         r"(?:statement|claim|account|assertion|testimony|description|explanation|version|contention|"
         r"insistence|estimate)s?(?=\s+that\b)|"
         # "It later corrected that figure to 77 minutes", "she raised it to 25": who revises a
         # figure says the new one (revisions.py reads its measure)
         r"(?:revised|corrected|raised|lowered|updated|changed|put|puts|placed|pegged|increased|reduced)"
         r"(?=\s+(?:(?:the|that|this|its|their|his|her)\s+(?:[\w-]+\s+){0,2}?(?:number|count|toll|figure|"
         r"estimate|total|tally|time|timeline|delay|wait|gap)\b|it\s+(?:up\s+|down\s+)?(?:to|at)\b))")
VERB_RE = re.compile(rf"\b(?:{VERBS})\b", re.IGNORECASE)
REVISING = r"(?:revised|corrected|raised|lowered|updated|changed|put|puts|placed|pegged|increased|reduced)\b"
ORDERED = re.compile(r"^\s+(?:[\w’']+\s+){1,3}?(?:not\s+)?to\s+"
                     r"(?!(?:the|a|an|me|him|her|them|us|reporters|CNN)\b)[a-z]+")
QUOTE_RE = re.compile(r"“[^”]*(?:”|$)|\"[^\"]*(?:\"|$)", re.MULTILINE)
CROWD_RE = re.compile(r"\b(sources|authorities|officials|investigators|witnesses|prosecutors|police|victims|media|"
                      r"law enforcement|"
                      r"officers|deputies|reports|documents|records|survivors|witnesses)"
                      # "sources with the department", "victims trapped in the club"
                      r"(?:\s+(?:\w+ed\s+)?(?:from|of|at|in|inside|with)\s+[^,;“”\"]{1,60}?)?"
                      # "police, in a statement Friday, said", "authorities initially said"
                      r"(?:\s*,[^,;“”\"]{1,60},)?\s+(?:(?:also|have|has|had|first|later|earlier|now|since|then|"
                      r"again|\w+ly)\s+)*$",
                      re.IGNORECASE)
# "The Justice Department's report, released Thursday, said": a set-off phrase after the document
DOCUMENT_GAP = re.compile(r"^\s*(?:[’']s\s+)?(?:[\w-]+\s+){0,2}(?:report|review|presentation|timeline|investigation|"
                          r"audit|analysis|findings|statement)\b[^,;“”\"]{0,60}(?:,[^,;“”\"]{1,60},\s*)?$",
                          re.IGNORECASE)
# "The report says", "its review found": the document named before, so its agency. "A state review
# found" is a new document of someone else's (DOCUMENT_NEW): an unnamed speaker.
DOCUMENT_SUBJECT = re.compile(r"(?:^|[,;—–])\s*(?:the|its|their)\s+(?:[\w’'-]+\s+){0,2}(?:report|review|presentation|"
                              r"timeline|investigation|audit|analysis|findings|document)\s+(?:also\s+)?$",
                              re.IGNORECASE)
# "X released a review on Friday that found ...": the document's relative clause speaks for whoever
# released it (the agency or person named before the verb of releasing)
RELEASED_DOC = re.compile(r"\b(?:released|issued|published|made\s+public|put\s+out)\s+(?:on\s+\w+\s+)?"
                          r"(?:a|an|its|the|their|his|her)\s+(?:[\w’'-]+\s+){0,3}?(?:report|review|timeline|"
                          r"statement|findings|analysis|audit|investigation|chronology|document)\b"
                          r"(?:\s+(?:on|last|this)\s+\w+)?\s*,?\s+(?:that|which)\s+(?:also\s+)?$", re.IGNORECASE)
DOCUMENT_NEW = re.compile(r"(?:^|[,;—–])\s*((?:a|an|one)\s+(?:[\w’'-]+\s+){0,3}(?:report|review|presentation|"
                          r"timeline|investigation|audit|analysis|study)"
                          # "A report by a Texas House committee found": whose document, still unnamed
                          r"(?:\s+(?:by|from|of)\s+(?:an?|the)\s+[^,;“”\"]{1,60}?)?)\s+(?:also\s+)?$", re.IGNORECASE)
# "according to the committee's report": a document of a body that is no agency (a committee, a
# panel, a grand jury), an unnamed speaker, never the agency named last
BODY_DOCUMENT = re.compile(r"^\s+((?:the|a|an)\s+(?:[\w-]+\s+){0,2}(?:committee|panel|commission|council|board|"
                           r"legislature|grand jury|task force|inspector general|auditor)[’']s?\s+"
                           r"(?:[\w-]+\s+){0,2}(?:report|review|timeline|investigation|audit|analysis|findings))\b",
                           re.IGNORECASE)
# "according to the report", "according to the final review": the document named before
DOCUMENT_THE = re.compile(r"^\s+(?:the|its|their)\s+(?:[\w’'-]+\s+){0,2}(?:report|review|timeline|investigation|"
                          r"audit|analysis|findings)\b", re.IGNORECASE)

# "he said", and the accounts that change over time: "She later said", "he had initially said",
# "They now say", "he has since said", "he on Friday said"
PRONOUN_RE = re.compile(r"\b(he|she|they|I)\s*(?:(?:also|has|have|had|then|later|since|now|again|first|earlier|"
                        r"\w+ly|on \w+day|last \w+|this \w+|in an interview)\s+)*$", re.IGNORECASE)
# Between a speaker and the verb: "also", "on Thursday", "later", "has publicly".
# "The Georgia Bureau of Investigation (GBI) confirmed": the name's acronym in brackets, either
# mention next to the verb
LEFT_GAP = re.compile(r"^\)?[\s,]*(?:(?:who|also|has|have|had|then|later|publicly|again|first|now|since|"
                      r"\([^()“”\"]{1,40}\)|"
                      r"on \w+|last \w+|this \w+|earlier|yesterday|today|\w+ly|"
                      # "X at a news conference said", "X in a statement Tuesday said"
                      r"(?:at|in|during|on|through|via)\s+(?:an?|the|his|her|their|its)\s+(?:[\w-]+\s+){0,2}?"
                      r"(?:news conference|press conference|briefing|statement|interview|hearing|meeting|letter|"
                      r"post|video|email|tweet|release|deposition|testimony)(?:\s+\w+day)?)[\s,]+)*$")
RIGHT_GAP = re.compile(r"^\s+(?:the\s+)?(?:[A-Z][\w’'.]*\s+|of\s+)*$")
# "according to CSPD spokesperson Lt. Pamela Castro": capitalised words and role words before the name
ACCORDING_GAP = re.compile(r"^\s+(?:the\s+)?(?:[a-z]+\s+)?(?:[A-Z][\w’'.]*,?\s+|of\s+|,\s*|"
                           r"(?:spokes(?:man|woman|person)|chief|sheriff|officer|deputy|sergeant|lieutenant|"
                           r"captain|detective|director|commissioner|official|investigator|agent|superintendent|"
                           r"mayor|governor|senator|representative|public information officer|police|fire|"
                           r"department|sheriff[’']s office|county|city|state)\s+)*$")
RELATIVE_GAP = re.compile(r"^\s*,\s*(?:who|whose)\b[^;“”\"]*,\s*(?:(?:also|has|have|had|later|then|\w+ly)\s+)*$")
APPOSITION = re.compile(r"^,\s*(?:the|a|an)\b[^,;“”\"]*$")
PARENTHETICAL = re.compile(r"^\s*,[^,“”\"]*,\s*$")


@dataclass
class Speakers:
    doc: Document
    author: Voice
    quotes: list[tuple[int, int, Voice]]
    attributions: list[Attribution]
    routes: dict[int, str] = field(default_factory=dict)  # quotation start -> how its speaker was found

    def rule_at(self, offset: int) -> str:
        """How `who_said` decided at `offset` (provenance.py): inside a quotation by which route,
        else by which reporting clause, else the author; with the rule that made the voice."""
        for s, e, voice in self.quotes:
            if s <= offset < e:
                return f"quote/{self.routes.get(s, '?')} {voice.rule if voice else 'unnamed'}"
        a = self.attribution_at(offset)
        return f"clause {a.voice.rule}" if a is not None else "author"

    def attribution_at(self, offset: int) -> Attribution | None:
        """The reporting clause whose words cover `offset` (outside quotation marks); of two,
        the one whose verb is nearest before it ("The earliest reports indicated ..., but
        Sheriff X said ... about 9:30 a.m.": the sheriff's)."""
        covering = [a for a in self.attributions if any(s <= offset < e for s, e in a.covers)]
        inner = [b for b in covering if b.start <= offset and not b.trailing]
        outer = [a for a in covering if a.trailing and a.start > offset and inner
                 and not (a.voice.speaker or "").startswith("outlet:")
                 and not (inner[-1].voice.speaker or "").startswith("person:")]
        if outer:
            # "Officers have revealed that ..., law enforcement sources told CNN.": the trailing
            # clause names who told the reporter; what they reported others said is within it.
            # An outlet at the end is only the channel, and a person named inside is the source:
            # "Whitlock said ..., the Ledger reported" stays Whitlock's.
            return outer[-1]
        before = [a for a in covering if a.start <= offset and not a.whole]
        if before:
            return max(before, key=lambda a: a.start)
        return covering[0] if covering else None

    def who_said(self, offset: int) -> tuple[Voice, bool]:
        """The voice at a character offset, and whether it is inside a quotation."""
        for s, e, voice in self.quotes:
            if s <= offset < e:
                return voice or Voice(None, "an unnamed speaker"), True
        a = self.attribution_at(offset)
        return (a.voice, False) if a is not None else (self.author, False)


def find_speakers(doc: Document, res: Resolution, parse: bool = False) -> Speakers:
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
        found = _attributions(doc, sent, here, attributions, res)
        if parse:
            from onrecord.claims.attribution import parsed_attributions

            found = parsed_attributions(doc, sent, here, found, attributions[-3:], res)
        attributions.extend(found)
    attributions += _labels(doc, res, mentions) + _list_intros(doc, res, mentions, attributions)
    quotes: list[tuple[int, int, Voice]] = []
    routes: dict[int, str] = {}
    for i, para in enumerate(doc.paragraphs):
        for m in QUOTE_RE.finditer(para.text):
            s, e = para.start + m.start(), para.start + m.end()
            voice, routes[s] = _quote_voice(doc, s, e, attributions, quotes, i)
            quotes.append((s, e, voice))
    _fill_paragraph_quotes(doc, quotes, attributions, routes, res)
    return Speakers(doc, author, quotes, attributions, routes)


LABEL = re.compile(r"^(?P<who>[A-Z][\w’'.&-]*(?:\s+(?:[A-Z][\w’'.&-]*|of|the|and|for)){0,6}|[Pp]olice|[Aa]uthorities|"
                   r"[Oo]fficials|[Ss]ources):\s+\S")
ENTRY = re.compile(r"^\s*(?:[*•\-–—]|\d{1,2}(?:[:.]\d{2})?(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s*(?:[-–—:]|\s)"
                   r"|(?:[01]\d|2[0-3])[0-5]\d\s*(?:hours|hrs)?\s*[-–—:])", re.IGNORECASE)
INTRO = re.compile(r"\b(?:report|timeline|review|account|findings|records?|documents?|statement|details)\b"
                   r"[^:]*?\b(?:by|from|of)\s+[^:]*:\s*$", re.IGNORECASE)


def _labels(doc: Document, res: Resolution, mentions: list[Mention]) -> list[Attribution]:
    """A headline labelled with its source ("Police: 10 dead in ...", "Georgia Bureau of
    Investigation: Four Dead ...") is that source's, the whole line."""
    out = []
    for sent in doc.sentences:
        m = LABEL.match(sent.text)
        if m is None or len(sent.text) > 200:
            continue
        who = m.group("who")
        named = [x for x in mentions if sent.start <= x.start < sent.start + m.end("who") and x.entity]
        if named:
            voice = Voice(named[-1].entity, who)
        elif who.lower() in {"police", "authorities", "officials", "sources"}:
            gid = "group:" + who.lower()
            res.entities.setdefault(gid, Entity(gid, "group", who.lower()))
            voice = Voice(gid, who)
        else:
            voice = _agency_by_words(res, who)
        if voice is not None:
            out.append(Attribution(voice, sent.start, sent.start, [(sent.start, sent.end)], True))
    return out


def _agency_by_words(res: Resolution, words: str) -> Voice | None:
    """'Georgia Bureau of Investigation' written out where the agency was named by its
    acronym or its full name elsewhere in the run."""
    key = re.sub(r"[^a-z ]+", "", words.lower()).strip()
    initials = "".join(w[0] for w in key.split() if w not in {"of", "the", "and", "for"}).upper()
    for e in res.entities.values():
        if e.kind != "org":
            continue
        names = [e.name, *e.aliases]
        if any(re.sub(r"[^a-z ]+", "", n.lower()).strip() == key or n.upper() == initials for n in names):
            return Voice(e.id, words)
    return None


def _list_intros(doc: Document, res: Resolution, mentions: list[Mention],
                 found: list[Attribution]) -> list[Attribution]:
    """A list or timeline introduced as someone's ("Details ... from a report issued
    Monday by State's Attorney X:") is that person's, entry by entry, until a paragraph
    that is no entry (no bullet, no leading time)."""
    out = []
    for i, para in enumerate(doc.paragraphs):
        gave = SUBJECT_GAVE.search(para.text)
        if not para.text.rstrip().endswith(":") and gave is None:
            continue
        own = [a for a in found if para.start <= a.start < para.end and a.voice.speaker]
        voice = own[-1].voice if own else None
        if voice is None and gave is not None:
            # "Police released this timeline on Tuesday:", "The X Police Department released a
            # timeline on Friday." followed by its entries: whoever released it
            named = [x for x in mentions if x.entity and para.start + gave.start("who") <= x.start
                     < para.start + gave.end("who") and x.kind in {"person", "org"}]
            voice = Voice(named[-1].entity, phrase_of(doc, named[-1])) if named else _crowd_or_agency(
                doc, res, gave.group("who"), para.start)
        if voice is None and (kind := KIND_LIST.match(para.text)) is not None:
            # "The sheriff's office timeline:"
            voice = _agency_voice(doc, res, para.start, kind.group(1), kind.group(0).rstrip(" :"))
        if voice is None and INTRO.search(para.text):
            by = re.search(r"\b(?:by|from)\s+", para.text)
            named = [m for m in mentions if m.entity and by and para.start + by.end() <= m.start < para.end
                     and m.kind in {"person", "org"}]
            voice = Voice(named[0].entity, phrase_of(doc, named[0])) if named else None
        if voice is None and (m := RELEASED_BY.search(para.text)) is not None:
            # "Here is the timeline police released on Tuesday:": who released it
            named = [x for x in mentions if x.entity and para.start + m.start("who") <= x.start
                     < para.start + m.end("who") and x.kind in {"person", "org"}]
            voice = Voice(named[-1].entity, phrase_of(doc, named[-1])) if named else _crowd_or_agency(
                doc, res, m.group("who"), para.start)
        if voice is None and OWN_DOCUMENT.search(para.text):
            # "Key findings of the report:", "According to the police timeline:": the agency last named
            org = _last_org(doc, res, para.start)
            voice = Voice(org.entity, phrase_of(doc, org)) if org is not None else None
        if voice is None:
            continue
        for nxt in doc.paragraphs[i + 1:]:
            if not ENTRY.match(nxt.text):
                break
            out.append(Attribution(voice, nxt.start, nxt.start, [(nxt.start, nxt.end)], True))
    return out


# a sentence whose subject gave a timeline, last in its paragraph, its entries to follow
SUBJECT_GAVE = re.compile(r"(?:^|[.!?]\s+)(?P<who>police|officials|authorities|investigators|prosecutors|"
                          r"(?:the\s+)?(?:[A-Z][\w’'.-]*\s+){1,5}?|the\s+(?:department|sheriff[’']s office|agency))\s*"
                          r"(?:has\s+|have\s+|had\s+|later\s+|also\s+)?(?:released|issued|published|provided|gave|"
                          r"laid out|shared|put out|made public|offered)\s+(?:this|the|a|an|its|their|the following)\s+"
                          r"(?:[\w-]+\s+){0,2}(?:timeline|chronology|sequence of events|account|summary)\b"
                          r"[^:.!?]*[:.]\s*$",
                          re.IGNORECASE)
KIND_LIST = re.compile(r"^\s*(?:the|a|an)\s+(?:[\w-]+\s+)?(police(?:\s+department)?|sheriff[’']s(?:\s+(?:office|"
                       r"department))?|department)(?:[’']s)?\s+(?:[\w-]+\s+)?(?:timeline|chronology|account|report)\b"
                       r"[^:]{0,40}:\s*$", re.IGNORECASE)
RELEASED_BY = re.compile(r"\b(?:timeline|report|account|sequence|findings|details|statement|chronology|summary)\b"
                         r"[^:]{0,40}?\b(?P<who>police|officials|authorities|investigators|prosecutors|"
                         r"(?:the\s+)?(?:[A-Z][\w’'.-]*\s+){1,5}?)\s*(?:has\s+|have\s+|had\s+)?(?:released|issued|"
                         r"published|provided|gave|laid out|shared|compiled|put out|made public)\b[^:]*:\s*$")
OWN_DOCUMENT = re.compile(r"\b(?:of|in|from|to)\s+(?:the|its|their)\s+(?:police\s+|sheriff[’']s\s+|department[’']s\s+|"
                          r"official\s+|internal\s+|final\s+)?(?:report|timeline|review|findings|investigation)\s*:\s*$",
                          re.IGNORECASE)


def _crowd_or_agency(doc: Document, res: Resolution, words: str, before: int) -> Voice | None:
    w = words.strip().lower()
    if w in {"police", "officials", "authorities", "investigators", "prosecutors"}:
        if w == "police" and (org := _last_org(doc, res, before)) is not None and org.agency in {None, "police"}:
            return Voice(org.entity, words.strip())
        gid = "group:" + w
        res.entities.setdefault(gid, Entity(gid, "group", w))
        return Voice(gid, words.strip())
    return _agency_by_words(res, re.sub(r"^the\s+", "", words.strip()))


def in_quote(doc: Document, offset: int) -> bool:
    for para in doc.paragraphs:
        if para.start <= offset < para.end:
            for m in QUOTE_RE.finditer(para.text):
                if para.start + m.start() < offset < para.start + m.end():
                    return True
    return False


# What finds, when "found" reports: a document (or investigators) as the subject of the clause,
# with the phrase that says whose it is ("The review by the X Commission found", "A report from
# the Y Police Department, released Friday, found")
FINDER = re.compile(r"\b(?:report|review|investigation|audit|analysis|inquiry|study|investigators|findings|"
                    r"document)"
                    r"(?:\s+(?:(?:released|issued|published|compiled|prepared)\s+)?(?:by|from|of)\s+[^,;“”\"]{1,60}?)?"
                    r"(?:\s*,[^,;“”\"]{1,60},)?\s+(?:(?:also|later|ultimately|\w+ly)\s+)?$", re.IGNORECASE)


def _attributions(doc: Document, sent, mentions: list[Mention], earlier: list[Attribution],
                  res: Resolution) -> list[Attribution]:
    out = []
    for v in VERB_RE.finditer(sent.text):
        vs, ve = sent.start + v.start(), sent.start + v.end()
        if in_quote(doc, vs):
            continue
        if v.group(0).lower() == "called" and not re.search(r"[“\"]", sent.text[v.end():v.end() + 40]):
            continue  # "called 911" is a call; "called the deputy a 'coward'" is speech
        if v.group(0).lower() == "found" and not FINDER.search(sent.text[:v.start()]) \
                and not RELEASED_DOC.search(sent.text[:v.start()]) \
                and not re.match(r"\s*(?:that\b|:)", sent.text[v.end():]):
            # ", the report found." and "The review by the X Commission found 14 officers ..."
            # attribute; ", the Courier found." is the writer's own finding, "police found two
            # people wounded" an act
            continue
        if v.group(0).lower() in {"told", "tell", "tells"} and ORDERED.match(sent.text[v.end():]):
            continue  # "Sgt. X told us to hold the perimeter" is an order he gave, not speech quoted
        voice = _voice_near(doc, v.group(0).lower(), vs, ve, sent, mentions, earlier[-3:] + out, res)
        if voice is None:
            continue
        tail = doc.text[ve:sent.end]
        covers, whole, trailing = [(ve, sent.end)], False, False
        head = doc.text[sent.start:vs]
        relative = RELATIVE_HEAD.search(head) is not None
        if v.group(0).lower() in {"according to", "per"} or v.group(0).lower().startswith("in ") \
                or (len(tail) <= 70 and not re.search(r"\d", tail)
                                                    and not relative) or ADVERBIAL_TAIL.match(tail):
            covers, whole = [(sent.start, sent.end)], True  # "..., sources told CNN." speaks for all of it
            trailing = TRAILING.search(head) is not None and v.group(0).lower() not in {"according to", "per"} \
                and not v.group(0).lower().startswith("in ")
        elif re.search(r"(?:^|,)\s*as\s+[^,;]{1,60}$", head):
            covers, whole = [(sent.start, sent.end)], True  # "as Israel confirmed in the interview, ..."
        elif OPENING_ADVERBIAL.match(head):
            # "Between 12:49 a.m. and 1:05 a.m., the same internal report highlights ...": the
            # opening time is part of what the speaker says
            covers = [(sent.start, sent.end)]
        elif TRAILING.search(head) and (re.match(r"^\s*(?:[,.;:]|$)", tail) or INVERTED_TAIL.match(tail)) \
                and not re.search(r"\b(?:that|whether|if)\s*$", head):
            # "A total of 39 officers responded, police said, and ...": the clause before it;
            # "..., said Deputy Chief X, spokesman ...": the inverted clause likewise.
            begin = max([sent.start] + [a.end for a in out if a.end <= vs])
            covers, whole, trailing = [(begin, vs)], True, True
            rest = re.match(r"^[^,;]{0,40}?,\s*(?![^,;]*\b(?:" + VERBS + r")\b)"
                            r"(?!(?:and|but|while|who|which|as|so|though|although)\b)[^;]*$", tail)
            if rest and not re.match(r"^[^,;]{0,40}?,\s*(?:[A-Z]\w*\s+){1,3}(?:said|says)\b", tail):
                # "Officers waited, Marsh said, for 74 minutes.": a clause interrupted by its
                # reporting clause goes on after it, still in the speaker's words
                covers = [(begin, vs), (ve, sent.end)]
        out.append(Attribution(voice, vs, ve, covers, whole, trailing))
    out.extend(_participles(doc, sent, mentions, earlier, res, out))
    return out


# ", saying ...", ", adding that ...": a participle of saying whose subject is the sentence's own
SAYING = re.compile(r",\s*(?:and\s+)?(saying|adding|noting|stating|explaining|acknowledging|insisting|conceding)"
                    r"\b(?:\s+that\b)?", re.IGNORECASE)
# The subject of a sentence before its first verb: "The department later corrected the timeline"
SUBJECT_HEAD = re.compile(r"^\s*((?:[\w’'.-]+\s+){0,7}?)(?:(?:also|later|then|had|has|have|since|first|\w+ly|"
                          r"on \w+day)\s+)*(?:\w+ed|gave|made|put|took|wrote|issued|released|showed|revised|"
                          r"updated|changed|walked|backed|offered|provided|presented)\b")


def _participles(doc: Document, sent, mentions: list[Mention], earlier: list[Attribution],
                 res: Resolution, found: list[Attribution]) -> list[Attribution]:
    """'The department later corrected the timeline, saying officers waited 78 minutes': what
    follows the participle is said by the subject of the clause it hangs on (an agency, a
    person, a crowd, a pronoun). Said already by a verb of saying ('X said ..., adding that'),
    it keeps that speaker."""
    out = []
    for m in SAYING.finditer(sent.text):
        ms = sent.start + m.start()
        if in_quote(doc, ms) or any(a.start < ms and a.voice.speaker and any(
                s <= ms < e for s, e in a.covers) for a in found):
            continue
        head = SUBJECT_HEAD.match(sent.text)
        if head is None:
            continue
        at = sent.start + head.end(1)
        voice = _voice_near(doc, "said", at, at, sent, mentions, earlier[-3:] + found, res)
        if voice is None and (agency := re.match(r"\s*((?:the|that)\s+(?:department|agency|sheriff[’']s office|"
                                                r"office|police department|district))\b", sent.text, re.I)):
            org = _agency_named(doc, res, sent.start, agency.group(1))
            voice = Voice(org.entity, agency.group(1)) if org is not None else None
        if voice is not None:
            out.append(Attribution(voice, ms, sent.start + m.end(), [(sent.start + m.end(), sent.end)]))
    return out


# "a student named X who officials said carefully planned the attack": a reporting verb inside a
# relative clause says only what follows it, however short
RELATIVE_HEAD = re.compile(r"\b(?:who|whom|which|that)\s+(?:[\w’'-]+\s+){1,4}$")
OF_AGENCY = re.compile(r"^\s*,?\s+(?:of|with|from|at)\s+(?:the\s+)?$")
SPOKESPERSON_FOR = re.compile(r"(?:^|,\s*)((?:a|an|the)\s+(?:[\w-]+\s+)?(?:spokes(?:man|woman|person)|representative|"
                              r"public information officer)\s+(?:for|with|of|from|at)\s+(?P<org>[^,;“”\"]{2,60}?))\s+"
                              r"(?:also\s+|has\s+|had\s+)?$", re.IGNORECASE)
AGENCY_WORDS = re.compile(r"^(?:the|that)\s+(?:[\w-]+\s+)?(?:department|agency|sheriff[’']s office|office|police|"
                          r"sheriff[’']s department|police department|bureau|fire department)$", re.IGNORECASE)
UNNAMED_SOURCE = re.compile(r"(?:^|,\s*)((?:a|an|one|another)\s+(?:[\w’'-]+\s+){0,3}?(?:official|source|"
                            r"spokes(?:man|woman|person)|investigator|officer|"
                            r"person (?:familiar|with knowledge)[^,;“”\"]{0,50}?))\s+"
                            r"(?:also\s+|has\s+|had\s+)?$", re.IGNORECASE)
# the spokesperson or official of an agency named by its kind's words ("a sheriff's spokesman")
AGENCY_VOICE = re.compile(r"\b(?:sheriff[’']s(?:\s+office)?|police(?:\s+department)?|fire\s+department)\s+"
                          r"(?:spokes(?:man|woman|person)|officials?)$", re.IGNORECASE)
OPENING_ADVERBIAL = re.compile(r"^(?:at|by|between|from|around|about|shortly|just|after|before|until|within)\b"
                               r"[^,;“”\"]{0,60},\s*(?:the|a|an|its|their|[A-Z])[^,;“”\"]{0,60}$", re.IGNORECASE)
# ", authorities said on Friday (May 27).": only when and where it was said follows the verb
ADVERBIAL_TAIL = re.compile(r"^\s*(?:(?:on|last|this|early|late|in|at|during|after|before)\s+[^,.;:“”\"]{0,40}?|later|"
                            r"earlier|yesterday|today|again|also|then|publicly|"
                            # "..., Brisk said Friday (May 27).", "said Tuesday night"
                            r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(?:\s+[^,.;:“”\"]{0,30}?)?)?"
                            r"\s*(?:\([^)]{0,30}\))?\s*[.;]?\s*$",
                            re.IGNORECASE)
# ", said Deputy Chief Chris Covelli, spokesman ...": only the speaker after the verb
INVERTED_TAIL = re.compile(r"^\s+(?:the\s+)?(?:[A-Z][\w’'.-]*\s+){0,4}[A-Z][\w’'.-]*\s*(?:[,.;:]|$)")
# A reporting clause set off by a comma, its speaker between the comma and the verb
# (", police said") or after the verb (", said Chief X"); not ", and X said ...".
TRAILING = re.compile(r",\s*+(?!(?:and|but|while|who|which|as|so)\b)[^,;“”\"]{0,60}$")


def _voice_near(doc, verb, vs, ve, sent, mentions, earlier=(), res: Resolution | None = None) -> Voice | None:
    named = [m for m in mentions
             if sent.start <= m.start < sent.end and (m.entity or m.kind in {"group", "description"})]
    if verb.startswith("in ") and res is not None:
        # "In its report, ...": the agency the sentence before was about, else the one named last;
        # "In the sheriff's office's timeline, ...": the agency those words name
        words = doc.text[vs:ve]
        if re.search(r"\b(?:its|their)\b", words):
            org = _agency_subject_before(doc, res, sent) or _last_org(doc, res, vs)
            return Voice(org.entity, words) if org is not None else None
        named = [m for m in mentions if vs <= m.start < ve and m.entity and m.kind in {"org", "person"}]
        if named:
            return Voice(named[-1].entity, phrase_of(doc, named[-1]))
        if _agency_kind(words) is not None or re.search(r"\b(?:department|agency)[’']s\b", words):
            return _agency_voice(doc, res, vs, words, words)
        org = _last_org(doc, res, vs)  # "In the report, ...": the document named before
        plain = re.fullmatch(r"in\s+the\s+(?:\w+\s+)?\w+", words, re.I)
        return Voice(org.entity, words) if org is not None and plain else None
    if verb in {"according to", "per"}:
        fits = [m for m in named if ve <= m.start <= sent.end and ACCORDING_GAP.match(doc.text[ve:m.start])]
        # "according to CSPD spokesperson Lt. Pamela Castro": the head of the phrase is its last name
        # before any comma; "according to Israel, the sheriff" keeps the first
        whole = [m for m in fits if "," not in doc.text[ve:m.start]]
        if whole or fits:
            m = whole[-1] if whole else fits[0]
            return Voice(m.entity, phrase_of(doc, m))
        # "according to a timeline released by the X Police Department": the document's author
        for m in named:
            if m.start >= ve and m.entity and m.kind in {"org", "person"} \
                    and DOCUMENT_BY.match(doc.text[ve:m.start]):
                return Voice(m.entity, phrase_of(doc, m))
        plain = AGENCY_PLAIN.match(doc.text[ve:sent.end])
        if plain and res is not None:
            return _agency_voice(doc, res, vs, plain.group(1), plain.group(1))  # "per the department"
        kind_doc = KIND_DOCUMENT.match(doc.text[ve:sent.end])
        if kind_doc and res is not None:
            # "according to a police timeline", "according to sheriff's office records": the agency
            # of that kind named in the article (else one of that kind, unnamed)
            return _agency_voice(doc, res, vs, kind_doc.group(1), kind_doc.group(0).strip())
        paper = OUTLET_NOUN.match(doc.text[ve:sent.end])
        if paper:
            named_outlets = list(OUTLET_ANY.finditer(doc.text, 0, vs))
            if named_outlets and (found := outlet_voice(named_outlets[-1].group(1), res)):
                return Voice(found.speaker, paper.group(0).strip())  # "according to the newspaper"
        body = BODY_DOCUMENT.match(doc.text[ve:sent.end])
        if body:
            # "according to the committee's report": the body of review named before, else unnamed
            org = _last_org(doc, res, vs, "body") if res is not None else None
            return Voice(org.entity if org else None, body.group(1))
        own = AGENCY_OWN.match(doc.text[ve:sent.end]) or DOCUMENT_THE.match(doc.text[ve:sent.end])
        if own and res is not None:
            # "according to the department's review": the agency last named
            org = _agency_named(doc, res, vs, own.group(0)) or _agency_named_after(doc, res, vs, own.group(0))
            if org is not None:
                return Voice(org.entity, own.group(0).strip())
        rest = re.match(r"\s*([^,.;:]+)", doc.text[ve:sent.end])  # "according to police:" opens a list
        crowd = CROWD_RE.search(rest.group(1) + " ") if rest else None
        if crowd and res is not None and crowd.start() < 12 \
                and (org := _agency_in_context(doc, res, crowd, ve + rest.start(1), ve)) is not None:
            return Voice(org.entity, rest.group(1).strip())  # "according to police" after the agency is named
        if crowd and res is not None and crowd.start() < 12:
            gid = "group:" + crowd.group(1).lower().replace(" ", "-")
            res.entities.setdefault(gid, Entity(gid, "group", crowd.group(1).lower()))
            return Voice(gid, rest.group(1).strip())
        work = OUTLET_DOC.match(doc.text[ve:sent.end]) or OUTLET_WORK_BY.match(doc.text[ve:sent.end])
        outlet = outlet_voice(work.group(1), res) if work else None
        outlet = outlet or (outlet_voice(rest.group(1), res) if rest else None)
        return outlet or (Voice(None, rest.group(1).strip()) if rest else None)
    left = [m for m in named if sent.start <= m.end <= vs]
    if re.match(ACCOUNT_NOUN, verb):
        return _possessor(doc, left, vs)
    if left and left[-1].entity is None:
        # "Whitlock's spokesman said": the person whose spokesman it is
        owner = [p for p in left if p.kind == "person" and p.entity and left[-1].start <= p.start < left[-1].end
                 and re.match(r"[’']s\b", doc.text[p.end:p.end + 2])]
        if owner and OFFICE_OF.match(doc.text[owner[-1].end:vs]):
            return Voice(owner[-1].entity, phrase_of(doc, left[-1]))
    # "Mara Quell, who led the office for 11 years before the Tamsin County Sheriff's Office
    # merged, said": a person whose relative clause, set off by commas, ends at the verb is its
    # subject, whatever the clause names
    relative = [p for p in left if p.kind == "person" and p.entity and RELATIVE_GAP.match(doc.text[p.end:vs])]
    if relative:
        return Voice(relative[-1].entity, phrase_of(doc, relative[-1]))
    single = UNNAMED_SOURCE.search(doc.text[sent.start:vs])
    if single and res is not None and AGENCY_VOICE.search(single.group(1)) \
            and not [m for m in left if m.entity and m.start >= sent.start + single.start(1)]:
        # "a sheriff's spokesman said", "a police official said": an agency of the kind its words
        # say, the one named in the article (an unnamed one of that kind when none is)
        return _agency_voice(doc, res, vs, single.group(1), single.group(1))
    if left:
        m = left[-1]
        gap = doc.text[m.end:vs]
        if LEFT_GAP.match(gap) or (PARENTHETICAL.match(gap) and m is left[0]):
            # "Steven X, the head of the Y Department, said": the person, not the agency.
            # "Chief Ray X of the Y Police Department said": the person whose agency it is.
            host = [p for p in left if p.kind == "person" and p.end <= m.start
                    and (APPOSITION.match(doc.text[p.end:m.start]) or OF_AGENCY.match(doc.text[p.end:m.start]))]
            m = host[-1] if m.kind != "person" and host else m
            return Voice(m.entity, phrase_of(doc, m))
    right = [m for m in named if ve <= m.start <= sent.end]
    # "..., said Chief X" / '"...," said X': a speaker after the verb only in an inverted clause
    inverted = re.search(r"(?:^|[,“”\"])\s*$", doc.text[sent.start:vs]) is not None
    if right and inverted and RIGHT_GAP.match(doc.text[ve:right[0].start]):
        return Voice(right[0].entity, phrase_of(doc, right[0]))
    if inverted and re.search(r",\s*$", doc.text[sent.start:vs]) \
            and (found := outlet_voice(doc.text[ve:sent.end], res)) is not None:
        return found  # "..., reported the Carvell Review-Journal."
    if left and left[-1].kind == "org" and left[-1].entity and DOCUMENT_GAP.match(doc.text[left[-1].end:vs]):
        # "An Aurora Fire Department internal review ... reports"
        return Voice(left[-1].entity, phrase_of(doc, left[-1]))
    released = RELEASED_DOC.search(doc.text[sent.start:vs])
    if released:
        by = [m for m in left if m.end <= sent.start + released.start() and m.entity
              and m.kind in {"org", "person"}]
        if by:
            return Voice(by[-1].entity, phrase_of(doc, by[-1]))
    body = BODY_SAYS.search(doc.text[sent.start:vs])
    if body and not [m for m in left if m.start >= sent.start + body.start(1)]:
        # "The commission said", "A review panel found", "the committee's report said": the body of
        # review named last before, else an unnamed speaker (never the police named last)
        org = _last_org(doc, res, vs, "body") if res is not None else None
        return Voice(org.entity if org else None, body.group(1))
    doc_noun = DOCUMENT_SUBJECT.search(doc.text[sent.start:vs])
    if doc_noun:
        # "The presentation notes ...": a document speaks for the agency named last before it.
        orgs = [m for m in (res.between(doc.id, 0, vs) if res else []) if m.kind == "org" and m.entity]
        if orgs:
            return Voice(orgs[-1].entity, doc_noun.group(0).strip())
    work = OUTLET_DOC_LEFT.search(doc.text[sent.start:vs])
    if work and (found := outlet_voice(work.group(1), res)):
        return found
    word = OUTLET_WORD.search(doc.text[sent.start:vs])
    if word:
        named = list(OUTLET_ANY.finditer(doc.text, 0, vs))
        if named and (found := outlet_voice(named[-1].group(1), res)):
            return Voice(found.speaker, word.group(0).strip(" ,"))
    new_doc = DOCUMENT_NEW.search(doc.text[sent.start:vs])
    if new_doc and not [m for m in left if m.start >= sent.start + new_doc.start(1)]:
        work = OUTLET_WORK_BY.match(" " + new_doc.group(1))
        if work and (found := outlet_voice(work.group(1), res)):
            return found  # "An analysis by the Ledger found": the outlet's own work
        kind_doc = KIND_DOCUMENT.match(" " + new_doc.group(1))
        if kind_doc and res is not None:
            # "A police report said", "a sheriff's office report found": an agency of that kind
            return _agency_voice(doc, res, vs, kind_doc.group(1), new_doc.group(1))
        return Voice(None, new_doc.group(1))  # "A state review found": not the agency named last
    outlet = OUTLET_LEFT.search(doc.text[sent.start:vs])
    if outlet:
        found = outlet_voice(outlet.group(1), res)
        if found:
            return found
    spokes = SPOKESPERSON_FOR.search(doc.text[sent.start:vs])
    if spokes:
        # "a spokeswoman for the sheriff's office said": the agency speaks through its spokesperson
        lo = sent.start + spokes.start("org")
        orgs = [m for m in named if m.kind == "org" and m.entity and lo <= m.start < vs]
        if orgs:
            return Voice(orgs[-1].entity, spokes.group(1))
        if res is not None and AGENCY_WORDS.match(spokes.group("org")) \
                and (org := _last_org(doc, res, vs, _agency_kind(spokes.group("org")))):
            return Voice(org.entity, spokes.group(1))
        return Voice(None, spokes.group(1))
    single = UNNAMED_SOURCE.search(doc.text[sent.start:vs])
    if single:
        within = [m for m in named if m.kind == "org" and m.entity and sent.start + single.start(1) <= m.start < vs]
        if within:
            return Voice(within[-1].entity, single.group(1))  # "a Metro spokesman said": the agency speaks
        return Voice(None, single.group(1))  # "..., a law enforcement official said": unnamed, not the author
    crowd = CROWD_RE.search(doc.text[sent.start:vs])
    if crowd and res is not None and (org := _agency_in_context(doc, res, crowd, sent.start, vs)) is not None:
        return Voice(org.entity, crowd.group(1))
    if crowd:
        # "..., sources said." / "authorities said": unnamed, but not the author.
        gid = "group:" + crowd.group(1).lower().replace(" ", "-")
        if res is not None:
            res.entities.setdefault(gid, Entity(gid, "group", crowd.group(1).lower()))
        return Voice(gid, crowd.group(1))
    agency = AGENCY_SAYS.search(doc.text[sent.start:vs])
    if agency and res is not None:
        # "..., the department said in a statement": the agency last named before (else the one
        # named after it, else an agency of the kind its words say, unnamed: never the author)
        return _agency_voice(doc, res, vs, agency.group(1), agency.group(1))
    # "Brisk's office said", "the mayor's office said" (the mayor named before)
    office = [m for m in left if m.kind in {"person", "description"} and (m.entity or "").startswith("person:")
              and OFFICE_OF.match(doc.text[m.end:vs])]
    if office:
        return Voice(office[-1].entity, phrase_of(doc, office[-1]))  # "Brisk's office said"
    if re.search(r"(?:^|[,;]\s*)[Ii]t\s+(?:(?:also|later|then|since|now|first|\w+ly)\s+)*$",
                 doc.text[sent.start:vs]) and earlier \
            and earlier[-1].voice.speaker and not earlier[-1].voice.speaker.startswith("person:"):
        # "The report says ... . It says ...": the document just named speaks on
        return Voice(earlier[-1].voice.speaker, "it")
    if res is not None and re.search(r"(?:^|[,;]\s*)[Ii]t\s+(?:(?:also|later|then|since|now|first|\w+ly)\s+)*$",
                                     doc.text[sent.start:vs]) and (org := _agency_subject_before(doc, res, sent)):
        # "The X Police Department released a timeline. It said ...": the agency that was the subject
        return Voice(org.entity, "it")
    pron = PRONOUN_RE.search(doc.text[sent.start:vs])
    if pron and pron.group(1).lower() in {"he", "she"} \
            and (found := person_pronoun(doc, res, sent, pron.group(1), vs, earlier, mentions)) is not None:
        return found
    same = [a for a in earlier if a.start >= sent.start and a.voice.speaker]
    if same and re.match(REVISING, verb) \
            and re.search(r"(?:,|\band)\s+(?:then\s+|later\s+)?$", doc.text[sent.start:vs]):
        return same[-1].voice  # "X first reported two wounded, then revised the count to three"
    if pron and pron.group(1).lower() == "they" and earlier and earlier[-1].voice.speaker \
            and not earlier[-1].voice.speaker.startswith(("person:", "author:")):
        # "Officials first said ...; they later said ...": the crowd or agency that spoke last
        return Voice(earlier[-1].voice.speaker, pron.group(1))
    return None


def person_pronoun(doc: Document, res: Resolution | None, sent, word: str, vs: int,
                   earlier: list[Attribution], mentions: list[Mention] = ()) -> Voice | None:
    """Whom 'he'/'she' (or 'his'/'her') before a reporting verb at `vs` means: the person last
    quoted, unless the sentence before was about a person named after that; else the person
    last named."""
    spoken = [a for a in earlier if (a.voice.speaker or "").startswith("person:")]
    topic = _last_subject(doc, res, sent) if res else None
    if topic is not None and (not spoken or topic.start > spoken[-1].start):
        # "Colonel X of the State Police gave a new timeline. She said ...": the person the
        # sentence before was about, named after the last speaker
        return Voice(topic.entity, word)
    if spoken:
        return Voice(spoken[-1].voice.speaker, word)
    pool = res.between(doc.id, 0, vs) if res else mentions
    before = [m for m in pool if m.kind == "person" and m.entity and m.end <= vs]
    return Voice(before[-1].entity, word) if before else None


def _last_subject(doc: Document, res: Resolution, sent) -> Mention | None:
    """The person a sentence's pronoun most likely means: the first person named in the
    sentence before it in the same paragraph (its subject, where English puts it)."""
    before = [s for s in doc.sentences if s.end <= sent.start and s.paragraph == sent.paragraph]
    if not before:
        return None
    prev = before[-1]
    people = [m for m in res.between(doc.id, prev.start, prev.end) if m.kind == "person" and m.entity
              and not in_quote(doc, m.start)]
    return people[0] if people else None


ACCOUNT_NOUN = r"(?:statement|claim|account|assertion|testimony|description|explanation|version|contention|" \
               r"insistence|estimate)s?$"


def _possessor(doc: Document, left: list[Mention], vs: int) -> Voice | None:
    """'Renner's earlier statement that ...', 'the department's initial account that ...': the
    person or agency whose account it is, named just before it; else no attribution."""
    for m in reversed(left):
        if m.entity and re.match(r"^[’']s?\s+(?:[\w-]+\s+){0,2}$", doc.text[m.end:vs]):
            return Voice(m.entity, phrase_of(doc, m))
    return None


# Who speaks for an agency when an article says "officials said" ("sources", "witnesses" never do;
# "investigators" are as often another agency's, a state bureau's or the FBI's, as the one just named)
AGENCY_CROWD = {"officials": None, "authorities": None, "police": "police",
                "officers": "police", "deputies": "sheriff"}


def _agency_in_context(doc: Document, res: Resolution, crowd: re.Match, base: int, verb: int) -> Mention | None:
    """'Officials with the Linden Police Department said', or 'officials said' a sentence or two
    after the agency is named: that agency speaks (the words as written stay its text)."""
    word = crowd.group(1).lower()
    if word not in AGENCY_CROWD:
        return None
    kind = AGENCY_CROWD[word]
    lo = base + crowd.start()
    orgs = [m for m in res.between(doc.id, max(0, lo - 400), verb) if m.kind == "org" and m.entity
            and (kind is None or m.agency in {None, kind})]
    return orgs[-1] if orgs else None


DOCUMENT_BY = re.compile(r"^\s+(?:a|an|the|its|their)\s+(?:[\w-]+\s+){0,3}(?:report|timeline|review|presentation|"
                         r"investigation|audit|analysis|findings|statement|records?|documents?|account)\s+"
                         r"(?:(?:released|issued|published|compiled|prepared|written|made public|obtained)\s+)?"
                         r"(?:\w+\s+)?(?:by|from|of)\s+(?:the\s+)?$", re.IGNORECASE)
AGENCY_OWN = re.compile(r"^\s+(?:the|that)\s+(?:department|agency|sheriff[’']s office|office|police department)"
                        r"[’']s?\s+"
                        r"(?:[\w-]+\s+){0,2}(?:report|timeline|review|presentation|investigation|audit|analysis|"
                        r"findings|statement|records?)\b", re.IGNORECASE)
AGENCY_SAYS = re.compile(r"(?:^|,\s*|[”\"]\s*)((?:the|that)\s+(?:department|agency|sheriff[’']s office|"
                         r"police department|sheriff[’']s department|office|bureau|police force|"
                         r"(?:school\s+)?district|company|hotel|casino|resort|coroner(?:[’']s office)?|"
                         r"medical examiner(?:[’']s office)?))"
                         # "the sheriff's office, in a statement, said"
                         r"(?:\s*,[^,;“”\"]{1,60},)?\s+"
                         r"(?:(?:also|has|had|first|later|earlier|then|since|now|"
                         r"\w+ly)\s+)*$", re.IGNORECASE)
# A body of review before a verb of saying, itself or through its document
BODY_SAYS = re.compile(r"(?:^|[,;—–]\s*|[”\"]\s*)((?:the|a|an|its|their|that)\s+(?:[\w-]+\s+){0,3}?(?:commission|"
                       r"committee|panel|board|task force|council|grand jury)"
                       r"(?:[’']s?\s+(?:[\w-]+\s+){0,2}(?:report|review|findings|investigation|timeline|analysis))?)"
                       r"(?:\s*,[^,;“”\"]{1,60},)?\s+(?:(?:also|has|had|first|later|then|since|now|\w+ly)\s+)*$",
                       re.IGNORECASE)
OFFICE_OF = re.compile(r"^[’']s\s+(?:office|spokes(?:man|woman|person)|press office|campaign)\s+(?:also\s+|has\s+)?$")


KIND_DOCUMENT = re.compile(r"^\s+(?:a|an|the|its|their)?\s*(?:[\w-]+\s+)?"
                           r"(police(?:\s+department)?|sheriff[’']s(?:\s+(?:office|department))?|fire department)"
                           r"(?:[’']s)?\s+(?:[\w-]+\s+)?(?:timeline|report|review|records?|documents?|statement|"
                           r"investigation|findings|account|chronology|summary|logs?)\b", re.IGNORECASE)
AGENCY_PLAIN = re.compile(r"^\s+((?:the|that)\s+(?:department|agency|sheriff[’']s office|police department|"
                          r"sheriff[’']s department|office|bureau|coroner(?:[’']s office)?|"
                          r"medical examiner(?:[’']s office)?))\s*(?:[,.;:)]|$)", re.IGNORECASE)
OUTLET_NOUN = re.compile(r"^\s+the\s+(?:newspaper|paper|station|network|outlet|broadcaster|magazine|news agency|"
                         r"wire service)\b", re.IGNORECASE)
GENERIC_AGENCY = {"sheriff": "Sheriff's Office", "police": "Police Department", "fire": "Fire Department",
                  "coroner": "Coroner's Office", "examiner": "Medical Examiner's Office"}


def _agency_voice(doc: Document, res: Resolution, before: int, words: str, text: str) -> Voice:
    """Who "the department", "the sheriff's office", "a police timeline" speaks for: the agency
    named before (else after) in the article; else an agency of the kind the words name, one
    nobody named (an unnamed speaker when the words name no kind)."""
    org = _agency_named(doc, res, before, words) or _agency_named_after(doc, res, before, words)
    if org is not None:
        return Voice(org.entity, text)
    kind = _agency_kind(words)
    if kind not in GENERIC_AGENCY:
        return Voice(None, text)
    oid = "org:" + re.sub(r"[^a-z0-9]+", "-", GENERIC_AGENCY[kind].lower()).strip("-")
    res.entities.setdefault(oid, Entity(oid, "org", GENERIC_AGENCY[kind]))
    return Voice(oid, text)


def _agency_named_after(doc: Document, res: Resolution, after: int, words: str) -> Mention | None:
    """'The sheriff's office said ...' in a lead that names the Harlan County Sheriff's Office
    only later: the first agency of that kind named after it in the article."""
    kind = _agency_kind(words)
    orgs = [m for m in res.between(doc.id, after, len(doc.text)) if m.kind == "org" and m.entity
            and (kind is None or m.agency == kind)]
    return orgs[0] if orgs else None


def _agency_subject_before(doc: Document, res: Resolution, sent) -> Mention | None:
    """The agency that opens the sentence before (its subject), for an "It said" after it."""
    before = [s for s in doc.sentences if s.end <= sent.start]
    if not before:
        return None
    prev = before[-1]
    first = [m for m in res.between(doc.id, prev.start, prev.end) if m.entity]
    if first and first[0].kind == "org" and re.fullmatch(r"\s*(?:the\s+)?", doc.text[prev.start:first[0].start],
                                                         re.IGNORECASE):
        return first[0]
    return None


def _last_org(doc: Document, res: Resolution, before: int, kind: str | None = None) -> Mention | None:
    """The agency named last before `before`; of that kind ("the sheriff's office": a sheriff's) if given."""
    orgs = [m for m in res.between(doc.id, 0, before) if m.kind == "org" and m.entity
            and (kind is None or m.agency == kind)]
    return orgs[-1] if orgs else None


def _agency_named(doc: Document, res: Resolution, before: int, words: str) -> Mention | None:
    """The agency that "the department", "the sheriff's office" means: the one named last, unless
    the words name a kind of agency that one is not ("the sheriff's office acknowledged" after a
    city police department was named, a sheriff's office before it) and one of that kind was named."""
    last = _last_org(doc, res, before)
    kind = _agency_kind(words)
    if last is None or kind is None or last.agency in {None, kind}:
        return last
    return _last_org(doc, res, before, kind) or last


def _agency_kind(words: str) -> str | None:
    if re.search(r"\b(?:company|hotel|casino|resort)\b", words, re.IGNORECASE):
        return "company"
    if re.search(r"\bdistrict\b", words, re.IGNORECASE):
        return "school"
    if re.search(r"\bcoroner", words, re.IGNORECASE):
        return "coroner"
    if re.search(r"\bmedical examiner", words, re.IGNORECASE):
        return "examiner"
    if re.search(r"\bsheriff", words, re.IGNORECASE):
        return "sheriff"
    if re.search(r"\bpolice\b", words, re.IGNORECASE):
        return "police"
    if re.search(r"\bfire\b", words, re.IGNORECASE):
        return "fire"
    return None


def phrase_of(doc: Document, m: Mention) -> str:
    """The speaker as written, with the title and place that precede the name (on its line)."""
    head = re.search(r"((?:[A-Z][\w’'.]*[ \t]+|of[ \t]+)*)$", doc.text[max(0, m.start - 60):m.start])
    return (head.group(1) + m.text).strip() if head else m.text


def _quote_voice(doc, s, e, attributions, quotes, para_index) -> tuple[Voice | None, str]:
    """The speaker of a quotation, and the route that found it (for provenance.py)."""
    para = doc.paragraphs[para_index]
    after = [a for a in attributions if e <= a.start <= min(e + 40, para.end)
             and '“' not in doc.text[e:a.start] and '"' not in doc.text[e:a.start]]
    if after:
        return after[0].voice, "after"
    sent = doc.sentence_at(s)
    before = [a for a in attributions if sent.start <= a.start < s]
    if before:
        return before[-1].voice, "before"
    covering = [a for a in attributions if any(cs <= s < ce for cs, ce in a.covers)]
    if covering:
        return covering[0].voice, "covering"  # '... were "stunned", sources told CNN.'
    earlier = [(q[0], q[2]) for q in quotes if para.start <= q[0] < s and q[2] is not None]
    earlier += [(a.start, a.voice) for a in attributions if para.start <= a.start < sent.start]
    if earlier and doc.text[sent.start:s].strip() == "":
        return max(earlier, key=lambda x: x[0])[1], "continued"  # a new quoted sentence: the same speaker
    return _named_next(doc, e, attributions, para), "named-next"


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


def _introduced(doc, p, res) -> Voice | None:
    """'Chief X spoke at length on Tuesday.' then a paragraph all quotation: the one person the
    paragraph before is about (named first in its last sentence, the only person it names)
    introduces the speaker, the way news writing brings a speaker in before the quote."""
    if p < 0:
        return None
    para = doc.paragraphs[p]
    last = [t for t in doc.sentences if t.paragraph == p]
    if not last or QUOTE_RE.search(para.text):
        return None
    people = {m.entity for m in res.between(doc.id, para.start, para.end) if m.kind == "person" and m.entity}
    subject = [m for m in res.between(doc.id, last[-1].start, last[-1].end) if m.kind == "person" and m.entity]
    if len(people) != 1 or not subject or doc.text[last[-1].start:subject[0].start].strip(" \t") and \
            not re.match(r"^(?:[A-Z][\w.’'-]*\s+)+$", doc.text[last[-1].start:subject[0].start]):
        return None  # the person must open the sentence (its subject), a title before the name aside
    return Voice(subject[0].entity, phrase_of(doc, subject[0]))


def _fill_paragraph_quotes(doc, quotes, attributions, routes, res=None) -> None:
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
        about = _introduced(doc, p - 1, res) if prev is None and nxt is None and res is not None else None
        quotes[i] = (s, e, prev or nxt or about)
        routes[s] = "paragraph-before" if prev else "paragraph-after" if nxt else "paragraph-subject"


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
