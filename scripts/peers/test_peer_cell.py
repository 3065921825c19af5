"""Tests for peer_cell.py: each peer, run as `geocluster bench` runs it (a fresh process).

    python3 -m pytest -q scripts/peers/test_peer_cell.py

A peer whose library is not installed is skipped here (its report says "unavailable").
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).with_name("peer_cell.py")
HDBSCAN_PEERS = ["sklearn", "hdbscan", "fast_hdbscan", "hdbscan_rs"]
ALL_PEERS = HDBSCAN_PEERS + ["sklearn_dbscan", "supercluster"]
PARAMS = {"sklearn_dbscan": {"eps": 30, "min_samples": 5},
          "supercluster": {"radius": 40, "extent": 512, "max_zoom": 16, "zoom": 14}}
BLOB = 600  # points per blob; rows 0-599, 600-1199, 1200-1799 are the blobs, then noise
NOISE = 200


@pytest.fixture(scope="module")
def points_csv(tmp_path_factory) -> Path:
    """3 Gaussian blobs (sigma 40 m, 800 m apart) and uniform noise, at Seoul-like
    EPSG:5179 coordinates, with lat/lon from a local equirectangular approximation."""
    rng = np.random.default_rng(3)
    xy = np.vstack([rng.normal(centre, 40.0, (BLOB, 2)) for centre in [(0, 0), (800, 0), (0, 800)]]
                   + [rng.uniform(-300, 1100, (NOISE, 2))]) + (950_000.0, 1_950_000.0)
    lat = 37.5 + (xy[:, 1] - 1_950_000.0) / 111_000.0
    lon = 127.0 + (xy[:, 0] - 950_000.0) / (111_000.0 * np.cos(np.radians(37.5)))
    path = tmp_path_factory.mktemp("cell") / "points.csv"
    with open(path, "w") as handle:
        handle.write("id,x,y,lat,lon\n")
        for i in range(len(xy)):
            handle.write(f"p{i},{xy[i, 0]:.2f},{xy[i, 1]:.2f},{lat[i]:.7f},{lon[i]:.7f}\n")
    return path


def run_cell(peer, csv_path, out_dir, params=None, extra=(), env=None):
    """(exit code, report dict, labels as an (ids, labels) pair or None)."""
    labels, report = out_dir / f"{peer}-labels.csv", out_dir / f"{peer}-report.json"
    params = params if params is not None else PARAMS.get(peer, {"min_cluster_size": 15, "min_samples": 5})
    proc = subprocess.run([sys.executable, str(SCRIPT), "--peer", peer, "--input", str(csv_path),
                           "--params", json.dumps(params), "--labels", str(labels), "--report", str(report),
                           "--threads", "2", *extra], capture_output=True, text=True, env=env)
    result = json.loads(report.read_text())
    rows = None
    if labels.exists():
        table = np.loadtxt(labels, delimiter=",", skiprows=1, dtype=str, ndmin=2)
        rows = (table[:, 0].tolist(), table[:, 1].astype(int))
    return proc.returncode, result, rows


@pytest.fixture(scope="module")
def cells(points_csv, tmp_path_factory):
    """Every peer run once on the blobs."""
    out = tmp_path_factory.mktemp("out")
    return {peer: run_cell(peer, points_csv, out) for peer in ALL_PEERS}


def ok_cell(cells, peer):
    code, report, rows = cells[peer]
    if report["status"] == "unavailable":
        pytest.skip(report["error"])
    assert (code, report["status"], report["error"]) == (0, "ok", None)
    return report, rows


@pytest.mark.parametrize("peer", ALL_PEERS)
def test_report_and_labels(cells, peer):
    report, (ids, labels) = ok_cell(cells, peer)
    n = 3 * BLOB + NOISE
    assert ids == [f"p{i}" for i in range(n)]
    assert report["peer"] == peer and report["points"] == n and report["version"] and report["settings"]
    assert report["read_seconds"] >= 0 and report["fit_seconds"] > 0 and report["peak_mb"] > 10
    assert report["noise"] == int((labels == -1).sum())
    assert report["clusters"] == len(set(labels.tolist()) - {-1}) > 0
    has_mst = peer in ("sklearn", "hdbscan", "fast_hdbscan")
    assert (report["mst_weight"] is not None) == has_mst
    if has_mst:
        assert report["mst_weight"] > 0


@pytest.mark.parametrize("peer", HDBSCAN_PEERS)
def test_hdbscan_peers_find_the_three_blobs(cells, peer):
    _, (_, labels) = ok_cell(cells, peer)
    majority = []
    for b in range(3):
        values, counts = np.unique(labels[b * BLOB:(b + 1) * BLOB], return_counts=True)
        majority.append(values[counts.argmax()])
        assert majority[-1] != -1 and counts.max() >= 0.95 * BLOB
    assert len(set(majority)) == 3


def test_supercluster_labels_are_its_cluster_ids(cells):
    _, (_, labels) = ok_cell(cells, "supercluster")
    clustered = labels[labels >= 0]
    # ids of new clusters count on from the number of points; single points are noise
    assert clustered.min() >= 3 * BLOB + NOISE
    assert (labels[:3 * BLOB] >= 0).mean() > 0.95


def test_mst_weights(cells):
    sk, _ = ok_cell(cells, "sklearn")
    fast, _ = ok_cell(cells, "fast_hdbscan")
    hdb, _ = ok_cell(cells, "hdbscan")
    # Same min_samples after mapping, so the same mutual-reachability MST (fast_hdbscan in float32).
    assert fast["mst_weight"] == pytest.approx(sk["mst_weight"], rel=1e-6)
    # hdbscan's approximate Boruvka builds a spanning tree: never lighter than the minimum.
    assert hdb["mst_weight"] >= sk["mst_weight"] * (1 - 1e-9)


def test_unavailable_library(points_csv, tmp_path):
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "hdbscan_rs.py").write_text("raise ImportError('simulated: not installed')\n")
    env = dict(os.environ, PYTHONPATH=str(fake))
    code, report, rows = run_cell("hdbscan_rs", points_csv, tmp_path, env=env)
    assert (code, report["status"], rows) == (0, "unavailable", None)
    assert "hdbscan_rs" in report["error"] and "pip install hdbscan-rs" in report["error"]
    assert report["points"] == 3 * BLOB + NOISE and report["fit_seconds"] is None


def test_sklearn_skipped_above_limit(points_csv, tmp_path):
    code, report, rows = run_cell("sklearn", points_csv, tmp_path, extra=["--sklearn-max-n", "10"])
    assert (code, report["status"], rows) == (0, "skipped", None)
    assert "2000" in report["error"] and "10" in report["error"]


@pytest.mark.parametrize("peer,params", [("hdbscan", {"min_cluster_size": 15, "min_sample": 5}),
                                         ("supercluster", {"min_points": 3}),
                                         ("nonesuch", {})])
def test_bad_params_are_errors(points_csv, tmp_path, peer, params):
    code, report, rows = run_cell(peer, points_csv, tmp_path, params=params)
    assert (code, report["status"], rows) == (1, "error", None)
    assert "\n" not in report["error"]


def test_missing_columns_are_errors(tmp_path):
    path = tmp_path / "xy-only.csv"
    path.write_text("x,y\n0,0\n1,1\n")
    code, report, _ = run_cell("supercluster", path, tmp_path)
    assert (code, report["status"]) == (1, "error")
    assert "lon" in report["error"]


def run_pins_cell(csv_path, out_dir, zooms="12-18", env=None):
    """peer_cell.py --pins-zooms as `geocluster bench --pins-zooms` runs it: (exit code,
    report, pins table as an array of zoom, longitude, latitude, count, labels by zoom)."""
    viewports = out_dir / "viewports.csv"
    low, high = (int(z) for z in zooms.split("-"))
    with open(viewports, "w") as handle:
        handle.write("zoom,min_lon,min_lat,max_lon,max_lat\n")
        for z in range(low, high + 1):
            handle.write(f"{z},126.99,37.49,127.02,37.51\n{z},126.0,36.0,126.1,36.1\n")
    pins, labels, report = out_dir / "pins.csv", out_dir / "labels.i32", out_dir / "report.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--peer", "supercluster", "--input", str(csv_path),
                           "--pins-zooms", zooms, "--viewports", str(viewports), "--pins", str(pins),
                           "--labels", str(labels), "--report", str(report)], capture_output=True, text=True, env=env)
    result = json.loads(report.read_text())
    if result["status"] != "ok":
        return proc.returncode, result, None, None
    table = np.loadtxt(pins, delimiter=",", skiprows=1, ndmin=2)
    blocks = np.fromfile(labels, dtype="<i4").reshape(high - low + 1, -1)
    return proc.returncode, result, table, {low + k: blocks[k] for k in range(len(blocks))}


def test_pins_per_zoom(points_csv, tmp_path):
    code, report, pins, labels = run_pins_cell(points_csv, tmp_path)
    if report["status"] == "unavailable":
        pytest.skip(report["error"])
    n = 3 * BLOB + NOISE
    assert (code, report["status"], report["points"]) == (0, "ok", n)
    assert report["build_seconds"] > 0 and report["peak_mb"] > 0
    assert [e["zoom"] for e in report["zooms"]] == list(range(12, 19))
    for e in report["zooms"]:
        z = e["zoom"]
        at = pins[pins[:, 0] == z]
        # Every row is in exactly one pin, and each pin's count is its rows.
        assert e["pins"] == len(at) and at[:, 3].sum() == n
        assert labels[z].min() >= 0 and labels[z].max() < len(at)
        assert (np.bincount(labels[z], minlength=len(at)) == at[:, 3]).all()
        assert len(e["query_seconds"]) == 2
    # Above max_zoom (16) supercluster shows the points themselves; below, the blobs merge.
    assert [e["pins"] for e in report["zooms"] if e["zoom"] > 16] == [n, n]
    assert report["zooms"][0]["pins"] < n / 10
    # The empty viewport (far from the points) returns nothing.
    assert all(e["viewport_pins"] > 0 for e in report["zooms"])


def test_pins_unavailable_library(points_csv, tmp_path):
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "pysupercluster.py").write_text("raise ImportError('simulated: not installed')\n")
    code, report, pins, _ = run_pins_cell(points_csv, tmp_path, env=dict(os.environ, PYTHONPATH=str(fake)))
    assert (code, report["status"], pins) == (0, "unavailable", None)
    assert "pip install --no-build-isolation pysupercluster-problematy" in report["error"]


# --------------------------------------------------------------------------------------
# Great-circle cells (--metric geodesic): lon/lat in, metres on the sphere
# --------------------------------------------------------------------------------------

WORLD_CENTRES = [(179.9, -17.0), (2.35, 48.85), (-70.6, -33.4), (139.7, 35.7)]  # lon, lat; Fiji across ±180°
WORLD_BLOB, WORLD_NOISE = 250, 120
HDBSCAN_WORLD = {"min_cluster_size": 15, "min_samples": 5}
DBSCAN_WORLD = {"eps": 40_000.0, "min_samples": 5}
EARTH_RADIUS = 6_371_008.8


@pytest.fixture(scope="module")
def world_csv(tmp_path_factory) -> Path:
    """Four blobs (sigma about 20 km) on four continents, one across the antimeridian, and
    noise uniform on the sphere; lon/lat only (no x,y: a planar peer has nothing to read)."""
    rng = np.random.default_rng(11)
    rows = []
    for lon, lat in WORLD_CENTRES:
        dlat = rng.normal(0.0, 0.18, WORLD_BLOB)
        dlon = rng.normal(0.0, 0.18, WORLD_BLOB) / np.cos(np.radians(lat))
        rows.append(np.column_stack([(lon + dlon + 180.0) % 360.0 - 180.0, lat + dlat]))
    z = rng.uniform(-1.0, 1.0, WORLD_NOISE)
    rows.append(np.column_stack([rng.uniform(-180.0, 180.0, WORLD_NOISE), np.degrees(np.arcsin(z))]))
    lonlat = np.vstack(rows)
    path = tmp_path_factory.mktemp("world") / "world.csv"
    with open(path, "w") as handle:
        handle.write("id,lat,lon\n")
        for i, (lon, lat) in enumerate(lonlat):
            handle.write(f"w{i},{lat:.7f},{lon:.7f}\n")
    return path


def geocluster_cli():
    """The geocluster executable ($GEOCLUSTER_CLI, else this checkout's release or debug
    build), or None."""
    root = SCRIPT.parents[2]
    for candidate in [os.environ.get("GEOCLUSTER_CLI"), root / ".build/release/geocluster", root / ".build/debug/geocluster"]:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def geocluster_cell(csv_path, out_dir, method, parameters):
    """geocluster's own benchmark cell on the sphere: (labels, record)."""
    cli = geocluster_cli()
    if cli is None:
        pytest.skip("no geocluster executable: build it (swift build) or set GEOCLUSTER_CLI")
    labels, record = out_dir / f"gc-{method}-labels.csv", out_dir / f"gc-{method}-record.json"
    subprocess.run([cli, "bench-cell", str(csv_path), "--method", method, "--parameters", parameters,
                    "--labels", str(labels), "--record", str(record), "--metric", "geodesic", "--threads", "2"],
                   check=True, capture_output=True, text=True)
    table = np.loadtxt(labels, delimiter=",", skiprows=1, dtype=str, ndmin=2)
    return table[:, 1].astype(int), json.loads(record.read_text())


