"""The case's signing key: Ed25519, made at `onrecord init`, kept outside the store.

The private key lives in the user's configuration folder (`$ONRECORD_KEY_DIR`, else
`$XDG_CONFIG_HOME/onrecord/keys`, else `~/.config/onrecord/keys`), one file per case uid,
readable by its owner only: someone who can rewrite the database (or copy the case folder)
does not thereby hold it. The public key goes beside the receipts in the case folder and
inside every receipt, so anyone handed the folder can check the signatures; whoever keeps
a copy of the public key (printed at `init`) can tell a receipt signed by another key.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from onrecord.errors import CaseError

KEY_DIR_ENV = "ONRECORD_KEY_DIR"


def key_dir() -> Path:
    if os.environ.get(KEY_DIR_ENV):
        return Path(os.environ[KEY_DIR_ENV])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "onrecord" / "keys"


def key_path(case_uid: str) -> Path:
    return key_dir() / f"{case_uid}.ed25519"


def create_key(case_uid: str) -> Ed25519PrivateKey:
    """A new key for a new case; an existing one is never replaced (its receipts rest on it)."""
    path = key_path(case_uid)
    if path.exists():
        return load_key(case_uid)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    return key


def load_key(case_uid: str) -> Ed25519PrivateKey | None:
    path = key_path(case_uid)
    if not path.exists():
        return None
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as exc:
        raise CaseError(f"{path}: not a readable signing key: {exc}") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise CaseError(f"{path}: not an Ed25519 key")
    return key


def public_hex(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def sign(key: Ed25519PrivateKey, message: bytes) -> str:
    return key.sign(message).hex()


def signature_holds(public_key_hex: str, message: bytes, signature_hex: str) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex)).verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError):
        return False
    return True
