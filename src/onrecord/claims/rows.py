"""Claims as rows of the case store's `claims` table (store/schema.py), so `build` can
save what `extract_claims` finds without knowing its insides. Ids (row id, case, source,
entity row ids) belong to the store and are filled there."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from onrecord.model import Claim


def claim_row(claim: Claim, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The columns of one `claims` row; the whole claim also goes in `payload`."""
    names = names or {}
    ref = json.dumps(claim.time_ref, ensure_ascii=False) if claim.time_ref else None
    return {
        "span_lo": claim.start,
        "span_hi": claim.end,
        "sentence": claim.sentence,
        "speaker": (names.get(claim.speaker or "") or claim.speaker_text or claim.speaker or "")[:200] or None,
        "subject": (names.get(claim.subject or "") or claim.subject_text or claim.subject or "")[:200] or None,
        "measure": claim.measure[:60],
        "value_lo": claim.lo,
        "value_hi": claim.hi,
        "unit": claim.unit[:20],
        "hedge": (claim.hedge or None) and claim.hedge[:40],
        "time_ref": ref if ref is None or len(ref) <= 80 else ref[:79] + "…",
        "payload": json.dumps(asdict(claim), ensure_ascii=False),
    }
