"""The tiles of the engines' global DBSCAN (geocluster_hdbscan._engines), with pandas alone:
every point is owned by exactly one tile, and every point within 2·eps of a point is copied
into that point's tile (the halo the exactness argument needs), on the plane and on the
sphere across the antimeridian and the poles. The global HDBSCAN's driver through a
one-process engine (pandas): its labels and probabilities are the single-process fit's and
its tree weighs what the single-process MST weighs, on the plane, the sphere, duplicates,
ties and components far apart; a lost answer fails loudly. And importing geocluster_hdbscan
imports neither PySpark nor Dask."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="the engines' helpers need pandas")

pytest.importorskip("scipy", reason="the global HDBSCAN's driver needs scipy")

import engines_cases as cases  # noqa: E402
from geocluster_hdbscan import HDBSCAN  # noqa: E402
from geocluster_hdbscan import _engines  # noqa: E402
from geocluster_hdbscan import _tiled_hdbscan as h  # noqa: E402
from geocluster_hdbscan._tiled_driver import Driver  # noqa: E402


def exploded(plan, X):
    frame = pd.DataFrame({"id": np.arange(len(X)), "a": X[:, 0], "b": X[:, 1]})
    return plan.explode(frame)


def check_halo(plan, X, distance):
    """Each point owned once; each pair within 2·eps (by `distance`) shares the first point's
    tile. Returns how many pairs crossed a tile border."""
    out = exploded(plan, X)
    owned = out[out[_engines.OWNED]]
    assert np.array_equal(np.sort(owned["id"].to_numpy()), np.arange(len(X)))
    assert not out.duplicated(["id", _engines.TILE]).any()
    own = owned.set_index("id")[_engines.TILE].sort_index().to_numpy()
    copies = set(zip(out["id"].to_numpy().tolist(), out[_engines.TILE].to_numpy().tolist()))
    d = distance(X[:, None, :], X[None, :, :])
    crossing = 0
    for p, q in zip(*np.nonzero(d <= 2 * plan.eps)):
        assert (int(q), int(own[p])) in copies, (p, q)
        crossing += own[p] != own[q]
    return crossing


def planar(a, b):
    return np.hypot(a[..., 0] - b[..., 0], a[..., 1] - b[..., 1])


def great_circle(a, b):
    h = (np.sin((a[..., 0] - b[..., 0]) / 2) ** 2
         + np.cos(a[..., 0]) * np.cos(b[..., 0]) * np.sin((a[..., 1] - b[..., 1]) / 2) ** 2)
    return 2 * np.arcsin(np.sqrt(np.minimum(1, h)))


@pytest.mark.parametrize("tile_size", [0.5, 1.0, 3.0])
def test_planar_halo(tile_size):
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.uniform(-6, 6, (700, 2)), np.repeat([[3.0, 3.0], [0.0, -3.0]], 5, axis=0)])
    plan = _engines.TiledDBSCAN("dbscan", ("a", "b"), "id", tile_size, dict(eps=0.5, min_samples=3))
    assert check_halo(plan, X, planar) > 100


@pytest.mark.parametrize("tile_size", [0.02, 0.05, 0.5])
def test_sphere_halo_across_the_antimeridian_and_the_poles(tile_size):
    rng = np.random.default_rng(1)
    near_antimeridian = np.column_stack([rng.uniform(-0.1, 0.1, 400), rng.uniform(math.pi - 0.05, math.pi, 400)])
    near_antimeridian[::2, 1] -= 2 * math.pi - 0.05  # the other side: just east of -π
    near_poles = np.column_stack([np.repeat([1, -1], 200) * (math.pi / 2 - rng.uniform(0, 0.03, 400)),
                                  rng.uniform(-math.pi, math.pi, 400)])
    X = np.concatenate([near_antimeridian, near_poles, [[math.pi / 2, 0.0], [0.0, math.pi], [0.0, -math.pi]]])
    plan = _engines.TiledDBSCAN("dbscan", ("a", "b"), "id", tile_size,
                                dict(eps=0.005, min_samples=3, metric="haversine"))
    assert check_halo(plan, X, great_circle) > 100


class LocalEngine:
    """The global HDBSCAN's frames in one process (pandas): the driver's steps without an
    engine, so that the algorithm is tested where Spark and Dask are not installed."""

    def __init__(self, plan, frame):
        self.plan, self.frame = plan, frame

    def sorted_ids(self):
        return h.sorted_ids(self.frame[self.plan.id_column].to_numpy(), self.plan.id_column)

    def light_runs(self):
        # Three partitions' pieces in two groups, as an engine moves them.
        points = self.plan.points(self.frame)
        split = [self.plan.pieces(points.iloc[i::3], 2) for i in range(3)]
        return [self.plan.light_runs([pieces[g] for pieces in split]) for g in range(2)]

    def collect_runs(self, runs):
        return h.split_collected(runs)

    def tile_runs(self):
        return self.plan.tile_runs(self.plan.explode(self.plan.points(self.frame)))

    def tile_balls(self, runs):
        return self.summaries(runs[runs[h.KIND] == h.POINT].assign(**{h.COMP: 0}))

    def with_components(self, runs, ids, comp1, exact):
        return h.with_components(runs, ids, comp1, exact)

    def summaries(self, points):
        return h.summarise(points, self.plan)

    def ask(self, points, queries, cur):
        asked = queries(points) if callable(queries) else queries
        return self.plan.answers(pd.concat([points[points[h.KIND] == h.POINT], asked], ignore_index=True), cur)

    def release(self, frame):
        pass


def tiled(frame, columns=("x", "y"), tile_size=None, halo=None, engine=LocalEngine, **params):
    """The global HDBSCAN of `frame` through `engine`: (result frame, driver)."""
    plan = h.TiledHDBSCAN(columns, "id", tile_size, halo, params)
    driver = Driver(plan, engine(plan, frame))
    labels = driver.run().rename(columns={h.ID: "id"})
    return frame.merge(labels, on="id"), driver


def check_tree(driver, frame, columns=("x", "y"), **params):
    """The assembled tree's weights are the single-process MST's (all of its MSTs share them)."""
    ordered = frame.sort_values("id", kind="stable")
    model = HDBSCAN(gen_min_span_tree=True, **params).fit(ordered[list(columns)].to_numpy())
    expected = np.sort(model.minimum_spanning_tree_["distance"])
    assert np.allclose(driver.mst_weights, expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("tile_size,halo", [(60, None), (200, None), (200, 20), (1000, None)])
def test_global_hdbscan_over_tiles_equals_the_single_process(tile_size, halo):
    frame = cases.blobs(n=1500)
    params = dict(min_cluster_size=15, min_samples=5)
    result, driver = tiled(frame, tile_size=tile_size, halo=halo, **params)
    assert cases.check_hdbscan(result, frame, **params).max() >= 4
    check_tree(driver, frame, **params)
    assert driver.stats["rounds"] >= (1 if tile_size < 1000 else 0)


def light(plan, frame, partitions, groups):
    """The light runs of `frame` split into partitions and groups: each edge (id, id_b, w),
    bound and unsure point, as sorted lists."""
    points = plan.points(frame)
    split = [plan.pieces(points.iloc[i::partitions], groups) for i in range(partitions)]
    edges, bounds, unsure, stars = h.split_collected([plan.light_runs([pieces[g] for pieces in split])
                                                      for g in range(groups)])
    return tuple(sorted(map(tuple, part.to_numpy().tolist())) for part in (edges, bounds, unsure, stars))


@pytest.mark.parametrize("ids", ["rows", "text"])
def test_light_runs_are_the_tile_runs_whatever_the_partitions_and_groups(ids):
    # The pieces of every partition make each group's tiles whole: the edges, bounds and
    # unsure points are those of the frames' tile runs (the exploded rows, a run per tile),
    # for one partition and group or several.
    frame = cases.far_apart()
    if ids == "text":
        frame["id"] = np.char.add("p", np.char.zfill(frame["id"].to_numpy().astype(str), 6))
    plan = h.TiledHDBSCAN(("x", "y"), "id", 20, None, dict(min_cluster_size=20, min_samples=6))
    runs = plan.tile_runs(plan.explode(plan.points(frame)))
    kind = runs[h.KIND].to_numpy()
    unsure = runs[(kind == h.POINT) & ~runs[h.FLAG].to_numpy()][[h.ID, h.W, h.X, h.Y]]
    links = [runs[kind == k][[h.ID, h.ID_B, h.W]] for k in (h.EDGE, h.BOUND)]
    expected = tuple(sorted(map(tuple, part.to_numpy().tolist())) for part in
                     (*links, unsure, runs[kind == h.STAR][[h.ID, h.ID_B, h.W]]))
    assert len(expected[0]) > 100 and len(expected[1]) > 0 and len(expected[2]) >= 14
    for partitions, groups in [(1, 1), (3, 2), (5, 7)]:
        assert light(plan, frame, partitions, groups) == expected, (partitions, groups)


def test_pieces_hold_every_tiled_row_once():
    frame = cases.blobs(n=1500)
    plan = h.TiledHDBSCAN(("x", "y"), "id", 60, None, dict(min_cluster_size=15, min_samples=5))
    points = plan.points(frame)
    pieces = plan.pieces(points, 4)
    rows = sorted((int(t), bool(o), int(i), float(x), float(y))
                  for piece in pieces for t, o, i, x, y in zip(*piece))
    out = plan.explode(points)
    assert rows == sorted(zip(out[_engines.TILE].tolist(), out[_engines.OWNED].tolist(), out[h.ID].tolist(),
                              out[h.X].tolist(), out[h.Y].tolist()))
    # Each tile in one group only, and several groups used.
    tiles = [set(piece[0].tolist()) for piece in pieces]
    assert sum(map(len, tiles)) == len(set().union(*tiles)) and sum(1 for t in tiles if t) >= 3


@pytest.mark.parametrize("ids", ["rows", "spread", "text"])
def test_global_hdbscan_far_apart_needs_exact_core_distances_and_rounds(ids):
    # Ids that are row numbers are looked up by subtraction, others by search: both exact.
    frame = cases.far_apart()
    spelled = {"rows": lambda i: i, "spread": lambda i: 3 * i + 11,
               "text": lambda i: np.char.add("p", np.char.zfill(i.astype(str), 6))}
    frame["id"] = spelled[ids](frame["id"].to_numpy())
    params = dict(min_cluster_size=20, min_samples=6)
    result, driver = tiled(frame, tile_size=20, **params)
    cases.check_hdbscan(result, frame, **params)
    check_tree(driver, frame, **params)
    assert driver.stats["unsure"] >= 14 and driver.stats["rounds"] >= 2


@pytest.mark.parametrize("tile_size", [1, 5])
def test_global_hdbscan_duplicates_on_tile_corners(tile_size):
    frame = cases.duplicates()
    params = dict(min_cluster_size=5, min_samples=4)
    result, driver = tiled(frame, tile_size=tile_size, **params)
    cases.check_hdbscan(result, frame, **params)
    check_tree(driver, frame, **params)


@pytest.mark.parametrize("tile_size", [0.02, 0.1, 1.0])
def test_global_hdbscan_on_the_sphere(tile_size):
    frame = cases.world()
    params = dict(min_cluster_size=20, min_samples=5, metric="haversine")
    result, driver = tiled(frame, columns=("lat", "lon"), tile_size=tile_size, **params)
    assert cases.check_hdbscan(result, frame, columns=("lat", "lon"), **params).max() >= 4
    check_tree(driver, frame, columns=("lat", "lon"), **params)


def test_global_hdbscan_ties_from_a_grid():
    """Points on a grid: mutual-reachability weights tie everywhere, so every tile's MST is one
    of many; the bottleneck forests make the assembled tree's weights exact all the same."""
    xs, ys = np.meshgrid(np.arange(40.0), np.arange(30.0))
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"id": rng.permutation(xs.size), "x": xs.ravel(), "y": ys.ravel()})
    frame = frame[(frame.x - 20) ** 2 + (frame.y - 15) ** 2 > 30]  # a hole: a ring
    params = dict(min_cluster_size=10, min_samples=4)
    result, driver = tiled(frame, tile_size=7, **params)
    cases.check_hdbscan(result, frame, **params)
    check_tree(driver, frame, **params)


