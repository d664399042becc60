"""The audit chain with several writers at once: the processes of `onrecord serve
--workers N` each commit their own batches to the one chain. Every entry of both is there,
once, in the order each process wrote its own, the ids run 1, 2, 3 ... with no gap, and the
chain verifies."""

from __future__ import annotations

import subprocess
import sys
import uuid

WRITER = """
import sys
from onrecord.access.audit import AuditLog
from onrecord.store.engine import make_engine
url, actor, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
log = AuditLog(make_engine(url), background=True)
# submitted without waiting, as a busy server's requests are: the writer thread commits them in batches
done = [log.submit(log.entry(actor, "api", "read", f"GET /api/events?n={i}", "127.0.0.1", "allowed"))
        for i in range(n)]
for d in done:
    d.result(120)
"""


def test_two_processes_append_to_one_chain(store):
    from onrecord.access.audit import AuditLog

    case, _ = store
    url = case.engine.url.render_as_string(hide_password=False)
    actors, n = [f"worker-{k}-{uuid.uuid4().hex[:6]}" for k in (1, 2)], 300
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, url, actor, str(n)], stderr=subprocess.PIPE)
               for actor in actors]
    for w in writers:
        assert w.wait(300) == 0, w.stderr.read().decode()
    log = AuditLog(case.engine)
    checked, problem = log.verify()
    assert problem is None
    every = log.entries()
    assert [e["id"] for e in every] == list(range(1, checked + 1))
    for actor in actors:
        mine = [e["what"] for e in every if e["actor"] == actor]
        assert mine == [f"GET /api/events?n={i}" for i in range(n)]  # all there, once each, in the order written
