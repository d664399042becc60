import json

from typer.testing import CliRunner

from onrecord.cli import app

ARTICLE = ("Marlow County Sheriff Dana Whitlock said Deputy Rory Vance never went in.\n\n"
           "\u201cHe stayed outside upwards of six minutes,\u201d Whitlock said.\n")
OTHER = "Deputy Rory Vanse waited outside for three minutes, the Courier found.\n"


def test_json_schema(tmp_path):
    (tmp_path / "a.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "b.txt").write_text(OTHER, encoding="utf-8")
    result = CliRunner().invoke(app, ["claims", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["schema"] == "onrecord.claims/1"
    assert set(data) == {"schema", "documents", "incidents", "entities", "claims", "groups", "conflicts"}
    # One deputy named in both: one incident, so the two accounts are compared.
    assert [i["documents"] for i in data["incidents"]] == [["a.txt", "b.txt"]]
    claim = next(c for c in data["claims"] if c["measure"] == "duration_outside" and c["doc"] == "a.txt")
    assert claim["speaker"] == "person:dana-whitlock" and claim["lo"] == 6 and claim["hi"] is None
    assert ARTICLE[claim["start"]:claim["end"]] == claim["text"]
    [conflict] = data["conflicts"]
    assert conflict["measure"] == "duration_outside" and len(conflict["sides"]) == 2
    assert conflict["incident"] == "incident-1"
    ids = {e["id"] for e in data["entities"]}
    assert {claim["speaker"], claim["subject"]} <= ids


UNRELATED = "Sergeant Ilse Marrow of the Penbury Police Department said Ilse Marrow waited outside for nine minutes.\n"


def test_two_incidents_are_compared_only_within_each(tmp_path):
    (tmp_path / "a.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "b.txt").write_text(OTHER, encoding="utf-8")
    (tmp_path / "c.txt").write_text(UNRELATED, encoding="utf-8")
    files = [str(tmp_path / n) for n in ("a.txt", "b.txt", "c.txt")]
    data = json.loads(CliRunner().invoke(app, ["claims", *files, "--json"]).output)
    assert [i["documents"] for i in data["incidents"]] == [["a.txt", "b.txt"], ["c.txt"]]
    assert all(c["incident"] == "incident-1" for c in data["conflicts"])
    text = CliRunner().invoke(app, ["claims", *files]).output
    assert "2 incidents" in text


def test_table_output(tmp_path):
    (tmp_path / "a.txt").write_text(ARTICLE, encoding="utf-8")
    result = CliRunner().invoke(app, ["claims", str(tmp_path / "a.txt")])
    assert result.exit_code == 0, result.output
    assert "duration_outside" in result.output and "Rory Vance" in result.output


def test_unreadable_file_is_exit_2(tmp_path):
    import subprocess
    import sys

    missing = tmp_path / "nope.txt"
    proc = subprocess.run([sys.executable, "-m", "onrecord.cli", "claims", str(missing)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "nope.txt" in proc.stderr and proc.stderr.startswith("error:")


def test_parse_without_the_pipeline_says_what_to_install(tmp_path, monkeypatch, capsys):
    import pytest

    from onrecord.claims import grammar
    from onrecord.cli import main

    monkeypatch.setattr(grammar, "_load", lambda: None)
    (tmp_path / "a.txt").write_text(ARTICLE, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main(["claims", str(tmp_path / "a.txt"), "--parse"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "onrecord[parse]" in err and "Traceback" not in err
