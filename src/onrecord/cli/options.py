"""The options and arguments several commands share, and how they print JSON."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand

CaseArg = Annotated[Path, typer.Argument(help="case folder")]
DatabaseUrl = Annotated[Optional[str], typer.Option(
    "--database-url", help="PostgreSQL URL; default: SQLite file in the case folder (or $ONRECORD_DATABASE_URL)")]
JsonOut = Annotated[bool, typer.Option("--json", help="the documented JSON (docs/json.md)")]


def print_json(doc: dict) -> None:
    json.dump(doc, sys.stdout, indent=1, default=str)
    sys.stdout.write("\n")


def say_if_stale(reader) -> None:
    """On stderr, so a --json document on stdout stays whole: the build is older than the events."""
    note = reader.stale_build()
    if note:
        print(f"note: out of date: {note}", file=sys.stderr)


NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


class NegativeNumbers(TyperCommand):
    """A command whose arguments may be negative numbers (`pin-clock CASE FILE -- -232.5
    --uncertainty 0.5`, or without the `--`): options are read wherever they stand, and a
    negative number is an argument, not an option. Click alone takes everything after `--`
    as arguments (the option is then refused) and `-232.5` before it as an option."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        return super().parse_args(ctx, options_first(self, args))


def options_first(command, args: list[str]) -> list[str]:
    takes_value = {}
    for p in command.params:
        if getattr(p, "param_type_name", "") == "option":
            for name in p.opts + p.secondary_opts:
                takes_value[name] = not p.is_flag and not p.count
    options, arguments, at = [], [], 0
    while at < len(args):
        token = args[at]
        name = token.split("=", 1)[0]
        if token == "--" or NEGATIVE_NUMBER.match(token):
            if token != "--":
                arguments.append(token)
        elif name in takes_value:
            options.append(token)
            if takes_value[name] and "=" not in token and at + 1 < len(args):
                at += 1
                options.append(args[at])
        elif token.startswith("-") and len(token) > 1:
            options.append(token)  # an unknown option: click says so
        else:
            arguments.append(token)
        at += 1
    return options + ["--"] + arguments
