"""geocluster_hdbscan.spark in local mode (local[2]) and on a standalone Spark master with two
one-core workers on loopback, started here from the PySpark install (spark-class): the global
DBSCAN and HDBSCAN and the per-group mode equal the single-process estimators exactly
(engines_cases.py). Skipped when PySpark or pyarrow is not installed or `java` is not on PATH."""

import os
import shutil
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install './python[spark]')")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install './python[spark]')")
if shutil.which("java") is None:
    pytest.skip("java is not on PATH: Spark needs a JVM (Debian: apt-get install openjdk-17-jre-headless)",
                allow_module_level=True)

import engines_cases as cases  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

from geocluster_hdbscan import spark as gcs  # noqa: E402

SPARK_HOME = os.path.dirname(pyspark.__file__)
# PySpark 4.3's own warnings about pandas 3 (python/requirements-engines.txt).
pytestmark = [pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
              pytest.mark.filterwarnings("ignore:The copy keyword is deprecated")]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _standalone(tmp):
    """A master and two workers (1 core, 1 GB each) on 127.0.0.1, as `spark-class` runs them
    on a real cluster's machines; returns (master URL, processes)."""
    env = dict(os.environ, SPARK_HOME=SPARK_HOME, SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1")
    if env.get("PYTHONPATH"):  # the executors run in the workers' own folders
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    spark_class = os.path.join(SPARK_HOME, "bin", "spark-class")
    port = _free_port()
    url = f"spark://127.0.0.1:{port}"
    commands = [["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
                 "--webui-port", str(_free_port())]]
    commands += [["org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "1", "--memory",
                  "1g", "--webui-port", str(_free_port()), "--work-dir", str(tmp / f"worker{i}")] for i in range(2)]
    processes = []
    for i, command in enumerate(commands):
        log = open(tmp / f"process{i}.log", "w")
        processes.append(subprocess.Popen([spark_class, *command], env=env, stdout=log, stderr=subprocess.STDOUT))
    return url, processes


def _session(master):
    return (SparkSession.builder.master(master).appName("geocluster-engines-test")
            .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "4")
            .config("spark.executor.cores", "1").config("spark.executor.memory", "512m")
            .config("spark.pyspark.python", sys.executable).getOrCreate())


def _wait_for_executors(session, count, timeout=120):
    """The driver counts itself among the block managers: `count` executors is count + 1."""
    deadline = time.monotonic() + timeout
    while session.sparkContext._jsc.sc().getExecutorMemoryStatus().size() < count + 1:
        if time.monotonic() > deadline:
            pytest.fail(f"the standalone cluster did not register {count} executors in {timeout} s")
        time.sleep(1)


@pytest.fixture(scope="module", params=["local[2]", "standalone"])
def spark(request, tmp_path_factory):
    """One SparkSession at a time (PySpark allows one per process): local[2], then the
    standalone cluster, stopped (master and workers too) before the next."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    processes = []
    master = request.param
    if master == "standalone":
        master, processes = _standalone(tmp_path_factory.mktemp("spark-standalone"))
    try:
        session = _session(master)
        session.sparkContext.setLogLevel("ERROR")
        if processes:
            _wait_for_executors(session, 2)
        yield session
        session.stop()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def run(spark, frame, **kwargs):
    return gcs.cluster(spark.createDataFrame(frame), **kwargs).toPandas()


def run_groups(spark, frame, **kwargs):
    return gcs.cluster_groups(spark.createDataFrame(frame), **kwargs).toPandas()


@pytest.mark.parametrize("tile_size", [40, 150])
def test_blobs_at_several_tile_sizes(spark, tile_size):
    frame = cases.blobs()
    labels = cases.check_cluster(run(spark, frame, eps=12, min_samples=5, tile_size=tile_size), frame, eps=12,
                                 min_samples=5)
    assert labels.max() >= 4


def test_border_point_takes_the_lowest_cluster_across_tiles(spark):
    frame = cases.contested_border()
    labels = cases.check_cluster(run(spark, frame, eps=1, min_samples=4, tile_size=10), frame, eps=1, min_samples=4)
    by_id = dict(zip(frame.sort_values("id")["id"], labels))
    assert by_id[0] == 0 and by_id[50] == 1 and by_id[7] == 0


def test_duplicates_on_tile_corners_and_edges(spark):
    frame = cases.duplicates()
    labels = cases.check_cluster(run(spark, frame, eps=1, min_samples=5, tile_size=5), frame, eps=1, min_samples=5)
    cases.check_duplicates(frame, labels)


def test_brute_force(spark):
    frame = cases.blobs(seed=11, n=600)
    labels, core = cases.brute_force(frame, 12, 4)
    result = run(spark, frame, eps=12, min_samples=4, tile_size=40).sort_values("id")
    assert np.array_equal(result["label"].to_numpy(), labels)
    assert np.array_equal(result["is_core"].to_numpy(), core)


def test_world_across_the_antimeridian_and_the_pole(spark):
    frame = cases.world()
    params = dict(eps=0.004, min_samples=5, metric="haversine")
    labels = cases.check_cluster(run(spark, frame, columns=("lat", "lon"), tile_size=0.1, **params), frame,
                                 columns=("lat", "lon"), **params)
    assert labels.max() >= 4


def test_ragged_clusters_across_the_antimeridian(spark):
    frame = cases.antimeridian_band()
    params = dict(eps=0.01, min_samples=4, metric="haversine")
    cases.check_cluster(run(spark, frame, columns=("lat", "lon"), tile_size=0.03, **params), frame,
                        columns=("lat", "lon"), **params)


def test_groups_dbscan(spark):
    frame = cases.blobs()
    result = run_groups(spark, frame, by=["g", "h"], algorithm="dbscan", eps=12, min_samples=5)
    assert cases.check_groups(result, frame, ["g", "h"], "dbscan", eps=12, min_samples=5) == 6


def test_groups_hdbscan(spark):
    frame = cases.blobs()
    result = run_groups(spark, frame, by="g", algorithm="hdbscan", min_cluster_size=15)
    assert cases.check_groups(result, frame, ["g"], "hdbscan", min_cluster_size=15) == 3


@pytest.mark.parametrize("tile_size", [60, 200])
def test_global_hdbscan_blobs(tile_size, spark):
    frame = cases.blobs()
    params = dict(min_cluster_size=15, min_samples=5)
    result = run(spark, frame, algorithm="hdbscan", tile_size=tile_size, **params)
    assert cases.check_hdbscan(result, frame, **params).max() >= 4


def test_global_hdbscan_far_apart_and_lone_points(spark):
    frame = cases.far_apart()
    params = dict(min_cluster_size=20, min_samples=6)
    result = run(spark, frame, algorithm="hdbscan", tile_size=20, **params)
    labels = cases.check_hdbscan(result, frame, **params)
    assert labels.max() == 2 and (labels == -1).sum() >= 5


def test_global_hdbscan_duplicates(spark):
    frame = cases.duplicates()
    params = dict(min_cluster_size=5, min_samples=4)
    cases.check_hdbscan(run(spark, frame, algorithm="hdbscan", tile_size=5, **params), frame, **params)


def test_global_hdbscan_world_across_the_antimeridian_and_the_pole(spark):
    frame = cases.world()
    params = dict(min_cluster_size=20, min_samples=5, metric="haversine")
    result = run(spark, frame, algorithm="hdbscan", columns=("lat", "lon"), tile_size=0.1, **params)
    assert cases.check_hdbscan(result, frame, columns=("lat", "lon"), **params).max() >= 4
