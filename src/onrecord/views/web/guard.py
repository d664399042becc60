"""What every answer of `onrecord serve` passes on its way in and out: the Host check and
the security headers. A plain ASGI middleware (no request object is built), so it costs
little on the timeline's thousands of small requests.

- Host allow-list: a page on any site can make the browser talk to 127.0.0.1 by pointing
  its own name at that address (DNS rebinding); the browser then sends that site's name as
  `Host`. Refusing every name but the served ones closes that door.
- Headers: a Content-Security-Policy with no inline script and `frame-ancestors 'none'`,
  `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, and no caching of case
  data by shared caches.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

# Plotly's WebGL traces (scattergl: 20,000 points at once) compile their drawing code with
# `Function`, and the plotly wheel ships no build without it: the chart pages alone allow eval.
CHART_PAGES = frozenset({"/", "/timeline"})
CASE_PREFIX = re.compile(r"^/cases/[^/]+")  # a case's pages on a server of many (server.py)


def csp(path: str) -> str:
    path = CASE_PREFIX.sub("", path) or "/"
    script = "'self' 'unsafe-eval'" if path in CHART_PAGES else "'self'"
    # style-src allows inline styles: Plotly and Swagger UI set element styles from script, and
    # agency colours are style attributes. No inline *script* anywhere.
    return ("default-src 'none'; "
            f"script-src {script}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
            "font-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
            "frame-ancestors 'none'")


def served_names(host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a request may carry in `Host` for a server bound to `host`: the loopback
    names when it listens on loopback, else the address itself; plus any `--allowed-host`."""
    names = {h.strip().lower().strip("[]") for h in extra if h.strip()}
    if is_loopback(host):
        names |= LOOPBACK_NAMES
    elif host in ("0.0.0.0", "::"):
        # every address of the machine: its own names (others only by --allowed-host)
        names |= LOOPBACK_NAMES | {socket.gethostname().lower(), socket.getfqdn().lower()}
    else:
        names.add(host.lower().strip("[]"))
    return frozenset(names)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """`Host` without its port: `example.org:8000` -> `example.org`, `[::1]:8000` -> `::1`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Guard:
    """ASGI middleware: refuse unknown Host names (421), add the security headers to every answer."""

    def __init__(self, app, allowed: frozenset[str], secure_cookies: bool = False):
        self.app, self.allowed = app, allowed
        self.secure_cookies = secure_cookies

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        name = host_name(headers.get(b"host", b"").decode("latin-1"))
        if name not in self.allowed:
            return await _refuse(scope, send, name)
        path = scope.get("path", "")

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _security_headers(path)
            await send(message)

        return await self.app(scope, receive, with_headers)


def _security_headers(path: str) -> list[tuple[bytes, bytes]]:
    out = [(b"content-security-policy", csp(path).encode()), (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"),
           (b"cross-origin-opener-policy", b"same-origin")]
    if not path.startswith(("/static/", "/vendor/")):
        out.append((b"cache-control", b"no-store"))  # case data stays out of shared and disk caches
    return out


async def _refuse(scope, send, name: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"detail": f"this server does not answer to the name {name!r} "
                                 "(start it with --allowed-host to serve that name)"}).encode()
    await send({"type": "http.response.start", "status": 421,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                + _security_headers("")})
    await send({"type": "http.response.body", "body": body})
