"""Background calls: right count, time order, unique ids, deterministic, flat memory."""

from __future__ import annotations

import csv
import tracemalloc

import pytest

from onrecord.scenario import background
from onrecord.scenario.generate import tell_story
from onrecord.scenario.truth import TruthBook


@pytest.fixture(scope="module")
def story():
    return tell_story(5)


def _write(story, tmp_path, n):
    book = TruthBook()
    info = background.write_background(story, tmp_path, 5, n, book)
    return tmp_path / info["file"], info, book


def test_rows_ids_and_order(story, tmp_path, monkeypatch):
    monkeypatch.setattr(background, "CHUNK", 700)  # several chunks
    path, info, book = _write(story, tmp_path, 3000)
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 3000 == info["rows"] == book.sources[path.name]["rows"]
    assert len({r["CFS_ID"] for r in rows}) == 3000
    received = [r["RECEIVED"] for r in rows]
    assert received == sorted(received)
    assert all(len(t) == 14 for t in received)
    assert all(r["RECEIVED"] <= r["DISPATCHED"] for r in rows)
    assert rows[-1]["RECEIVED"][:8] < background.LocalClock(story.world.tz, story.t0, story.t0).text(int(story.t0))[:8]


def test_same_seed_same_bytes(story, tmp_path):
    a, _, _ = _write(story, tmp_path / "a", 1500)
    b, _, _ = _write(story, tmp_path / "b", 1500)
    assert a.read_bytes() == b.read_bytes()


def test_memory_does_not_grow_with_n(story, tmp_path, monkeypatch):
    monkeypatch.setattr(background, "CHUNK", 500)
    peaks = []
    for n in (1000, 4000):
        tracemalloc.start()
        _write(story, tmp_path / str(n), n)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < peaks[0] * 1.5  # four times the rows, about the same peak
