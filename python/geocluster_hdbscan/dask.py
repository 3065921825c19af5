"""geocluster on Dask: exact DBSCAN and HDBSCAN of a Dask DataFrame's points (docs/engines.md).

    from geocluster_hdbscan import dask as gcd
    out = gcd.cluster(ddf, columns=("x", "y"), id_column="id", eps=50, min_samples=5)
    per_city = gcd.cluster_groups(ddf, by=["city"], algorithm="hdbscan", min_cluster_size=15)

Needs the `dask` extra (pip install "geocluster-hdbscan[dask]"); importing geocluster_hdbscan
alone never imports Dask. Runs on whatever scheduler is active: a distributed.Client's
cluster, or Dask's local threads.
"""

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

from . import _engines as e
from . import _tiled_hdbscan as h
from ._tiled_driver import Driver


def cluster_groups(ddf, by, algorithm="dbscan", columns=("x", "y"), id_column="id", **params):
    """Each group of `ddf` (rows with equal values in the `by` columns) clustered on its own by
    the single-process estimator (DBSCAN or HDBSCAN, **params as theirs), its rows sorted by
    `id_column` first: exactly what estimator.fit on that group gives. Returns the rows with
    `label` (within the group: a cluster is named by its group's `by` values and its label;
    -1 is noise in every group) and `is_core` (DBSCAN) or `probability` (HDBSCAN). The rows
    are shuffled so each group sits in one partition (what groupby.apply does), then fitted
    there; the result's partitions and row order are not the input's."""
    by = [by] if isinstance(by, str) else list(by)
    columns = e._columns(columns)
    e.estimator(algorithm, params)
    meta = e.group_meta(ddf._meta, algorithm)
    shuffled = ddf.shuffle(on=by)
    return shuffled.map_partitions(e.fit_groups, by, algorithm, columns, id_column, params, meta=meta)


def cluster(ddf, algorithm="dbscan", columns=("x", "y"), id_column="id", tile_size=None, halo=None, **params):
    """Global DBSCAN of every row of `ddf`, exactly the single-process DBSCAN(**params) on the
    rows sorted by `id_column` (unique): the same core points, clusters, border points and
    label numbers (clusters numbered by their smallest id). Returns the rows with `label` and
    `is_core`. `columns` are the estimator's X: ("x", "y") in one planar unit, or ("lat",
    "lon") in radians with metric="haversine" (eps in radians too). `tile_size` (units of
    X, radians on the sphere; default 50·eps) sets the tiles the work is split into.
    algorithm="hdbscan" raises NotImplementedError: use cluster_groups."""
    if algorithm == "hdbscan":
        return _hdbscan(ddf, columns, id_column, tile_size, halo, params)
    plan = e.TiledDBSCAN(algorithm, columns, id_column, tile_size, params)
    points = ddf[[id_column, *plan.columns]]
    exploded = points.map_partitions(plan.explode, meta=plan.explode(points._meta))
    tiles = exploded.shuffle(on=e.TILE)
    first = tiles.map_partitions(plan.first_pass_partition, meta=plan.first_pass_meta(exploded._meta)).persist()
    pieces, links = _pieces_and_links(first, id_column)
    numbering = plan.number_clusters(pieces, links)
    labels = first.map_partitions(plan.second_pass_partition, numbering, meta=plan.labels_meta(first._meta))
    return ddf.merge(labels, on=id_column, how="inner")


def _pieces_and_links(first, id_column):
    """From the first pass, to the driver: each local component holding owned core points with
    their smallest id, and each pair of components sharing a core point (a halo copy that is
    core joined with the owner's row, which must be core as well)."""
    core = first[first[e.COMP] >= 0]
    owned = core[core[e.OWNED]]
    pieces = owned.groupby([e.TILE, e.COMP])[id_column].min().reset_index().rename(columns={id_column: e.MIN_ID})
    halo = core[~core[e.OWNED]][[id_column, e.TILE, e.COMP]]
    owners = first[first[e.OWNED]][[id_column, e.TILE, e.COMP]].rename(columns={e.TILE: e.TILE_B, e.COMP: e.COMP_B})
    links = halo.merge(owners, on=id_column, how="inner")[[e.TILE, e.COMP, e.TILE_B, e.COMP_B]]
    pieces, links = dd.compute(pieces, links.drop_duplicates())
    if (links[e.COMP_B] < 0).any():
        raise RuntimeError("a point core in a halo is not core in its own tile")
    return pieces, links.astype(np.int64) if len(links) else pd.DataFrame(
        {c: np.array([], dtype=np.int64) for c in (e.TILE, e.COMP, e.TILE_B, e.COMP_B)})


