"""Whether `onrecord serve` may listen where it was asked to. Case data is criminal-justice
information: on loopback only this machine reaches it; on any other address the network
does, so the server wants TLS (or an explicit word that a TLS proxy stands in front)."""

from __future__ import annotations

import sys
from pathlib import Path

from onrecord.errors import UsageError
from onrecord.views.web.guard import is_loopback

PLAIN = ("WARNING: serving {host} over plain HTTP: passwords and case data cross the network in clear "
         "unless a TLS proxy stands in front.")


def check_exposure(host: str, cert: Path | None, key: Path | None, plain_network: bool) -> bool:
    """True when TLS is to be served. Refuses a non-loopback address without TLS settings or
    --plain-http-on-network; warns loudly on stderr when the network gets plain HTTP."""
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
    if not tls:
        print(PLAIN.format(host=host), file=sys.stderr, flush=True)
    return tls


def no_accounts_note(host: str) -> str | None:
    """What to say when a store without accounts is served: the server then answers this
    machine only (signin.py), whatever address it listens on."""
    if is_loopback(host):
        return None
    return (f"WARNING: this store has no accounts: the server listens on {host} but answers requests from "
            "this machine only until `onrecord user add` makes one.")
