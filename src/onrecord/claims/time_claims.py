"""Times as claims: which action a time of day or an offset belongs to, who did it, and
which moment of the incident it is (verbs.py names the moments).

A time belongs to the verb before it in its clause ("I arrived at 2:20"), else the verb
after it ("Two days after the vigil, Chief X sent ..."; a timeline's "9:39:00 — Officer X
arrives"); a time of day with no verb near is still a claim about its moment. Times that
are not the response (a press conference's, a class schedule) are left out. A document
that says "Times are approximate." has its unhedged times read as "about"; a time written
without a.m./p.m. takes the half of the day named beside it or of the nearest time that
says it.
"""

from __future__ import annotations

import re

from onrecord.claims.measures import IT_WAS, STAY, TOOK, clause_bounds
from onrecord.claims.named_entities import Resolution
from onrecord.claims.records import Entity
from onrecord.claims.subjects import INCIDENT, group_subject, person_subject
from onrecord.claims.text import Sentence
from onrecord.claims.times_in_text import TimeExpr
from onrecord.claims.verbs import event_kind, verbs_in
from onrecord.model import Claim

ACTION_RE = re.compile(r"\b(?:(?!(?:feed|need|speed|indeed|seed|bed|red|shed|hundred|tired|scared)\b)[a-z]{2,}ed|"
                       r"sent|went|ran|came|fled|left|shot|heard|saw|made|got|began|"
                       r"told|said|gave|took|fired|drove|stood|sat|held|met|found|hit|fell|go|enter|arrive|breach|open|"
                       r"reach|call|shoot|leave|come)\b")


# A timeline that says "Times are approximate." has each unhedged time read as "about".
APPROXIMATE = re.compile(r"\b(?:all\s+)?times\s+(?:are|were|listed are)\s+(?:approximate|estimates)\b", re.I)


def approximate_time(t: TimeExpr) -> TimeExpr:
    if t.hedge is None and t.lo is not None and t.lo == t.hi:
        t.lo, t.hi, t.hedge = t.lo - 5, t.hi + 5, "about"
    return t


DAY_PART = re.compile(r"\b(?:(?P<am>morning|overnight|night|dawn)|(?P<pm>afternoon|evening))\b", re.IGNORECASE)


def day_part(sentence: str, t: TimeExpr) -> str | None:
    """'12:39 Friday morning' is a.m., '4:10 that afternoon' p.m.: a part of the day named
    within a few words of the time."""
    m = DAY_PART.search(sentence[t.end:t.end + 25]) or DAY_PART.search(sentence[max(0, t.start - 25):t.start])
    if m is None:
        return None
    if m.group(0).lower() == "night":
        # "10:15 Sunday night" is p.m., "1:20 that night" a.m.: night runs across midnight
        hour = int(t.ref.get("clock", "00:00")[:2])
        return "am" if hour == 12 or hour < 6 else "pm"
    return "am" if m.group("am") else "pm"


def nearest_half(halves: list[tuple[int, str, float | None]], pos: int, clock: str | None = None) -> str | None:
    """The half of the day of a time written without a.m./p.m., from the time with one written
    nearest to it (position, half, minute of day). Not that time's half as such: of the bare
    time's two readings, the one nearer on the clock to it. "At 11:33 a.m. the gunman enters;
    police arrived at 11:35" beside "12:21 p.m.: officers enter" is 11:35 a.m. (46 minutes from
    12:21 p.m.), not 11:35 p.m. (eleven hours), whichever of the two written times is closer
    in the text; "exactly 12:39" beside "12:45 a.m." stays 00:39."""
    if not halves:
        return None
    _, half, near = min(halves, key=lambda h: abs(h[0] - pos))
    hour, minute = (int(x) for x in clock.split(":")[:2]) if clock else (None, None)
    if near is None or hour is None or not 1 <= hour <= 12:
        return half
    am = (hour % 12) * 60 + minute

    def apart(m: float) -> float:
        d = abs(m - near) % 1440
        return min(d, 1440 - d)

    a, p = apart(am), apart(am + 720)
    return half if a == p else "am" if a < p else "pm"


