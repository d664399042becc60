"""How many worker threads `onrecord serve` runs its routes on. Starlette runs every sync
route and dependency in AnyIO's thread pool, 40 threads by default; on a store read by a
few cores those 40 take turns at one interpreter lock and each wants a store connection
of its own, so under load they queue for both (and the pool opened and closed connections
beyond its size on every request). As many threads as the engines keep connections
(store/reader.py: READ_POOL; `app.state.read_pool`, fewer in each of several worker
processes) answer the same requests with less waiting."""

from __future__ import annotations

from contextlib import asynccontextmanager

from anyio import to_thread

from onrecord.store.reader import READ_POOL


@asynccontextmanager
async def lifespan(app):
    to_thread.current_default_thread_limiter().total_tokens = getattr(app.state, "read_pool", READ_POOL)
    yield