@pytest.fixture(scope="module")
def world_cells(world_csv, tmp_path_factory):
    out = tmp_path_factory.mktemp("world-out")
    params = {"sklearn": HDBSCAN_WORLD, "sklearn_dbscan": DBSCAN_WORLD, "quitefastmst": {"min_samples": 5}}
    return {peer: run_cell(peer, world_csv, out, params=params.get(peer, HDBSCAN_WORLD), extra=["--metric", "geodesic"])
            for peer in ["sklearn", "sklearn_dbscan", "quitefastmst", "fast_hdbscan", "hdbscan", "hdbscan_rs"]}


@pytest.mark.parametrize("peer", ["sklearn", "sklearn_dbscan"])
def test_geodesic_cell_reads_lon_lat(world_cells, peer):
    report, (ids, labels) = ok_cell(world_cells, peer)
    n = len(WORLD_CENTRES) * WORLD_BLOB + WORLD_NOISE
    assert report["metric"] == "geodesic" and report["fit_scope"] == "clustering"
    assert report["points"] == n and ids == [f"w{i}" for i in range(n)]
    assert "haversine" in report["settings"]
    # Each blob is one cluster, the one across ±180° included.
    for b in range(len(WORLD_CENTRES)):
        values, counts = np.unique(labels[b * WORLD_BLOB:(b + 1) * WORLD_BLOB], return_counts=True)
        assert values[counts.argmax()] != -1 and counts.max() >= 0.9 * WORLD_BLOB


