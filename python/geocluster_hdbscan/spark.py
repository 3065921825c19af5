"""geocluster on Spark: exact DBSCAN and HDBSCAN of a PySpark DataFrame's points (docs/engines.md).

    from geocluster_hdbscan import spark as gcs
    out = gcs.cluster(df, columns=("x", "y"), id_column="id", eps=50, min_samples=5)
    per_city = gcs.cluster_groups(df, by=["city"], algorithm="hdbscan", min_cluster_size=15)

Needs the `spark` extra (pip install "geocluster-hdbscan[spark]": PySpark and pyarrow) and
geocluster_hdbscan installed on every executor; importing geocluster_hdbscan alone never
imports PySpark.
"""

import numpy as np
import pandas as pd
from pyspark import StorageLevel
from pyspark.sql import functions as F
from pyspark.sql import types as T

from . import _engines as e


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


def cluster(df, algorithm="dbscan", columns=("x", "y"), id_column="id", tile_size=None, **params):
    """Global DBSCAN of every row of `df`, exactly the single-process DBSCAN(**params) on the
    rows sorted by `id_column` (unique): the same core points, clusters, border points and
    label numbers (clusters numbered by their smallest id). Returns the rows with `label` and
    `is_core`. `columns` are the estimator's X: ("x", "y") in one planar unit, or ("lat",
    "lon") in radians with metric="haversine" (eps in radians too). `tile_size` (units of
    X, radians on the sphere; default 50·eps) sets the tiles the work is split into: one
    applyInPandas group per tile. The labels are computed (and cached) before this returns.
    algorithm="hdbscan" raises NotImplementedError: use cluster_groups."""
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