class DroppingEngine(LocalEngine):
    """An engine that loses the answers to the lone pair's queries (far_apart's points at
    x = -6000): the driver must notice, not return a tree."""

    def ask(self, points, queries, cur):
        answers = super().ask(points, queries, cur)
        lone = set(self.frame[self.frame["x"] == -6000]["id"])
        return answers[~answers[h.ID].isin(lone)] if callable(queries) else answers


def test_a_lost_answer_fails_loudly():
    with pytest.raises(RuntimeError, match="found no edge"):
        tiled(cases.far_apart(), tile_size=20, engine=DroppingEngine, min_cluster_size=20, min_samples=6)


def test_global_hdbscan_parameters_are_checked_on_the_driver():
    with pytest.raises(ValueError, match="tile_size is required"):
        h.TiledHDBSCAN(("x", "y"), "id", None, None, dict(min_cluster_size=5))
    with pytest.raises(ValueError, match="ties='one-at-a-time' is not supported"):
        h.TiledHDBSCAN(("x", "y"), "id", 10, None, dict(ties="one-at-a-time"))
    with pytest.raises(TypeError, match="sample_weight"):
        h.TiledHDBSCAN(("x", "y"), "id", 10, None, dict(sample_weight=[1]))
    with pytest.raises(ValueError, match="min_cluster_size"):
        h.TiledHDBSCAN(("x", "y"), "id", 10, None, dict(min_cluster_size=1))
    with pytest.raises(ValueError, match="halo"):
        h.TiledHDBSCAN(("x", "y"), "id", 10, -1, dict(min_cluster_size=5))
    frame = cases.blobs(n=60)
    with pytest.raises(ValueError, match="holds 3 more than once"):
        tiled(frame.assign(id=np.minimum(frame["id"], 3)), tile_size=100, min_cluster_size=5)
    bad = frame.astype({"x": float})
    bad.loc[bad.index[4], "x"] = np.nan
    with pytest.raises(ValueError, match=rf"row with id={bad['id'].iloc[4]}: .* must be finite"):
        tiled(bad, tile_size=100, min_cluster_size=5)
    world = cases.world()
    world.loc[world.index[7], "lat"] = 2.0
    with pytest.raises(ValueError, match=rf"row with id={world['id'].iloc[7]}: .* latitude within ±π/2, got 2.0"):
        tiled(world, columns=("lat", "lon"), tile_size=0.1, min_cluster_size=5, metric="haversine")


