"""`onrecord live` as a real subprocess, for the tests that need one (kill -9, the board in a
browser, sign-in): started and waited for, stopped; a case with one webhook feed; a frame."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone

import httpx

from onrecord.store.case import init_case


def start_live(case, port, *extra) -> subprocess.Popen:
    """The live process on `case`, once its server answers (the sign-in page: served whether
    the store has accounts or not)."""
    proc = subprocess.Popen([sys.executable, "-m", "onrecord.cli", "live", str(case), "--port", str(port), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/login", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(proc.stderr.read().decode())


def stop_live(proc: subprocess.Popen, wait_s: float = 15) -> None:
    """Stopped as Ctrl-C would (SIGTERM), killed if it has not ended within `wait_s`."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(wait_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def sensors_case(tmp_path):
    """A new case with one webhook feed, `sensors`."""
    case = tmp_path / "case"
    init_case(case)
    with (case / "onrecord.toml").open("a") as fh:
        fh.write('\n[[live.feeds]]\nname = "sensors"\ntype = "webhook"\n')
    return case


def event(kind, ago_s, unit=None):
    """A frame of the onrecord event JSON: `kind` at `ago_s` seconds ago (fictional NCSO)."""
    t = datetime.fromtimestamp(time.time() - ago_s, tz=timezone.utc).isoformat()
    return json.dumps({"kind": kind, "time": t, "unit": unit, "agency": "NCSO"}).encode()
