"""Which rule of the reader produced a claim's measure and its speaker.

An aid to measuring generalisation, off by default: a rule that fires on one incident's
articles only was probably written for that article's wording (benchmarks/claims_real.py
--rules counts, per incident, the rules behind each claim). With tracing on, every Voice
and Reading records where in the reader it was made ("measures.read_duration:318"), the
function and line of the rule's branch, so no rule has to name itself and none is missed.
Tracing changes no reading: the field is left out of equality and of every output.
"""

from __future__ import annotations

import sys
from pathlib import Path

TRACING = False
# Frames that only pass a record along: the dataclass machinery and this module.
_PASSING = {"__init__", "__post_init__", "made_at", "__call__"}


def enable(on: bool = True) -> None:
    global TRACING
    TRACING = on


def made_at() -> str:
    """'module.function:line' of the code that built the record being initialised ('' when
    tracing is off)."""
    if not TRACING:
        return ""
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_name in _PASSING or frame.f_code.co_name == "<lambda>"):
        frame = frame.f_back
    if frame is None:
        return "?"
    return f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}:{frame.f_lineno}"


# (doc, start, end, measure) -> (the rule behind the measure, the rule behind the speaker)
RULES: dict[tuple[str, int, int, str], tuple[str, str]] = {}


def note(claims, made: dict[int, str], speakers) -> None:
    """Records, for each claim of a sentence, the rule that read its measure (`made`, by the
    claim's id()) and the route and rule that named its speaker (speakers.Speakers.rule_at),
    'set after' when a later step replaced the speaker the clause gave."""
    for c in claims:
        voice, _ = speakers.who_said(c.start)
        said = speakers.rule_at(c.start) if voice.speaker == c.speaker else "set after"
        RULES[(c.doc, c.start, c.end, c.measure)] = (made.get(id(c), "?"), said)
