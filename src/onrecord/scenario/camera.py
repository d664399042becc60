"""The campus camera system: its clock is off by a fixed offset, and the view it shows
responders as "live" is a replay running minutes behind. Officers acted on it.
"""

from __future__ import annotations

import random

from onrecord.scenario.story import CameraView, Story


def plan_camera(story: Story, rng: random.Random) -> None:
    sign = rng.choice([-1, 1])
    story.camera_offset = round(sign * rng.uniform(60, 300), 3)
    story.camera_lag = round(rng.uniform(6 * 60, 24 * 60), 3)
    start = story.t0 + rng.uniform(900, 1500)
    for k in range(rng.randint(6, 11)):
        t = start + k * rng.uniform(40, 110)
        footage = t - story.camera_lag
        floor = story.floor_at(footage) or 1
        cam = f"B{story.world.target.number}-F{floor}-HALL"
        view = CameraView(f"camera-view-{k + 1:02d}", round(t, 3), round(footage, 3), cam,
                          shows(story, footage))
        story.views.append(view)
        story.add(view.eid, "camera_view", t, place="camera room",
                  note=f"'live' view actually shows footage from {story.camera_lag:.0f} s earlier: "
                       + view.shows)


def inside(story: Story, t: float) -> bool:
    ended = story.events[story.threat_ended].t
    return story.at("attacker-entered") <= t < ended


def shows(story: Story, footage: float) -> str:
    """What the replayed footage showed at that moment."""
    if footage < story.at("attacker-entered"):
        return "students moving between classes"
    if story.fate == "left" and footage >= story.at("attacker-left"):
        return "hallway empty, no subject visible"
    floor = story.floor_at(footage) or 1
    if story.fate == "stopped" and footage >= story.at("attacker-stopped"):
        return f"subject on the ground with officers, floor {floor}"
    return f"subject with rifle on floor {floor} hallway"
