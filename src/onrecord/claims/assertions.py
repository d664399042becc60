"""Claims that are not a number in the text but still say how many: "once I was at the
building I did not hear any more shots" (no shots after my arrival), "I never told anyone
to stay away from the building" (no such order from me), "the live camera feed showed
him" (the view was live), and "while the gunman was still firing" (a count or a duration
limited to the shooting).

Each reader works on one sentence and returns sentence-relative spans; extract.py turns
them into Claims with speaker and subject like any other. The phrase lists are English
as officers and reporters write it, not one generator's wording: each list names the
several ways one thing is said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NEG = r"(?:never|not|n[’']t|did not|didn[’']t|at no (?:time|point))"
SHOTS_WORD = r"(?:shots?|gunfire|gunshots?|shooting|rounds?|firing)"

# "did not hear any more shots", "heard no further gunfire", "the shooting had already
# stopped", "no more shots were fired": nothing was fired after some moment.
NO_MORE_SHOTS = re.compile(
    rf"\b(?:(?:did not|didn[’']t|never|could not|couldn[’']t) (?:hear|heard) (?:any |a single )?"
    rf"(?:more |further |other |additional )?"
    rf"{SHOTS_WORD}"
    rf"|heard no (?:more |further |other |additional )?{SHOTS_WORD}"
    rf"|(?:the )?(?:shooting|gunfire|shots|firing) (?:had )?(?:already |long )?(?:stopped|ended|ceased|"
    rf"was over|were over|died down)"
    rf"|no (?:more |further |other |additional )?{SHOTS_WORD} (?:were |was )?(?:fired|heard|after)"
    # "the gunman had stopped firing", "he fired no more shots", "never fired again"
    rf"|(?:gunman|shooter|suspect|attacker|he|she) (?:had )?(?:already )?(?:stopped|ceased|quit) (?:firing|shooting)"
    rf"|fired no (?:more |further |other |additional )?{SHOTS_WORD}"
    rf"|(?:did not|didn[’']t|never) (?:fire|shoot) (?:again|any (?:more|further|other) {SHOTS_WORD}))\b",
    re.IGNORECASE,
)
# The moment after which nothing was fired: someone's arrival.
ARRIVAL_ANCHOR = re.compile(
    r"\b(?i:once|when|after|by the time|as soon as|from the time)\s+(?P<who>I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|"
    r"(?:(?:Deputy|Sgt\.|Sergeant|Officer|Captain|Capt\.|Lt\.|Lieutenant)\s+)?[A-Z][a-z]+|"
    # "by the time police arrived", "when the first officers reached the floor"
    r"(?i:(?:the\s+)?(?:first\s+)?(?:[\w-]+\s+)?(?:officers|police|deputies|troopers|agents|responders|"
    r"SWAT(?:\s+(?:officers|team))?)))\s+"
    r"(?:was|were|had|got|arrived|reached|pulled up|came|entered|made it)\b"
    r"(?:\s+(?:at|to|there|on scene|in position)\b)?",
)

# Orders to hold back: the many ways to tell officers not to go in.
HOLD_BACK = (r"hold(?:ing)? (?:back|off|the perimeter|(?:a |the |your |our )?positions?|the line)|^hold\b(?! on)"
             r"|stay(?:ing)? (?:away|back|out|outside|put)|keep(?:ing)? (?:away|back|out|clear)|stand(?:ing)? by"
             # "stay 500 feet away", "stand down", "treat it as a barricaded subject"
             r"|stay(?:ing)? (?:[\w-]+ ){1,3}(?:away|back)\b|stand(?:ing)? down|barricaded (?:subject|suspect)"
             r"|wait(?:ing)? (?:for|outside|until)"
             r"|(?:not|nobody|no one|no-one|don[’']t|do not) (?:to )?(?:go|goes|going|enter|enters)(?: in)?"
             r"|stage\b|set up a perimeter")
GO_IN = r"go(?:ing)? in(?:side)?|move in|make entry|enter(?: the building)?|push in"
ORDER_KINDS = {"hold back": re.compile(rf"\b(?:{HOLD_BACK})", re.IGNORECASE),
               "go in": re.compile(rf"\b(?:{GO_IN})\b", re.IGNORECASE)}
ORDER_VERB = (r"(?:told|tell|ordered|order|instructed|instruct|directed|direct|commanded|radioed|"
              r"gave (?:an? |the )?(?:order|instruction|command)s?)")
# "I never told anyone to stay away", "Sgt. X told us to hold the perimeter", "I told units to go in"
ORDER_RE = re.compile(
    rf"\b(?P<neg>{NEG}\s+(?:\w+\s+){{0,2}})?(?P<verb>{ORDER_VERB})\s+"
    rf"(?P<whom>(?:anyone|anybody|everyone|everybody|units|all units|deputies|officers|them|us|people|"
    rf"the (?:\w+ )?(?:units|deputies|officers|team)|[A-Z][a-z]+)\s+)?(?P<tonot>not\s+)?to\s+(?P<what>[^;.]+)",
    re.IGNORECASE,
)

# "live" must be said of the camera view itself: "the live camera feed", "the feed was
# live", "watched him live on the school's cameras" (not "broadcast live on TV").
_VIEW = r"(?:camera|cameras|camera feed|video|video feed|feed|footage|view|stream|CCTV|monitors?)"
LIVE_VIEW = re.compile(
    rf"\blive\s+(?:[\w’'-]+\s+)?{_VIEW}\b"
    rf"|\b{_VIEW}s?\s+(?:[\w’'-]+\s+){{0,2}}(?:was|were|is|are)\s+(?:not\s+|never\s+)?(?:really\s+|actually\s+)?live\b"
    rf"|\blive\s+(?:on|from|through|via)\s+(?:the\s+)?(?:[\w’'-]+\s+){{0,2}}{_VIEW}\b",
    re.IGNORECASE,
)
NOT_LIVE = re.compile(rf"\b(?:{NEG}\s+(?:\w+\s+)?live|(?:was|were) (?:a )?(?:delayed|replay|recorded|tape-delayed)|"
                      r"(?:minutes?|seconds?) (?:behind|delayed|old)|not (?:really |actually )?live)\b", re.IGNORECASE)

# "while the gunman was still firing", "while shots were fired", "during the shooting"
DURING_SHOTS = re.compile(
    r"\b(?:while|as|when)\s+(?:the\s+)?(?:gunman|shooter|suspect|attacker|killer|he|shots|gunfire|bullets|rounds)\s+"
    r"(?:was|were|kept|continued)\s+(?:still\s+)?(?:being\s+)?"
    r"(?:firing|fired|shooting|ringing out|flying|going off|on)\b"
    r"|\b(?:during|throughout)\s+the\s+(?:shooting|gunfire|attack|rampage)\b"
    r"|\bas\s+(?:the\s+)?(?:gunfire|shooting)\s+continued\b",
    re.IGNORECASE,
)
IN_FIRST = re.compile(r"\b(?:in|within|during)\s+the\s+first\s+(?P<n>\w+(?:-\w+)?)\s+(?P<unit>minutes?|hours?)\b", re.I)


@dataclass
class Said:
    """One assertion found in a sentence (offsets relative to the sentence)."""

    measure: str
    start: int
    end: int
    lo: float | None
    hi: float | None
    unit: str
    qualifier: str | None = None
    who_start: int | None = None  # where the person it is about is named (anchor or actor)
    who_end: int | None = None
    anchor: str | None = None


def no_more_shots(sentence: str) -> list[Said]:
    """'Once I was at the building I did not hear any more shots': zero shots after the
    arrival of whoever the anchor names. Without such an anchor the sentence says nothing
    the records can place in time, so it is left alone."""
    out = []
    for m in NO_MORE_SHOTS.finditer(sentence):
        anchors = list(ARRIVAL_ANCHOR.finditer(sentence))
        if not anchors:
            continue
        a = min(anchors, key=lambda x: abs(x.start() - m.start()))
        out.append(Said("shots_after_arrival", m.start(), m.end(), 0, 0, "shots", "heard after arrival",
                        a.start("who"), a.end("who"), a.group(0)))
    return out


# "No one told deputies to stage", "Nobody ordered officers to wait": no one gave it
NO_ONE_RE = re.compile(
    rf"\b(?P<neg>no one|no-one|nobody|none of (?:us|them|the \w+))\s+(?:ever\s+)?(?P<verb>{ORDER_VERB})\s+"
    rf"(?:(?:anyone|anybody|deputies|officers|them|us|the (?:\w+ )?(?:units|deputies|officers|team))\s+)?"
    rf"(?P<tonot>not\s+)?to\s+(?P<what>[^;.]+)", re.IGNORECASE)
# "Officers were told to stand down", "Deputies were ordered to set up a perimeter": given, by someone unnamed
PASSIVE_ORDER_RE = re.compile(
    r"\b(?:officers|deputies|units|troopers|agents|police|they|he|she|we|I)\s+(?:(?:were|was|had been|have been|"
    r"had|got)\s+)(?:\w+ly\s+)?(?P<neg>never\s+|not\s+)?(?P<verb>told|ordered|instructed|directed|commanded|radioed)\s+"
    r"(?P<tonot>not\s+)?to\s+(?P<what>[^;.]+)", re.IGNORECASE)
ATTRIBUTION_TAIL = re.compile(r",\s+(?:according to|(?:[\w’'-]+\s+){0,5}(?:said|says|found|reported|told))\b.*$")


def _order_kind(m: re.Match) -> tuple[str | None, str]:
    what = re.split(r"\b(?:but|and then|so|because|when|while|until he|until she)\b", m.group("what"))[0]
    what = ATTRIBUTION_TAIL.sub("", what)  # "..., the report found" is who says it, not the order
    said = ("not to " + what) if m.group("tonot") else what  # "told them not to go in"
    return next((k for k, rx in ORDER_KINDS.items() if rx.search(said)), None), what


def unattributed_orders(sentence: str) -> list[Said]:
    """Orders with no giver named: denied by 'no one' ([0, 0]) or received in the passive
    ([1, open), or [0, 0] with 'never'). They are about the response as a whole: who_start
    is None and the claim's subject is the incident."""
    out = []
    for rx in (NO_ONE_RE, PASSIVE_ORDER_RE):
        for m in rx.finditer(sentence):
            kind, what = _order_kind(m)
            if kind is None:
                continue
            denied = rx is NO_ONE_RE or bool(m.group("neg"))
            out.append(Said("order_given", m.start(), m.start("what") + len(what.rstrip(" ,")),
                            0 if denied else 1, 0 if denied else None, "orders", kind))
    return out


