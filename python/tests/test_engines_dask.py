"""geocluster_hdbscan.dask on a distributed.LocalCluster of two worker processes: the global
DBSCAN and HDBSCAN and the per-group mode equal the single-process estimators exactly (engines_cases.py).
Skipped when Dask or distributed is not installed (`make engines` installs them)."""

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe", reason="dask[dataframe] is not installed (pip install './python[dask]')")
distributed = pytest.importorskip("distributed", reason="distributed is not installed (pip install './python[dask]')")

import engines_cases as cases  # noqa: E402
from geocluster_hdbscan import _engines  # noqa: E402
from geocluster_hdbscan import dask as gcd  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def client():
    """Two single-threaded worker processes: every task's frame crosses a process boundary."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        assert len(c.scheduler_info()["workers"]) == 2
        yield c


def run(frame, partitions=3, **kwargs):
    return gcd.cluster(dd.from_pandas(frame, npartitions=partitions), **kwargs).compute()


def run_groups(frame, **kwargs):
    return gcd.cluster_groups(dd.from_pandas(frame, npartitions=3), **kwargs).compute()


def owning_tiles(frame, tile_size, columns=("x", "y"), **params):
    """Each row's own tile, in id order, as the engine assigns it."""
    plan = _engines.TiledDBSCAN("dbscan", columns, "id", tile_size, params)
    exploded = plan.explode(frame.sort_values("id")[["id", *columns]])
    return exploded[exploded[_engines.OWNED]].sort_values("id")[_engines.TILE].to_numpy()


@pytest.mark.parametrize("tile_size", [12, 40, 150, 1e6])
def test_blobs_at_several_tile_sizes(tile_size):
    frame = cases.blobs()
    labels = cases.check_cluster(run(frame, eps=12, min_samples=5, tile_size=tile_size), frame, eps=12, min_samples=5)
    assert labels.max() >= 4 and (labels == -1).sum() > 100
    tiles = owning_tiles(frame, tile_size, eps=12, min_samples=5)
    spanning = {label for label in set(labels) - {-1} if len(set(tiles[labels == label])) > 1}
    assert len(spanning) >= (1 if tile_size == 1e6 else 3)  # 1e6: the four tiles meeting at the origin


def test_border_point_takes_the_lowest_cluster_across_tiles():
    frame = cases.contested_border()
    result = run(frame, partitions=2, eps=1, min_samples=4, tile_size=10)
    labels = cases.check_cluster(result, frame, eps=1, min_samples=4)
    by_id = dict(zip(frame.sort_values("id")["id"], labels))
    assert by_id[0] == 0 and by_id[50] == 1 and by_id[7] == 0


def test_many_contested_border_points():
    frame = cases.blobs(seed=5, n=1500)
    labels = cases.check_cluster(run(frame, eps=12, min_samples=12, tile_size=60), frame, eps=12, min_samples=12)
    assert cases.contested(frame, 12, labels) >= 1


@pytest.mark.parametrize("tile_size", [1, 5])
def test_duplicates_on_tile_corners_and_edges(tile_size):
    frame = cases.duplicates()
    labels = cases.check_cluster(run(frame, eps=1, min_samples=5, tile_size=tile_size), frame, eps=1, min_samples=5)
    cases.check_duplicates(frame, labels)


def test_brute_force():
    frame = cases.blobs(seed=11, n=600)
    labels, core = cases.brute_force(frame, 12, 4)
    result = run(frame, eps=12, min_samples=4, tile_size=40).sort_values("id")
    assert np.array_equal(result["label"].to_numpy(), labels)
    assert np.array_equal(result["is_core"].to_numpy(), core)
    assert labels.max() >= 3


def test_string_ids_order_the_numbering():
    frame = cases.blobs(seed=2, n=1200)
    frame["id"] = [f"p{i}" for i in frame["id"]]
    cases.check_cluster(run(frame, eps=12, min_samples=5, tile_size=50), frame, eps=12, min_samples=5)


