"""Imported text reaches the terminal as the agency wrote it: never as Rich markup or emoji."""

from __future__ import annotations

from rich.table import Table

from onrecord.views.console import data_console
from tests.helpers import write_cad

MARKED = "[link=https://example.invalid]open[/link] [bold red]x[/bold red] :warning:"
ROWS = ("CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene\n"
        f'C-1,S12,"{MARKED}",14 Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:10,03/14/2026 09:40:00\n')


def test_a_table_cell_and_a_sentence_keep_their_brackets():
    console = data_console(width=200, record=True, force_terminal=True)
    table = Table()
    table.add_column("text")
    table.add_row(MARKED)
    console.print(table)
    console.print(MARKED)
    text = console.export_text()
    assert text.count(MARKED) == 2 and "⚠" not in text
    assert "\x1b]8;" not in console.export_text(styles=True)  # no terminal hyperlink was made


def test_timeline_prints_bracketed_text_literally(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in", ROWS)
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    code, out, err = cli("timeline", case_dir)
    assert code == 0, err
    assert out.count(MARKED) == 3  # the call's received, dispatched and arrived events


def test_no_console_of_the_command_line_reads_markup():
    """Every Rich console in src/ is the data console (views/console.py): one place decides."""
    import ast

    from tests.source_tree import PACKAGE

    made = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "console.py" and path.parent.name == "views":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Console":
                made.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert made == []
