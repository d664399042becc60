"""Every attribute the build reads is documented, with its meaning and allowed values."""

from __future__ import annotations

import re
from pathlib import Path

from onrecord.attributes import READ_BY_THE_BUILD, yes_no

DOC = (Path(__file__).resolve().parents[1] / "docs" / "attributes.md").read_text(encoding="utf-8")


def test_every_attribute_the_build_reads_has_a_row_in_the_docs():
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", DOC, re.M))
    assert set(READ_BY_THE_BUILD) <= documented
    assert "true/false/yes/no/Y/N" in DOC


def test_yes_no_reads_every_spelling_and_says_nothing_for_blank_or_unknown():
    assert [yes_no(v) for v in ("Y", "n", "Yes", "NO", "true", "False", True)] == [True, False, True, False,
                                                                                   True, False, True]
    assert yes_no("") is None and yes_no(None) is None and yes_no("maybe") is None
