"""Same seed, same bytes in every file; another seed, another incident."""

from __future__ import annotations

from pathlib import Path

from onrecord.scenario.generate import generate_case


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_writes_identical_bytes(case1, tmp_path):
    generate_case(1, tmp_path / "again")
    first, second = _files(case1), _files(tmp_path / "again")
    assert first.keys() == second.keys()
    different = [name for name in first if first[name] != second[name]]
    assert different == []


def test_different_seeds_differ_in_every_source(case1, make_case):
    one, two = _files(case1), _files(make_case(2))
    shared = [n for n in one if n in two and n.endswith((".csv", ".txt"))]
    assert len(shared) >= 20
    assert [n for n in shared if one[n] == two[n]] == []


def test_names_are_invented(case1):
    text = "\n".join(p.read_text(errors="replace") for p in case1.rglob("*") if p.suffix in (".csv", ".txt", ".json"))
    for real in ("Broward", "Parkland", "Coral Springs", "Stoneman Douglas"):
        assert real.lower() not in text.lower()
