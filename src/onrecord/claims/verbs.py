"""The verbs of an incident response, in every form they are written, and the event each
names.

Without a trained parser a verb cannot be told from a noun by its shape alone, so the
rule path knows the verbs that news and reports use for what happens in a response
("arrives", "arrived", "is heard", "ran into") from this list, inflected here; what a
time, a count or a duration hangs on is the nearest of them in its clause. The event
kinds give one name to the many ways one moment is told ("arrived", "got there", "was on
scene" are all `arrival`), so two accounts of one moment can be compared.
"""

from __future__ import annotations

import re
from functools import lru_cache

# base form -> irregular forms (past, participle, -ing when not regular)
IRREGULAR = {
    "run": ["ran", "running"], "begin": ["began", "begun", "beginning"], "shoot": ["shot", "shooting"],
    "go": ["went", "gone", "going", "goes"], "come": ["came", "coming"], "leave": ["left", "leaving"],
    "find": ["found"], "hear": ["heard"], "see": ["saw", "seen", "seeing"], "tell": ["told"],
    "take": ["took", "taken", "taking"], "hold": ["held"], "get": ["got", "gotten", "getting"],
    "stand": ["stood"], "sit": ["sat", "sitting"], "drive": ["drove", "driven", "driving"],
    "flee": ["fled"], "make": ["made", "making"], "give": ["gave", "given", "giving"],
    "fall": ["fell", "fallen"], "hit": ["hit", "hitting"], "meet": ["met"], "send": ["sent"],
    "stop": ["stopped", "stopping"], "kill": [], "die": ["died", "dying", "dies"], "lie": ["lay", "lying"],
    "put": ["put", "putting"], "set": ["set", "setting"], "cease": ["ceased", "ceasing"],
    "arrive": ["arrived", "arriving"], "enter": [], "respond": [], "breach": ["breaches"],
    "approach": ["approaches"], "reach": ["reaches"], "detain": [], "surrender": [],
}
VERBS = [
    "arrive", "enter", "respond", "run", "begin", "start", "stop", "end", "detain", "call", "report",
    "fire", "shoot", "leave", "reach", "breach", "kill", "die", "find", "hear", "see", "tell", "radio",
    "dispatch", "secure", "declare", "move", "approach", "park", "walk", "drive", "go", "come", "exit",
    "surrender", "arrest", "pull", "open", "close", "lock", "continue", "send", "issue", "notify",
    "alert", "confront", "engage", "wound", "injure", "take", "carry", "evacuate", "transport", "spot",
    "identify", "announce", "deploy", "assemble", "gather", "stage", "wait", "remain", "stay", "hold",
    "push", "climb", "flee", "receive", "answer", "cease", "rescue", "storm", "escape", "lie", "locate",
    "apprehend", "capture", "confirm", "emerge", "post", "make", "give", "fall", "hit", "meet", "stand",
    "sit", "clear", "pronounce", "fight", "kick", "break", "smash", "barricade", "hide", "crash", "get",
    "put", "set", "shut", "sound", "ring", "drop", "enter", "follow", "head", "race", "rush", "return",
]
# Verbs that are also everyday nouns ("a call", "the fire", "the end", "the report"): a
# verb only after a subject word or an auxiliary, never after a determiner.
NOUN_TOO = {"call", "report", "fire", "end", "start", "stop", "radio", "park", "close", "lock", "open",
            "post", "issue", "alert", "shot", "shooting", "set", "hit", "sound", "ring", "head", "race",
            "return", "rush", "stage", "fall", "drop", "wait", "answer", "break", "kick", "crash",
            "capture", "transport", "walk", "hold", "find", "put", "dispatch", "fight", "secure", "move"}


def _regular(base: str) -> list[str]:
    if base.endswith("e"):
        return [base + "s", base + "d", base[:-1] + "ing"]
    if re.search(r"(?:ch|sh|ss|x)$", base):
        return [base + "es", base + "ed", base + "ing"]
    if base.endswith("y") and base[-2] not in "aeiou":
        return [base[:-1] + "ies", base[:-1] + "ied", base + "ing"]
    return [base + "s", base + "ed", base + "ing"]


@lru_cache(maxsize=1)
def verb_forms() -> dict[str, str]:
    """Every written form -> its base ("arrives" -> "arrive", "ran" -> "run")."""
    forms: dict[str, str] = {}
    for base in VERBS:
        for f in [base, *_regular(base), *IRREGULAR.get(base, [])]:
            forms.setdefault(f, base)
    return forms


@lru_cache(maxsize=1)
def verb_re() -> re.Pattern:
    words = sorted(verb_forms(), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE)


DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|this|that|his|her|their|its|first|last|initial|911|"
                               r"emergency|another|each|every|no|one|of)\s+$", re.IGNORECASE)


def verbs_in(text: str, lo: int = 0, hi: int | None = None) -> list[re.Match]:
    """The verbs in text[lo:hi]; a form that is also a noun counts only when no determiner
    stands right before it ("the first call" is a call, "deputies call" a verb)."""
    out = []
    for m in verb_re().finditer(text, lo, len(text) if hi is None else hi):
        w = m.group(0).lower()
        if (w in NOUN_TOO or verb_forms().get(w) in NOUN_TOO and w == verb_forms().get(w)) \
                and DETERMINER_BEFORE.search(text[max(0, m.start() - 20):m.start()]):
            continue
        out.append(m)
    return out


