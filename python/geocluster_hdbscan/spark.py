"""geocluster on Spark: exact DBSCAN and HDBSCAN of a PySpark DataFrame's points (docs/engines.md).

    from geocluster_hdbscan import spark as gcs
    out = gcs.cluster(df, columns=("x", "y"), id_column="id", eps=50, min_samples=5)
    per_city = gcs.cluster_groups(df, by=["city"], algorithm="hdbscan", min_cluster_size=15)

Needs the `spark` extra (pip install "geocluster-hdbscan[spark]": PySpark and pyarrow) and
geocluster_hdbscan installed on every executor; importing geocluster_hdbscan alone never
imports PySpark.
"""

import contextlib
import pickle

import numpy as np
import pandas as pd
from pyspark import StorageLevel
from pyspark.sql import functions as F
from pyspark.sql import types as T

from . import _engines as e
from . import _tiled_hdbscan as h
from ._tiled_driver import Driver


def cluster_groups(df, by, algorithm="dbscan", columns=("x", "y"), id_column="id", **params):
    """Each group of `df` (rows with equal values in the `by` columns) clustered on its own by
    the single-process estimator (DBSCAN or HDBSCAN, **params as theirs), its rows sorted by
    `id_column` first: exactly what estimator.fit on that group gives. Returns the rows with
    `label` (within the group: a cluster is named by its group's `by` values and its label;
    -1 is noise in every group) and `is_core` (DBSCAN) or `probability` (HDBSCAN), through
    groupBy(by).applyInPandas: each group is held whole by one task."""
    by = [by] if isinstance(by, str) else list(by)
    columns = e._columns(columns)
    e.estimator(algorithm, params)
    extra = [T.StructField("label", T.IntegerType())]
    extra.append(T.StructField("is_core", T.BooleanType()) if algorithm == "dbscan"
                 else T.StructField("probability", T.DoubleType()))
    schema = T.StructType(df.schema.fields + extra)

    def fit(key, pdf):
        return e.fit_group(pdf, algorithm, columns, id_column, params, by, key)

    return df.groupBy(*by).applyInPandas(fit, schema)


def cluster(df, algorithm="dbscan", columns=("x", "y"), id_column="id", tile_size=None, halo=None, **params):
    """Global DBSCAN of every row of `df`, exactly the single-process DBSCAN(**params) on the
    rows sorted by `id_column` (unique): the same core points, clusters, border points and
    label numbers (clusters numbered by their smallest id). Returns the rows with `label` and
    `is_core`. `columns` are the estimator's X: ("x", "y") in one planar unit, or ("lat",
    "lon") in radians with metric="haversine" (eps in radians too). `tile_size` (units of
    X, radians on the sphere; default 50·eps) sets the tiles the work is split into: one
    applyInPandas group per tile. The labels are computed (and cached) before this returns.
    algorithm="hdbscan" raises NotImplementedError: use cluster_groups."""
    if algorithm == "hdbscan":
        return _hdbscan(df, columns, id_column, tile_size, halo, params)
    plan = e.TiledDBSCAN(algorithm, columns, id_column, tile_size, params)
    spark = df.sparkSession
    id_type = df.schema[id_column].dataType
    points = df.select(F.col(id_column), *(F.col(c).cast("double").alias(c) for c in plan.columns))
    tiled = T.StructType(points.schema.fields + [T.StructField(e.TILE, T.LongType()),
                                                 T.StructField(e.OWNED, T.BooleanType())])
    first_schema = T.StructType(tiled.fields + [T.StructField(e.COMP, T.LongType()),
                                                T.StructField(e.LABEL1, T.LongType())])
    exploded = points.mapInPandas(plan.explode_batches, tiled)
    first = exploded.groupBy(e.TILE).applyInPandas(_one_argument(plan.first_pass), first_schema)
    first = first.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        numbering = plan.number_clusters(*_pieces_and_links(first, id_column))
        numbering_df = spark.createDataFrame(numbering, T.StructType([
            T.StructField(e.TILE, T.LongType()), T.StructField(e.COMP, T.LongType()),
            T.StructField(e.GLABEL, T.LongType())]))
        joined = first.join(F.broadcast(numbering_df), on=[e.TILE, e.COMP], how="left") \
            .withColumn(e.GLABEL, F.coalesce(F.col(e.GLABEL), F.lit(-1).cast("long")))
        labels_schema = T.StructType([T.StructField(id_column, id_type), T.StructField("label", T.IntegerType()),
                                      T.StructField("is_core", T.BooleanType())])
        labels = joined.groupBy(e.TILE).applyInPandas(_one_argument(plan.second_pass), labels_schema)
        labels = labels.persist(StorageLevel.MEMORY_AND_DISK)
        labels.count()
    finally:
        first.unpersist()
    return df.join(labels, on=id_column, how="inner")


