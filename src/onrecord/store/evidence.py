"""The evidence chain: each raw record's SHA-256, chained to the one before it in the case.

chain[i] = SHA-256(chain[i-1] || sha256[i]), chain[0] = GENESIS. Changing, removing or
inserting any record changes every chain value after it, and the case row keeps the
head and the count so even the newest record cannot vanish unseen.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

GENESIS = bytes(32)


def record_hashes(raws: Sequence[bytes]) -> list[bytes]:
    sha = hashlib.sha256
    return [sha(r).digest() for r in raws]


def chain_hashes(previous: bytes, hashes: Iterable[bytes]) -> list[bytes]:
    sha = hashlib.sha256
    out = []
    for h in hashes:
        previous = sha(previous + h).digest()
        out.append(previous)
    return out