def stay_before(sentence: str, t: TimeExpr) -> bool:
    """'I stayed at the door four minutes before I went in' measures the stay, and 'it took
    77 minutes before anyone went in' the time taken: neither is an offset."""
    cs, _ = clause_bounds(sentence, t.start, t.end)
    lead = sentence[cs:t.start]
    return STAY.search(lead) is not None or TOOK.search(lead) is not None or (
        IT_WAS.search(lead) is not None and (t.ref or {}).get("relation") == "before")


THING_RE = re.compile(r"^\s*(?:the|a|an)\s+((?:[\w’'-]+\s+){0,5}?[\w’'-]+)\s*$", re.IGNORECASE)


def _thing_subject(res: Resolution, words: str) -> tuple[str | None, str | None]:
    """'The first 911 call came in at 2:17': the time is about the call."""
    words = re.sub(r"\s+(?:was|were|is|are|had|has|have|been|being|be)(?:\s+\w+ly)?\s*$", "", words)
    m = THING_RE.match(words)
    if m is None:
        return None, None
    tid = "thing:" + re.sub(r"[^a-z0-9]+", "-", m.group(1).lower()).strip("-")
    res.entities.setdefault(tid, Entity(tid, "thing", m.group(1)))
    return tid, words.strip()


def time_claim(doc, res, speakers, sent: Sentence, t: TimeExpr, others=()) -> Claim | None:
    """A time is about an action: the verb before it in its clause ("I arrived at 2:20"),
    else the verb after it ("Two days after the vigil, Chief X sent ..."; a timeline's
    "9:39:00 — Officer X arrives"). A time of day with no verb near ("At 12:46 a.m., the
    suspect was in custody") is still a claim, about the moment its clause names."""
    skip = [(o.start, o.end) for o in others if o is not t]
    found = _action(sent, t, skip)
    beside = [o for o in others if o is not t and o.end <= t.start and APPOSED.match(sent.text[o.end:t.start])]
    if found is None and beside:
        # "killed the gunman at 12:50 p.m. — 77 minutes after he entered": the offset restates
        # the clock time beside it, so it is of the same action
        found = _action(sent, beside[-1], [(o.start, o.end) for o in others if o is not beside[-1]])
    restated = [o for o in others if o is not t and o.start >= t.end and APPOSED.match(sent.text[t.end:o.start])]
    if found is None and restated:
        # "At 12:03 p.m. — more than 25 minutes after the first officers arrived — a student called"
        found = _action(sent, restated[0], [(o.start, o.end) for o in others if o is not restated[0]])
    if found is None and t.ref.get("anchor"):
        shorter = _shorter_anchor(t)  # "after I got there Deputy X pulled up": no comma to end the anchor
        found = _action(sent, shorter, skip) if shorter else None
        t = shorter if found else t
    cs, ce = clause_bounds(sent.text, t.start, t.end)
    start, end = sent.start + t.start, sent.start + t.end
    voice, quoted = speakers.who_said(start)
    if found is not None and found[1]:
        # "Whitlock said the first officers reached the floor at 10:17": who acted is named after
        # the reporting verb, never the speaker before it
        told = [a.end - sent.start for a in speakers.attributions
                if sent.start + cs <= a.start and a.end <= sent.start + found[0].start()]
        if told:
            cs = max(told)
            that = re.match(r"[^,;]{0,30}?\bthat\s+", sent.text[cs:])  # "said on Friday that the gunman ..."
            cs += that.end() if that else 0
    floor = sent.start + cs if found is not None and found[1] and cs else sent.start
    if found is None:
        if t.kind != "clock" and not _names_event(t.ref.get("anchor")):
            return None  # "1 minute into the clip": an offset from no event says nothing
        told = [a.end - sent.start for a in speakers.attributions
                if sent.start + cs <= a.start and a.end <= start]
        lo = max([cs] + told)  # "Renner confirmed that officers were on the scene ...": not Renner
        who, who_text = person_subject(doc, res, sent.start + lo, sent.start + ce, sent.start + lo, voice.speaker,
                                       quoted)
        qualifier, action_start, verb_before = None, ce, False
    else:
        action, verb_before = found
        qualifier, action_start = action.group(0), action.start()
        if verb_before and UNNAMED_ACTOR.match(sent.text[cs:action_start]):
            # "Someone whom McCraw did not identify called 911": the actor is no one named
            who, who_text = None, None
        elif verb_before:
            who, who_text = person_subject(doc, res, sent.start + cs, sent.start + action_start, floor,
                                           voice.speaker, quoted)
        else:
            who, who_text = person_subject(doc, res, end, sent.start + action_start, end, voice.speaker, quoted)
    if who is None:
        who, who_text = group_subject(doc, res, sent, cs, t.start if verb_before else action_start,
                                       voice.speaker)
    if who is None:
        head = sent.text[cs:action_start] if verb_before else sent.text[t.end:action_start]
        who, who_text = _thing_subject(res, head.strip(" ,—–-*"))
    if who is None:
        who, who_text = INCIDENT, None  # a timeline's moment with no actor named: the incident's
    ref = dict(t.ref)
    if who_text and ACCOUNT_THING.search(who_text):
        return None  # "The revised account came 72 hours after the shooting": when it was told
    if t.kind != "clock" and qualifier and _telling(sent.text, action_start, qualifier):
        return None  # "Three days after the shooting, X gave a different account": when it was told
    if t.kind == "clock" and qualifier and not verb_before and REPORTS_FIGURES.match(sent.text[action_start:]):
        return None  # "12:43 p.m. — The hospital reports a total of 31 people": when a figure was told
    if t.kind == "clock" and (NOT_RESPONSE.search(_near_words(sent.text, t, others))
                              or SCHEDULE_AFTER.match(sent.text[t.end:])):
        return None  # "held a press conference at 1:13 p.m.", "9 a.m. classes": not the response
    # the moment of the verb the time hangs on first ("Officers breach the suite and find the
    # gunman dead": the entry), else of the words around it
    own = event_kind(sent.text[action_start:action_start + len(qualifier) + 12]) if qualifier else None
    event = _moment(sent.text, t, cs, _clause_end(sent.text, t, ce), others)
    if own and not (own == "entry" and event == "shooter_entry"):  # the gunman's way in is his own moment
        event = own
    if (perp := _pronoun_for_perpetrator(doc, res, who_text, start)) is not None:
        # "The gunman enters the school — a previous timeline stated he entered at 11:40 a.m.":
        # "he" is the gunman just named, not a person named further back
        who, who_text = perp, who_text
        event = "shooter_entry" if event == "entry" else event
    if event:
        ref["event"] = event
    return Claim(
        id="", doc=doc.id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_start=sent.start, speaker=voice.speaker, speaker_text=voice.text, subject=who,
        subject_text=who_text, measure="time_of_action", lo=t.lo, hi=t.hi, unit=t.unit,
        hedge=t.hedge, quoted=quoted, qualifier=qualifier, time_ref=ref,
    )