def test_estimator_parameters_are_checked_before_any_task():
    with pytest.raises(TypeError):
        _engines.TiledDBSCAN("dbscan", ("x", "y"), "id", None, dict(eps=1, min_points=3))
    with pytest.raises(ValueError, match="eps"):
        _engines.TiledDBSCAN("dbscan", ("x", "y"), "id", None, dict(eps=-1))
    with pytest.raises(ValueError, match="tile_size"):
        _engines.TiledDBSCAN("dbscan", ("x", "y"), "id", 0, dict(eps=1))


def test_importing_the_package_imports_no_engine():
    code = ("import sys, geocluster_hdbscan; "
            "print(sorted(m for m in ('pyspark', 'dask', 'distributed') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_wheel_declares_the_extras_pyproject_lists():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's")
    root = Path(__file__).resolve().parents[1]
    listed = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    sys.path.insert(0, str(root / "_build"))
    try:
        import geocluster_build
    finally:
        sys.path.pop(0)
    assert {name: listed[name] for name in ("spark", "dask")} == geocluster_build.EXTRAS
    metadata = geocluster_build._metadata()
    assert 'Requires-Dist: pyspark>=3.5; extra == "spark"' in metadata
    assert 'Requires-Dist: distributed>=2024.12; extra == "dask"' in metadata


