"""The command line: parse arguments, call one function, print. Nothing else lives here.

Each module of this package holds the commands of one area (Typer-annotated, light
imports at module level so `onrecord --help` stays fast); this file only attaches them.
What a command does is one call into `onrecord.pipeline` or a reader
(`store/reader.py: open_reader`); what it prints is a view (`onrecord.views`).
"""

from __future__ import annotations

import sys

import typer

from onrecord.cli import access, build, case, claims, demo, export, imports, link, live, scenario, views
from onrecord.cli.options import NegativeNumbers
from onrecord.errors import OnrecordError

app = typer.Typer(
    name="onrecord",
    help="Every agency's account of a public-safety incident on one record.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("init")(case.init)
app.command("verify")(case.verify)
app.command("import")(imports.import_files)
app.command("remove-source")(imports.remove_source)
app.command("mappings")(imports.mappings)
app.command("timeline")(case.timeline)
app.command("build")(build.build)
app.command("metrics")(build.metrics)
app.command("discrepancies")(build.discrepancies)
app.command("pin-clock", cls=NegativeNumbers)(build.pin_clock)
app.command("link")(link.link)
app.command("subjects")(link.subjects)
app.command("claims")(claims.claims)
app.command("serve")(views.serve)
app.command("report")(views.report)
app.command("export")(export.export)
app.command("live")(live.live)
scenario_app = typer.Typer(help="Fictional incidents with known truth: generate one, score a built case.",
                           no_args_is_help=True)
scenario_app.command("generate")(scenario.generate)
scenario_app.command("score")(scenario.score)
app.add_typer(scenario_app, name="scenario")
app.command("demo")(demo.demo)
user_app = typer.Typer(help="Accounts of a case's store: add, list, disable, reset (docs/access.md).",
                       no_args_is_help=True)
user_app.command("add")(access.user_add)
user_app.command("list")(access.user_list)
user_app.command("disable")(access.user_disable)
user_app.command("reset")(access.user_reset)
app.add_typer(user_app, name="user")
token_app = typer.Typer(help="API tokens for scripts (Authorization: Bearer ...).", no_args_is_help=True)
token_app.command("create")(access.token_create)
token_app.command("list")(access.token_list)
token_app.command("revoke")(access.token_revoke)
app.add_typer(token_app, name="token")
app.command("audit")(access.audit)
app.command("restrict")(access.restrict)
app.command("protect")(access.protect)
app.command("search")(access.search)


def main(argv: list[str] | None = None) -> None:
    from onrecord.cli.audit_commands import record_command
    from onrecord.errors import AccessDenied

    args = [str(a) for a in (sys.argv[1:] if argv is None else argv)]
    outcome = "error"
    try:
        try:
            app(args=args)  # Click's standalone mode: ends with SystemExit, its code the command's
            outcome = "allowed"
        except SystemExit as exc:
            outcome = "allowed" if exc.code in (0, None) else "error"
            raise
    except OnrecordError as exc:
        outcome = "denied" if isinstance(exc, AccessDenied) else "error"
        # One clear sentence on stderr; exit 2 for bad input or usage.
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except Exception as exc:
        # A reader that met a writer's commit for longer than its wait (store/engine.py):
        # say so in a sentence; anything else is a bug and keeps its traceback.
        if "database is locked" not in str(exc):
            raise
        print("error: the case's store was held by another process's write for longer than this command "
              "waits ([store] lock_wait_s); try again when it has finished", file=sys.stderr)
        sys.exit(2)
    finally:
        record_command(args, outcome)