class _Engine:
    """The global HDBSCAN's frames on Dask (the driver's steps: _tiled_hdbscan.Driver)."""

    def __init__(self, plan, ddf):
        self.plan, self.ddf = plan, ddf
        self.meta = plan.meta(ddf[plan.id_column].dtype)
        self.points = None

    def _points(self):
        """The rows as the tiles take them, read once for the ids and the tile runs (kept
        until the engine is dropped: the runs may be made twice)."""
        if self.points is None:
            plan = self.plan
            # Only the columns used: a columnar source then reads no others.
            used = self.ddf[[plan.id_column, *plan.user_columns]]
            self.points = used.map_partitions(plan.points, meta=plan.points(used._meta)).persist()
        return self.points

    def sorted_ids(self):
        # As one array per partition: several times faster than computing the column.
        parts = dask.compute(*[dask.delayed(_ids)(part) for part in self._points().to_delayed()])
        return h.sorted_ids(np.concatenate(parts), self.plan.id_column)

    def light_runs(self):
        # The rows move between the tasks as arrays, grouped by tile (the pieces of a group
        # from every partition make the group's tiles): several times faster than a shuffle
        # of the frames.
        plan, parts = self.plan, self._points().to_delayed()
        groups = max(2, len(parts))
        split = [dask.delayed(plan.pieces, nout=groups)(part, groups) for part in parts]
        runs = [dask.delayed(plan.light_runs)([pieces[g] for pieces in split]) for g in range(groups)]
        return dask.persist(*runs)

    def collect_runs(self, runs):
        return h.split_collected(_as_they_finish(runs))

    def tile_runs(self):
        plan = self.plan
        read = self._points()
        exploded = read.map_partitions(plan.explode, meta=plan.explode(read._meta))
        return exploded.shuffle(on=e.TILE).map_partitions(plan.tile_runs, meta=self.meta).persist()

    def tile_balls(self, runs):
        points = runs[runs[h.KIND] == h.POINT].assign(**{h.COMP: 0})
        return self.summaries(points)

    def with_components(self, runs, ids, comp1, exact):
        return runs.map_partitions(h.with_components, _shared(ids), _shared(comp1), exact,
                                   meta=self.meta).persist()

    def summaries(self, points):
        return points.map_partitions(h.summarise, self.plan, meta=h.summarise(self.meta, self.plan)).compute()

    def ask(self, points, queries, cur):
        if callable(queries):
            # One copy of the queries' routes for every task (_shared), not one per task.
            asked = points.map_partitions(_ask, _shared(queries), meta=self.meta)
        else:
            asked = dd.from_pandas(queries, npartitions=max(1, points.npartitions))
        asked = asked.persist()
        tiles = asked[e.TILE].unique().compute().to_numpy()
        # Only the tiles asked, and their points.
        owned = points[(points[h.KIND] == h.POINT) & points[e.TILE].isin(tiles)]
        both = dd.concat([owned, asked]).shuffle(on=e.TILE)
        current = None if cur is None else _shared(cur)
        return both.map_partitions(self.plan.answers, current, meta=self.meta).compute()

    def release(self, frame):
        pass


def _shared(value):
    """A large value the tasks read, as a delayed object: copied to every worker beforehand
    when a distributed client runs them (not carried in the graph through the scheduler), else
    the value itself."""
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):
        return dask.delayed(value)
    return dask.delayed(client.scatter(value, broadcast=True, hash=False))


def _as_they_finish(delayed):
    """The values of persisted delayed objects, in their order, fetched as each task finishes
    when a distributed client runs them (the transfers overlap the tasks still running)."""
    try:
        from distributed import as_completed, default_client
        client = default_client()
    except (ImportError, ValueError):
        return list(dask.compute(*delayed))
    futures = client.compute(list(delayed))
    slot = {future.key: i for i, future in enumerate(futures)}
    values = [None] * len(futures)
    for future, value in as_completed(futures, with_results=True):
        values[slot[future.key]] = value
    return values


def _ids(pdf):
    return pdf[h.ID].to_numpy()


def _ask(pdf, asking):
    return asking(pdf)


def _hdbscan(ddf, columns, id_column, tile_size, halo, params):
    """The global HDBSCAN: the driver's run over Dask frames, the labels merged on the id."""
    plan = h.TiledHDBSCAN(columns, id_column, tile_size, halo, params)
    labels = Driver(plan, _Engine(plan, ddf)).run()
    arrays = _shared((labels[h.ID].to_numpy(), labels["label"].to_numpy(), labels["probability"].to_numpy()))
    meta = ddf._meta.assign(label=np.array([], dtype=np.int32), probability=np.array([], dtype=np.float64))
    return ddf.map_partitions(_attach, id_column, arrays, meta=meta)


def _attach(pdf, id_column, arrays):
    """Each row's label and probability, found by its id in the sorted ids."""
    ids, label, probability = arrays
    rows, _ = h.rows_of(ids, pdf[id_column].to_numpy())
    return pdf.assign(label=label[rows], probability=probability[rows])
