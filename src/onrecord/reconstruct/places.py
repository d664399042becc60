"""Where a door opened or a camera saw someone go in, as a key both sources can share.

A campus names its doors once and its cameras after what they watch: the door log's
"Freshman Center SW Doors" and the camera "Freshman Center SW Doors (exterior)" are one
door. A door log matched to a camera by time alone lines up two records at some clock
difference by chance (clocks.py: the chance test); matched by the door both name, the
candidates are few, and two that line up at one difference are evidence. The key is the
name's words less the words every door or camera name has ("doors", "entrance",
"exterior", "camera"), compass words written one way ("Southwest" = "SW"); two names are
one place only when their keys are equal: a camera on "Freshman Center floor 2 hall" is
not at the "Freshman Center" doors.
"""

from __future__ import annotations

import re

GENERIC = {"door", "doors", "entrance", "entrances", "entry", "exit", "exterior", "interior", "outside",
           "inside", "camera", "cam", "view", "reader", "the", "of", "at", "to", "and", "by"}
COMPASS = {"north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne", "northwest": "nw",
           "southeast": "se", "southwest": "sw"}


def place_key(place) -> str | None:
    """The door a place name names, as sorted words; None for a blank or generic name."""
    if not isinstance(place, str):
        return None
    words = re.findall(r"[a-z0-9]+", place.lower())
    key = sorted({COMPASS.get(w, w) for w in words if w not in GENERIC})
    return " ".join(key) or None
