"""Deterministic randomness: one independent stream per concern.

Each part of the story draws from its own stream (seeded by the case seed and a label),
so adding a draw in one writer never shifts the numbers of another: a seed keeps meaning
the same incident while the generator grows.
"""

from __future__ import annotations

import random


def stream(seed: int, label: str) -> random.Random:
    # Seeding with a str hashes it with SHA-512: stable across runs and platforms.
    return random.Random(f"onrecord-scenario:{seed}:{label}")
