"""The Spark backend (PySpark local mode) gives the same people as DuckDB.

Mandatory in CI: with CI=true a missing PySpark is a failure, never a skip.
"""

from __future__ import annotations

import os

import pytest

from onrecord.warnings.linkage import link_persons
from onrecord.warnings.persons import prepare_persons
from tests.warnings.people import AGENCY_ROWS, DATE_FORMATS, FARRADAY_ROWS

pytestmark = [pytest.mark.spark, pytest.mark.slow]


def _require_pyspark() -> None:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("PySpark is not installed; CI must run the Spark linkage test")
        pytest.skip("PySpark not installed (pip install 'onrecord[spark]')")


def _groups(clusters):
    """Clusters as sets of record ids: person ids may be named differently."""
    return {frozenset(g) for _, g in clusters.groupby("person_id")["record_id"]}


def test_spark_and_duckdb_find_the_same_people_and_weights():
    """Includes the nickname (an array of name forms), typing-slip and run-together levels."""
    _require_pyspark()
    clean, _ = prepare_persons(AGENCY_ROWS + FARRADAY_ROWS, {**DATE_FORMATS, "family": "%d/%m/%Y"})
    on_duckdb = link_persons(clean, backend="duckdb")
    on_spark = link_persons(clean, backend="spark")
    assert _groups(on_spark.clusters) == _groups(on_duckdb.clusters)
    assert any(len(g) == 4 for g in _groups(on_spark.clusters))

    def keyed(pairs):
        return {frozenset((a, b)): round(w, 6) for a, b, w in
                pairs[["record_id_l", "record_id_r", "match_weight"]].itertuples(index=False)}

    assert keyed(on_spark.pairs) == keyed(on_duckdb.pairs)
