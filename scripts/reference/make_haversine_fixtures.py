#!/usr/bin/env python3
"""Write the great-circle reference fixtures in Tests/Fixtures/haversine/.

Each case is a small set of points on the Earth (longitude, latitude in degrees) plus HDBSCAN
and DBSCAN parameters, with what scikit-learn 1.9.1 produces with metric="haversine":
HDBSCAN's labels and probabilities, the mutual-reachability MST weights (metres), and
DBSCAN's labels and core points for eps given in metres along the great circle. Distances are
great-circle distances on a sphere of radius R = 6,371,008.8 m (the mean Earth radius):
scikit-learn's haversine distance (radians, on [lat, lon] in radians) times R.

Cases cover what planar fixtures cannot: clusters straddling the antimeridian (Fiji, Samoa,
Tonga), points near both poles, antipodal pairs, duplicated coordinates and metropolitan areas
on every continent.

Checks (the script stops with an error otherwise):
  * core distances: the min_samples-th smallest great-circle distance (the point itself
    included) from a brute-force distance matrix, and scikit-learn's MST weights (sorted, times
    R) equal a brute-force O(n^2) Prim on that mutual-reachability matrix within 1e-9 relative;
  * DBSCAN's core points are exactly the points with at least min_samples points (itself
    included) within eps by the brute-force matrix, and its labels are a partition of them.
Row shuffles record whether ties decide anything: `hdbscan_shuffle_stable`, `unstable_points`.

Run:  python scripts/reference/make_haversine_fixtures.py [--only fiji,poles] [--out-dir DIR]
Environment: scripts/reference/requirements.txt (the same pinned versions as the planar ones).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_hdbscan_fixtures import brute_prim_weights  # noqa: E402  (the planar fixtures' O(n^2) Prim)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT_DIR = REPO_ROOT / "Tests" / "Fixtures" / "haversine"
R = 6_371_008.8  # metres: the mean Earth radius
PINNED_VERSIONS = {"numpy": "2.3.5", "scipy": "1.17.1", "scikit-learn": "1.9.1"}
N_SHUFFLES = 32
TOLERANCE = 1e-9  # relative, MST weights against the brute force


# --- geometry -------------------------------------------------------------------------------

def great_circle_matrix(points: np.ndarray) -> np.ndarray:
    """Great-circle distances (metres) between every pair of (lon, lat) degree points, by the
    haversine formula scikit-learn uses."""
    lon, lat = np.radians(points[:, 0]), np.radians(points[:, 1])
    dlat = lat[:, None] - lat[None, :]
    dlon = lon[:, None] - lon[None, :]
    h = np.sin(dlat / 2) ** 2 + np.cos(lat)[:, None] * np.cos(lat)[None, :] * np.sin(dlon / 2) ** 2
    return 2 * R * np.arcsin(np.sqrt(np.clip(h, 0, 1)))


def radians_lat_lon(points: np.ndarray) -> np.ndarray:
    return np.radians(points[:, [1, 0]])


# --- cases ----------------------------------------------------------------------------------

def blob(rng, lon, lat, km, n):
    """n points around (lon, lat), Gaussian with sigma `km` along the ground, longitudes wrapped
    into [-180, 180)."""
    dlat = rng.normal(0, km / 111.2, n)
    dlon = rng.normal(0, km / (111.2 * max(np.cos(np.radians(lat)), 0.02)), n)
    lons = (lon + dlon + 180) % 360 - 180
    lats = np.clip(lat + dlat, -89.999, 89.999)
    return np.column_stack([lons, lats])


def uniform_sphere(rng, n):
    """n points uniform on the sphere."""
    lon = rng.uniform(-180, 180, n)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    return np.column_stack([lon, lat])


def case_fiji():
    rng = np.random.default_rng(2701)
    pts = np.vstack([blob(rng, 179.95, -17.8, 25, 40), blob(rng, -179.9, -16.6, 15, 25),
                     blob(rng, -172.1, -13.8, 20, 30), blob(rng, -175.2, -21.2, 10, 20),
                     blob(rng, 178.4, -18.1, 8, 15), rng.uniform([170, -25], [190, -10], (20, 2))])
    pts[:, 0] = (pts[:, 0] + 180) % 360 - 180
    return dict(name="fiji_antimeridian", seed=2701, points=pts,
                description="Islands across the antimeridian (Fiji split by ±180°, Samoa, Tonga) and uniform noise",
                hdbscan=dict(min_cluster_size=10, min_samples=5), dbscan=dict(eps=60_000.0, min_samples=5))


def case_poles():
    rng = np.random.default_rng(2702)
    north = np.column_stack([rng.uniform(-180, 180, 30), rng.uniform(89.6, 89.99, 30)])
    south = np.column_stack([rng.uniform(-180, 180, 25), rng.uniform(-89.99, -89.7, 25)])
    pts = np.vstack([north, south, blob(rng, 15.6, 78.2, 20, 25), blob(rng, -68.3, -54.8, 15, 20),
                     blob(rng, -50.0, 82.5, 40, 15), uniform_sphere(rng, 15)])
    return dict(name="poles", seed=2702, points=pts,
                description="Points within 50 km of both poles (every longitude), Svalbard, Tierra del Fuego, north Greenland, sphere noise",
                hdbscan=dict(min_cluster_size=8, min_samples=4), dbscan=dict(eps=80_000.0, min_samples=4))


def case_antipodes():
    rng = np.random.default_rng(2703)
    base = np.vstack([blob(rng, 126.98, 37.57, 10, 20), blob(rng, -58.4, -34.6, 10, 20), uniform_sphere(rng, 20)])
    anti = np.column_stack([(base[:, 0] + 360) % 360 - 180, -base[:, 1]])
    pts = np.vstack([base, anti])
    return dict(name="antipodes", seed=2703, points=pts,
                description="Seoul and Buenos Aires blobs, sphere noise, and the antipode of every point (distances up to half the circumference)",
                hdbscan=dict(min_cluster_size=6, min_samples=3), dbscan=dict(eps=30_000.0, min_samples=3))


def case_duplicates():
    rng = np.random.default_rng(2704)
    sites = np.vstack([blob(rng, 139.69, 35.69, 15, 12), blob(rng, -73.98, 40.75, 15, 12), blob(rng, 28.98, 41.01, 15, 12)])
    reps = rng.integers(1, 15, len(sites))
    pts = np.vstack([np.repeat(sites, reps, axis=0), uniform_sphere(rng, 15)])
    return dict(name="duplicates_world", seed=2704, points=pts,
                description="Buildings in Tokyo, New York and Istanbul repeated 1-14 times (identical coordinates), sphere noise",
                hdbscan=dict(min_cluster_size=10, min_samples=5), dbscan=dict(eps=20_000.0, min_samples=5))


METROS = [(-99.13, 19.43), (-46.63, -23.55), (-0.13, 51.51), (3.38, 6.52), (31.24, 30.04), (77.21, 28.61),
          (121.47, 31.23), (151.21, -33.87), (-122.42, 37.77), (18.42, -33.92), (37.62, 55.75), (106.85, -6.21)]


def case_metros(name, seed, **selection):
    rng = np.random.default_rng(seed)
    pts = np.vstack([blob(rng, lon, lat, rng.uniform(10, 60), int(rng.integers(15, 40))) for lon, lat in METROS]
                    + [uniform_sphere(rng, 60)])
    return dict(name=name, seed=seed, points=pts,
                description="Twelve metropolitan areas on six continents (sigma 10-60 km) and sphere noise"
                + (f"; selection {selection}" if selection else ""),
                hdbscan=dict(min_cluster_size=10, min_samples=5, **selection), dbscan=dict(eps=100_000.0, min_samples=5))


CASES = {c["name"]: c for c in [case_fiji(), case_poles(), case_antipodes(), case_duplicates(),
                                case_metros("metros", 2705),
                                case_metros("metros_leaf_epsilon", 2706, cluster_selection_method="leaf",
                                            cluster_selection_epsilon=150_000.0)]}


# --- reference runs -------------------------------------------------------------------------

def hdbscan_params(case):
    p = dict(min_cluster_size=2, min_samples=None, cluster_selection_method="eom",
             cluster_selection_epsilon=0.0, allow_single_cluster=False, max_cluster_size=None)
    p.update(case["hdbscan"])
    return p


def fit_hdbscan(points, params):
    from sklearn.cluster import HDBSCAN
    p = dict(params)
    p["cluster_selection_epsilon"] = p["cluster_selection_epsilon"] / R  # metres -> radians
    return HDBSCAN(metric="haversine", copy=True, **p).fit(radians_lat_lon(points))


def fit_dbscan(points, eps, min_samples):
    from sklearn.cluster import DBSCAN
    return DBSCAN(eps=eps / R, min_samples=min_samples, metric="haversine").fit(radians_lat_lon(points))


def same_partition(a, b):
    """Whether two labelings are the same partition (noise as noise)."""
    from sklearn.metrics import adjusted_rand_score
    return bool(np.array_equal(np.asarray(a) < 0, np.asarray(b) < 0) and adjusted_rand_score(a, b) == 1.0)


def check_mst(case, est, matrix):
    k = hdbscan_params(case)["min_samples"] or hdbscan_params(case)["min_cluster_size"]
    core = np.sort(matrix, axis=1)[:, k - 1]
    brute = brute_prim_weights(matrix, core)
    ours = np.sort(est._single_linkage_tree_["value"]) * R
    if len(brute) != len(ours) or not np.allclose(brute, ours, rtol=TOLERANCE, atol=1e-6):
        raise SystemExit(f"{case['name']}: scikit-learn's MST weights differ from the brute force")
    return ours


def check_dbscan(case, est, matrix):
    eps, ms = case["dbscan"]["eps"], case["dbscan"]["min_samples"]
    core = (matrix <= eps).sum(axis=1) >= ms
    if not np.array_equal(np.flatnonzero(core), np.sort(est.core_sample_indices_)):
        raise SystemExit(f"{case['name']}: DBSCAN core points differ from the brute force")


def moved(labels, other):
    """The points whose label in `other`, renamed to the original label it overlaps most
    (noise stays noise), differs from `labels`."""
    renamed = np.full(len(other), -1)
    for c in set(other.tolist()) - {-1}:
        members = other == c
        values, counts = np.unique(labels[members], return_counts=True)
        renamed[members] = values[np.argmax(counts)]
    return np.flatnonzero(renamed != labels).tolist()


def shuffles(case, params, labels):
    """Whether HDBSCAN's partition survives row shuffles, and the points that move."""
    rng = np.random.default_rng(case["seed"] + 1)
    unstable = set()
    for _ in range(N_SHUFFLES):
        order = rng.permutation(len(case["points"]))
        back = np.empty_like(order)
        back[order] = np.arange(len(order))
        shuffled = fit_hdbscan(case["points"][order], params).labels_[back]
        if not same_partition(labels, shuffled):
            unstable.update(moved(labels, shuffled))
    return sorted(unstable)


