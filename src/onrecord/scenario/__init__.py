"""Fictional incidents whose truth is known: the yardstick for every accuracy claim.

`generate.generate_case(seed, out)` writes one incident's sources, a mapping beside each
and `truth.json`; `score` compares a built case with that truth. See docs/scenario.md.
"""
