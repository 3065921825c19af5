#!/usr/bin/env python3
"""Write the prediction reference fixtures in Tests/Fixtures/prediction/.

For several of the HDBSCAN reference cases (make_hdbscan_fixtures.py), this script fits the
hdbscan library 0.8.44 with prediction data and records, for a seeded set of new points
(uniform over the case's box, jittered copies of fitted points, exact copies, far points):
`approximate_predict` (labels, probabilities, the connecting point),
`approximate_predict_scores`, `membership_vector`, and for the fitted points
`all_points_membership_vectors`.

It re-derives every new point's label and probability with its own transcription of
hdbscan's rule (nearest fitted point by mutual reachability among the 2 * min_samples
nearest, then the condensed tree) and stops if it disagrees with hdbscan; the same
transcription marks the points whose answer depends on which of several equally near
neighbours a k-d tree lists first (`tie_points`): geocluster breaks those ties by distance,
then row, hdbscan by its tree's order.

Run from anywhere:  python scripts/reference/make_prediction_fixtures.py
Same environment as make_hdbscan_fixtures.py (scripts/reference/requirements.txt).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_hdbscan_fixtures as base  # noqa: E402  (the cases, the pinned versions, to_json)

DEFAULT_OUT_DIR = base.REPO_ROOT / "Tests" / "Fixtures" / "prediction"

# The cases fitted here: ordinary blobs, strips, noise only, heavy duplicates, leaf selection,
# a single allowed cluster, min_samples 2 (1 in the hdbscan library's count), and exact-integer
# ties.
CASES = ["blobs_varying_density", "strips", "uniform_noise", "duplicates", "leaf",
         "allow_single_cluster", "min_samples_unset", "min_samples_2",
         "integer_grid", "lattice_ties"]

MR_TIE = 1e-12  # relative: mutual-reachability distances this close count as a tie
N_SHUFFLES = 16  # row permutations of the fit: answers that change under one are tie-decided
SAME = 1e-12  # probabilities, scores and memberships this close count as the same


def new_points(case: base.Case) -> np.ndarray:
    """A seeded mix of points to predict, on the case's 0.01 m grid."""
    rng = np.random.default_rng(case.seed + 5000)
    pts = case.points
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.maximum(hi - lo, 1.0)
    uniform = rng.uniform(lo - 0.1 * span, hi + 0.1 * span, size=(40, 2))
    picks = rng.integers(0, len(pts), size=30)
    jittered = pts[picks] + rng.normal(0.0, 0.01 * span.max(), size=(30, 2))
    copies = pts[rng.integers(0, len(pts), size=10)]
    far = np.array([hi + 10 * span, lo - 10 * span])
    return base._grid(np.vstack([uniform, jittered, copies, far]))


def fit(case: base.Case, points: np.ndarray | None = None):
    import hdbscan

    # The hdbscan library's min_samples does not count the point itself: sklearn's - 1.
    lib_min_samples = case.effective_min_samples - 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = hdbscan.HDBSCAN(
            min_cluster_size=case.min_cluster_size, min_samples=lib_min_samples,
            cluster_selection_method=case.cluster_selection_method,
            cluster_selection_epsilon=float(case.cluster_selection_epsilon),
            allow_single_cluster=case.allow_single_cluster,
            max_cluster_size=case.max_cluster_size or 0,
            algorithm="generic", metric="minkowski", p=2, prediction_data=True,
        ).fit(case.points if points is None else points)
    return est


def transcribed_answers(est, query: np.ndarray, neighbour: int, lam: float):
    """hdbscan's label and probability for a new point joined to `neighbour` at `lam`
    (a transcription of hdbscan.prediction._find_cluster_and_probability)."""
    raw = est.condensed_tree_._raw_tree
    data = est.prediction_data_
    cluster_tree = data.cluster_tree
    row = raw[raw["child"] == neighbour][0]
    cluster = row["parent"]
    if row["lambda_val"] > lam:
        root = cluster_tree["parent"].min()
        while cluster > root:
            birth = cluster_tree["lambda_val"][cluster_tree["child"] == cluster]
            if not (birth[0] >= lam):
                break
            cluster = cluster_tree["parent"][cluster_tree["child"] == cluster][0]
    label = data.cluster_map.get(cluster, -1)
    if label < 0:
        return -1, 0.0
    top = data.max_lambdas[cluster]
    return label, (min(top, lam) / top if top > 0 else 1.0)


