"""`onrecord serve` on a non-loopback address: refused over plain HTTP unless told a TLS
proxy stands in front, and loud about it when it does serve the network."""

from __future__ import annotations

import pytest

from onrecord.errors import UsageError
from onrecord.views.web.exposure import check_exposure


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "onrecord.county.example"])
def test_the_network_is_refused_plain_http(host):
    with pytest.raises(UsageError, match="plain HTTP"):
        check_exposure(host, None, None, False)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.5"])
def test_loopback_needs_nothing_and_says_nothing(host, capsys):
    assert check_exposure(host, None, None, False) is False
    assert capsys.readouterr().err == ""


def test_an_explicit_flag_serves_the_network_and_warns(capsys):
    assert check_exposure("0.0.0.0", None, None, True) is False
    assert "WARNING" in capsys.readouterr().err


def test_tls_files_are_checked(tmp_path):
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    with pytest.raises(UsageError, match="go together"):
        check_exposure("0.0.0.0", cert, None, False)
    with pytest.raises(UsageError, match="no such file"):
        check_exposure("0.0.0.0", cert, key, False)
    cert.write_text("x")
    key.write_text("x")
    assert check_exposure("0.0.0.0", cert, key, False) is True


def test_the_command_refuses_before_opening_the_case(tmp_path, capsys):
    from onrecord.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["serve", str(tmp_path / "no-such-case"), "--host", "0.0.0.0"])
    assert stop.value.code == 2 and "plain HTTP" in capsys.readouterr().err
