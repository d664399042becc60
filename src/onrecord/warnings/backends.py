"""Where the linkage SQL runs: DuckDB embedded (default) or Spark (statewide scale).

The model is identical on both; only Splink's database API changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from onrecord.errors import UsageError

LOCAL_PARTITIONS = 2


def duckdb_api(spark_session: Any = None) -> Any:
    from splink.backends.duckdb import DuckDBAPI

    return DuckDBAPI()


def spark_api(spark_session: Any = None) -> Any:
    from splink.backends.spark import SparkAPI

    # Splink's default way of cutting long query plans (parquet files in the
    # checkpoint directory) is kept, so local tests run the cluster code path.
    session = spark_session or local_spark_session()
    _ensure_checkpoint_dir(session)
    return SparkAPI(spark_session=session)


# Linkage backends by the name `onrecord link --backend` takes: each makes Splink's
# database API for one engine (extensions.py; docs/extending.md).
BACKENDS: dict[str, Callable[..., Any]] = {"duckdb": duckdb_api, "spark": spark_api}


def database_api(backend: str, spark_session: Any = None) -> Any:
    make = BACKENDS.get(backend)
    if make is None:
        raise UsageError(f"unknown linkage backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    return make(spark_session)


def _ensure_checkpoint_dir(session: Any) -> None:
    """Splink cuts long query plans with checkpoints, which need a directory."""
    import atexit
    import shutil
    import tempfile

    context = session.sparkContext
    if not context.getCheckpointDir():
        directory = tempfile.mkdtemp(prefix="onrecord-spark-")
        context.setCheckpointDir(directory)
        # Our directory, so ours to remove: intermediate tables are not results.
        atexit.register(shutil.rmtree, directory, ignore_errors=True)


def local_spark_session(cores: int = 2, partitions: int = LOCAL_PARTITIONS) -> Any:
    """A PySpark local-mode session that can run Splink's string similarities.

    Splink's Jaro-Winkler and friends live in a JAR inside the splink wheel; without
    it on `spark.jars` every name comparison fails as an unresolved function.
    """
    try:
        from pyspark.sql import SparkSession
    except ImportError as exc:
        raise UsageError(
            "the spark backend needs PySpark: pip install 'onrecord[spark]'"
        ) from exc
    from splink.backends.spark import similarity_jar_location

    return (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("onrecord-linkage")
        .config("spark.jars", similarity_jar_location())
        # Few partitions: local mode on a small machine, not a cluster.
        .config("spark.sql.shuffle.partitions", str(partitions))
        .config("spark.default.parallelism", str(partitions))
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
