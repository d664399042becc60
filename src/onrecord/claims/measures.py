"""What a number measures, from the words around it.

A measure is named in the analyst's words (`count_officers_entered`, `duration_outside`)
and is never tied to one incident: the rules look at the noun after the number (officers,
victims, minutes, times...) and at the verbs of its clause (entered, stayed outside,
killed...). The full vocabulary is MEASURES; docs/claims.md lists it for users.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from onrecord.claims.counts import BEFORE_RE as PEOPLE_OBJECT
from onrecord.claims.counts import people_count
from onrecord.claims.numbers import HEDGES, QUANTITY, TRAILING_HEDGES, interval, taken_as_delay
from onrecord.claims.provenance import made_at
from onrecord.claims.verbs import inflected

MEASURES = {
    "duration_outside": "how long someone stayed outside / at a door before going in (minutes)",
    "duration_waiting": "how long someone waited or stayed, place not said to be outside (minutes)",
    "duration_to_arrival": "how long until someone arrived (minutes)",
    "duration_to_entry": "how long until someone went in, e.g. 'went in within a minute' (minutes)",
    "duration_of_incident": "how long the shooting/incident lasted (minutes)",
    "duration_elapsed": "time that passed: '79 minutes passed between ...', 'the 77-minute delay' (minutes)",
    "duration_of_service": "how long someone has served in a role (years)",
    "count_officers_killed": "officers killed",
    "count_officers_injured": "officers injured, wounded or shot",
    "count_officers_sent": "officers an agency sent, dispatched or deployed",
    "count_officers_on_scene": "officers who arrived / were on scene or on the campus",
    "count_officers_entered": "officers who went in",
    "count_officers_waiting": "officers who waited / held back (e.g. in a hallway)",
    "count_officers_outside": "officers who stayed outside / did not go in",
    "count_officers_disciplined": "officers suspended, fired or put on restricted duty",
    "count_deaths": "people killed",
    "count_injured": "people injured or wounded",
    "count_shot": "people shot",
    "count_transported": "people taken to hospitals / transported",
    "count_victims_carried_out": "victims carried, rescued or evacuated out",
    "count_survivors": "victims who survived",
    "count_calls_to_home": "calls for service to / police visits at a home",
    "count_calls_for_service": "calls for service (place not said)",
    "count_calls_911": "911 calls",
    "count_shots": "shots or rounds fired",
    "count_shots_heard": "shots one person says they heard ('I heard maybe two or three shots')",
    "shots_after_arrival": ("shots someone says were fired after an arrival: 0 in 'once I was there I heard no "
                            "more shots'"),
    "order_given": ("orders someone gave of one kind (qualifier 'hold back' or 'go in'): 0 when denied, at least 1 "
                    "when said"),
    "camera_view_live": "whether a camera view was live: 1 ('the live camera feed showed ...'), 0 ('it was a replay')",
    "count_warnings": "warnings or tips received",
    "age": "a person's age (years)",
    "annual_salary": "a person's salary (USD)",
    "pay": "what a person was paid or earned (USD)",
    "place_of_action": "where someone was or took position (words, in value_text)",
    "time_of_action": "when an action happened: clock time (minute of day) or an offset from an anchor event",
}

OFFICER = (r"police officers?|officers?|deputies|deputy|cops?|troopers?|agents?|police|units?|patrolmen|lawmen|"
           # "a four-man team", "a 12-member unit": a team counted by its members
           r"(?:man|member|person|officer)\s+(?:team|unit|squad|element|contingent|group)")
PEOPLE_BASE = (r"victims?|people|persons?|individuals?|students?|children|kids|teachers?|adults?|"
               r"casualties|bodies|patients|staff members|classmates|others|civilians?|bystanders?|"
               r"employees|workers|worshipers|worshippers|congregants|parishioners|shoppers|customers|"
               r"moviegoers|patrons|clubgoers|attendees|paradegoers|spectators|educators|faculty members|"
               r"men|women|boys|girls|residents|guards|survivors|lives|deaths|fatalities|members")
# "the 17 dead" counts people; "four wounded deputies" counts deputies.
PEOPLE = rf"{PEOPLE_BASE}|(?:wounded|dead|injured)(?!\s+(?:{OFFICER}|{PEOPLE_BASE})\b)"
CALLS = r"calls?|times|visits"
SHOTS = r"shots|rounds|bullets"
WARNINGS = r"warnings?|tips?|complaints?"
DURATION = r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?"

# words that never modify a counted noun: a second number or a verb of the attack ("two gunmen
# killed 12 students" counts no students by two)
_STOP = (r"(?!(?:while|and|or|as|when|that|who|which|to|of|in|at|on|for|with|the|a|an|from|by|"
         r"were|was|had|have|has|is|are|be|after|before|later|seconds?|minutes?|hours?|days?|"
         r"killed|killing|kills|fired|firing|opened|murdered)\b|(?!911\b)[\d,.]+\s)")
NOUN_RE = re.compile(
    rf"^[\s-]+(?:of\s+(?:the|those|these|their)\s+)?(?P<mods>(?:{_STOP}[\w’'-]+\s+){{0,4}}?)(?:(?P<officer>{OFFICER})|(?P<people>{PEOPLE})|"
    rf"(?P<calls>{CALLS})|(?P<shots>{SHOTS})|(?P<warnings>{WARNINGS}))\b",
    re.IGNORECASE,
)
DURATION_RE = re.compile(rf"^[\s-]+(?:(?:[a-z]+)\s+){{0,2}}?(?P<unit>{DURATION})\b", re.IGNORECASE)
AGE_RE = re.compile(r"^[\s-]+years?(?:[\s-]+old\b|\s+of\s+age\b)", re.IGNORECASE)
RELATIVE_AFTER_RE = re.compile(r"^\s*(?:after|before|later|earlier|ago|into|prior|from now|since)\b", re.I)
PARTITIVE_RE = re.compile(r"^\s+of\s+(?:whom|them|those)\b", re.IGNORECASE)

OFFICER_CUES = [  # first match in this order wins
    ("count_officers_killed", r"\b(?:killed|died|dead|slain|fatally)\b"),
    ("count_officers_injured", r"\b(?:injured|wounded|hurt|hospitali[sz]ed|were shot|was shot|grazed|"
                               r"suffered (?:\w+ ){0,2}(?:wounds|injuries)|"
                               r"(?:struck|hit) by (?:gunfire|a bullet|bullets|shrapnel|fragments))\b"),
    ("count_officers_outside", r"\b(?:stationed outside|remained outside|waited outside|stayed outside|"
                               r"outside|behind (?:his|her|their|a|the) (?:patrol |squad )?"
                               r"(?:cars?|vehicles?|cruisers?|trucks?)|"
                               r"(?:did|had|have|has|were|was) not (?:\w+ ){0,3}(?:enter|entered|go in"
                               r"|gone in|gone into|"
                               r"go into|gone inside|join|joined)|never (?:went in|entered)|failed to (?:enter"
                               r"|go in))\b"),
    ("count_officers_entered", r"\b(?:entered|enter|went in(?:side|to)?|gone in(?:side|to)?|rushed in(?:side|to)?|"
                               r"stormed|made entry|ran in(?:to)?|going in|"
                               # "11 officers were inside the school": in the building, so gone in
                               r"(?:were|was|are|is|had been) (?:in|inside) (?:the )?(?:[\w-]+ )?(?:building|school|"
                               r"club|store|church|theater|theatre|classroom|nightclub|hotel)|"
                               # "three officers followed the gunman into the building"
                               r"followed (?:[\w’'-]+ ){1,3}?(?:in|into|inside)|"
                               + inflected("enter", "go in", "go inside", "go into", "rush in", "rush into", "storm",
                                           "make entry", "run in", "run into") + r")\b"),
    ("count_officers_sent", r"\b(?:sent|dispatched|deployed|responded|mobili[sz]ed|assigned|"
                            + inflected("send", "dispatch", "deploy", "respond", "mobilize", "mobilise", "assign")
                            + r")\b"),
    ("count_officers_waiting", r"\b(?:waited|wait|waiting|held back|stood by|staged|staging|stood|standing|stayed|"
                               r"remained|lingered|hunkered|"
                               # "19 officers were in the hallway": massed in a corridor, not yet in
                               r"(?:were|was|are|is|remained) (?:in|inside) (?:the|a|that|this) (?:[\w-]+ )?"
                               r"(?:hallway|hall|corridor|stairwell)|"
                               r"(?:crowded|massed|packed|gathered|assembled|lined up) (?:into|in) (?:the|a|that) "
                               r"(?:[\w-]+ )?(?:hallway|hall|corridor|stairwell)|"
                               + inflected("wait", "hold back", "stand by", "stand", "stay", "remain", "linger",
                                           "hunker", "cower", "crouch", "huddle") + r")\b"),
    ("count_officers_on_scene",
     r"\b(?:arrived|on (?:the )?(?:scene|campus)|showed up|at the scene|assembled|gathered|(?:were|was) there|"
     # "more than 90 state troopers were at the school": present at the place of the incident
     r"(?:were|was) (?:at|outside|near|around) (?:the )?(?:[\w-]+ )?(?:school|building|scene|store|club|church|"
     r"campus|site|hotel|mall|plant|theater|theatre)|"
     + inflected("arrive", "show up", "assemble", "gather", "converge") + r")\b"),
    ("count_officers_disciplined", r"\b(?:suspended|restricted duty|placed on (?:\w+ )?leave|"
                                   r"(?:were|was|been|be) fired|reassigned|disciplined|restrictive duty)\b"),
]
PEOPLE_CUES = [  # the nearest match wins
    ("count_deaths", r"\b(?:killed|dead|died|murdered|slain|lost their lives|fatalit\w+|slaughtered|deaths|"
                     r"took the lives of|claimed the lives of|lives lost)\b"),
    ("count_injured", r"\b(?:injured|wounded|hurt|hospitali[sz]ed|injuries)\b"),
    ("count_transported",
     r"\b(?:taken to (?:the |a )?hospitals?|transported|taken to (?:the |a )?(?:trauma|medical)|airlifted)\b"),
    ("count_victims_carried_out", r"\b(?:carried|rescued|evacuated|brought out|taken out|pulled out)\b"),
    ("count_survivors", r"\b(?:survived|survivors?)\b"),
    ("count_shot", r"\bshot\b"),
]
NEGATION = re.compile(r"\b(?:not|never|no|none)\b|n[’']t\b", re.IGNORECASE)
STAY = re.compile(r"\b(?:remained|remain|stayed|stay|stood|stand|waited|waiting|wait|was there|were there|"
                  r"sat|hid|hiding|lingered|held (?:his |her |their )?position|took cover|taking cover|"
                  + inflected("remain", "stay", "stand", "wait", "sit", "hide", "linger", "take cover", "spend")
                  + r")\b"
                  # "remained alive", "stayed calm": a state, not a place
                  r"(?!\s+(?:alive|calm|quiet|silent|in critical|in stable|in serious|hospitali[sz]ed|open|closed|"
                  r"unclear|unknown|on the line))", re.I)
# A number with its noun left out, counting people: what may follow it.
BARE_PEOPLE = re.compile(r"^\s*(?:[,;)]|\.(?!\d)|$|(?:and|or|in|at|on|during|with|of|more|others?|were|was|are|is|have|"
                         r"had|being|dead|died|killed|injured|wounded|hurt|shot|critically|seriously|people)\b)",
                         re.IGNORECASE)
TOOK = re.compile(r"\b(?:took|takes|take|taking)\b", re.IGNORECASE)
# "It was 72 minutes before officers entered", "it would be nearly four hours until SWAT reached
# the library": the time until the event that follows, a delay, not an offset before it
IT_WAS = re.compile(r"(?:^|[,;:—–]\s*|\b(?:and|but)\s+)(?:it|there)\s+(?:was|were|had been|would be|would have been|"
                    r"will be|is)\s+(?:still\s+|another\s+|a\s+full\s+|"
                    # "It was not four minutes but 48 minutes before ...": the value kept
                    r"not\s+[^,;]{1,30}?\s+but\s+)?$", re.IGNORECASE)
SPAN_NAMED_BEFORE = re.compile(r"\b(?P<span>delay|wait|lag|gap|response time|standoff|siege)\s+(?:[\w’'-]+\s+){0,5}?"
                               r"(?:was|is|of|lasted|totaled|totalled|came to|stretched to|grew to|ran to)\s+$",
                               re.IGNORECASE)
ELAPSED_AFTER = re.compile(r"^\s*(?:had\s+)?(?:passed|elapsed|went by|delay|wait|lapse|gap|standstill|lull|pause)\b",
                           re.I)
# "a three-hour hostage situation", "a siege lasting nearly an hour": the incident's length.
SIEGE_AFTER = re.compile(r"^[\s-]*(?:long\s+)?(?:hostage (?:situation|standoff|crisis)|standoff|siege|ordeal)\b", re.I)
JOINED_BY = re.compile(r"\b(?:were|was|are|is|been)\s+(?:later\s+|soon\s+|then\s+)?(?:joined|followed|accompanied)\s+"
                       r"(?:inside\s+|in\s+)?by\s+$", re.I)
# "a 4-minute gunbattle", "a 10-minute firefight": shooting between the gunman and officers, a span of the
# incident kept apart (qualifier) from how long the gunman fired
GUNBATTLE_AFTER = re.compile(r"^[\s-]*(?:long\s+)?(?:gun\s?battle|gun\s?fight|firefight|fire fight|shoot-?out|"
                             r"exchange of (?:gunfire|fire|shots))\b", re.I)
ATTACK_AFTER = re.compile(r"^[\s-]*(?:long\s+)?(?:rampage|shooting spree|spree|attack|massacre|barrage|"
                          r"burst of (?:gunfire|shots)|volley|fusillade|"
                          r"shooting(?! (?:range|drill|victims?|suspects?)\b)|gunfire|assault|onslaught)\b", re.I)
# "were on the scene for 3 hours before they entered": a span, its end named after it
FOR_SPAN = re.compile(r"\b(?:were|was|been|are|is|remained|stayed)\s+(?:[\w’'-]+\s+){1,4}?for\s*$", re.I)
NEXT_SPAN = re.compile(r"\b(?:over|for|during)\s+(?:the\s+)?(?:next|following|ensuing)\s*$", re.I)
SHOOTING_AFTER = re.compile(r"^\s*,?\s*(?:[\w’'-]+\s+){0,3}?(?:fired|kept firing|continued (?:firing|shooting)|shot|"
                            r"rained|sprayed|unleashed|poured)\b", re.I)
# A span that opens its clause ("Within six minutes, the gunman had killed nine people", "Over the
# course of 10 minutes, he fired 100 rounds", "In just 90 seconds, the shooter ..."): how long the
# attack went on when the clause after it is the attacker's shooting (never officers' shots: that is
# a response)
LEAD_SPAN = re.compile(r"(?:^|[,;:—–]\s*)(?:within|in|over|during)\s+"
                       r"(?:the\s+(?:course|span)\s+of\s+|a\s+span\s+of\s+|"
                       r"the\s+(?:first\s+)?|just\s+|only\s+|barely\s+)?$", re.I)
ATTACKER_SHOOTING = re.compile(r"^\s*,\s*(?!(?:[\w’'-]+\s+){0,3}?"
                               r"(?:officers?|police|deputies|deputy|troopers?|agents?|SWAT)\b)"
                               r"(?:[\w’'-]+\s+){0,3}?(?:had\s+)?(?:fired|kept firing|continued (?:firing|shooting)|"
                               r"shot|killed|wounded|murdered|sprayed|unleashed|opened fire)\b", re.I)
# "In the six minutes that the gunman was inside": the span of the attack inside
SPAN_OF_ATTACKER = re.compile(r"^\s*(?:that|when|in which|during which|while)\s+(?:the\s+)?(?:gunman|shooter|suspect|"
                              r"attacker|killer|assailant)\s+(?:was|were|had been|roamed|stalked|fired|shot)\b", re.I)
# "spanned six minutes", "stretched over 11 minutes", "went on for nearly an hour": verbs of how long
# something lasted, right before the amount (like "lasted")
SPAN_VERB = re.compile(r"\b(?:spann?(?:ed|s|ing)?|stretch(?:ed|es|ing)?(?:\s+(?:over|for|to))?|"
                       r"(?:went|goes|go|going|dragged|drags|wore) on(?:\s+for)?|continu(?:ed|es|ing)\s+for|"
                       r"play(?:ed|s|ing) out over|unfold(?:ed|s|ing) over)\s*$", re.I)
# "barricaded himself for more than an hour", "negotiated with the gunman for two hours": a standoff
STANDOFF_FOR = re.compile(r"\b(?:barricaded|holed up|negotiat(?:ed|ing|ions?)|held\s+(?:[\w’'-]+\s+){0,3}?hostage|"
                          r"holding\s+(?:[\w’'-]+\s+){0,3}?hostage)\b[^.;]*?\bfor\s*$", re.I)
# "within 20 seconds of arriving", "in 90 seconds of entering", "within a minute of their arrival": the
# span from an event of the response to the clause's own action
OF_EVENT = re.compile(r"^\s*(?:of|after|from)\s+(?:(?:first\s+|initially\s+)?[a-z]+ing\b|(?:their|his|her|its)\s+\w+|"
                      r"(?:the|a|an)\s+(?:first\s+|initial\s+|last\s+|final\s+)?(?:911\s+)?(?:calls?|shots?|"
                      r"gunfire|alarms?|reports?|shooting|attack|explosion|blast|dispatch)\b)", re.I)
OVER_IN = re.compile(r"\b(?:shooting|killing|attack|rampage|gunfire|massacre|assault)\s+(?:was|were|had been)\s+"
                     r"(?:all\s+)?over(?:\s+(?:in|within))?\s*$", re.I)
# "fired on students for about six minutes", "unfolded over approximately 15 minutes"
SHOOTING_FOR = re.compile(r"\b(?:fired|firing|fires|shooting|shot|opened fire|opening fire|opens fire|rampaged?|"
                          r"attacked|stalked|roamed|"
                          r"unfolded|spanned|terrorized|lasted|lasting)\b[^.;]*?"
                          r"\b(?:for|over|in (?:the|a) span of)\s*$",
                          re.I)
OUTSIDE = re.compile(r"\b(?:outside|outdoors|out front|in the parking lot|"
                     r"at (?:the|that|this|a|an|his|her|their) (?:[\w-]+ ){0,2}(?:door|doors|entrance)|"
                     r"never went in(?:side)?|not going in|did not (?:go in|enter)|didn[’']t (?:go in|enter)|"
                     r"never entered|behind (?:his|her|their|a) (?:cars?|vehicles?|cruisers?|pillars?|walls?))\b",
                     re.IGNORECASE)
SERVICE = re.compile(r"\b(?:been an? [\w ]{0,20}?(?:officer|deputy|cop|firefighter|paramedic|dispatcher|"
                     r"teacher|sheriff|chief)|served|serving|veteran|career|on the force|"
                     r"been (?:at|with|on) the (?:department|force|agency|office|sheriff[’']s office))\b",
                     re.IGNORECASE)
# "a law enforcement officer for 32 years": a role held for a time, right before the amount
SERVICE_FOR = re.compile(r"\b(?:an?|the|his|her)\s+(?:[\w-]+\s+){0,3}(?:officer|deputy|cop|trooper|agent|firefighter|"
                         r"paramedic|dispatcher|teacher|sheriff|chief|sergeant|detective|lieutenant|captain)\s+"
                         r"for\s+(?:(?:about|nearly|almost|more than|over)\s+)?$", re.IGNORECASE)
ENTRY = re.compile(r"\b(?:went in(?:side)?|entered|made entry|go in|got inside|going in|"
                   + inflected("enter", "go in", "go inside", "make entry", "get inside", "breach") + "|"
                   r"(?:were|was) (?:in|inside) the (?:building|school|club|store|church|theater))\b", re.IGNORECASE)
ARRIVAL = re.compile(r"\b(?:arrived|arrive|arrives|got there|reached|responded|responds|respond|"
                     + inflected("arrive", "get there", "reach", "respond", "show up") + "|"
                     r"(?:were|was) (?:on (?:hand|(?:the )?scene|site)|at the scene))\b", re.IGNORECASE)
PERPETRATOR_INSIDE = re.compile(r"\b(?:gunman|shooter|suspect|attacker|killer|assailant|he|she)\s+(?:had\s+been|was|"
                                r"remained|stayed|spent)\s+(?:(?:holed up|barricaded)\s+)?"
                                r"(?:(?:in|inside)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?)?"
                                r"(?:inside\s+)?(?:for\s+)?(?:(?:about|roughly|nearly|almost|more than|over|at least|"
                                r"some|around|up to|as long as)\s+)?$", re.IGNORECASE)
ENTRY_STATE = re.compile(r"\b(?:were|was) (?:in|inside) the\b", re.IGNORECASE)
LASTED = re.compile(r"\blast(?:ed|s|ing)?\b", re.IGNORECASE)
HOME = re.compile(r"\b(?:home|house|residence|address|apartment)\b", re.IGNORECASE)
VISIT = re.compile(r"^\s+(?:police|officers|deputies|law enforcement|authorities)\s+(?:\w+\s+)?"
                   r"(?:went|were called|were sent|responded|visited|came|showed up)\b", re.IGNORECASE)
VISIT_BEFORE = re.compile(r"\b(?:police|officers|deputies|law enforcement|authorities)\s+(?:\w+\s+)?"
                          r"(?:went|were called|were sent|responded|visited|came|showed up)\b", re.IGNORECASE)
CLAUSE_BREAK = re.compile(r"[;—–]|:(?!\d)|,\s+(?:but|while|and then|where|which)\b|\s-\s")


@dataclass
class Reading:
    measure: str
    unit: str
    end: int  # sentence-relative end of the words that name what is counted
    subject_kind: str  # person | org | incident
    noun: str | None = None
    qualifier: str | None = None  # who was counted: "children", "teachers" (None: anyone)
    # where in the reader the measure was decided (provenance.py; '' unless tracing)
    rule: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.rule:
            self.rule = made_at()


def clause_bounds(sentence: str, start: int, end: int) -> tuple[int, int]:
    cs = 0
    for m in CLAUSE_BREAK.finditer(sentence[:start]):
        cs = m.end()
    m = CLAUSE_BREAK.search(sentence, end)
    return cs, (m.start() if m else len(sentence))


def _first(cues, text: str) -> str | None:
    for measure, pattern in cues:
        if re.search(pattern, text, re.IGNORECASE):
            return measure
    return None


PHASES = {"manhunt": "manhunt", "search": "manhunt", "hunt": "manhunt", "pursuit": "manhunt", "chase": "manhunt",
          "lockdown": "lockdown", "shelter-in-place": "lockdown", "shelter": "lockdown", "evacuation": "evacuation",
          "closure": "lockdown"}
PHASE = re.compile(r"\b(manhunt|search|hunt|pursuit|chase|lockdown|shelter-in-place|shelter|evacuation|closure)\b"
                   r"[^,;.]{0,40}$", re.IGNORECASE)
AT_PLACE = re.compile(r"\b(?:was|were|got|had been|have been|are|is|(?:had|got)\s+(?:[\w’'-]+\s+){1,3}?)\s*"
                      r"(?:there|on (?:the )?scene|on site|on hand|"
                      r"on campus|at the [\w’'-]+(?:\s+[\w’'-]+)?|inside)\s+(?:(?:in|within|under)\s+)?$",
                      re.IGNORECASE)


def read_duration(sentence: str, start: int, end: int, context: str, unit: str | None = None) -> Reading | None:
    """A duration's measure from the verbs of its clause. `unit` is given when the words
    of the amount already name it ("one minute and 39 seconds", in minutes)."""
    if unit is None:
        m = DURATION_RE.match(sentence[end:])
        if not m:
            return None
        unit_end, unit = end + m.end(), m.group("unit").lower()
    else:
        unit_end = end
    cs, ce = clause_bounds(sentence, start, unit_end)
    before = sentence[cs:start]
    hedge = "within" if re.match(r"within\b", sentence[start:], re.IGNORECASE) else None
    lead = sentence[cs:start]
    if IT_WAS.search(lead) and (until := re.match(r"\s*(?:before|until)\s+(?P<rest>[^,;.]+)", sentence[unit_end:])):
        rest = until.group("rest")
        if ENTRY.search(rest):
            return Reading("duration_to_entry", "minute", unit_end, "actor_after", unit)
        if ARRIVAL.search(rest):
            return Reading("duration_to_arrival", "minute", unit_end, "actor_after", unit)
        return Reading("duration_elapsed", "minute", unit_end, "incident", unit)
    if AGE_RE.match(sentence[end:]) or (RELATIVE_AFTER_RE.match(sentence[unit_end:])
                                        and not STAY.search(before) and not TOOK.search(before)
                                        and not FOR_SPAN.search(before)
                                        and not taken_as_delay(sentence[:start], hedge)):
        return None  # an age, or "two days after": times.py reads those
    if SERVICE.search(before) or SERVICE_FOR.search(sentence[:start]):
        return Reading("duration_of_service", "year", unit_end, "person", unit)
    if re.match(r"(?:day|week|month|year)", unit.lower()):
        return None  # no arrival, entry or wait of the response lasts days or years
    after = sentence[unit_end:ce]
    inaction = r"^\s*,\s*(?:[\w’'-]+\s+){0,4}?(?:" + STAY.pattern + r"|failed to|did not|didn[’']t|never)"
    if re.match(inaction, after, re.I) \
            and re.search(r"(?:^|\b(?:for|after))\s*$", before.strip() and before or "", re.I):
        # a headline or lead "For 45 Minutes, Police Waited ...", "For 79 minutes, police failed to act"
        outside = OUTSIDE.search(sentence) or OUTSIDE.search(context)
        return Reading("duration_outside" if outside else "duration_waiting", "minute", unit_end, "actor_after", unit)
    if SIEGE_AFTER.match(sentence[unit_end:]):
        # "a three-hour hostage situation": the standoff, not the time the gunman fired
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit, "standoff")
    if GUNBATTLE_AFTER.match(sentence[unit_end:]):
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit, "gunbattle")
    if ATTACK_AFTER.match(sentence[unit_end:]):
        # "the gunman's nine-minute barrage", "a 10-minute burst of gunfire": how long he fired
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit)
    if NEXT_SPAN.search(before) and SHOOTING_AFTER.match(sentence[unit_end:]):
        # "Over the next nine minutes, the gunman fired into the crowd"
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit)
    lead_span = LEAD_SPAN.search(sentence[:start] + ("within " if hedge else ""))
    if lead_span and (ATTACKER_SHOOTING.match(sentence[unit_end:]) or SPAN_OF_ATTACKER.match(sentence[unit_end:])):
        # "Within six minutes, the gunman had killed nine", "In the six minutes that the gunman was inside"
        inside = SPAN_OF_ATTACKER.match(sentence[unit_end:]) is not None and re.search(
            r"\b(?:was|were|had been)\s+(?:inside|in)\b", sentence[unit_end:unit_end + 60], re.I)
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit,
                       "gunman inside" if inside else None)
    if SPAN_VERB.search(before) and not STAY.search(before):
        phase = PHASE.search(before)
        standoff = "standoff" if re.search(r"\b(?:standoff|siege|hostage|barricade)", before, re.I) else None
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit,
                       standoff or (PHASES[phase.group(1).lower()] if phase else None))
    if STANDOFF_FOR.search(before):
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit, "standoff")
    if OVER_IN.search(before):
        # "The shooting was over in less than 10 minutes", "the killing was over within 16 minutes"
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit)
    if SHOOTING_FOR.search(before) and not STAY.search(before):
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit)
    if (named := SPAN_NAMED_BEFORE.search(before)) is not None:
        # "the true delay was more than an hour", "a response time of eight minutes": the span
        # is named before its value
        word = named.group("span").lower()
        if word.startswith("response"):
            return Reading("duration_to_arrival", "minute", unit_end, "person", unit)
        if word == "wait":
            return Reading("duration_waiting", "minute", unit_end, "person", unit)
        if word in {"standoff", "siege"}:
            return Reading("duration_of_incident", "minute", unit_end, "incident", unit, "standoff")
        return Reading("duration_elapsed", "minute", unit_end, "incident", unit)
    if (passed := ELAPSED_AFTER.match(sentence[unit_end:])) is not None:
        # "Seventy-nine minutes passed before officers entered": the delay until that event
        until = re.match(r"\s*(?:before|until)\s+(?P<rest>[^,;.]+)", sentence[unit_end + passed.end():])
        if until and ENTRY.search(until.group("rest")):
            return Reading("duration_to_entry", "minute", unit_end, "actor_after", unit)
        if until and ARRIVAL.search(until.group("rest")):
            return Reading("duration_to_arrival", "minute", unit_end, "actor_after", unit)
        return Reading("duration_elapsed", "minute", unit_end, "incident", unit)
    if AT_PLACE.search(before) and (hedge or re.search(r"\b(?:in|within|under)\s+$", before)):
        # "officers were there within three minutes", "at the door in four": being somewhere
        # within a time is getting there; being there for a time (below) is a stay
        return Reading("duration_to_arrival", "minute", unit_end, "person", unit)
    if re.match(r"\s+(?:faster|sooner|earlier|later|longer|shorter|quicker|slower)\s+than\b", sentence[unit_end:]):
        return None  # "six minutes faster than officers in X": a difference between two accounts' spans
    place = "duration_outside" if OUTSIDE.search(sentence) or OUTSIDE.search(context) else "duration_waiting"
    if STAY.search(before) or re.search(r"\b(?:there|outside|on (?:the )?scene|on site|on hand)\s+for\s*$", before):
        return Reading(place, "minute", unit_end, "person", unit)
    tail = sentence[unit_end:ce]
    if re.match(r"^\s*(?:in which|during which|that|while)\b", tail) and STAY.search(tail):
        return Reading(place, "minute", unit_end, "actor_after", unit)  # "the 48 minutes in which officers waited"
    if TOOK.search(before):
        # "it took us about three minutes to get to the second floor"
        rest = sentence[unit_end:ce]
        if re.match(r"^\s*(?:for (?:[\w’'-]+ ){1,4}?)?to (?:go in|get in|get through|enter|breach|make entry|"
                    r"get inside|storm|force (?:open|entry))", rest):
            return Reading("duration_to_entry", "minute", unit_end, "person", unit)
        if re.match(r"^\s*(?:for (?:[\w’'-]+ ){1,4}?)?to (?:get|reach|arrive|respond)", rest):
            return Reading("duration_to_arrival", "minute", unit_end, "person", unit)
        return Reading("duration_elapsed", "minute", unit_end, "incident", unit)
    if OF_EVENT.match(sentence[unit_end:]) and (hedge or re.search(r"\b(?:in|within|under)\s+$", before, re.I)) \
            and not ARRIVAL.search(before) and not ENTRY.search(before):
        # "shot the gunman within 20 seconds of arriving": how long after that event the action came
        return Reading("duration_elapsed", "minute", unit_end, "incident", unit)
    if PERPETRATOR_INSIDE.search(before):
        # "the gunman was inside the school for about 40 minutes": how long the attack went on
        # inside, a span of the incident (never a delay of the officers', never the time he fired)
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit, "gunman inside")
    if ENTRY.search(before) and not (re.search(r"\bfor\s*$", before) and ENTRY_STATE.search(before)):
        # "was inside the school for 80 minutes" is a time spent inside, not a delay until going in
        return Reading("duration_to_entry", "minute", unit_end, "person", unit)
    if LASTED.search(before):
        standoff = "standoff" if re.search(r"\b(?:standoff|siege|hostage|barricade)", before, re.I) else None
        # "a lockdown that lasted nearly 48 hours", "the manhunt lasted two days": another span than
        # the shooting's, never compared with it
        phase = PHASE.search(before)
        phase_name = PHASES[phase.group(1).lower()] if phase else None
        return Reading("duration_of_incident", "minute", unit_end, "incident", unit, standoff or phase_name)
    if ARRIVAL.search(before) or ARRIVAL.search(sentence[unit_end:ce]):
        return Reading("duration_to_arrival", "minute", unit_end, "person", unit)
    return None


def read_count(sentence: str, start: int, end: int, previous: Reading | None) -> Reading | None:
    noun_end, kind, noun = end, None, None
    if (m := NOUN_RE.match(sentence[end:])) is not None:
        kind = next(k for k in ("officer", "people", "calls", "shots", "warnings") if m.group(k))
        noun_end, noun = end + m.end(), m.group(kind)
    elif PARTITIVE_RE.match(sentence[end:]) and previous is not None and previous.subject_kind != "person":
        # "23 victims ..., 20 of whom survived": counted as the noun before.
        kind = "people" if previous.measure.startswith("count_") and previous.subject_kind == "incident" else "officer"
        noun_end = end + PARTITIVE_RE.match(sentence[end:]).end()
    next_word = re.match(r"[\s-]*([a-z]+)\b", sentence[end:])
    other_noun = next_word is not None and not BARE_PEOPLE.match(sentence[end:]) and next_word.group(1) not in {
        "before", "after", "when", "while", "as", "including", "inside", "outside", "by", "near", "within"}
    if kind is None and (frame := NUMBER_OF.search(sentence[:start])) is not None:
        # "raises the number of officers on the scene who did not enter to four": the count
        # is of the phrase after "number of", read as if it followed the number
        return _number_of(frame.group("np"), start, end)
    if kind is None and not other_noun and (BARE_PEOPLE.match(sentence[end:])
                                            or PEOPLE_OBJECT.search(sentence[:start])):
        kind = "people"  # "killing 12 and wounding 58", "24 were wounded": the noun left out
    if kind is None:
        return None
    cs, ce = clause_bounds(sentence, start, noun_end)
    after, before = sentence[noun_end:ce], sentence[cs:start]
    if (nxt := QUANTITY.search(after)) is not None and PARTITIVE_RE.match(after[nxt.end():]) \
            and not re.search(r"\bnot\s*$", after[:nxt.start()]):
        after = after[:nxt.start()]  # ", 20 of whom survived" speaks for the 20, not the 23
    if kind == "officer":
        if re.search(r"\b(?:from|of|by|with|for|to|about)\s+the\s+$", sentence[max(0, start - 12):start]) \
                and re.match(r"\s+(?:who|that)\b", sentence[noun_end:]):
            return None  # "footage from the two officers who rushed in": a known group named, not a count
        # "waited in a hallway before going in": what comes after before/after/until is another event.
        rest = sentence[ce:ce + 90]
        if re.match(r",\s+but\s+(?:had|have|did|were|was)\s+(?:not|never)\b", rest):
            after += rest  # "... were standing behind their vehicles, but had not yet gone into the school"
        own = m.group("mods") + " " + re.split(r"\b(?:before|after|until|once|when|while)\b", after)[0] \
            if m is not None else re.split(r"\b(?:before|after|until|once|when|while)\b", after)[0]
        if (there := THERE_WERE.search(before)) is not None:
            own = there.group(1) + " " + own.lstrip()  # "there were 19 officers in the hallway": they were there
        if re.match(r"(?:not|none)\b.*\bof (?:the|those|these) \S+", sentence[start:end], re.IGNORECASE):
            own = "not " + own  # "Not one of the four deputies had entered": none of them went in
        nxt = QUANTITY.search(own)
        if nxt is not None and not re.search(r"\bnot\s*$", own[:nxt.start()]):
            own = own[:nxt.start()]  # "..., not one of them had gone in" still speaks for them
        # words before the count speak for it only as the verb that takes it ("sent 130
        # officers", "killed two deputies"), not a participle of someone else's ("with
        # bystanders standing nearby, about a dozen officers dashed ...")
        measure = _officer_measure(own) or _officer_measure(" ".join(before.split()[-4:]))
        if (joined := JOINED_BY.search(before)) is not None:
            # "officers entered the school and were joined by two newly-arrived deputies": the
            # deputies did what those they joined did, whatever words describe them
            measure = _officer_measure(re.split(r"\b(?:soon|after|before|once|when|while)\b",
                                                before[:joined.start()])[0]) or measure
        # "another three deputies": more than those already counted, a part that meets no total
        more = "more" if re.match(r"\s*(?:\w+\s+)?(?:another|an additional|a further)\b", sentence[start:end], re.I) \
            else None
        return Reading(measure, "officers", noun_end, "org", noun, more) if measure else None
    if kind == "people" and (TRANSPORTED_BY.search(sentence[max(0, start - 40):start])
                             and TO_HOSPITAL.match(sentence[noun_end:])
                             or noun and noun.lower().startswith("patient") and CARE.search(sentence)):
        # "spirited scores of wounded to nearby hospitals", "15 patients in five police cars"
        by = VEHICLE.search(sentence, noun_end)  # taken by one means: a part of all transported
        return Reading("count_transported", "people", noun_end, "incident", noun,
                       re.sub(r"\s+", " ", by.group(0).lower()) if by else _who(noun))
    if kind == "people" and POPULATION.search(sentence[:start]):
        return None  # "a private school educating about 200 students": who is there, not who was hurt
    if kind == "people":
        prev = previous.measure if previous and previous.unit == "people" else None
        found = people_count(sentence, start, noun_end, noun, m.group("mods") if m else "", prev,
                             previous.end if prev else None)
        if found is None and noun and noun.lower() not in {"others", "lives"} and m is not None:
            found_measure = _nearest_either(PEOPLE_CUES, before, after)  # no predicate by the grammar
            return Reading(found_measure, "people", noun_end, "incident", noun, _who(noun)) if found_measure else None
        if found is None:
            return None
        return Reading(found.measure, "people", noun_end, "incident", noun, found.qualifier)
    if kind == "calls":
        return _read_calls(sentence, noun, noun_end, after, before + " " + m.group("mods"))
    if kind == "shots" and re.search(r"\b(?:heard|hear|hearing)\b", before, re.IGNORECASE):
        # "I heard maybe two or three shots": what one person heard, not what was fired
        return Reading("count_shots_heard", kind, noun_end, "person", noun)
    measure = "count_shots" if kind == "shots" else "count_warnings"
    if kind == "shots" and POLICE_FIRED.search(before):
        # "police fired 200 rounds at the room": the response's shots, never set against the gunman's
        return Reading(measure, kind, noun_end, "incident", noun, "fired by police")
    return Reading(measure, kind, noun_end, "incident", noun)


THERE_WERE = re.compile(r"\bthere\s+(were|was|are|had been|have been)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
NUMBER_OF = re.compile(r"\bthe (?:number|total|count|tally) of\s+(?P<np>[^.;:]{3,140}?)\s+(?:to|at|is|was|stands at|"
                       r"rose to|reached|climbed to|grew to|came to)\s+$", re.IGNORECASE)
TRANSPORTED_BY = re.compile(r"\b(?:taken|rushed|spirited|brought|driven|carried|flown|ferried|transported|sent|took|"
                            r"drove|rushing|taking)\s+(?:\w+\s+){0,1}$", re.IGNORECASE)
TO_HOSPITAL = re.compile(r"^\s+(?:\w+\s+){0,2}?to\s+(?:the\s+|a\s+|area\s+|nearby\s+|local\s+|two\s+|three\s+)*"
                         r"(?:\w+\s+)?(?:hospitals?|medical cent(?:er|re)s?|trauma cent(?:er|re)s?)\b", re.IGNORECASE)
VEHICLE = re.compile(r"\b(?:in|by|aboard|inside)\s+(?:\w+\s+){0,3}?(?:police cars?|patrol cars?|squad cars?|cruisers?|"
                     r"ambulances?|helicopters?|private vehicles?|pickup trucks?)\b", re.IGNORECASE)
CARE = re.compile(r"\b(?:hospitals?|ambulances?|trips?|transport\w*|cruisers?|police cars?|helicopters?|"
                  r"medical cent(?:er|re)|trauma)\b", re.IGNORECASE)


def _number_of(np: str, start: int, end: int) -> Reading | None:
    m = NOUN_RE.match(" " + np)
    if m is None:
        return None
    if m.group("officer"):
        measure = _officer_measure(np[m.end() - 1:]) or _officer_measure(np)
        return Reading(measure, "officers", end, "org", m.group("officer")) if measure else None
    if m.group("people"):
        found = _nearest_either(PEOPLE_CUES, "", np[m.end() - 1:])
        return Reading(found, "people", end, "incident", m.group("people")) if found else None
    return None


WHO = {"children": "children", "child": "children", "kids": "children", "kid": "children",
       "students": "students", "student": "students", "classmates": "students",
       "teachers": "teachers", "teacher": "teachers", "adults": "adults", "adult": "adults",
       "staff members": "staff"}


def _who(noun: str | None) -> str | None:
    """'19 children and two teachers' are two counts, not two answers to one count."""
    return WHO.get((noun or "").lower())


def _nearest_either(cues, before: str, after: str) -> str | None:
    """The cue closest to the counted words, on either side."""
    hits = [(m.start(), measure) for measure, p in cues for m in re.finditer(p, after, re.IGNORECASE)]
    hits += [(len(before) - m.end(), measure) for measure, p in cues for m in re.finditer(p, before, re.IGNORECASE)]
    return min(hits)[1] if hits else None


def _officer_measure(text: str) -> str | None:
    # "officers who killed the shooter" killed no officer: an active verb after who/that
    text = re.sub(r"\b(?:who|that)\s+(?:\w+\s+)?(?:killed|shot|wounded)\b", " ", text, flags=re.IGNORECASE)
    # "..., believing victims inside were already dead": a participle clause is what they
    # thought or did next, not what happened to them
    text = re.split(r"\b(?:believing|thinking|fearing|saying|knowing|assuming|hoping|unaware|convinced)\b",
                    text, maxsplit=1)[0]
    measure = _first(OFFICER_CUES, text)
    if measure == "count_officers_entered":
        cue = re.search(dict(OFFICER_CUES)["count_officers_entered"], text, re.IGNORECASE)
        if cue and NEGATION.search(text[:cue.start()]):
            return "count_officers_outside"  # "not one of them had gone into the school"
    return measure


def _read_calls(sentence, noun, noun_end, after, before) -> Reading | None:
    if noun.lower() == "times" and SHOT_TIMES.search(before):
        return Reading("count_shots", "shots", noun_end, "incident", noun)  # "shot the man four times"
    if noun.lower() == "times" and not VISIT.match(sentence[noun_end:]) and not VISIT_BEFORE.search(before):
        return None  # "three times" alone is not a call for service
    if HOME.search(after) or HOME.search(before):
        return Reading("count_calls_to_home", "calls", noun_end, "incident", noun)
    if (re.search(r"(?:911|\bemergency)\s*$", before.strip() + " ") or re.search(r"\b911\b", before[-12:])
            or re.search(r"^\s*to 911", after)):
        return Reading("count_calls_911", "calls", noun_end, "incident", noun)
    if noun.lower().startswith("call") and re.match(
            r"^\s*(?:about|regarding|involving|concerning)\s+(?:him|her|them|the (?:family|man|woman|teen|boy|"
            r"suspect|shooter|gunman|household)|his|their|(?-i:[A-Z][a-z]+))\b", after, re.IGNORECASE):
        # "45 calls about the family", "calls about Cruz": calls for service before the day
        return Reading("count_calls_for_service", "calls", noun_end, "incident", noun)
    if noun.lower().startswith("call") and re.search(r"^\s*(?:for service|(?:were |was )?(?:made |placed )?to (?:the )?"
                                                     r"(?:[A-Z][\w’']*\s+)*(?:police|sheriff|office|department|dispatch))",
                                                     after, re.IGNORECASE):
        return Reading("count_calls_for_service", "calls", noun_end, "incident", noun)
    return None


POLICE_FIRED = re.compile(r"\b(?:police|officers?|deputies|deputy|troopers?|agents?|SWAT|(?-i:Officer|Sgt|Deputy|"
                          r"Detective|Lt|Trooper|Agent))\b"
                          # the officers fire, not a gunman named after them ("police spokesman X said the
                          # gunman fired")
                          r"(?:(?!\b(?:gunman|shooter|suspect|attacker|he|she|they|said|says|told|reported)\b)[^,;:])"
                          r"{0,40}?\b(?:fired|shot|discharged|returned)\b[^,;:]{0,20}$", re.IGNORECASE)
POPULATION = re.compile(r"\b(?:educating|serving|enrolling|employing|housing|teaching|with an enrollment of|"
                        r"enrollment of|a population of|home to|capacity of|attended by)\s+"
                        r"(?:(?:about|some|roughly|nearly|more than|over|around|almost|up to)\s+)?$", re.IGNORECASE)
SHOT_TIMES = re.compile(r"\b(?:shot|shoot|shoots|shooting|fired|fire|fires|firing|struck|stabbed)\b[^,;:.]{0,40}$",
                        re.IGNORECASE)


def read_money(sentence: str, start: int, end: int) -> Reading | None:
    cs, _ = clause_bounds(sentence, start, end)
    before = sentence[cs:start]
    if re.search(r"\bsalary\b", before, re.IGNORECASE):
        return Reading("annual_salary", "USD", end, "person")
    if re.search(r"\b(?:made|earned|paid|pay|compensation|earns|makes)\b", before, re.IGNORECASE):
        return Reading("pay", "USD", end, "person")
    return None


# A person described, then a bare number set off by commas: an age, never a count of what follows
AGE_APPOSITION = re.compile(r"\b(?:gunman|shooter|suspect|attacker|killer|man|woman|teen|teenager|boy|girl|student|"
                            r"son|daughter|victim|father|mother|husband|wife|resident|officer|deputy|teacher)"
                            r",\s*$", re.IGNORECASE)


# A name set off before a bare number: "Dana Roe, 41", "Lee Park Jr., 22", "Mia Fern (35)"; a
# month or a weekday before a comma is a date ("On Feb. 14, 2018"), never a person
NAME_BEFORE = re.compile(r"(?<![.\w])(?!(?:Jan|Feb|Mar|Apr|May|June?|July?|Aug|Sept?|Oct|Nov|Dec|Monday|Tuesday|"
                         r"Wednesday|Thursday|Friday|Saturday|Sunday)\b)[A-Z][a-z’'-]*[a-z](?:,?\s+(?:Jr|Sr)\.?|"
                         r"\s+(?:II|III|IV))?(?:,|\s*\()\s*$")
# What closes the age of a person in an apposition or a list of victims: the comma or bracket that
# ends it, a semicolon before the next name, "and" before the last one, or the sentence's end
# ("John Roe, 64, and Ann Roe, 61."). A noun after the number makes it a count ("Dunmore, 12 people").
AGE_CLOSE = re.compile(r"^\s*(?:[,;)]|\.(?!\d)|—|–|and\b|$)")
# "ages 14 and 15", "aged 9, 11 and 12": the ages of the people just named, each one person's
AGE_LIST = re.compile(r"\bage[sd]?\s+(?:\d{1,3}\s*(?:,|and|&)\s*)*$", re.IGNORECASE)
WHO_IS = re.compile(r"\bwho\s+(?:is|was|turned|had turned)\s+$", re.IGNORECASE)


def read_age(sentence: str, start: int, end: int) -> Reading | None:
    m = AGE_RE.match(sentence[end:])
    if m:
        return Reading("age", "year", end + m.end(), "person_after")
    before, closed = sentence[:start], AGE_CLOSE.match(sentence[end:]) is not None
    if closed and NAME_BEFORE.search(before) and not re.match(r"\s*\d", sentence[end + 1:end + 3] or "x"):
        return Reading("age", "year", end, "person_before")  # "Dana Roe, 41, said", "... and Ann Roe, 61."
    if AGE_APPOSITION.search(before) and closed:
        return Reading("age", "year", end, "person_before")  # "The gunman, 18, killed ...": his age, no toll
    if AGE_LIST.search(before) and not re.match(r"^\s*(?:to|-)\s*\d", sentence[end:]) \
            and (re.search(r"\bage[sd]?\s+$", before, re.I) or closed):
        return Reading("age", "year", end, "person_before")  # "Colt Gray, age 14, began shooting"; "ages 14 and 15"
    if WHO_IS.search(before) and closed:
        return Reading("age", "year", end, "person_before")  # "Jane Doe, who is 17, was arrested"
    return None


DURATION_MINUTES = {"second": 1 / 60, "sec": 1 / 60, "minute": 1, "min": 1, "hour": 60, "hr": 60,
                    "day": 1440, "week": 10080}


YEAR_FRACTION = {"year": 1, "yr": 1, "month": 1 / 12, "week": 7 / 365.25, "day": 1 / 365.25}


def to_unit(reading: Reading, q) -> tuple[float | None, float | None]:
    """Minutes for durations (so '240 seconds' meets 'four minutes'). The hedge is applied
    after converting, so 'nearly an hour' is [54, 60] minutes, not [0, 60]."""
    if reading.unit == "year" and reading.noun:
        # "about seven months" of service: the hedge in months, then scaled to years.
        f = YEAR_FRACTION.get(reading.noun.lower().rstrip("s"), 1)
        return (None if q.lo is None else round(q.lo * f, 3)), (None if q.hi is None else round(q.hi * f, 3))
    if reading.unit != "minute" or not reading.noun:
        return q.lo, q.hi
    f = DURATION_MINUTES.get(reading.noun.lower().rstrip("s"))
    if f is None or f == 1:
        return q.lo, q.hi
    rule = HEDGES.get(q.hedge or "") or TRAILING_HEDGES.get(q.hedge or "")
    if q.lo == q.hi or rule is None or q.hedge == "range":
        return (None if q.lo is None else q.lo * f), (None if q.hi is None else q.hi * f)
    return interval(q.value * f, rule)