# What one moment is called, however it is worded (first match wins).
EVENTS = [
    ("call_911", r"\b(?:911|emergency)\s+calls?\b|\bcalls?\s+(?:to|into)\s+911\b|\bcalled\s+911\b|\bfirst\s+call"
                 r"|\breceived\s+(?:[\w“”\"-]+\s+){0,3}calls?\b|\bcalls?\s+(?:about|reporting)\b|\b(?:was|were|been)\s+alerted\b"),
    ("shooting_end", r"\b(?:last|final)\s+(?:shot|gunshot|round)"
                     r"|\b(?:his|her|the)\s+(?:last|final)(?:\s+(?:at|around|about|by))?\s*$|\b(?:stopped|ceased|ended|stops"
                     r"|ends)\s+(?:shooting|firing)"
                     r"|\b(?:shooting|gunfire|firing)\s+(?:had\s+)?(?:stopped|ended|ceased|stops|ends)"),
    ("shooting_start", r"\b(?:opened|opens)\s+fire|\b(?:began|begins|started|starts)\s+(?:shooting|firing)"
                       r"|\b(?:shooting|attack|gunfire|rampage|spree|assault)\s+(?:began|begins|started|starts"
                       r"|broke out)"
                       r"|\bfirst\s+(?:shots?|gunshots?)"),
    ("shooter_down", r"\b(?:killed|shot)\s+(?:himself|herself)|\b(?:shot|killed)\s+(?:and\s+killed\s+)?(?:the\s+)?"
                     r"(?:gunman|shooter|suspect)|\b(?:gunman|shooter|suspect)\s+(?:was\s+)?(?:killed|shot dead|dead|"
                     r"shot and killed|fatally shot)"),
    ("custody", r"\b(?:in|into)\s+custody|\barrest(?:ed|s)?\b|\bdetain(?:ed|s)?\b|\bapprehend(?:ed|s)?\b"
                r"|\bsurrender(?:ed|s)?\b"),
    # the attacker's own way in is one moment of the incident, not the responders' entry
    ("shooter_entry", r"\b(?:gunman|shooter|suspect|attacker|assailant|killer)\s+(?:\w+\s+)?(?:entered|enters|went\s+"
                      r"in(?:side|to)?|goes\s+in(?:side|to)?|walked\s+in(?:to)?|walks\s+in(?:to)?|got\s+in(?:side|to)?|"
                      r"made\s+(?:his|her|their)\s+way\s+in(?:to|side)?|burst\s+in(?:to)?|forced\s+(?:his|her|their)\s+"
                      r"way)\b"),
    ("entry", r"\b(?:entered|enters|enter|entering|went\s+in(?:side|to)?|goes\s+in|made\s+entry|"
              r"breach(?:ed|es|ing)?|stormed|storms|storm|storming|ran\s+into|runs\s+into|got\s+inside|go\s+in)\b"),
    # a timeline's present ("The first officers reach the 31st floor") as well as a report's past
    ("arrival", r"\b(?:arrived|arrives|arrive|arriving|got\s+there|gets\s+there|reached|reaches|reach|reaching|"
                r"pulled\s+up|"
                r"on\s+(?:the\s+)?scene|on\s+hand|showed\s+up|responded|responds|"
                # "put the first officer's arrival at 11:44 a.m.": the moment named as a noun
                r"arrival)\b"),
    ("dispatch", r"\b(?:dispatched|dispatches|sent\s+to)\b|\bcall\s+(?:came|went)\s+out\b|\bput\s+out\s+(?:a"
                 r"|the)\s+call\b"),
]
_EVENTS = [(kind, re.compile(p, re.IGNORECASE)) for kind, p in EVENTS]


# Moments of the incident itself, whoever is named beside them: "police received 911
# calls at 11:56" and "CSPD received numerous calls at 11:57" are two accounts of one.
INCIDENT_EVENTS = {"call_911", "shooting_start", "shooting_end", "shooter_entry", "shooter_down"}


def event_kind(text: str) -> str | None:
    """The moment a phrase names ("arrives behind the school" -> arrival), or None."""
    for kind, rx in _EVENTS:
        if rx.search(text):
            return kind
    return None


MORE_IRREGULAR = {"slay": ["slew", "slain"], "hurt": ["hurt"], "hide": ["hid", "hidden", "hiding"],
                  "rush": ["rushes"], "stay": ["stays", "stayed"], "hunker": [], "mobilize": ["mobilizing"],
                  "mobilise": ["mobilising"], "dispatch": ["dispatches"], "storm": [], "remain": [],
                  "linger": [], "assemble": ["assembling"], "gather": [], "deploy": ["deploys", "deployed"],
                  "assign": [], "wound": [], "spend": ["spent", "spending"], "converge": ["converging"],
                  "injure": ["injuring"], "hospitalize": ["hospitalizing"]}


def inflected(*phrases: str) -> str:
    """A regex alternation of every form of each verb phrase ("go in" -> go in, goes in,
    went in, gone in, going in): timelines are written in the present ("Three officers
    enter the classroom"), reports in the past, so a cue must not depend on the tense."""
    out: set[str] = set()
    for phrase in phrases:
        base, _, rest = phrase.partition(" ")
        irregular = [*IRREGULAR.get(base, []), *MORE_IRREGULAR.get(base, [])]
        regular = _regular(base)
        if any(not f.endswith(("ed", "ing", "s")) for f in irregular):
            regular = [f for f in regular if not f.endswith("ed")]  # "ran", not "runned"
        forms = {base, *regular, *irregular}
        out |= {f"{f} {rest}".strip() for f in forms}
    return "|".join(sorted((re.escape(f).replace(r"\ ", r"\s+") for f in out), key=len, reverse=True))
