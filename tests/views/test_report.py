"""`onrecord report`: the after-action report as HTML and PDF, every row with its source line."""

from __future__ import annotations

from tests.helpers import write_cad


def test_html_report_of_a_generated_case_has_every_section(generated_case, tmp_path):
    from onrecord.pipeline import write_report

    out = write_report(generated_case, "html", tmp_path / "r.html")
    html = out.read_text()
    for heading in ("Summary metrics", "Who was where", "Per-unit response", "The critical minutes",
                    "Alerts a live board would have raised",
                    "Discrepancies", "Prior warnings", "Sources and their clocks"):
        assert f"<h2>{heading}" in html
    assert "<svg" in html and "county_cad.csv:2" in html and "America/New_York (EST)" in html
    assert "Not built yet" in html


def test_html_report_of_a_built_case_shows_findings(built_case, tmp_path):
    from onrecord.pipeline import write_report
    from tests.views.derived import CLAIM_SENTENCE

    html = write_report(built_case[0], "html", tmp_path / "r.html").read_text()
    assert "first_dispatch" in html and CLAIM_SENTENCE in html and "12.5 s ahead ± 1.2 s" in html
    assert "Example Subject" in html and "Not built yet" not in html


def test_the_report_lists_the_replayed_alerts_with_their_lines(built_case, tmp_path):
    from onrecord.pipeline import write_report

    html = write_report(built_case[0], "html", tmp_path / "r.html").read_text()
    section = html.split("<h2>Alerts a live board would have raised")[1].split("<h2>")[0]
    assert "armed_unit_holding_outside" in section and "12A4" in section and "would have fired at" in section
    assert "cleared at" in section and "shots stopped" in section and "BCSO, BCFR" in section
    assert "campus_sensors.csv:" in section and "county_cad.csv:" in section


def test_pdf_report_from_the_command_line(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    code, out, err = cli("report", case_dir, "--format", "pdf", "--out", tmp_path / "r.pdf")
    assert code == 0, err
    pdf = (tmp_path / "r.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and len(pdf) > 5000


def test_report_format_must_be_html_or_pdf(case_dir, cli, tmp_path):
    code, _, err = cli("report", case_dir, "--format", "docx", "--out", tmp_path / "r.docx")
    assert code == 2 and "html or pdf" in err


def test_serve_on_a_missing_case_is_one_clear_sentence(cli, tmp_path):
    code, _, err = cli("serve", tmp_path / "nowhere", "--port", "8999")
    assert code == 2 and "not a case folder" in err and "Traceback" not in err


def test_the_report_lists_annotations_with_author_and_target(built_case, tmp_path):
    import shutil

    from onrecord.access import annotate
    from onrecord.pipeline import write_report
    from onrecord.store.case import open_case
    from onrecord.store.reader import Actor, open_reader

    path = tmp_path / "case"
    shutil.copytree(built_case[0], path)
    case = open_case(path)
    analyst = Actor("ana", kind="user", role="analyst", cases=frozenset({case.id}))
    annotate.add(case.engine, case.id, open_reader(case, analyst), analyst, "finding", 3, "disputed",
                 "the sensor counted echoes")
    case.engine.dispose()
    html = write_report(path, "html", tmp_path / "r.html").read_text()
    section = html.split("<h2>Annotations</h2>", 1)[1]
    assert "the sensor counted echoes" in section and "finding 3" in section and "ana" in section
    assert "No annotations." in write_report(built_case[0], "html", tmp_path / "r0.html").read_text()
