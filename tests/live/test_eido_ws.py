"""NENA-STA-024 over WebSocket against a test CAD server (a notifier on loopback): the feed
subscribes, answers each notify with an eventResponse only once the message is on the
chain, answers terminate and subscribes again. The EIDO inside is diffed by the EIDO
importer (issue 17): where it is not installed, the message is kept and answered 400 with
the reason."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import datetime, timezone

import pytest

from onrecord.live.clocks import LiveClocks
from onrecord.live.feeds.eido_ws import run
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.pipeline import verify_case
from onrecord.sources.mapping import parse_mapping
from onrecord.sources.registry import ADAPTERS
from onrecord.store.case import init_case, open_case
from onrecord.store.reader import open_reader
from tests.conftest import shared_path

EIDO_MAPPING = '[mapping]\nname = "eido-live-test"\nsource_kind = "eido"\n[file]\nformat = "{fmt}"\n' \
               '[[events]]\nkind = "incident_created"\n'


def test_subscribe_notify_acknowledge_terminate(tmp_path):
    import websockets

    # the sample's times (2021) restamped to now: a live feed refuses records hours from now
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
    notify = json.loads(re.sub(r'"\d{4}-\d\d-\d\dT[0-9:.]+[-+]\d\d:\d\d"', json.dumps(now),
                               shared_path("data", "interchange", "eidolib-ws-NotifyWithEido.json").read_text()))
    seen: list[dict] = []

    async def cad(ws):
        sub = json.loads(await ws.recv())
        seen.append(sub)
        await ws.send(json.dumps({"subscribeResponse": {"requestId": sub["subscribe"]["requestId"],
                                                        "subscriptionId": "sub1234", "statusCode": 200,
                                                        "statusText": "OK"}}))
        for txn in ("t-1", "t-2"):
            msg = json.loads(json.dumps(notify))
            msg["event"]["transactionId"] = txn
            await ws.send(json.dumps(msg))
            seen.append(json.loads(await ws.recv()))
        await ws.send("{this is no event")
        await ws.send(json.dumps({"terminate": {"requestId": "r-9", "subscriptionId": "sub1234"}}))
        seen.append(json.loads(await ws.recv()))
        seen.append(json.loads(await ws.recv()))  # subscribes again
        await asyncio.sleep(0.2)

    case = init_case(tmp_path / "case")
    node = IngestNode(case, UnitDirectory(), LiveClocks())
    fmt = "eido" if "eido" in ADAPTERS else "csv"
    try:
        mapping = parse_mapping(EIDO_MAPPING.format(fmt=fmt), "eido.toml")
    except Exception:
        pytest.skip("no mapping format to name in this test")

    async def go():
        async with websockets.serve(cad, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            feed = node.open_feed(FeedSpec("cad-eido", "eido-websocket", mapping,
                                           options={"url": f"ws://127.0.0.1:{port}"}))
            stop = asyncio.Event()
            task = asyncio.create_task(run(node, feed, stop))
            for _ in range(100):
                if len(seen) >= 5:
                    break
                await asyncio.sleep(0.05)
            stop.set()
            await asyncio.wait_for(task, 5)
            return feed

    feed = asyncio.run(go())
    assert seen[0]["subscribe"]["requestType"] == "EIDO"
    acks = [m["eventResponse"] for m in seen[1:3]]
    assert [a["transactionId"] for a in acks] == ["t-1", "t-2"]
    if fmt != "eido":
        assert all(a["statusCode"] == 400 and "eido" in a["statusText"] for a in acks)
    else:
        assert all(a["statusCode"] == 200 for a in acks)
    assert seen[3]["terminateResponse"] == {"requestId": "r-9", "subscriptionId": "sub1234", "statusCode": 200,
                                            "statusText": "OK"}
    assert "subscribe" in seen[4]
    held = [bytes(r) for (r,) in open_reader(case).source_bytes(feed.source_id)]
    assert len(held) == 4 and held[3] == b"{this is no event"  # both notifies and the bad frame, kept
    assert verify_case(open_case(tmp_path / "case")).intact
