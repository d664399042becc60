"""docs/claims.md documents every measure and every hedge the code knows."""

from pathlib import Path

from onrecord.claims.measures import MEASURES
from onrecord.claims.numbers import HEDGES, TRAILING_HEDGES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "claims.md").read_text(encoding="utf-8")


def test_every_measure_is_documented():
    missing = [m for m in MEASURES if f"`{m}`" not in DOC]
    assert missing == []


def test_every_hedge_is_documented():
    missing = [h for h in [*HEDGES, *TRAILING_HEDGES] if f'"{h}"' not in DOC]
    assert missing == []
