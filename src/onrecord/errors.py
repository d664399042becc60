"""Errors a user can act on. Each carries the file, line and field where there is one."""

from __future__ import annotations

from dataclasses import dataclass


class OnrecordError(Exception):
    """Base for errors reported to the user as one sentence, exit code 2."""

    exit_code = 2


@dataclass
class InputError(OnrecordError):
    """Bad input: names where it is so the user can fix it."""

    message: str
    file: str | None = None
    line: int | None = None
    field: str | None = None
    value: str | None = None
    path: str | None = None  # JSON Pointer / XPath / sheet row inside the file, where a line does not say it

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line is not None:
                where += f", line {self.line}"
            if self.path:
                where += f", at {self.path}"
            if self.field:
                where += f", field {self.field!r}"
            where += ": "
        tail = f" (value {self.value!r})" if self.value is not None else ""
        return f"{where}{self.message}{tail}"


class UsageError(OnrecordError):
    """The command was asked for something that cannot be done as asked."""


class CaseError(OnrecordError):
    """The case folder or its store is missing or not usable."""


class AccessDenied(OnrecordError):
    """The actor may not do or read this (their role, agency or cases do not allow it)."""
