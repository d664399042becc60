"""Audit entries for the command line's reads and changes of a case: `onrecord timeline`,
`metrics`, `discrepancies`, `subjects`, `report`, `verify` and `search` are reads; `import`,
`build`, `link` and `pin-clock` change the case. One entry per command, written when it
ends: the operator (login@host), the command line, and how it ended."""

from __future__ import annotations

import sys
from pathlib import Path

READS = {"timeline", "metrics", "discrepancies", "subjects", "report", "verify", "search"}
CHANGES = {"import": "import", "build": "build", "link": "build", "pin-clock": "permission_change"}


def record_command(argv: list[str], outcome: str) -> None:
    """Write the entry, if the command names a case folder that opens; never fails the command."""
    if not argv or (argv[0] not in READS and argv[0] not in CHANGES) or len(argv) < 2:
        return
    folder = Path(argv[1])
    if not (folder / "onrecord.toml").is_file():
        return
    from sqlalchemy.exc import DBAPIError

    from onrecord.access.audit import AuditLog
    from onrecord.cli.access import operator
    from onrecord.errors import OnrecordError
    from onrecord.store.case import open_case

    url = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--database-url"), None)
    try:
        case = open_case(folder, url)
    except OnrecordError:
        return
    except DBAPIError as exc:  # the store itself cannot be reached or is held: say so, once
        _unwritten(exc)
        return
    try:
        AuditLog(case.engine).event(operator(), "cli", "read" if argv[0] in READS else CHANGES[argv[0]],
                                    "onrecord " + " ".join(argv), None, outcome, case.id)
    except DBAPIError as exc:
        _unwritten(exc)
    finally:
        case.engine.dispose()


def _unwritten(exc: Exception) -> None:
    # An audit entry that cannot be written is said, not hidden: the reader can tell the log is short.
    reason = "the store was held by another write" if "locked" in str(exc) else "the store could not be written"
    print(f"warning: this command's audit entry was not written ({reason})", file=sys.stderr)