def test_rows_are_found_by_subtraction_or_by_search():
    from geocluster_hdbscan._tiled_hdbscan import rows_of
    absent = {"consecutive": [4, 105, -1], "strided": [1, 2, 301], "text": ["a", "p1000", "q"]}
    cases = {"consecutive": np.arange(5, 105), "strided": np.arange(0, 300, 3),
             "text": np.array(sorted(f"p{i:03d}" for i in range(100)))}
    for name, ids in cases.items():
        values = np.concatenate([ids[::-7], ids[:1]])
        rows, present = rows_of(ids, values)
        assert present.all() and (ids[rows] == values).all(), name
        _, present = rows_of(ids, np.array(absent[name], dtype=ids.dtype))
        assert not present.any(), name


def buildings(seed=9, n=4000):
    """Listings in buildings: 500 places (blobs and noise, coordinates rounded to 0.5), each
    holding 1 to 30 rows, some places on tile edges and corners (multiples of 30)."""
    rng = np.random.default_rng(seed)
    places = np.concatenate([cases.blobs(seed, n=450)[["x", "y"]].to_numpy(),
                             rng.integers(-10, 10, (50, 2)) * 30.0])
    places = np.unique(np.round(places * 2) / 2, axis=0)
    X = places[rng.integers(0, len(places), n)]
    return pd.DataFrame({"id": rng.permutation(n), "x": X[:, 0], "y": X[:, 1]})


