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
