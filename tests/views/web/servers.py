"""`onrecord serve` in a process of its own (as a user starts it), for tests of what must
hold across processes: several workers, or a server killed mid-flight."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.browser import free_port

SRC = Path(__file__).resolve().parents[3] / "src"
START_LIMIT_S = 120  # a deadline to give up waiting, not a measurement


@contextmanager
def serve_process(case_dir: Path, *flags: str):
    """(base URL, the process) of `onrecord serve CASE` on a free loopback port; stopped after."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "onrecord.cli", "serve", str(case_dir), "--port", str(port),
                             *flags], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_LIMIT_S
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"serve exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(base + "/login", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("serve did not answer")
            time.sleep(0.2)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
