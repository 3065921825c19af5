#!/usr/bin/env python3
"""Write the great-circle prediction fixtures in Tests/Fixtures/prediction_sphere/.

The prediction fixtures of make_prediction_fixtures.py, on the sphere: for the great-circle
reference cases (make_haversine_fixtures.py: islands across the antimeridian, both poles,
antipodes, repeated coordinates, metropolitan areas), the hdbscan library 0.8.44 is fitted with
metric="haversine" and prediction data, and records for a seeded set of new points (uniform on
the sphere, jittered and exact copies of fitted points, antipodes of fitted points)
`approximate_predict` (labels, probabilities, connecting points), `approximate_predict_scores`,
`membership_vector`, and `all_points_membership_vectors` for the fitted points.

hdbscan takes [latitude, longitude] in radians and answers distances in radians; the fixtures
hold (longitude, latitude) in degrees and `cluster_selection_epsilon` in metres (radians times
R = 6,371,008.8 m), as geocluster takes them. Probabilities, outlier scores and memberships are
ratios of distances, so the unit does not change them.

The same checks as the planar script: every answer re-derived by a transcription of hdbscan's
rule, ties between equally near neighbours and answers that change when the fit's rows are
shuffled recorded, so that tests compare only what no tie decides.

Run from anywhere:  python scripts/reference/make_sphere_prediction_fixtures.py
Same environment as make_hdbscan_fixtures.py (scripts/reference/requirements.txt).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_hdbscan_fixtures as base  # noqa: E402  (pinned versions, to_json)
import make_haversine_fixtures as sphere  # noqa: E402  (the great-circle cases)
import make_prediction_fixtures as planar  # noqa: E402  (answers, the tie and shuffle checks)

DEFAULT_OUT_DIR = base.REPO_ROOT / "Tests" / "Fixtures" / "prediction_sphere"
CASES = ["fiji_antimeridian", "poles", "antipodes", "duplicates_world", "metros", "metros_leaf_epsilon"]


def new_points(case: dict) -> np.ndarray:
    """A seeded mix of (lon, lat) degree points to predict, rounded to 1e-6 degrees."""
    rng = np.random.default_rng(case["seed"] + 5000)
    pts = case["points"]
    uniform = sphere.uniform_sphere(rng, 40)
    picks = rng.integers(0, len(pts), size=30)
    jittered = np.vstack([sphere.blob(rng, lon, lat, 20, 1) for lon, lat in pts[picks]])
    copies = pts[rng.integers(0, len(pts), size=10)]
    anti = pts[rng.integers(0, len(pts), size=4)]
    antipodes = np.column_stack([(anti[:, 0] + 360) % 360 - 180, -anti[:, 1]])
    return np.round(np.vstack([uniform, jittered, copies, antipodes]), 6) + 0.0


def params(case: dict) -> dict:
    p = sphere.hdbscan_params(case)
    return dict(min_cluster_size=p["min_cluster_size"], cluster_selection_method=p["cluster_selection_method"],
                cluster_selection_epsilon=float(p["cluster_selection_epsilon"]),
                allow_single_cluster=p["allow_single_cluster"], max_cluster_size=p["max_cluster_size"])


def fit(case: dict, points: np.ndarray | None = None):
    import hdbscan

    p = params(case)
    min_samples = case["hdbscan"].get("min_samples") or p["min_cluster_size"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return hdbscan.HDBSCAN(
            min_cluster_size=p["min_cluster_size"], min_samples=min_samples - 1,
            cluster_selection_method=p["cluster_selection_method"],
            cluster_selection_epsilon=p["cluster_selection_epsilon"] / sphere.R,
            allow_single_cluster=p["allow_single_cluster"], max_cluster_size=p["max_cluster_size"] or 0,
            algorithm="generic", metric="haversine", prediction_data=True,
        ).fit(radians(case["points"] if points is None else points))


def radians(points: np.ndarray) -> np.ndarray:
    """[latitude, longitude] in radians, C-contiguous: hdbscan's soft clustering reads a point's
    row as contiguous memory and gives wrong memberships for the Fortran-ordered array that
    column indexing makes (its membership_vector and all_points_membership_vectors)."""
    return np.ascontiguousarray(sphere.radians_lat_lon(points))


def run_case(case: dict) -> dict:
    est = fit(case)
    degrees = new_points(case)
    query = radians(degrees)
    first = planar.answers(est, query)
    unstable = planar.changed_under_shuffles(case["points"], case["seed"] + 7000, lambda points: fit(case, points),
                                             query, first)
    result = {
        "name": case["name"],
        "description": case["description"],
        "metric": "haversine",
        "points": case["points"].tolist(),
        "params": params(case),
        "hdbscan_min_samples": int(est.min_samples),
        "new_points": degrees.tolist(),
    }
    result.update(planar.answer_fields(est, query, first, unstable))
    return result


def main(argv=None) -> int:
    return planar.write_fixtures(argv, DEFAULT_OUT_DIR,
                                 {name: (lambda name=name: run_case(sphere.CASES[name])) for name in CASES})


if __name__ == "__main__":
    sys.exit(main())
