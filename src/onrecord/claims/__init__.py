"""Free-text claims: who says which number about whom, and where accounts disagree.

Public API (plain dataclasses, JSON-ready):
- extract_claims(text, doc_id) -> list[Claim]
- analyse({doc_id: text}) -> Analysis (claims, entities, groups, conflicts)
- resolve_entities(docs) -> Resolution
- find_conflicts(claims) -> list[Conflict]
- compare_with_record(claim, lo, hi, unit) -> Comparison (supports | contradicts | cannot_tell)
- rows.claim_row(claim, names) -> a row of the case store's `claims` table

Heavy imports (spaCy, dateparser) happen on first use, not here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["extract_claims", "analyse", "resolve_entities", "find_conflicts", "compare_with_record"]


def __getattr__(name: str) -> Any:
    if name in {"extract_claims", "analyse"}:
        from onrecord.claims import extract

        return getattr(extract, name)
    if name in {"find_conflicts", "compare_with_record"}:
        from onrecord.claims import conflicts

        return getattr(conflicts, name)
    if name == "resolve_entities":
        from onrecord.claims.named_entities import resolve_entities

        return resolve_entities
    raise AttributeError(name)