def check_and_find_ties(est, query: np.ndarray, labels, probabilities, connecting):
    """Re-derives every answer; returns the rows whose answer a tie between neighbours decides."""
    data = est.prediction_data_
    m = est.min_samples or est.min_cluster_size
    dist, idx = data.tree.query(query, k=2 * m)
    ties = []
    for i in range(len(query)):
        mr = np.maximum(np.maximum(data.core_distances[idx[i]], dist[i][m]), dist[i])
        best = mr.min()
        lam = 1.0 / best if best > 0 else np.finfo(np.double).max
        first = int(idx[i][int(mr.argmin())])
        if first != connecting[i]:
            raise SystemExit(f"point {i}: the transcription joins {first}, hdbscan {connecting[i]}")
        label, prob = transcribed_answers(est, query[i], first, lam)
        if label != labels[i] or abs(prob - probabilities[i]) > 1e-12:
            raise SystemExit(f"point {i}: the transcription gives {(label, prob)}, "
                             f"hdbscan {(labels[i], probabilities[i])}")
        tied = idx[i][mr <= best * (1 + MR_TIE)]
        answers = {transcribed_answers(est, query[i], int(j), lam) for j in tied}
        if len(answers) > 1:
            ties.append(i)
    return ties


def rows_or_null(matrix) -> list:
    """A matrix as lists, with null where hdbscan gives NaN (points at infinite lambda, such as
    coincident copies at least min_samples strong: hdbscan divides infinity by infinity)."""
    return [[None if np.isnan(v) else float(v) for v in row] for row in np.atleast_2d(matrix)]


def answers(est, query: np.ndarray) -> dict:
    """Everything the fixture records about one fit, by row of the fit's own input."""
    import hdbscan

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labels, probabilities, connecting = hdbscan.approximate_predict(est, query, return_connecting_points=True)
        result = {"fit": np.asarray(est.labels_), "labels": labels, "probabilities": probabilities,
                  "connecting": connecting, "scores": hdbscan.approximate_predict_scores(est, query),
                  "membership": None, "all_points": None}
        if est.labels_.max() >= 0:
            result["membership"] = np.atleast_2d(hdbscan.membership_vector(est, query))
            result["all_points"] = np.atleast_2d(hdbscan.all_points_membership_vectors(est))
    return result


def unstable_under_shuffles(case: base.Case, query: np.ndarray, base_answers: dict) -> tuple[list, list]:
    """New points and fitted rows whose answers change when the fit's rows are shuffled."""
    return changed_under_shuffles(case.points, case.seed + 7000, lambda points: fit(case, points), query, base_answers)


def changed_under_shuffles(points: np.ndarray, seed: int, refit, query, base_answers: dict) -> tuple[list, list]:
    """`unstable_under_shuffles` for any fit: `refit(points)` fits the rows in another order."""
    rng = np.random.default_rng(seed)
    new_rows, fitted_rows = set(), set()
    for _ in range(N_SHUFFLES):
        perm = rng.permutation(len(points))
        other = answers(refit(points[perm]), query)
        fit_labels = np.empty_like(other["fit"])
        fit_labels[perm] = other["fit"]
        # Shuffled label -> base label, from the fitted points (labels are numbered by tree ids).
        to_base = majority_map(fit_labels, base_answers["fit"])
        fitted_rows |= {i for i in range(len(perm)) if to_base.get(int(fit_labels[i]), -1) != base_answers["fit"][i]}
        columns = [to_base.get(j, -1) for j in range(0 if other["membership"] is None else other["membership"].shape[1])]
        for i in range(len(query)):
            if (to_base.get(int(other["labels"][i]), -1) != base_answers["labels"][i]
                    or not close(other["probabilities"][i], base_answers["probabilities"][i])
                    or not close(other["scores"][i], base_answers["scores"][i])
                    or not same_vector(other["membership"], base_answers["membership"], i, i, columns)):
                new_rows.add(i)
        for k, row in enumerate(perm):
            if not same_vector(other["all_points"], base_answers["all_points"], k, row, columns):
                fitted_rows.add(int(row))
    return sorted(new_rows), sorted(fitted_rows)


