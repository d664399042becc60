"""Clock qualities. A source's written time = true time + offset (+ drift x elapsed).

Each kind of system draws from the qualities such systems really have: GPS receivers
are right; NTP-synced servers within a fraction of a second; most servers, loggers and
appliances a fixed few seconds to minutes off; a door controller or alarm panel set by
hand can be many minutes off, an hour off when nobody applied daylight saving time, or
drift slowly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass
class Clock:
    quality: str  # gps, ntp, small, medium, large, hour, drift
    offset: float  # seconds, at the reference moment (the first shot)
    drift_ppm: float = 0.0
    ref: float = 0.0
    statement: str = ""  # what the agency itself says about its clock

    def written(self, t: float) -> float:
        return t + self.offset + self.drift_ppm * 1e-6 * (t - self.ref)


PROFILES = {
    # kind of system -> (quality, weight)
    "cad": [("ntp", 0.3), ("small", 0.45), ("medium", 0.25)],
    "phone": [("ntp", 0.45), ("small", 0.45), ("medium", 0.1)],
    "logger": [("ntp", 0.3), ("small", 0.4), ("medium", 0.3)],
    "gps": [("gps", 1.0)],
    "gunshot": [("ntp", 0.6), ("small", 0.2), ("medium", 0.15), ("large", 0.05)],
    "door": [("small", 0.15), ("medium", 0.3), ("large", 0.3), ("drift", 0.25)],
    "panel": [("medium", 0.3), ("large", 0.5), ("hour", 0.2)],
    "nvr": [("medium", 0.35), ("large", 0.65)],
    "tablet": [("ntp", 0.5), ("small", 0.5)],
    "app": [("ntp", 1.0)],
    "pc": [("small", 0.5), ("medium", 0.5)],
}

STATEMENTS = {
    "gps": ["GPS time from the vehicle modem", "times are GPS fix times"],
    "ntp": ["server clock synchronised to NTP", "time source: network time server", "clock synced nightly"],
    "small": ["server clock, not audited", "system time; synchronisation not verified", "clock set by IT"],
    "medium": ["server clock, not audited", "system time as configured on the appliance", "no time sync configured"],
    "large": ["controller clock set manually; accuracy unknown", "device time, not synchronised"],
    "hour": ["panel clock set by the service contractor", "device time, not synchronised"],
    "drift": ["controller clock, no network time; last set at installation", "standalone controller clock"],
}


def draw(rng: random.Random, profile: str, ref: float, statement_for_ntp: bool = True) -> Clock:
    qualities, weights = zip(*PROFILES[profile])
    q = rng.choices(qualities, weights)[0]
    sign = rng.choice([-1, 1])
    drift = 0.0
    if q == "gps":
        off = 0.0
    elif q == "ntp":
        off = round(rng.uniform(-0.4, 0.4), 3)
    elif q == "small":
        off = sign * round(rng.uniform(1.5, 20.0), 3)
    elif q == "medium":
        off = sign * round(rng.uniform(20.0, 150.0), 3)
    elif q == "large":
        off = sign * round(rng.uniform(150.0, 900.0), 3)
    elif q == "hour":
        off = round(3600.0 + rng.uniform(-90.0, 90.0), 3) * rng.choice([-1, 1])
    else:  # drift: a fixed error at the first shot and a slow rate
        off = sign * round(rng.uniform(5.0, 240.0), 3)
        drift = round(rng.choice([-1, 1]) * rng.uniform(20.0, 200.0), 2)
    statement = rng.choice(STATEMENTS[q])
    return Clock(q, off, drift, ref, statement)
