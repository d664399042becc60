"""`onrecord demo`: the main job on the embedded default — generate a fictional incident
with known truth, import every agency's export, build, link prior warnings, score against
truth, write the after-action report, and serve the web timeline. Each step is the
function the user's own command runs (onrecord.pipeline)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer


def demo(
    out: Annotated[Path, typer.Option(
        "--out", help="folder for the scenario, the case and the report")] = Path("onrecord-demo"),
    seed: Annotated[int, typer.Option(help="which generated incident")] = 1,
    serve: Annotated[bool, typer.Option("--serve/--no-serve", help="serve the web timeline at the end")] = True,
    host: Annotated[str, typer.Option(help="address to serve on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to serve on")] = 8000,
) -> None:
    """Generate a fictional case, import, build, score against truth, write the report, serve."""
    from rich.text import Text

    from onrecord import pipeline
    from onrecord.scenario.generate import generate_case
    from onrecord.scenario.into_case import import_scenario
    from onrecord.store.reader import open_reader
    from onrecord.views.build_summary import print_build
    from onrecord.views.console import data_console

    console = data_console(soft_wrap=True)
    say = console.print

    def step(head: str, *rest: str | tuple[str, str]) -> None:  # our emphasis as styles, never as markup
        console.print(Text.assemble((head, "bold"), *rest))

    scenario, case_dir = out / "scenario", out / "case"
    for old in (scenario, case_dir):
        if old.exists():
            shutil.rmtree(old)  # the demo folder is the demo's own: start clean each time
    step("1. generating", f" a fictional incident (seed {seed}) into {scenario}")
    manifest = generate_case(seed, scenario)
    step("2. importing", f" {len(manifest['sources'])} agency exports into {case_dir}")
    case = import_scenario(scenario, case_dir)  # each export through its own mapping, as `onrecord import`
    check = pipeline.verify_case(case)
    say(f"   evidence chain: {'intact' if check.intact else 'BROKEN: ' + str(check.problem)} "
        f"({check.records:,} records; {check.receipts} signed receipts, kept beside the case)")
    step("3. building", ": clocks, who is who, fusion, metrics")
    print_build(pipeline.build_case(case), open_reader(case).display_zone())
    from onrecord.warnings.case_linkage import flag

    step("   linking", " prior contacts across agencies to the people they concern")
    linked = pipeline.link_case(case)
    for p in [p for p in linked.people if flag(p)][:3]:
        say(f"   ! {flag(p)}")
    summary = pipeline.score_case(case_dir, scenario / "truth.json")["summary"]
    step("4. scored against the generator's truth", ": " + ", ".join(f"{k} {v:.2f}" for k, v in summary.items()))
    report = pipeline.write_report(case_dir, "html", out / "report.html")
    step("5. report", f" written to {report}")
    if serve:
        from onrecord.access.demo_admin import demo_admin
        from onrecord.cli.views import serve as serve_case

        name, password = demo_admin(case)
        step("6. serving", " the timeline: sign in as ", (name, "bold"), " with password ", (password, "bold"),
             " (made for this demo; `onrecord user reset` changes it)")
        serve_case(case_dir, host, port)
