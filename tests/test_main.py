"""`python -m onrecord` is the `onrecord` command."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_onrecord_runs_the_command():
    r = subprocess.run([sys.executable, "-m", "onrecord", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "import" in r.stdout and "build" in r.stdout