# Verbs of telling: an offset they hang on ("a day later, he said ...", "two days after the
# shooting, officials revised the timeline") dates an account of the incident, not its response
TELLING = re.compile(r"(?:said|says|say|told|tells|announced|acknowledged|admitted|revised|corrected|released|"
                     r"apologi[sz]ed|testified|explained|conceded|stated|wrote|updated|retracted|recanted|"
                     r"backtracked|clarified)$", re.IGNORECASE)
GAVE_ACCOUNT = re.compile(r"^(?:gave|held|issued|offered|provided|presented|released|walked back)\b[^.;]{0,30}?"
                          r"\b(?:account|statement|interview|update|news conference|press conference|briefing|"
                          r"timeline|testimony|version|details|explanation)\b", re.IGNORECASE)


def _telling(sentence: str, at: int, verb: str) -> bool:
    rest = sentence[at:]
    if re.match(r"(?:told|tells)\b", verb, re.I) and re.match(r"\w+\s+(?:[\w’']+\s+){1,3}?(?:not\s+)?to\s+[a-z]", rest):
        return False  # "told officers to wait": an order, a moment of the response
    return TELLING.match(verb) is not None or GAVE_ACCOUNT.match(rest) is not None


def share_apposed_moment(found: list[Claim], sentence_start: int, sentence: str) -> None:
    """'The 911 call came at 11:30 a.m., some three minutes before the gunman entered': a clock
    time and an offset set side by side tell one moment twice, so the one whose moment its
    own words do not name takes the other's (its action and who acted too)."""
    times = sorted((c for c in found if c.measure == "time_of_action"), key=lambda c: c.start)
    for a, b in zip(times, times[1:]):
        if not APPOSED.match(sentence[a.end - sentence_start:b.start - sentence_start]):
            continue
        if (a.unit == "minute_of_day") == (b.unit == "minute_of_day"):
            continue  # two clock times side by side are a list, not one moment
        ea, eb = (a.time_ref or {}).get("event"), (b.time_ref or {}).get("event")
        for known, bare in ((a, b), (b, a)):
            if (known.time_ref or {}).get("event") and not (bare.time_ref or {}).get("event") and not (ea and eb):
                bare.time_ref = {**(bare.time_ref or {}), "event": known.time_ref["event"]}
                bare.qualifier = bare.qualifier or known.qualifier
                bare.subject, bare.subject_text = known.subject, known.subject_text