def _one_argument(method):
    """A bound method as a plain one-argument function: applyInPandas counts a function's
    parameters (self included) to decide whether to pass the group key."""
    return lambda pdf: method(pdf)


def _pieces_and_links(first, id_column):
    """From the first pass, to the driver: each local component holding owned core points with
    their smallest id, and each pair of components sharing a core point (a halo copy that is
    core joined with the owner's row, which must be core as well)."""
    core = first.filter(F.col(e.COMP) >= 0)
    pieces = core.filter(F.col(e.OWNED)).groupBy(e.TILE, e.COMP).agg(F.min(id_column).alias(e.MIN_ID)).toPandas()
    halo = core.filter(~F.col(e.OWNED)).select(id_column, e.TILE, e.COMP)
    owners = first.filter(F.col(e.OWNED)).select(F.col(id_column), F.col(e.TILE).alias(e.TILE_B),
                                                 F.col(e.COMP).alias(e.COMP_B))
    links = halo.join(owners, on=id_column, how="inner").select(e.TILE, e.COMP, e.TILE_B, e.COMP_B).distinct()
    links = links.toPandas()
    if (links[e.COMP_B] < 0).any():
        raise RuntimeError("a point core in a halo is not core in its own tile")
    return pieces, links.astype(np.int64) if len(links) else pd.DataFrame(
        {c: np.array([], dtype=np.int64) for c in (e.TILE, e.COMP, e.TILE_B, e.COMP_B)})


class _Engine:
    """The global HDBSCAN's frames on Spark (the driver's steps: _tiled_hdbscan.Driver)."""

    def __init__(self, plan, df):
        self.plan, self.df, self.spark = plan, df, df.sparkSession
        self.light, self.fetched = None, None
        id_type = df.schema[plan.id_column].dataType
        self.schema = T.StructType([
            T.StructField(h.TILE, T.LongType()), T.StructField(h.KIND, T.LongType()), T.StructField(h.ID, id_type),
            T.StructField(h.ID_B, id_type), T.StructField(h.W, T.DoubleType()), T.StructField(h.X, T.DoubleType()),
            T.StructField(h.Y, T.DoubleType()), T.StructField(h.FLAG, T.BooleanType()),
            T.StructField(h.U, T.DoubleType()), T.StructField(h.COMP, T.LongType())])
        self.summary_schema = T.StructType([
            T.StructField(h.TILE, T.LongType()), T.StructField(h.COMP, T.LongType())]
            + [T.StructField(c, T.DoubleType()) for c in h.SUMMARY[2:6]]
            + [T.StructField(h.SUMMARY[6], id_type)] + [T.StructField(c, T.DoubleType()) for c in h.SUMMARY[7:9]]
            + [T.StructField(h.SUMMARY[9], T.LongType())])

    def sorted_ids(self):
        if self.light is None:
            ids = self.df.select(self.plan.id_column).toPandas()[self.plan.id_column].to_numpy()
        else:
            # The ids come back with the light runs, as one more group: the rows are read once.
            self.fetched = self.light.toPandas()
            ids = self.fetched[_BLOB][self.fetched[_GROUP] == _IDS].map(pickle.loads)
            ids = np.concatenate(list(ids)) if len(ids) else np.array([], dtype=np.int64)
        return h.sorted_ids(ids, self.plan.id_column)

    def light_runs(self):
        # The rows move as arrays in a binary column, one value per partition and group of
        # tiles (the pieces of a group from every partition make the group's tiles): Spark
        # then shuffles and converts a few large values, not every row's columns. Nothing is
        # cached: the runs and the ids are fetched together, once (sorted_ids).
        plan = self.plan
        groups = max(2, int(self.spark.conf.get("spark.sql.shuffle.partitions")))
        points = self.df.select(plan.id_column, *plan.user_columns)
        pieces = points.mapInPandas(_pieces(plan, groups), _PIECES)

        def run(pdf):
            group, values = int(pdf[_GROUP].iloc[0]), [pickle.loads(blob) for blob in pdf[_BLOB]]
            value = np.concatenate(values) if group == _IDS else plan.light_runs(values)
            return pd.DataFrame({_GROUP: [group], _BLOB: [pickle.dumps(value, protocol=5)]})

        self.light = pieces.groupBy(_GROUP).applyInPandas(run, _PIECES)
        return self.light

    def collect_runs(self, runs):
        fetched = self.fetched if self.fetched is not None else runs.toPandas()
        self.light, self.fetched = None, None
        return h.split_collected(list(fetched[_BLOB][fetched[_GROUP] != _IDS].map(pickle.loads)))

    def tile_runs(self):
        plan = self.plan
        exploded_schema = T.StructType([self.schema[h.ID], self.schema[h.X], self.schema[h.Y],
                                        T.StructField(h.TILE, T.LongType()), T.StructField(e.OWNED, T.BooleanType())])
        points = self.df.select(plan.id_column, *plan.user_columns)
        exploded = points.mapInPandas(_batches(lambda pdf: plan.explode(plan.points(pdf))), exploded_schema)
        runs = exploded.groupBy(h.TILE).applyInPandas(_one_argument(plan.tile_run), self.schema)
        return runs.persist(StorageLevel.MEMORY_AND_DISK)

    def tile_balls(self, runs):
        return self.summaries(runs.filter(F.col(h.KIND) == h.POINT).withColumn(h.COMP, F.lit(0).cast("long")))

    def with_components(self, runs, ids, comp1, exact):
        shared = self.spark.sparkContext.broadcast((ids, comp1, exact))

        def attach(batches):
            ids, comp1, exact = shared.value
            for pdf in batches:
                yield h.with_components(pdf, ids, comp1, exact)

        points = runs.filter(F.col(h.KIND) == h.POINT).mapInPandas(attach, self.schema)
        points = points.persist(StorageLevel.MEMORY_AND_DISK)
        points.count()
        shared.unpersist()
        return points

    def summaries(self, points):
        plan = self.plan
        return points.groupBy(h.TILE).applyInPandas(lambda pdf: h.summarise(pdf, plan), self.summary_schema).toPandas()

    def ask(self, points, queries, cur):
        if callable(queries):
            asked = points.mapInPandas(_batches(queries), self.schema)
        else:
            asked = self.spark.createDataFrame(queries, self.schema)
        asked = asked.persist(StorageLevel.MEMORY_AND_DISK)
        tiles = asked.select(h.TILE).distinct()
        shared = self.spark.sparkContext.broadcast(cur)
        plan = self.plan
        # Only the tiles asked: their points, joined with the (small) set of tile numbers.
        owned = points.filter(F.col(h.KIND) == h.POINT).join(F.broadcast(tiles), on=h.TILE, how="left_semi")
        both = owned.unionByName(asked)
        answers = both.groupBy(h.TILE).applyInPandas(lambda pdf: plan.answer(pdf, shared.value), self.schema)
        out = answers.toPandas()
        shared.unpersist()
        asked.unpersist()
        return out

    def release(self, frame):
        self.light, self.fetched = None, None
        frame.unpersist()