@pytest.mark.parametrize("peer", ["fast_hdbscan", "hdbscan", "hdbscan_rs"])
def test_planar_peers_are_skipped_on_the_sphere(world_cells, peer):
    code, report, rows = world_cells[peer]
    assert (code, report["status"], rows) == (0, "skipped", None)
    assert "great-circle" in report["error"] and report["points"] == len(WORLD_CENTRES) * WORLD_BLOB + WORLD_NOISE


def test_geodesic_needs_lon_lat(points_csv, tmp_path):
    xy = tmp_path / "xy.csv"
    xy.write_text("id,x,y\n" + "".join(f"{i},{i},{2 * i}\n" for i in range(50)))
    code, report, _ = run_cell("sklearn", xy, tmp_path, extra=["--metric", "geodesic"])
    assert (code, report["status"]) == (1, "error") and "lon" in report["error"]


def test_sklearn_haversine_agrees_with_geocluster(world_cells, world_csv, tmp_path):
    from sklearn.metrics import adjusted_rand_score

    report, (_, labels) = ok_cell(world_cells, "sklearn")
    ours, record = geocluster_cell(world_csv, tmp_path, "hdbscan", "min_cluster_size=15 min_samples=5")
    assert record["metric"] == "geodesic"
    assert report["mst_weight"] == pytest.approx(record["mstWeight"], rel=1e-9)
    # Mutual reachability ties many edge weights. Where a tie decides a point, the two may differ:
    # leave those out, and the partitions are the same.
    decided = tie_decided(world_csv, labels)
    assert decided.sum() <= 0.01 * len(labels)
    assert adjusted_rand_score(ours[~decided], labels[~decided]) == 1.0


