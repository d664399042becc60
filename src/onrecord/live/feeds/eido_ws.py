"""NENA-STA-024 EIDO conveyance over WebSocket, the subscriber's side
(../shared/data/interchange/nena-websocket-subscribe-notify.yaml): `subscribe` (requestType
EIDO, subtype `new`, or an incidentId), the notifier's `subscribeResponse`, then `event`
messages (notify: a subscriptionId, a transactionId and the EIDOs), each answered with an
`eventResponse` (200, or 400 when it is not a readable event) only once the message is on
the case's chain; `terminate` from the notifier is answered with `terminateResponse`, and
the feed resubscribes; on stop the feed sends `unsubscribe`. A lost connection is retried.

The EIDOs are diffed into events by the EIDO importer (sources/eido, issue 17) through the
feed's mapping (`eido`): ingest.py's seam."""

from __future__ import annotations

import asyncio
import json
import uuid

RETRY_S = 1.0


def subscribe_message(feed) -> dict:
    o = feed.spec.options
    sub = {"requestId": str(uuid.uuid4()), "requestType": "EIDO",
           "requestSubType": o.get("subtype", "single" if o.get("incident") else "new"),
           "requestAccepts": "application/emergency.eido+json"}
    if o.get("incident"):
        sub["incidentId"] = o["incident"]
    if o.get("min_rate") is not None:
        sub["minRate"] = int(o["min_rate"])
    return {"subscribe": sub}


async def run(node, feed, stop: asyncio.Event) -> None:
    import websockets

    url = feed.spec.options["url"]
    feed.subscription = None
    while not stop.is_set():
        try:
            async with websockets.connect(url, open_timeout=5, max_size=16 << 20) as ws:
                await _session(ws, node, feed, stop)
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
            feed.connection_error = str(exc)[:200]
        if not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), RETRY_S)
            except asyncio.TimeoutError:
                pass


async def _session(ws, node, feed, stop: asyncio.Event) -> None:
    await ws.send(json.dumps(subscribe_message(feed)))
    stopping = asyncio.ensure_future(stop.wait())
    try:
        while True:
            receiving = asyncio.ensure_future(ws.recv())
            done, _ = await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                receiving.cancel()
                if feed.subscription:
                    await ws.send(json.dumps({"unsubscribe": {"requestId": str(uuid.uuid4()),
                                                              "subscriptionId": feed.subscription}}))
                return
            raw = receiving.result()
            data = raw.encode() if isinstance(raw, str) else raw
            await _message(ws, node, feed, data)
    finally:
        stopping.cancel()


async def _message(ws, node, feed, data: bytes) -> None:
    try:
        msg = json.loads(data)
    except ValueError:
        msg = None
    if isinstance(msg, dict) and "subscribeResponse" in msg:
        r = msg["subscribeResponse"]
        feed.subscription = r.get("subscriptionId") if r.get("statusCode") == 200 else None
        feed.subscribe_status = r.get("statusCode")
        return
    if isinstance(msg, dict) and "terminate" in msg:
        t = msg["terminate"]
        await ws.send(json.dumps({"terminateResponse": {"requestId": t.get("requestId"),
                                                        "subscriptionId": t.get("subscriptionId"),
                                                        "statusCode": 200, "statusText": "OK"}}))
        feed.subscription = None
        await ws.send(json.dumps(subscribe_message(feed)))
        return
    if isinstance(msg, dict) and "unsubscribeResponse" in msg:
        return
    # an event (notify), or a frame that should have been one: on the chain first, then answered
    outcomes = await node.accept_async(feed, [data])
    event = msg.get("event") if isinstance(msg, dict) else None
    txn = event.get("transactionId") if isinstance(event, dict) else None
    if txn is None:
        return  # nothing to answer: no transaction named (kept on the chain, rejected)
    reject = outcomes[0].reject if outcomes else None
    status = 200 if reject is None else 400
    await ws.send(json.dumps({"eventResponse": {"transactionId": txn, "statusCode": status,
                                                "statusText": "OK" if status == 200 else reject[:200]}}))
