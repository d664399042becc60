"""A CSV export a CAD keeps appending to, tailed: each complete line a frame (a line the
CAD is still writing — no line end yet — waits for the rest). A restart takes up after the
bytes the chain already holds. A file cut shorter than what was taken (rotated) is read
again from its start, its lines after the header being new rows."""

from __future__ import annotations

import asyncio
from pathlib import Path

POLL_S = 0.1


def complete_lines(data: bytes) -> tuple[list[bytes], int]:
    """The complete lines of `data` (line ends kept) and how many bytes they take; a quoted
    field spanning lines stays in one frame (RFC 4180)."""
    frames, start, inside, i = [], 0, False, 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x22:  # "
            inside = not inside
        elif c == 0x0A and not inside:
            frames.append(data[start:i + 1])
            start = i + 1
        i += 1
    return frames, start


async def run(node, feed, stop: asyncio.Event) -> None:
    path = Path(feed.spec.options["path"])
    while not stop.is_set():
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            size = None
        if size is not None and size < feed.taken_bytes:
            feed.taken_bytes = len(feed.header or b"")  # rotated: the new file's rows
        if size is not None and size > feed.taken_bytes:
            with path.open("rb") as fh:
                fh.seek(feed.taken_bytes)
                data = fh.read(min(size - feed.taken_bytes, 8 << 20))
            frames, used = complete_lines(data)
            frames = [f for f in frames if f.strip()] if feed.header is not None else frames
            if frames:
                await node.accept_async(feed, frames)
            feed.taken_bytes += used
            if used:
                continue
        try:
            await asyncio.wait_for(stop.wait(), POLL_S)
        except asyncio.TimeoutError:
            pass