def majority_map(labels, base_labels) -> dict:
    """Each label of one fit -> the label of the base fit most of its points have."""
    from collections import Counter

    votes: dict[int, Counter] = {}
    for o, b in zip(labels, base_labels):
        if o >= 0:
            votes.setdefault(int(o), Counter())[int(b)] += 1
    return {o: c.most_common(1)[0][0] for o, c in votes.items()}


def close(a: float, b: float) -> bool:
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= SAME * max(1.0, abs(b))


def same_vector(other, base_matrix, i: int, j: int, columns: list) -> bool:
    if other is None or base_matrix is None:
        return other is None and base_matrix is None
    if -1 in columns or len(columns) != base_matrix.shape[1]:
        return False
    mine = np.empty(base_matrix.shape[1])
    mine[columns] = other[i]
    return all(close(a, b) for a, b in zip(mine, base_matrix[j]))


def run_case(case: base.Case) -> dict:
    est = fit(case)
    query = new_points(case)
    first = answers(est, query)
    result = {
        "name": case.name,
        "description": case.description,
        "points": case.points.tolist(),
        "params": case.params(),
        "min_samples_sklearn": case.effective_min_samples,
        "hdbscan_min_samples": int(est.min_samples or est.min_cluster_size),
        "new_points": query.tolist(),
    }
    result.update(answer_fields(est, query, first, unstable_under_shuffles(case, query, first)))
    return result


def answer_fields(est, query: np.ndarray, first: dict, unstable: tuple[list, list]) -> dict:
    """What a fixture records of a fit's answers (`first`, from `answers`) and of the rows
    shuffles change (`unstable`: new points, fitted rows)."""
    fields = {
        "fit_labels": [int(v) for v in est.labels_],
        "predict_labels": [int(v) for v in first["labels"]],
        "predict_probabilities": rows_or_null(first["probabilities"])[0],
        "predict_connecting": [int(v) for v in first["connecting"]],
        "predict_outlier_scores": rows_or_null(first["scores"])[0],
        "tie_points": [],
        "unstable_new_points": unstable[0],
        "unstable_fitted_rows": unstable[1],
        "membership_vectors": None,
        "all_points_membership_vectors": None,
    }
    if est.prediction_data_.cluster_tree.shape[0] > 0 and est.labels_.max() >= 0:
        fields["tie_points"] = check_and_find_ties(est, query, first["labels"], first["probabilities"],
                                                   first["connecting"])
        fields["membership_vectors"] = rows_or_null(first["membership"])
        fields["all_points_membership_vectors"] = rows_or_null(first["all_points"])
    return fields


def main(argv=None) -> int:
    cases = {g().name: g for g in base.CASE_GENERATORS}
    return write_fixtures(argv, DEFAULT_OUT_DIR, {name: (lambda name=name: run_case(cases[name]())) for name in CASES})


def write_fixtures(argv, out_dir: Path, runs: dict) -> int:
    """Writes `runs[name]()` to OUT_DIR/name.json for every name (the command line may change
    OUT_DIR and allow other package versions), with a line about each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, default=out_dir)
    parser.add_argument("--allow-version-mismatch", action="store_true")
    args = parser.parse_args(argv)
    base.check_versions(args.allow_version_mismatch)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name, run in runs.items():
        result = run()
        text = base.to_json(result) + "\n"
        path = args.out_dir / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        clusters = max(result["fit_labels"]) + 1
        nulls = sum(v is None for key in ("membership_vectors", "all_points_membership_vectors")
                    for row in (result[key] or []) for v in row)
        nulls += sum(v is None for key in ("predict_probabilities", "predict_outlier_scores") for v in result[key])
        print(f"{name}: {len(result['points'])} points, {clusters} clusters, "
              f"{len(result['new_points'])} new points, {len(result['tie_points'])} decided by ties, {len(result['unstable_new_points'])} new and {len(result['unstable_fitted_rows'])} fitted change under shuffles, {nulls} NaN values "
              f"({len(text.encode())} bytes, sha256 {hashlib.sha256(text.encode()).hexdigest()[:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
