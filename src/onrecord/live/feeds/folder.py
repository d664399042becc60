"""A folder a CAD drops one file per call into (XML or JSON): each new file, once it has
stopped growing, is a frame — its bytes whole — read through the feed's mapping. A file
already on the chain (the same bytes) is not taken twice, across restarts too."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

POLL_S = 0.2


async def run(node, feed, stop: asyncio.Event) -> None:
    folder = Path(feed.spec.options["path"])
    pattern = feed.spec.options.get("pattern", "*")
    sizes: dict[Path, int] = {}
    while not stop.is_set():
        ready = []
        for p in sorted(folder.glob(pattern)) if folder.is_dir() else []:
            if not p.is_file() or p.name.startswith("."):
                continue
            size = p.stat().st_size
            if sizes.get(p) == size and size:  # the same size twice: the writer is done
                data = p.read_bytes()
                digest = hashlib.sha256(data).digest()
                if digest not in feed.seen:
                    feed.seen.add(digest)
                    ready.append(data)
            sizes[p] = size
        if ready:
            await node.accept_async(feed, ready)
        try:
            await asyncio.wait_for(stop.wait(), POLL_S)
        except asyncio.TimeoutError:
            pass
