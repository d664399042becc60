"""The alert log and the webhooks: every change in the log (fire and clear synced before
they are sent, updates written at once and synced within a second), said once across a
restart, and a webhook receiver that is slower than the updates gets every fire and clear
and the latest state between them, in order."""

from __future__ import annotations

import json
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from zoneinfo import ZoneInfo

from onrecord.live.outbox import ALERTS_FILE, Outbox
from tests.live.helpers import engine, ev, run
from tests.live.test_engine import HOLD, shots


def changes_of_one_holding_alert():
    return run(engine(HOLD), [ev("unit_arrived", 10, "12A4")] + shots(0, 400, every=5), until_s=700)


def test_every_change_is_logged_as_the_finding_it_is_and_said_once_across_a_restart(tmp_path):
    changes = changes_of_one_holding_alert()
    assert [c.action for c in changes][0] == "fire" and changes[-1].action == "clear"
    box = Outbox(tmp_path, "case-uid", ZoneInfo("UTC"))
    assert all(box.send(c) for c in changes)
    box.close()
    rows = [json.loads(x) for x in (tmp_path / ALERTS_FILE).read_text().splitlines()]
    assert [r["action"] for r in rows] == [c.action for c in changes]
    # the finding as the dataclass has it (a shallow copy, written as JSON, is the same)
    assert rows[-1]["finding"] == json.loads(json.dumps(asdict(changes[-1].alert.finding()), default=str))
    assert rows[-1]["finding"]["value_hi"] == changes[-1].alert.cleared_at
    again = Outbox(tmp_path, "case-uid", ZoneInfo("UTC"))  # a restarted node says no fire or clear again
    assert not again.send(changes[0]) and not again.send(changes[-1])


def test_updates_are_synced_by_the_next_fire_or_clear_or_a_due_sync(tmp_path):
    changes = changes_of_one_holding_alert()
    box = Outbox(tmp_path, "case-uid", ZoneInfo("UTC"))
    box.send(changes[0])
    box.send(changes[1])
    assert changes[1].action == "update" and box._unsynced_since is not None
    box.sync(due_only=True)  # not yet a second old: left for later
    assert box._unsynced_since is not None
    box.sync()
    assert box._unsynced_since is None
    box.send(changes[2])
    box.send(changes[-1])  # the clear syncs what came before it
    assert box._unsynced_since is None
    box.close()


def test_a_slow_webhook_gets_every_fire_and_clear_and_the_latest_update_between(tmp_path):
    changes = changes_of_one_holding_alert()
    updates = [c for c in changes if c.action == "update"]
    assert len(updates) > 10
    got, first_in, release = [], threading.Event(), threading.Event()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            got.append(body)
            first_in.set()
            release.wait(30)  # a slow receiver: the changes after the first pile up meanwhile
            self.send_response(200)
            self.end_headers()

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        box = Outbox(tmp_path, "case-uid", ZoneInfo("UTC"), [f"http://127.0.0.1:{server.server_port}/alerts"])
        box.send(changes[0])
        assert first_in.wait(30)
        for c in changes[1:]:
            box.send(c)
        release.set()
        for _ in range(300):
            if len(got) >= 3:
                break
            threading.Event().wait(0.1)
        threading.Event().wait(0.5)
    finally:
        server.shutdown()
    kinds = [next(k for k in ("<msgType>Alert", "<msgType>Update", "<msgType>Cancel") if k in b) for b in got]
    assert kinds == ["<msgType>Alert", "<msgType>Update", "<msgType>Cancel"]  # the updates, as one: the latest
    last = updates[-1]
    assert str(int(last.at)) in got[1]  # the latest update's own time names it
    assert box.sent_errors == []
