#!/usr/bin/env python3
"""The engines at scale: one global HDBSCAN (or DBSCAN) of the same points through one process,
Spark local[2], a standalone Spark cluster of two one-core workers on loopback, and Dask on a
LocalCluster of two worker processes; wall time, peak memory, and the labels checked equal.

Usage: engines.py POINTS.csv [--engines single,spark-local,spark-standalone,dask]
                  [--algorithm hdbscan] [--tile-size 2000] [--halo H] [--min-cluster-size 50] [--min-samples 10]
                  [--eps 50] [--worker-memory 6g] [--json OUT.json]

POINTS.csv has id,x,y columns (metres: `geocluster generate --scenario seoul` writes them).
It is converted once to Parquet (POINTS.parquet, id,x,y) which every run reads. Each run is a
process of its own (`engines.py --run ENGINE ...`): it reads the Parquet file, clusters, and
writes id,label to a Parquet folder; its wall time counts from before the read to after the
write; the global HDBSCAN's driver also reports its steps' times (Driver.stats). Its memory is sampled every 0.2 s over its process tree (and the standalone master and
workers): the peak resident memory of the Python driver, of the JVM processes together (Spark),
and of the largest single worker process (Spark's Python workers, Dask's worker processes).
Every engine's labels are compared with the single process's (same numbers on the plane).

With --floor each run does everything but the clustering: the same start, reading and writing,
the rows passed once through Python as the engines' first pass passes them (Spark's
mapInPandas, Dask's map_partitions), and a label column attached through Python and written
as the engines attach theirs. Its wall times are what any engine run of these rows pays here
before it clusters anything.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil

ENGINES = ("single", "spark-local", "spark-standalone", "dask")


def parquet_of(csv_path):
    """POINTS.parquet beside POINTS.csv (id, x, y), made once."""
    out = csv_path.with_suffix(".parquet")
    if not out.exists():
        pd.read_csv(csv_path, usecols=["id", "x", "y"]).to_parquet(out, index=False)
    return out


def halo_of(args):
    return {} if args.halo is None or args.algorithm != "hdbscan" else dict(halo=args.halo)


def params_of(args):
    if args.algorithm == "hdbscan":
        return dict(min_cluster_size=args.min_cluster_size, min_samples=args.min_samples)
    return dict(eps=args.eps, min_samples=args.min_samples)


def engine_params_of(args):
    """The engines' parameters: the single run's, and for HDBSCAN the driver's final fit on
    both of its cores (as the single run fits on both)."""
    return params_of(args) | (dict(n_jobs=2) if args.algorithm == "hdbscan" else {})


# ---- one run, in its own process ----------------------------------------------------------------

def run_single(args, data, out):
    from geocluster_hdbscan import DBSCAN, HDBSCAN
    frame = pd.read_parquet(data).sort_values("id", kind="stable")
    if args.floor:
        labels = np.zeros(len(frame), dtype=np.int32)
    else:
        model = (HDBSCAN if args.algorithm == "hdbscan" else DBSCAN)(n_jobs=2, **params_of(args))
        labels = model.fit(frame[["x", "y"]].to_numpy()).labels_
    out.mkdir()
    pd.DataFrame({"id": frame["id"].to_numpy(), "label": labels}).to_parquet(out / "part.parquet")


def floor_labels(pdf):
    """--floor: a label column attached in Python, as the engines attach theirs."""
    return pdf.assign(label=np.zeros(len(pdf), dtype=np.int32), probability=np.ones(len(pdf)))


def rows_seen(batches):
    """--floor (Spark): the rows passed once through Python."""
    yield pd.DataFrame({"rows": [sum(len(pdf) for pdf in batches)]})


def spark_floor(df):
    from pyspark.sql import types as T
    df.mapInPandas(rows_seen, "rows long").collect()
    schema = T.StructType(df.schema.fields + [T.StructField("label", T.IntegerType()),
                                              T.StructField("probability", T.DoubleType())])
    return df.mapInPandas(lambda batches: (floor_labels(pdf) for pdf in batches), schema)


def dask_floor(ddf):
    ddf.map_partitions(len).compute()
    meta = ddf._meta.assign(label=np.array([], dtype=np.int32), probability=np.array([], dtype=np.float64))
    return ddf.map_partitions(floor_labels, meta=meta)


def spark_session(master):
    from pyspark.sql import SparkSession
    builder = (SparkSession.builder.master(master).appName("geocluster-engines-bench")
               .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.memory", "8g")
               .config("spark.driver.maxResultSize", "0")
               .config("spark.sql.shuffle.partitions", "64").config("spark.pyspark.python", sys.executable))
    if master.startswith("spark://"):
        builder = builder.config("spark.executor.cores", "1").config("spark.executor.memory", "4g")
    return builder.getOrCreate()


def run_spark(args, data, out, master):
    from geocluster_hdbscan import spark as gcs
    spark = spark_session(master)
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.parquet(str(data))
    result = spark_floor(df) if args.floor else \
        gcs.cluster(df, algorithm=args.algorithm, tile_size=args.tile_size, **engine_params_of(args), **halo_of(args))
    result.select("id", "label").write.parquet(str(out))
    spark.stop()


def run_dask(args, data, out):
    import dask.dataframe as dd
    import distributed
    from geocluster_hdbscan import dask as gcd
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  memory_limit=args.worker_memory.replace("g", "GiB")) as cluster, \
            distributed.Client(cluster):
        ddf = dd.read_parquet(str(data), split_row_groups=True)
        ddf = ddf.repartition(npartitions=max(ddf.npartitions, 16))
        result = dask_floor(ddf) if args.floor else \
            gcd.cluster(ddf, algorithm=args.algorithm, tile_size=args.tile_size, **engine_params_of(args), **halo_of(args))
        result[["id", "label"]].to_parquet(str(out))


def run(args):
    data, out = Path(args.data), Path(args.out)
    steps = {}
    if args.run != "single" and not args.floor:
        from geocluster_hdbscan import _tiled_driver
        driver_run = _tiled_driver.Driver.run

        def keeping_stats(driver):
            try:
                return driver_run(driver)
            finally:
                steps.update(driver.stats)

        _tiled_driver.Driver.run = keeping_stats
    start = time.perf_counter()
    if args.run == "single":
        run_single(args, data, out)
    elif args.run == "dask":
        run_dask(args, data, out)
    else:
        run_spark(args, data, out, args.master)
    print(json.dumps({"seconds": time.perf_counter() - start, "driver steps": steps}))


# ---- the harness -------------------------------------------------------------------------------

class Sampler(threading.Thread):
    """Peak resident memory (bytes) of a process tree, sampled every 0.2 s: the root (the
    driver), JVMs together, and the largest single other Python process."""

    def __init__(self, root, extra=()):
        super().__init__(daemon=True)
        self.root, self.extra = psutil.Process(root), [psutil.Process(p) for p in extra]
        self.peaks = {"driver": 0, "jvm": 0, "largest worker": 0}
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            try:
                processes = self.root.children(recursive=True)
                for e in self.extra:
                    processes += [e] + e.children(recursive=True)
                self.sample(processes)
            except psutil.Error:
                pass
            time.sleep(0.2)

    def sample(self, processes):
        jvm, largest = 0, 0
        for p in processes:
            try:
                rss, name = p.memory_info().rss, p.name()
            except psutil.Error:
                continue
            if name == "java":
                jvm += rss
            else:
                largest = max(largest, rss)
        self.peaks["jvm"] = max(self.peaks["jvm"], jvm)
        self.peaks["largest worker"] = max(self.peaks["largest worker"], largest)
        try:
            self.peaks["driver"] = max(self.peaks["driver"], self.root.memory_info().rss)
        except psutil.Error:
            pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def standalone(tmp, memory):
    """A master and two one-core workers on 127.0.0.1 (spark-class from the PySpark install)."""
    import pyspark
    home = os.path.dirname(pyspark.__file__)
    env = dict(os.environ, SPARK_HOME=home, SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1")
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    commands = [["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
                 "--webui-port", str(free_port())]]
    commands += [["org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "1", "--memory",
                  memory, "--webui-port", str(free_port()), "--work-dir", str(tmp / f"worker{i}")] for i in range(2)]
    processes = [subprocess.Popen([os.path.join(home, "bin", "spark-class"), *c], env=env,
                                  stdout=open(tmp / f"process{i}.log", "w"), stderr=subprocess.STDOUT)
                 for i, c in enumerate(commands)]
    time.sleep(8)
    return url, processes


def measure(engine, args, data, tmp):
    """One engine's run in its own process: wall seconds, peak memory, its labels' folder."""
    out = tmp / f"labels-{engine}"
    master, servers = "local[2]", []
    if engine == "spark-standalone":
        master, servers = standalone(tmp, args.worker_memory)
    command = [sys.executable, __file__, "--run", "single" if engine == "single" else engine.split("-")[0],
               "--data", str(data), "--out", str(out), "--master", master, "--algorithm", args.algorithm,
               "--tile-size", str(args.tile_size), "--min-cluster-size", str(args.min_cluster_size),
               "--min-samples", str(args.min_samples), "--eps", str(args.eps), "--worker-memory", args.worker_memory]
    if args.halo is not None:
        command += ["--halo", str(args.halo)]
    if args.floor:
        command.append("--floor")
    child = subprocess.Popen(command, stdout=subprocess.PIPE, env=dict(os.environ, PYSPARK_PYTHON=sys.executable))
    sampler = Sampler(child.pid, [s.pid for s in servers])
    sampler.start()
    stdout, _ = child.communicate()
    sampler.done.set()
    sampler.join()
    for s in servers:
        s.terminate()
        s.wait(30)
    if child.returncode != 0:
        raise SystemExit(f"{engine} failed (exit {child.returncode})")
    report = json.loads(stdout.decode().strip().splitlines()[-1])
    return {"engine": engine, "seconds": report["seconds"], **{k: v / 2**20 for k, v in sampler.peaks.items()},
            "driver steps": report["driver steps"]}, out


def labels_of(folder):
    frame = pd.read_parquet(folder).sort_values("id", kind="stable")
    return frame["label"].to_numpy()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("points", nargs="?")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--algorithm", default="hdbscan", choices=("hdbscan", "dbscan"))
    parser.add_argument("--tile-size", type=float, default=2000.0)
    parser.add_argument("--halo", type=float, default=None, help="the global HDBSCAN's halo (default: tile size / 4)")
    parser.add_argument("--min-cluster-size", type=int, default=50)
    parser.add_argument("--min-samples", type=int, default=10)
    parser.add_argument("--eps", type=float, default=50.0)
    parser.add_argument("--worker-memory", default="6g")
    parser.add_argument("--floor", action="store_true",
                        help="everything but the clustering: start, read, one pass through Python, attach, write")
    parser.add_argument("--json")
    parser.add_argument("--run", choices=("single", "spark", "dask"), help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--master", default="local[2]", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        return run(args)
    data = parquet_of(Path(args.points))
    rows, reference = [], None
    tmp = Path(tempfile.mkdtemp(prefix="geocluster-engines-"))
    try:
        for engine in args.engines.split(","):
            row, out = measure(engine, args, data, tmp)
            labels = labels_of(out)
            reference = labels if reference is None else reference
            row["labels equal to the first run's"] = bool(np.array_equal(labels, reference))
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