def tie_decided(csv_path, labels, shuffles=4):
    """Points that a tie of mutual-reachability distances places: those whose scikit-learn
    haversine label (noise or which cluster, by its co-members) changes when the rows are
    permuted, and those that leave their cluster at the very distance the cluster splits from
    its parent (an equal weight attaches them to the parent or the child, by processing order)."""
    from sklearn.cluster import HDBSCAN
    from sklearn.cluster._hdbscan._tree import _condense_tree

    _, lonlat = read_world(csv_path)
    x = np.radians(lonlat[:, ::-1])
    fit = lambda rows: HDBSCAN(min_cluster_size=15, min_samples=5, metric="haversine", copy=True).fit(rows)
    decided = np.zeros(len(labels), dtype=bool)
    rng = np.random.default_rng(5)
    for _ in range(shuffles):
        order = rng.permutation(len(x))
        again = np.empty_like(labels)
        again[order] = fit(x[order]).labels_
        for label in np.unique(labels):
            members = labels == label
            values, counts = np.unique(again[members], return_counts=True)
            decided |= members & (again != values[counts.argmax()])
        decided |= (again < 0) != (labels < 0)
    tree = _condense_tree(fit(x)._single_linkage_tree_, 15)
    birth = {int(r["child"]): r["value"] for r in tree if r["child"] >= len(x)}
    for r in tree:
        if r["child"] < len(x) and birth.get(int(r["parent"])) == r["value"]:
            decided[int(r["child"])] = True
    return decided