@pytest.mark.parametrize("tile_size", [0.02, 0.1, 1.0, 7.0])
def test_world_across_the_antimeridian_and_the_pole(tile_size):
    frame = cases.world()
    params = dict(eps=0.004, min_samples=5, metric="haversine")
    labels = cases.check_cluster(run(frame, columns=("lat", "lon"), tile_size=tile_size, **params), frame,
                                 columns=("lat", "lon"), **params)
    ordered = frame.sort_values("id")
    lon, lat = ordered["lon"].to_numpy(), ordered["lat"].to_numpy()
    straddling = [c for c in set(labels) - {-1} if (lon[labels == c] > 3.1).any() and (lon[labels == c] < -3.1).any()]
    assert straddling
    assert (labels[lat > 1.565] >= 0).any()


@pytest.mark.parametrize("tile_size", [0.03, 0.15])
def test_ragged_clusters_across_the_antimeridian(tile_size):
    frame = cases.antimeridian_band()
    params = dict(eps=0.01, min_samples=4, metric="haversine")
    labels = cases.check_cluster(run(frame, columns=("lat", "lon"), tile_size=tile_size, **params), frame,
                                 columns=("lat", "lon"), **params)
    lon = frame.sort_values("id")["lon"].to_numpy()
    assert any((lon[labels == c] > 0).any() and (lon[labels == c] < 0).any() for c in set(labels) - {-1})


@pytest.mark.parametrize("by", [["g"], ["g", "h"]])
def test_groups_dbscan(by):
    frame = cases.blobs()
    result = run_groups(frame, by=by, algorithm="dbscan", eps=12, min_samples=5)
    assert cases.check_groups(result, frame, by, "dbscan", eps=12, min_samples=5) == 3 * len(by)


def test_groups_hdbscan():
    frame = cases.blobs()
    result = run_groups(frame, by="g", algorithm="hdbscan", min_cluster_size=15)
    assert cases.check_groups(result, frame, ["g"], "hdbscan", min_cluster_size=15) == 3


def test_groups_hdbscan_on_the_sphere():
    frame = cases.world()
    frame["g"] = frame["id"] % 2
    result = run_groups(frame, by="g", algorithm="hdbscan", columns=("lat", "lon"), min_cluster_size=20,
                        metric="haversine")
    cases.check_groups(result, frame, ["g"], "hdbscan", columns=("lat", "lon"), min_cluster_size=20,
                       metric="haversine")


def test_a_group_too_small_is_named():
    frame = cases.blobs(n=600)
    frame.loc[frame.index[:3], "g"] = 9
    with pytest.raises(ValueError, match="group g=9: min_samples"):
        run_groups(frame, by="g", algorithm="hdbscan", min_cluster_size=5)


@pytest.mark.parametrize("tile_size", [60, 200])
def test_global_hdbscan_blobs(tile_size):
    frame = cases.blobs()
    params = dict(min_cluster_size=15, min_samples=5)
    result = run(frame, algorithm="hdbscan", tile_size=tile_size, **params)
    assert cases.check_hdbscan(result, frame, **params).max() >= 4


def test_global_hdbscan_far_apart_and_lone_points():
    frame = cases.far_apart()
    params = dict(min_cluster_size=20, min_samples=6)
    result = run(frame, algorithm="hdbscan", tile_size=20, **params)
    labels = cases.check_hdbscan(result, frame, **params)
    assert labels.max() == 2 and (labels == -1).sum() >= 5


def test_global_hdbscan_duplicates():
    frame = cases.duplicates()
    params = dict(min_cluster_size=5, min_samples=4)
    cases.check_hdbscan(run(frame, algorithm="hdbscan", tile_size=5, **params), frame, **params)


def test_global_hdbscan_world_across_the_antimeridian_and_the_pole():
    frame = cases.world()
    params = dict(min_cluster_size=20, min_samples=5, metric="haversine")
    result = run(frame, algorithm="hdbscan", columns=("lat", "lon"), tile_size=0.1, **params)
    assert cases.check_hdbscan(result, frame, columns=("lat", "lon"), **params).max() >= 4