PERPETRATOR = re.compile(r"\b(?:the|a)\s+(?:[\w-]+\s+)?(gunman|shooter|suspect|attacker|assailant|killer)\b",
                         re.IGNORECASE)


def _pronoun_for_perpetrator(doc, res: Resolution, who_text: str | None, at: int) -> str | None:
    """The gunman when a "he"/"she" subject comes after him with no named person between."""
    if not who_text or who_text.split(" ")[0].lower() not in {"he", "she"}:
        return None
    lo = max(0, at - 250)
    found = list(PERPETRATOR.finditer(doc.text, lo, at))
    if not found:
        return None
    m = found[-1]
    if any(p.kind == "person" and p.entity for p in res.between(doc.id, m.end(), at)):
        return None
    tid = "thing:" + m.group(1).lower()
    res.entities.setdefault(tid, Entity(tid, "thing", m.group(1).lower()))
    return tid


SAYING_ACTION = re.compile(r"(?:said|says|put|puts|placed|places|confirmed|"
                           r"added|announced|explained|stated|revealed|acknowledged|noted|"
                           r"testified|insisted|claimed|admitted|conceded)$", re.IGNORECASE)
ACCOUNT_THING = re.compile(r"\b(?:account|timeline|statement|report|news conference|press conference|briefing|"
                           r"update|version|announcement|interview|testimony|hearing|correction)s?\s*$", re.IGNORECASE)
APPOSED = re.compile(r"^\s*(?:[,—–(]|--|-)\s*(?:or\s+|about\s+|roughly\s+|some\s+)?$")
UNNAMED_ACTOR = re.compile(r"^\s*(?:someone|somebody|a caller|an? (?:unidentified|unnamed) \w+|one (?:person|caller)|"
                           r"a (?:student|teacher|woman|man|girl|boy|child|witness|bystander|parent|customer|"
                           r"employee|neighbou?r))\b", re.IGNORECASE)
EVENT_NOUN = re.compile(r"\b(?:call|calls|shooting|shots?|gunfire|attack|ordeal|siege|rampage|spree|standoff|"
                        r"massacre|incident|alarm|arrival|opening|explosion|blast|breach|began|started|"
                        r"first|initial|fired|opened fire)\b", re.IGNORECASE)


def _names_event(anchor: str | None) -> bool:
    """'eight minutes after the initial 911 call' counts from a moment of the incident;
    'one minute into the clip' from none."""
    return bool(anchor) and (EVENT_NOUN.search(anchor) is not None or event_kind(anchor) is not None)


# What a time of day is of when it is no moment of the response (docs: not claims).
NOT_RESPONSE = re.compile(r"\b(?:press conference|news conference|news briefing|briefing|published|posted|"
                          r"last modified|lineup|dance party|reports a total|released (?:a|the|its)|posted|tweeted|"
                          r"updated|update)\b", re.IGNORECASE)


