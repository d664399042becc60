"""The command line: parse arguments, call one function, print. Nothing else lives here.

Each area keeps its command functions in its own `command.py` (Typer-annotated, light
imports at module level so `onrecord --help` stays fast); this file only attaches them.
"""

from __future__ import annotations

import sys

import typer

from onrecord.errors import OnrecordError

app = typer.Typer(
    name="onrecord",
    help="Every agency's account of a public-safety incident on one record.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _attach() -> None:
    from onrecord.store import command as store_cmd
    from onrecord.sources import command as sources_cmd

    app.command("init")(store_cmd.init)
    app.command("verify")(store_cmd.verify)
    app.command("import")(sources_cmd.import_files)
    app.command("mappings")(sources_cmd.mappings)
    app.command("timeline")(store_cmd.timeline)
    # Areas attach their commands below, one line each.
    from onrecord.reconstruct import command as build_cmd

    app.command("build")(build_cmd.build)
    app.command("metrics")(build_cmd.metrics)
    app.command("discrepancies")(build_cmd.discrepancies)
    app.command("pin-clock")(build_cmd.pin_clock)
    from onrecord.warnings import command as warnings_cmd

    app.command("link")(warnings_cmd.link)
    app.command("subjects")(warnings_cmd.subjects)
    from onrecord.claims import command as claims_cmd; app.command("claims")(claims_cmd.claims)  # noqa: E702
    from onrecord.views import command as views_cmd; app.command("serve")(views_cmd.serve)  # noqa: E702
    app.command("report")(views_cmd.report)
    from onrecord.scenario import command as scenario_cmd

    scenario_app = typer.Typer(help="Fictional incidents with known truth: generate one, score a built case.",
                               no_args_is_help=True)
    scenario_app.command("generate")(scenario_cmd.generate)
    scenario_app.command("score")(scenario_cmd.score)
    app.add_typer(scenario_app, name="scenario")
    from onrecord import demo

    app.command("demo")(demo.demo)


_attach()


def main(argv: list[str] | None = None) -> None:
    try:
        app(args=argv)
    except OnrecordError as exc:
        # One clear sentence on stderr; exit 2 for bad input or usage.
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
