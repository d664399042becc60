"""Who speaks (a voice) and over which words (an attribution): the records speakers.py,
outlets.py and attribution.py pass between them."""

from __future__ import annotations

from dataclasses import dataclass, field

from onrecord.claims.provenance import made_at


@dataclass
class Voice:
    speaker: str | None  # entity id
    text: str  # how the document names the speaker
    # where in the reader this voice was decided (provenance.py; '' unless tracing)
    rule: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.rule:
            self.rule = made_at()


@dataclass
class Attribution:
    voice: Voice
    start: int  # where the reporting verb is
    end: int
    covers: list[tuple[int, int]] = field(default_factory=list)
    whole: bool = False  # a trailing or according-to clause: it speaks for its whole sentence
    trailing: bool = False  # ", sources told CNN.": set off after what it reports, names who told the reporter