def straddles(points, labels):
    """Whether some cluster has members east of 179° and west of -179°."""
    return any((points[labels == c, 0] > 179).any() and (points[labels == c, 0] < -179).any()
               for c in set(labels.tolist()) - {-1})


def build(case):
    points = np.round(case["points"], 6) + 0.0
    case = dict(case, points=points)
    params = hdbscan_params(case)
    matrix = great_circle_matrix(points)
    est = fit_hdbscan(points, params)
    weights = check_mst(case, est, matrix)
    db = fit_dbscan(points, **case["dbscan"])
    check_dbscan(case, db, matrix)
    unstable = shuffles(case, params, est.labels_)
    if case["name"] == "fiji_antimeridian" and not straddles(points, est.labels_):
        raise SystemExit("fiji_antimeridian: no HDBSCAN cluster has members on both sides of ±180°")
    return {
        "name": case["name"], "description": case["description"], "seed": case["seed"], "radius_m": R,
        "n": len(points), "points": points.tolist(),
        "hdbscan": {"params": params, "labels": est.labels_.tolist(), "probabilities": est.probabilities_.tolist(),
                    "mst_weights_m": weights.tolist(), "shuffle_stable": not unstable, "unstable_points": unstable},
        "dbscan": {"params": case["dbscan"], "labels": db.labels_.tolist(),
                   "core_sample_indices": sorted(int(i) for i in db.core_sample_indices_)},
    }


def check_versions(allow):
    from importlib.metadata import version
    wrong = {p: version(p) for p, v in PINNED_VERSIONS.items() if version(p) != v}
    if wrong and not allow:
        raise SystemExit(f"pinned versions {PINNED_VERSIONS} required, found {wrong} (--allow-version-mismatch to experiment)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    ap.add_argument("--allow-version-mismatch", action="store_true")
    args = ap.parse_args()
    check_versions(args.allow_version_mismatch)
    names = args.only.split(",") if args.only else list(CASES)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        record = build(CASES[name])
        text = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
        path = args.out_dir / f"{name}.json"
        path.write_text(text)
        h, d = record["hdbscan"], record["dbscan"]
        stability = "stable" if h["shuffle_stable"] else f"{len(h['unstable_points'])} unstable"
        print(f"{name:22s} n={record['n']:4d}  hdbscan {len(set(h['labels']) - {-1}):3d} clusters "
              f"({h['labels'].count(-1)} noise, {stability})  "
              f"dbscan {len(set(d['labels']) - {-1}):3d} clusters  {len(text):7d} B  {hashlib.sha256(text.encode()).hexdigest()[:12]}")


if __name__ == "__main__":
    sys.exit(main())