_GROUP, _BLOB = "_gc_group", "_gc_blob"
#: The group of the rows holding a partition's ids among the pieces.
_IDS = -1
_PIECES = T.StructType([T.StructField(_GROUP, T.LongType()), T.StructField(_BLOB, T.BinaryType())])


def _whole(batches):
    """A partition's batches (mapInPandas) as one frame, or None when it has none."""
    frames = list(batches)
    return pd.concat(frames, ignore_index=True) if frames else None


def _pieces(plan, groups):
    """mapInPandas: a partition's rows as its non-empty pieces (TiledHDBSCAN.pieces), one row
    (GROUP, the piece pickled) each, and its ids (GROUP _IDS, one more group)."""
    def run(batches):
        pdf = _whole(batches)
        if pdf is None:
            return
        points = plan.points(pdf)
        pieces = plan.pieces(points, groups)
        kept = [g for g in range(groups) if len(pieces[g][0])]
        blobs = [pickle.dumps(value, protocol=5) for value in [pieces[g] for g in kept] + [points[h.ID].to_numpy()]]
        yield pd.DataFrame({_GROUP: np.array(kept + [_IDS], dtype=np.int64), _BLOB: blobs})
    return run


def _batches(function):
    """A frame-to-frame function as mapInPandas takes it (batches in, batches out)."""
    def run(batches):
        for pdf in batches:
            yield function(pdf)
    return run


@contextlib.contextmanager
def _arrow(spark):
    """Arrow for the frames between the driver and Spark (collected edges, the labels) while
    the global HDBSCAN runs; the session's setting is restored after."""
    key = "spark.sql.execution.arrow.pyspark.enabled"
    before = spark.conf.get(key, None)
    spark.conf.set(key, "true")
    try:
        yield
    finally:
        if before is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, before)


def _hdbscan(df, columns, id_column, tile_size, halo, params):
    """The global HDBSCAN: the driver's run over Spark frames, the labels joined on the id."""
    plan = h.TiledHDBSCAN(columns, id_column, tile_size, halo, params)
    spark = df.sparkSession
    with _arrow(spark):
        labels = Driver(plan, _Engine(plan, df)).run()
    # Each row's label found by its id in the sorted ids (a broadcast, no shuffle).
    shared = spark.sparkContext.broadcast((labels[h.ID].to_numpy(), labels["label"].to_numpy(),
                                           labels["probability"].to_numpy()))
    schema = T.StructType(df.schema.fields + [T.StructField("label", T.IntegerType()),
                                              T.StructField("probability", T.DoubleType())])

    def attach(batches):
        ids, label, probability = shared.value
        for pdf in batches:
            rows, _ = h.rows_of(ids, pdf[id_column].to_numpy())
            yield pdf.assign(label=label[rows], probability=probability[rows])

    return df.mapInPandas(attach, schema)
