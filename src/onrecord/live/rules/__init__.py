"""Alert rules as data: one TOML file a rule (`[rule]` and its `[[when]]` tests). The
bundled ones are the `.toml` files beside this module; `onrecord live --rules FILE`
adds a user's (a file or a folder of them). docs/live.md describes the format.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from onrecord.errors import InputError
from onrecord.live.rules.tests import ANY, REQUIRED, TESTS

BUNDLED = Path(__file__).parent
SUBJECTS = tuple(sorted(ANY))
CAP_SEVERITY = ("Extreme", "Severe", "Moderate", "Minor", "Unknown")
CAP_URGENCY = ("Immediate", "Expected", "Future", "Past", "Unknown")
CAP_CERTAINTY = ("Observed", "Likely", "Possible", "Unlikely", "Unknown")


@dataclass(frozen=True)
class When:
    test: str
    params: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Rule:
    name: str
    title: str
    subject: str
    hold_s: float
    when: tuple[When, ...]
    severity: str = "Severe"
    urgency: str = "Immediate"
    certainty: str = "Observed"
    description: str = ""
    origin: str = ""


def bundled_rules() -> list[Rule]:
    return [load_rule(p) for p in sorted(BUNDLED.glob("*.toml"))]


def load_rules(extra: Path | str | None = None) -> list[Rule]:
    """The bundled rules, then a user's (a .toml file or a folder of them); a user's rule
    of the same name replaces the bundled one."""
    rules = {r.name: r for r in bundled_rules()}
    if extra is not None:
        extra = Path(extra)
        if not extra.exists():
            raise InputError("no such rules file or folder", file=str(extra))
        for path in sorted(extra.glob("*.toml")) if extra.is_dir() else [extra]:
            r = load_rule(path)
            rules[r.name] = r
    return list(rules.values())


def load_rule(path: Path) -> Rule:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read rule: {exc.strerror}", file=str(path)) from exc
    return parse_rule(text, str(path))


def parse_rule(text: str, origin: str) -> Rule:
    def fail(key, message, value=None):
        raise InputError(message, file=origin, field=key, value=None if value is None else str(value))

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", file=origin) from exc
    head = doc.get("rule")
    if not isinstance(head, dict):
        fail("rule", "a [rule] table is required")
    name = head.get("name") or fail("rule.name", "is required")
    subject = head.get("subject") or fail("rule.subject", "is required")
    if subject not in SUBJECTS:
        fail("rule.subject", f"must be one of {', '.join(SUBJECTS)}", subject)
    hold = head.get("hold_s", 0)
    if not isinstance(hold, int | float) or hold < 0:
        fail("rule.hold_s", "must be a number of seconds, 0 or more", hold)
    for key, allowed in (("severity", CAP_SEVERITY), ("urgency", CAP_URGENCY), ("certainty", CAP_CERTAINTY)):
        if key in head and head[key] not in allowed:
            fail(f"rule.{key}", f"must be one of {', '.join(allowed)} (CAP 1.2)", head[key])
    blocks = doc.get("when")
    if not isinstance(blocks, list) or not blocks:
        fail("when", "at least one [[when]] test is needed")
    when = tuple(_when(i, b, subject, fail) for i, b in enumerate(blocks))
    return Rule(name=str(name), title=str(head.get("title", name)), subject=subject, hold_s=float(hold), when=when,
                severity=head.get("severity", "Severe"), urgency=head.get("urgency", "Immediate"),
                certainty=head.get("certainty", "Observed"), description=str(head.get("description", "")),
                origin=origin)


def _when(i: int, block, subject: str, fail) -> When:
    key = f"when[{i + 1}]"
    if not isinstance(block, dict) or "test" not in block:
        fail(key, "needs test = NAME")
    name = block["test"]
    t = TESTS.get(name)
    if t is None:
        fail(f"{key}.test", f"is not a test ({', '.join(sorted(TESTS))})", name)
    if subject not in t.subjects:
        fail(f"{key}.test", f"cannot be asked of a {subject} (only of {', '.join(sorted(t.subjects))})", name)
    unknown = set(block) - {"test"} - {p.rstrip("_") for p in t.params}
    if unknown:
        fail(f"{key}.{sorted(unknown)[0]}", f"is not a parameter of {name} ({', '.join(t.params) or 'none'})")
    params = {}
    for pname, (ptype, default) in t.params.items():
        written = pname.rstrip("_")  # `is` is a Python word: the test takes it as is_
        if written in block:
            value = block[written]
            ok = isinstance(value, ptype) or (ptype is float and isinstance(value, int) and not isinstance(value, bool))
            if not ok:
                fail(f"{key}.{written}", f"must be a {ptype.__name__}", value)
            params[pname] = float(value) if ptype is float else value
        elif default is REQUIRED:
            fail(f"{key}.{written}", "is required")
    return When(name, tuple(sorted(params.items())))
