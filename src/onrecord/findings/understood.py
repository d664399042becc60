"""Per source, what the build could not understand (reconstruct/understood.py), as a
finding the CLI and the web sources page show: kind "source_check", one per source."""

from __future__ import annotations

from onrecord.model import Finding

UNTIMED = ("roster", "statement", "press", "tip", "contact")


def source_checks(r, found: list[Finding]) -> list[Finding]:
    out = []
    for s in r.sources.itertuples():
        said = (r.understood or {}).get(int(s.id))
        if said is None:
            continue
        if s.kind in UNTIMED:  # read for who is who, claims or links, not for moments
            said = {**said, "shares_moment": None}
        out.append(Finding("source_understood", "established", kind="source_check", subject=s.file_name,
                           value_lo=said["unclassified"], value_hi=said["unclassified"], unit="count",
                           payload=said))
    return out
