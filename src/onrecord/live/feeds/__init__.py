"""The feeds a live case reads, one module each, registered by their `type` in FEEDS
(listed in extensions.py): each is `async run(node, feed, stop)` taking frames from its
origin and handing them to the ingest node (`node.accept_async`: no thread held while they
wait for their batch), which puts them on the chain before anything reads them. The
webhook feed is a route of the live server (service.py) instead: its frames come to it."""

from __future__ import annotations

from onrecord.live.feeds.csv_tail import run as csv_tail
from onrecord.live.feeds.eido_ws import run as eido_websocket
from onrecord.live.feeds.folder import run as folder

FEEDS = {"csv-tail": csv_tail, "folder": folder, "eido-websocket": eido_websocket, "webhook": None}
