"""`onrecord report`: render the report's HTML, and print it to PDF with WeasyPrint."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from onrecord import timetext
from onrecord.errors import UsageError
from onrecord.store.case import open_case
from onrecord.store.reader import CaseReader, open_reader
from onrecord.views.report import data, who_was_where

TEMPLATES = Path(__file__).parent / "templates"


def render_html(reader: CaseReader) -> str:
    ctx = data.gather(reader)
    ctx["svg"] = who_was_where.who_was_where(ctx["units"], ctx["shots"], ctx["window"], ctx["zone"], ctx["colours"]) \
        if ctx["window"] and ctx["units"] else ""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]))
    env.filters["duration"] = timetext.duration
    zone = ctx["zone"]
    env.globals.update(when=lambda ms: timetext.when(ms, zone), clock_time=lambda ms: timetext.clock_time(ms, zone))
    return env.get_template("report.html").render(**ctx)


def write_report(case_path: Path, fmt: str, out: Path) -> Path:
    if fmt not in ("html", "pdf"):
        raise UsageError(f"report format {fmt!r}: choose html or pdf")
    case = open_case(case_path)
    html = render_html(open_reader(case))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "html":
        out.write_text(html, encoding="utf-8")
    else:
        from weasyprint import HTML

        HTML(string=html, base_url=str(TEMPLATES)).write_pdf(out)
    case.engine.dispose()
    return out
