"""The case's write lock: one writer at a time (an import, a build, a live feed's frames),
the others wait their turn, saying so, for a bounded time.

The store's own locks are not enough on their own: SQLite gives a second writer a few
seconds (`busy_timeout`) and then `database is locked`, however long the first writer
has left to run. A lock file in the case folder (`write.lock`, flock) makes the second
wait for the first to finish, whatever its size; the store's locks still guard against
writers that bypass it. Inside one process the lock is re-entrant and threads queue on it.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from onrecord.errors import CaseError

try:
    import fcntl
except ImportError:  # not POSIX: the store's own locks are all there is
    fcntl = None

LOCK_FILE = "write.lock"
DEFAULT_WAIT_S = 600.0
POLL_S = 0.1

_lock_guard = threading.Lock()
_held: dict[Path, list] = {}  # lock file -> [thread lock, depth, file descriptor]


def wait_limit(settings: dict) -> float:
    """`[store] lock_wait_s` in onrecord.toml, or ONRECORD_LOCK_WAIT_S, or ten minutes."""
    value = os.environ.get("ONRECORD_LOCK_WAIT_S") or settings.get("store", {}).get("lock_wait_s", DEFAULT_WAIT_S)
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError) as exc:
        raise CaseError(f"lock_wait_s must be a number of seconds, not {value!r}") from exc


def _say_waiting(seconds: float) -> None:
    print(f"waiting for another write to this case to finish (up to {seconds:.0f} s) ...", file=sys.stderr,
          flush=True)


@contextmanager
def case_write_lock(case_dir: Path, wait_s: float = DEFAULT_WAIT_S,
                    on_wait: Callable[[float], None] = _say_waiting) -> Iterator[None]:
    path = _lock_path(str(case_dir))
    with _lock_guard:
        entry = _held.setdefault(path, [threading.RLock(), 0, None])
    thread_lock = entry[0]
    deadline = time.monotonic() + wait_s
    if not thread_lock.acquire(blocking=False):
        on_wait(wait_s)
        if not thread_lock.acquire(timeout=wait_s):
            raise _timed_out(wait_s)
    try:
        if entry[1] == 0:
            entry[2] = _take_file_lock(path, deadline, wait_s, on_wait)
        entry[1] += 1
        try:
            yield
        finally:
            entry[1] -= 1
            if entry[1] == 0 and entry[2] is not None:
                os.close(entry[2])  # closing the descriptor releases the flock
                entry[2] = None
    finally:
        thread_lock.release()


@functools.lru_cache(maxsize=1024)
def _lock_path(case_dir: str) -> Path:
    # resolved once a folder (a live writer takes the lock for every batch, hundreds a second)
    return (Path(case_dir) / LOCK_FILE).resolve()


def _take_file_lock(path: Path, deadline: float, wait_s: float, on_wait) -> int | None:
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise CaseError(f"{path}: the case's write lock cannot be opened: {exc.strerror}") from exc
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise _timed_out(wait_s) from None
            if not told:
                on_wait(wait_s)
                told = True
            time.sleep(POLL_S)


def _timed_out(wait_s: float) -> CaseError:
    return CaseError(f"another write to this case (an import or a build) has held it for over {wait_s:.0f} s; "
                     "try again when it has finished (or raise [store] lock_wait_s in onrecord.toml)")