def read_world(csv_path):
    table = np.loadtxt(csv_path, delimiter=",", skiprows=1, dtype=str, ndmin=2)
    return table[:, 0].tolist(), table[:, [2, 1]].astype(float)  # lon, lat


def test_sklearn_dbscan_haversine_agrees_with_geocluster(world_cells, world_csv, tmp_path):
    from sklearn.metrics import adjusted_rand_score

    _, (_, labels) = ok_cell(world_cells, "sklearn_dbscan")
    ours, _ = geocluster_cell(world_csv, tmp_path, "dbscan", "eps=40000 min_samples=5")
    assert adjusted_rand_score(ours, labels) == 1.0


def test_quitefastmst_mst_weight_equals_geoclusters(world_cells, world_csv, tmp_path):
    code, report, rows = world_cells["quitefastmst"]
    if report["status"] == "unavailable":
        pytest.skip(report["error"])
    assert (code, report["status"], rows) == (0, "ok", None), report["error"]
    assert report["fit_scope"] == "mst" and report["clusters"] is None and report["noise"] is None
    assert "M=4" in report["settings"]
    _, record = geocluster_cell(world_csv, tmp_path, "hdbscan", "min_cluster_size=15 min_samples=5")
    # sklearn's min_samples 5 is quitefastmst's M = 4: the same great-circle MST.
    assert report["mst_weight"] == pytest.approx(record["mstWeight"], rel=1e-9)


