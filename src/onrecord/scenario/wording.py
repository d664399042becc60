"""How people write times and counts from memory: rounded, hedged, in words."""

from __future__ import annotations

from onrecord.scenario import written_times

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty"]


def number(n: int) -> str:
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def minutes(seconds: float) -> str:
    """'about four minutes', 'about a minute', 'less than a minute'."""
    m = round(seconds / 60)
    if m <= 0:
        return "less than a minute"
    return "about a minute" if m == 1 else f"about {number(m)} minutes"


def clock(t: float, tz: str, step: int = 5) -> str:
    """A time of day rounded to `step` minutes, as a person says it: 'around 2:20 p.m.'."""
    rounded = round(t / (step * 60)) * step * 60
    text = written_times.local(rounded, tz, "%I:%M %p").lstrip("0")
    return "around " + text.replace("PM", "p.m.").replace("AM", "a.m.")


def exact_clock(t: float, tz: str) -> str:
    text = written_times.local(t, tz, "%I:%M %p").lstrip("0")
    return text.replace("PM", "p.m.").replace("AM", "a.m.")


def sentence(text: str) -> str:
    """End with one full stop, even after 'p.m.'."""
    return text if text.endswith(".") else text + "."