def orders(sentence: str) -> list[Said]:
    """'I never ordered anyone to hold back' (none given: [0, 0]); 'Sgt. X told us to hold
    the perimeter' (at least one: [1, open)). The kind of order is what the records are
    searched for, so 'stay away from the building' and 'hold the perimeter' are both
    orders to hold back."""
    out = []
    for m in ORDER_RE.finditer(sentence):
        kind, what = _order_kind(m)
        if kind is None:
            continue
        denied = m.group("neg") is not None
        lo, hi = (0, 0) if denied else (1, None)
        start = m.start("neg") if denied else m.start("verb")
        # who gave it is named before the verb: "I never told", "at no point did I tell", "Sgt. X told"
        out.append(Said("order_given", start, m.start("what") + len(what.rstrip(" ,")), lo, hi, "orders", kind,
                        who_start=start, who_end=m.start("verb")))
    return out


def camera_live(sentence: str) -> list[Said]:
    """'The live camera feed showed ...', 'watched the gunman live on the school's
    cameras': the view was live (1); 'the feed was not live' / 'a replay': it was not (0)."""
    m = LIVE_VIEW.search(sentence)
    if m is None:
        return []
    value = 0 if NOT_LIVE.search(sentence) else 1
    return [Said("camera_view_live", m.start(), m.end(), value, value, "bool", "live view")]


def during_shots(sentence: str) -> bool:
    return DURING_SHOTS.search(sentence) is not None


def first_minutes(sentence: str) -> float | None:
    """'in the first ten minutes' -> 10 (minutes); None when the sentence has no window."""
    from onrecord.claims.numbers import parse_number

    m = IN_FIRST.search(sentence)
    if m is None:
        return None
    n = parse_number(m.group("n"))
    if n is None:
        return None
    return n * (60 if m.group("unit").lower().startswith("hour") else 1)


def find_assertions(sentence: str) -> list[Said]:
    found = orders(sentence)
    found += [u for u in unattributed_orders(sentence) if not any(o.start <= u.start < o.end for o in found)]
    return no_more_shots(sentence) + found + camera_live(sentence)
