"""The README's two commands are the ones CI and users run: keep them true."""

from __future__ import annotations

import re

from tests.conftest import REPO


def _commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    part = text.split("## On a fresh machine", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```\n(.+?)\n```", part)


def test_readme_gives_exactly_two_commands_demo_and_tests():
    demo, tests = _commands()
    assert demo.endswith("onrecord demo")
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert _commands()[1] in ci.splitlines()
