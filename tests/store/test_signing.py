"""The case's signing key (store/signing.py): made once, kept outside the case folder with
owner-only permissions, never replaced; a signature holds only over the bytes it signed."""

from __future__ import annotations

import stat

from onrecord.store import signing


def test_a_key_is_made_once_outside_the_case_and_readable_by_its_owner_only(tmp_path, monkeypatch):
    monkeypatch.setenv(signing.KEY_DIR_ENV, str(tmp_path / "keys"))
    key = signing.create_key("case-uid-1")
    path = signing.key_path("case-uid-1")
    assert path.parent == tmp_path / "keys" and stat.S_IMODE(path.stat().st_mode) == 0o600
    again = signing.create_key("case-uid-1")  # an existing key is never replaced
    assert signing.public_hex(again) == signing.public_hex(key)
    assert signing.public_hex(signing.load_key("case-uid-1")) == signing.public_hex(key)
    assert signing.load_key("another-case") is None


def test_a_signature_holds_over_its_bytes_only(tmp_path, monkeypatch):
    monkeypatch.setenv(signing.KEY_DIR_ENV, str(tmp_path / "keys"))
    key = signing.create_key("case-uid-2")
    sig = signing.sign(key, b"chain head 00ff")
    pub = signing.public_hex(key)
    assert signing.signature_holds(pub, b"chain head 00ff", sig)
    assert not signing.signature_holds(pub, b"chain head 00fe", sig)
    other = signing.public_hex(signing.create_key("case-uid-3"))
    assert not signing.signature_holds(other, b"chain head 00ff", sig)
    assert not signing.signature_holds(pub, b"chain head 00ff", "not hex")
