"""Who may read the board and who may post to a feed. Sign-in, roles, API tokens and the
audit (issue 16) are not in the project yet: until they are, only this machine may —
requests from any address but loopback are refused. When they land, these two functions
are where the board takes the signed-in reader and a webhook its bearer token."""

from __future__ import annotations

from fastapi import HTTPException, Request

LOOPBACK = {"127.0.0.1", "::1", "localhost", "testclient"}


def _local(request: Request) -> bool:
    return request.client is None or request.client.host in LOOPBACK


def require_reader(request: Request) -> None:
    if not _local(request):
        raise HTTPException(403, "the live board answers this machine only until sign-in exists")


def require_webhook_sender(request: Request, feed: str) -> None:
    if not _local(request):
        raise HTTPException(403, "feeds accept posts from this machine only until API tokens exist")
