"""`kill -9` of the live process mid-feed, then a restart (a real subprocess): every frame
it acknowledged is on the chain, `verify` passes, no alert is lost or said twice, and who
acknowledged an alert on the board is still shown (kept in the store)."""

from __future__ import annotations

import json
import os
import signal
import time

import httpx

from onrecord.pipeline import verify_case
from onrecord.store.case import open_case
from onrecord.store.reader import open_reader
from tests.browser import free_port
from tests.live.process import event, sensors_case, start_live


def test_kill_9_mid_feed_then_restart(tmp_path):
    case = sensors_case(tmp_path)
    port = free_port()
    proc = start_live(case, port)
    acked = []
    url = f"http://127.0.0.1:{port}/feeds/sensors"
    acked.append(httpx.post(url, content=event("unit_arrived", 90, "12A4")).json()["raw_record"])
    for i in range(40):
        r = httpx.post(url, content=event("shots_detected", 85 - i))
        acked.append(r.json()["raw_record"])
    board = f"http://127.0.0.1:{port}/board"
    alert = "armed_unit_holding_outside:12A4:1"
    for _ in range(50):  # the rules see them: the alert fires
        if any(a["alert"] == alert for a in httpx.get(f"{board}/state").json()["alerts"]):
            break
        time.sleep(0.1)
    done = httpx.post(f"{board}/alerts/{alert}/acknowledge")  # the local user: a store with no accounts
    assert done.status_code == 200
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc = start_live(case, port)
    try:
        for i in range(10):
            acked.append(httpx.post(url, content=event("shots_detected", 40 - i)).json()["raw_record"])
        time.sleep(0.5)
        state = httpx.get(f"http://127.0.0.1:{port}/board/state").json()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    held = {int(r["id"]) for r in _raw_ids(case)}
    assert set(acked) <= held
    assert verify_case(open_case(case)).intact
    fires = [json.loads(x)["alert"] for x in (case / "live-alerts.jsonl").read_text().splitlines()
             if json.loads(x)["action"] == "fire"]
    assert fires == ["armed_unit_holding_outside:12A4:1"]  # once, not again after the restart
    assert [a["alert"] for a in state["alerts"]] == [alert]
    assert state["alerts"][0]["acknowledged"] == done.json()["acknowledged"]  # who and when, as before the kill
    assert done.json()["acknowledged"]["by"] == "local user"


def _raw_ids(case):
    r = open_reader(case)
    src = next(s for s in r.sources() if s["file_name"] == "live:sensors")
    return [{"id": row.id} for row in r.raw_chain() if row.source_id == src["id"]]