# A timeline's time whose verb (after it) reports figures is the time of a later report, not of the response (a timed
# instruction to the public, "police posted at 12:10 urging residents to shelter", stays a claim)
REPORTS_FIGURES = re.compile(r"(?:reports|reported|confirms|confirmed|announces|announced|says|said)\b"
                             r"[^.;]{0,40}?\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|[a-z]+teen|"
                             r"[a-z]+ty|a total|dozens)\b", re.IGNORECASE)
SCHEDULE_AFTER = re.compile(r"^\s*(?:classes|class|show|shows|screening|service|services|meeting|lecture)\b", re.I)


def _near_words(sentence: str, t: TimeExpr, others) -> str:
    """The few words on either side of a time, up to the neighbouring times."""
    starts = [o.start for o in others if o is not t and o.start >= t.end]
    ends = [o.end for o in others if o is not t and o.end <= t.start]
    lo = max([max(0, t.start - 40)] + ends)
    hi = min([t.end + 40] + starts)
    return sentence[lo:t.start] + " " + sentence[t.end:hi]


def _moment(sentence: str, t: TimeExpr, cs: int, ce: int, others) -> str | None:
    """The moment a time is of: the words between it and the time before it in its clause
    ("officers were dispatched at 11:57 p.m."), else those up to the next time (a
    timeline's "9:39:00 — Officer X arrives"), else the rest of its clause."""
    starts = sorted(o.start for o in others if o is not t and o.start >= t.end)
    ends = sorted(o.end for o in others if o is not t and o.end <= t.start)
    before = sentence[max([cs] + ends):t.start]
    after = sentence[t.end:min([ce] + starts)]
    # else the rest of the clause after it, other times blanked ("At 12:46 a.m., eight
    # minutes after the initial 911 call, the suspect was in custody"): never words before
    # an earlier time, which are that time's.
    spans = [(o.start - t.end, o.end - t.end) for o in others if o is not t and o.start >= t.end]
    return event_kind(before) or event_kind(after) or event_kind(_without(sentence[t.end:ce], spans))


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    for s, e in spans:
        if 0 <= s < e <= len(text):
            text = text[:s] + " " * (e - s) + text[e:]
    return text


def _clause_end(sentence: str, t: TimeExpr, ce: int) -> int:
    """A timeline's "9:39:00 — Officer X arrives": the clause of the time is the one after
    its dash when nothing but the dash follows the time."""
    if sentence[t.end:ce].strip(" ,*.") == "" and ce < len(sentence):  # "10:05 p.m.: Officers arrive"
        return clause_bounds(sentence, ce + 1, ce + 1)[1]
    return ce


def _action(sent: Sentence, t: TimeExpr, skip=()):
    """The verb a time belongs to; verbs inside another time phrase ("about an hour after
    the shooting began") belong to that phrase."""
    cs, ce = clause_bounds(sent.text, t.start, t.end)
    seen = {m.start(): m for m in ACTION_RE.finditer(sent.text)}
    for m in verbs_in(sent.text):
        seen.setdefault(m.start(), m)
    free = [m for _, m in sorted(seen.items()) if not any(s <= m.start() < e for s, e in skip)
            and not (t.start <= m.start() < t.end)]
    # a verb of saying is when something was told, never the action a time is of
    before = [m for m in free if cs <= m.start() and m.end() <= t.start and not SAYING_ACTION.match(m.group(0))]
    if before:
        return before[-1], True
    end = _clause_end(sent.text, t, ce)
    end = end if t.end < end else len(sent.text)
    after = [m for m in free if t.end <= m.start() < end]
    return (after[0], False) if after else None


def _shorter_anchor(t: TimeExpr) -> TimeExpr | None:
    anchor = t.ref["anchor"]
    cut = re.search(r"\s(?=(?!I\b)[A-Z][a-z])", anchor)
    if cut is None:
        return None
    new = anchor[:cut.start()]
    drop = len(anchor) - len(new)
    return TimeExpr(t.start, t.end - drop, t.text[:len(t.text) - drop], t.kind, t.lo, t.hi, t.unit, t.hedge,
                    {**t.ref, "anchor": new})
