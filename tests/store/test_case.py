"""Opening a case folder: its onrecord.toml read once, its faults named with a way out."""

from __future__ import annotations


def _build_with_appended(cli, tmp_path, text: str) -> tuple[int, str]:
    """A case init wrote, `text` appended to its onrecord.toml, then built: (exit code, stderr)."""
    case = tmp_path / "c"
    assert cli("init", case)[0] == 0
    with (case / "onrecord.toml").open("a", encoding="utf-8") as f:
        f.write(text)
    code, _, err = cli("build", case)
    return code, err


def test_a_table_declared_twice_says_to_use_the_one_already_there(cli, tmp_path):
    # what a user does who copies the docs' [case] window block onto the file init wrote
    code, err = _build_with_appended(cli, tmp_path, '\n[case]\nwindow = ["2031-04-02 09:00", "2031-04-02 12:00"]\n')
    assert code == 2 and "Traceback" not in err
    assert "onrecord.toml" in err and "line 5" in err
    assert "put these keys under the [case] table already in the file" in err


def test_other_toml_faults_carry_no_such_hint(cli, tmp_path):
    code, err = _build_with_appended(cli, tmp_path, "\nwindow = [\n")
    assert code == 2 and "cannot be read" in err and "declared once" not in err
