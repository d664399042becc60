"""Fire tone-outs: the dispatcher alerts each dispatched apparatus with tones and a voice
message on the fire dispatch talkgroup, one after another as CAD assigns them.

The talkgroup is hosted on the county's radio system, so both the fire department's logger
and the county's logger record every tone-out: two records of one transmission, which is
what ties the fire clocks to the county's.
"""

from __future__ import annotations

import random

from onrecord.scenario.story import Story, Transmission

ALERT_S = (1.0, 4.0)   # from the CAD assignment to the tones going out
BETWEEN_S = (6.0, 12.0)  # one alert (tones and voice) takes this long before the next


def plan_tone_outs(story: Story, rng: random.Random) -> None:
    w = story.world
    story.fire_dispatch_channel = f"{w.fire}-DISP"
    runs = sorted((r for r in story.runs.values() if w.unit(r.uid).agency == w.fire), key=lambda r: r.dispatched)
    free_at = float("-inf")
    for r in runs:
        u = w.unit(r.uid)
        t = max(r.dispatched + rng.uniform(*ALERT_S), free_at)
        free_at = t + rng.uniform(*BETWEEN_S)
        eid = f"tone-{u.uid}"
        text = (f"Tone alert {u.call_sign}, respond {w.school}, {w.campus_address}, active shooter, "
                "stage at the bus loop")
        story.add(eid, "radio_transmission", t, unit=u.uid, note=text)
        story.radio.append(Transmission(eid, round(t, 3), story.fire_dispatch_channel, None, text,
                                        round(free_at - t - 1.0, 1)))
    story.radio.sort(key=lambda x: (x.t, x.channel))