@pytest.mark.parametrize("tile_size,halo,rounds", [(1000, 400, False), (300, 150, True), (30, None, True)])
def test_global_hdbscan_over_locations_equals_the_single_process(tile_size, halo, rounds):
    # Rows at one place join at their core distance: the driver's forest and fit run over
    # the places; with Borůvka rounds the places' rows are joined back as edges.
    frame = buildings()
    params = dict(min_cluster_size=25, min_samples=8)
    result, driver = tiled(frame, tile_size=tile_size, halo=halo, **params)
    assert cases.check_hdbscan(result, frame, **params).max() >= 3
    check_tree(driver, frame, **params)
    assert (driver.stats["rounds"] > 0) == rounds
    places = len(np.unique(frame[["x", "y"]].to_numpy(), axis=0))
    # A place whose rows join at most h apart stands as one location; one whose core
    # distance is above h, as one location per row.
    assert driver.locations.count == places if not rounds else places < driver.locations.count < len(frame) / 3


@pytest.mark.parametrize("tile_size", [0.05, 1.0])
def test_global_hdbscan_over_locations_on_the_sphere(tile_size):
    # The world's points, each repeated at its place a few times: the locations' tree and
    # core distances in radians.
    world = cases.world()
    rng = np.random.default_rng(10)
    frame = world.iloc[rng.integers(0, len(world), 3 * len(world))].reset_index(drop=True)
    frame["id"] = rng.permutation(len(frame))
    params = dict(min_cluster_size=40, min_samples=10, metric="haversine")
    result, driver = tiled(frame, columns=("lat", "lon"), tile_size=tile_size, **params)
    assert cases.check_hdbscan(result, frame, columns=("lat", "lon"), **params).max() >= 4
    check_tree(driver, frame, columns=("lat", "lon"), **params)
    # Places whose core distance is above h (sparse ones, small tiles) stay a location a row.
    assert driver.locations.count < (len(frame) / 2 if tile_size >= 1 else len(frame))