@pytest.mark.parametrize("min_samples", [1, 2, 3, 8])
def test_quitefastmst_min_samples_mapping(points_csv, tmp_path, min_samples):
    """Planar too: quitefastmst's M = min_samples - 1 gives scikit-learn's MST weight."""
    out = tmp_path / str(min_samples)
    out.mkdir()
    _, mst, _ = run_cell("quitefastmst", points_csv, out, params={"min_samples": min_samples})
    _, sk, _ = run_cell("sklearn", points_csv, out, params={"min_cluster_size": 15, "min_samples": min_samples})
    if "unavailable" in (mst["status"], sk["status"]):
        pytest.skip(mst["error"] or sk["error"])
    assert (mst["status"], mst["metric"]) == ("ok", "planar")
    assert mst["mst_weight"] == pytest.approx(sk["mst_weight"], rel=1e-9)


def test_features_are_scaled_as_geocluster_scales_them():
    sys.path.insert(0, str(SCRIPT.parent))
    from peer_cell import scaled_features

    rng = np.random.default_rng(5)
    columns = np.column_stack([rng.normal(0, 3, 500), rng.normal(0, 1, 500), rng.exponential(100, 500), np.full(500, 7.0)])
    names = ["x", "y", "price", "floor"]
    standard = scaled_features(columns.copy(), names, "standard")
    shared = np.sqrt((columns[:, 0].std() ** 2 + columns[:, 1].std() ** 2) / 2)
    assert np.allclose(standard[:, :2], (columns[:, :2] - columns[:, :2].mean(axis=0)) / shared)
    assert np.isclose(standard[:, 2].std(), 1) and np.isclose(standard[:, 2].mean(), 0, atol=1e-12)
    assert np.all(standard[:, 3] == 0)  # spread 0: only centred
    robust = scaled_features(columns.copy(), names, "robust")
    q1, q3 = np.percentile(columns[:, 2], [25, 75])
    assert np.isclose(np.median(robust[:, 2]), 0) and np.isclose(np.percentile(robust[:, 2], 75) - np.percentile(robust[:, 2], 25), 1)
    assert np.allclose(robust[:, 2], (columns[:, 2] - np.median(columns[:, 2])) / (q3 - q1))
    assert np.array_equal(scaled_features(columns.copy(), names, "none"), columns)


def test_peers_cluster_named_features(tmp_path):
    """Three blobs that only the third column separates: a peer given --features finds them."""
    rng = np.random.default_rng(6)
    rows = np.vstack([np.column_stack([rng.uniform(0, 1000, (BLOB, 2)), rng.normal(c, 1.0, BLOB)]) for c in (0, 50, 100)])
    path = tmp_path / "features.csv"
    np.savetxt(path, np.column_stack([np.arange(len(rows)), rows]), delimiter=",", header="id,x,y,price", comments="",
               fmt=["%d", "%.3f", "%.3f", "%.4f"])
    for peer in ("hdbscan", "sklearn"):
        code, report, rows_out = run_cell(peer, path, tmp_path, {"min_cluster_size": 300, "min_samples": 5},
                                          extra=("--features", "price", "--scale", "none"))
        if report["status"] == "unavailable":
            continue
        assert (code, report["status"]) == (0, "ok"), report
        labels = rows_out[1]
        assert len(set(labels.tolist()) - {-1}) == 3
        assert all(len(set(labels[b * BLOB:(b + 1) * BLOB].tolist()) - {-1}) == 1 for b in range(3))
    code, report, _ = run_cell("supercluster", path, tmp_path, extra=("--features", "price"))
    assert report["status"] in ("skipped", "unavailable") and code == 0
