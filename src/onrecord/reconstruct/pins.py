"""Clock offsets a user knows and pins: `[clocks]` in the case's onrecord.toml.

    [clocks."campus_cameras.csv"]
    offset_s = -232.5        # the camera runs 232.5 s slow (written - true)
    uncertainty_s = 0.5

A pinned offset wins over any estimate (`onrecord pin-clock` writes it).
"""

from __future__ import annotations

import pandas as pd

from onrecord.store.case import Case


def pinned_offsets(case: Case, sources: pd.DataFrame) -> tuple[dict[int, tuple[float, float]], list[str]]:
    pins = case.settings.get("clocks", {})
    by_name: dict[str, list[int]] = {}
    for s in sources.itertuples():
        by_name.setdefault(s.file_name, []).append(int(s.id))
    out, problems = {}, []
    for name, pin in pins.items():
        if isinstance(pin, dict) and "offset_s" not in pin and ("trust" in pin or "name" in pin):
            continue  # a declared trust or a shared clock, not a pin (clock_trust.py, shared_clock.py)
        ids = by_name.get(name)
        if not ids:
            problems.append(f"onrecord.toml pins the clock of {name!r}, but no source of that name is imported")
            continue
        try:
            offset, unc = float(pin["offset_s"]), float(pin.get("uncertainty_s", 0.0))
        except (KeyError, TypeError, ValueError):
            problems.append(f"onrecord.toml [clocks.{name!r}] needs offset_s = <seconds>")
            continue
        for i in ids:
            out[i] = (offset, unc)
    return out, problems


def write_pin(case_dir, source: str, offset_s: float, uncertainty_s: float) -> None:
    """Add or replace one pin in onrecord.toml, keeping the rest of the file as it is."""
    import re
    import tomllib

    from onrecord.errors import CaseError
    from onrecord.store.case import CASE_FILE

    path = case_dir / CASE_FILE
    if not path.exists():
        raise CaseError(f"{case_dir}: not a case folder (no {CASE_FILE})")
    text = path.read_text(encoding="utf-8")
    header = f'[clocks."{source}"]'
    block = f"{header}\noffset_s = {offset_s!r}\nuncertainty_s = {uncertainty_s!r}\n"
    pattern = re.compile(re.escape(header) + r"\n(?:[^\[\n][^\n]*\n?)*")
    text = pattern.sub(block, text) if header in text else text.rstrip("\n") + "\n\n" + block
    tomllib.loads(text)  # never leave a file the next open cannot read
    path.write_text(text, encoding="utf-8")
