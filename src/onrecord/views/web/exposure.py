"""Whether `onrecord serve` may listen where it was asked to. Case data is criminal-justice
information: on loopback only this machine reaches it; on any other address the network
does, so the server wants TLS (or an explicit word that a TLS proxy stands in front)."""

from __future__ import annotations

import sys
from pathlib import Path

from onrecord.errors import UsageError
from onrecord.views.web.guard import is_loopback

NO_SIGN_IN = ("WARNING: this server has no sign-in yet: everyone who can reach {host} can read every "
              "page and /api/ route of this case, including people's names and prior contacts.")


def check_exposure(host: str, cert: Path | None, key: Path | None, plain_network: bool) -> bool:
    """True when TLS is to be served. Refuses a non-loopback address without TLS settings or
    --plain-http-on-network; warns loudly on stderr whenever the network can reach the server."""
    if (cert is None) != (key is None):
        raise UsageError("--tls-cert and --tls-key go together: give both files or neither")
    for flag, path in (("--tls-cert", cert), ("--tls-key", key)):
        if path is not None and not path.is_file():
            raise UsageError(f"{flag} {path}: no such file")
    tls = cert is not None
    if is_loopback(host):
        return tls
    if not tls and not plain_network:
        raise UsageError(f"--host {host}: refusing to serve case data to the network over plain HTTP; "
                         "give --tls-cert and --tls-key, or --plain-http-on-network when a TLS proxy "
                         "stands in front (and name it with --allowed-host)")
    print(NO_SIGN_IN.format(host=host), file=sys.stderr, flush=True)
    return tls
