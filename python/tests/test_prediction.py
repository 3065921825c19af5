"""approximate_predict, approximate_predict_scores, membership_vector and
all_points_membership_vectors against the hdbscan library on the prediction fixtures
(scripts/reference/make_prediction_fixtures.py, and make_sphere_prediction_fixtures.py for
metric="haversine"): the answers hdbscan's own row order does not decide, through the Python
API; pickling keeps the prediction data."""

import pickle

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import load_fixtures

CASES = load_fixtures("prediction") + load_fixtures("prediction_sphere")
EARTH_RADIUS_M = 6371008.8


def points_of(case, rows):
    """The case's rows as the estimator takes them: x, y; or, on the sphere, [latitude,
    longitude] in radians from (longitude, latitude) degrees (a Fortran-ordered array)."""
    rows = np.array(rows)
    return np.radians(rows[:, [1, 0]]) if case.get("metric") == "haversine" else rows


def fitted(case):
    """geocluster's fit of the case (scikit-learn's count: hdbscan's min_samples + 1), and the
    map from its labels to hdbscan's, read off the rows no tie decides."""
    p = case["params"]
    sphere = case.get("metric") == "haversine"
    model = geocluster_hdbscan.HDBSCAN(
        min_cluster_size=p["min_cluster_size"], min_samples=case["hdbscan_min_samples"] + 1,
        cluster_selection_method=p["cluster_selection_method"], allow_single_cluster=p["allow_single_cluster"],
        cluster_selection_epsilon=p["cluster_selection_epsilon"] / (EARTH_RADIUS_M if sphere else 1),
        max_cluster_size=p["max_cluster_size"], metric="haversine" if sphere else "euclidean",
        prediction_data=True).fit(points_of(case, case["points"]))
    theirs = {}
    for ours, label in zip(model.labels_, case["fit_labels"]):
        if ours >= 0:
            theirs[int(ours)] = label
    return model, theirs


def settled(case, key, count):
    skip = set(case[key]) | (set(case["tie_points"]) if key == "unstable_new_points" else set())
    return [i for i in range(count) if i not in skip]


def in_their_columns(matrix, theirs):
    out = np.zeros_like(matrix)
    for ours, label in theirs.items():
        out[:, label] = matrix[:, ours]
    return out


@pytest.mark.parametrize("name,case", CASES, ids=[n for n, _ in CASES])
def test_approximate_predict(name, case):
    model, theirs = fitted(case)
    new = points_of(case, case["new_points"])
    labels, strengths, connecting = geocluster_hdbscan.approximate_predict(model, new, return_connecting_points=True)
    scores = geocluster_hdbscan.approximate_predict_scores(model, new)
    points = np.array(case["points"])
    for i in settled(case, "unstable_new_points", len(new)):
        assert (theirs.get(int(labels[i]), -1) if labels[i] >= 0 else -1) == case["predict_labels"][i], i
        if case["predict_probabilities"][i] is not None:
            assert strengths[i] == pytest.approx(case["predict_probabilities"][i], abs=1e-12), i
        if case["predict_outlier_scores"][i] is not None:
            assert scores[i] == pytest.approx(case["predict_outlier_scores"][i], rel=1e-9, abs=1e-12), i
        assert (points[connecting[i]] == points[case["predict_connecting"][i]]).all(), i


@pytest.mark.parametrize("name,case", [c for c in CASES if c[1]["membership_vectors"]], ids=lambda v: v if isinstance(v, str) else "")
def test_membership_vectors(name, case):
    model, theirs = fitted(case)
    new = points_of(case, case["new_points"])
    ours = in_their_columns(geocluster_hdbscan.membership_vector(model, new), theirs)
    expected = np.array(case["membership_vectors"], dtype=float)  # None -> nan: hdbscan's NaN rows
    rows = [i for i in settled(case, "unstable_new_points", len(new)) if not np.isnan(expected[i]).any()]
    np.testing.assert_allclose(ours[rows], expected[rows], atol=1e-9)
    everything = in_their_columns(geocluster_hdbscan.all_points_membership_vectors(model), theirs)
    expected = np.array(case["all_points_membership_vectors"], dtype=float)
    rows = [i for i in settled(case, "unstable_fitted_rows", len(case["points"])) if not np.isnan(expected[i]).any()]
    np.testing.assert_allclose(everything[rows], expected[rows], atol=1e-9)


def test_pickling_keeps_prediction_data():
    case = dict(CASES)["blobs_varying_density"]
    model, _ = fitted(case)
    new = np.array(case["new_points"])
    before = geocluster_hdbscan.approximate_predict(model, new)
    copy = pickle.loads(pickle.dumps(model))
    after = geocluster_hdbscan.approximate_predict(copy, new)
    assert (before[0] == after[0]).all() and (before[1] == after[1]).all()
    np.testing.assert_array_equal(geocluster_hdbscan.membership_vector(copy, new),
                                  geocluster_hdbscan.membership_vector(model, new))


def test_without_prediction_data_is_a_clear_error():
    X = np.random.default_rng(1).normal(size=(50, 2))
    model = geocluster_hdbscan.HDBSCAN(min_cluster_size=5).fit(X)
    with pytest.raises(ValueError, match="prediction_data=True"):
        geocluster_hdbscan.approximate_predict(model, X[:3])
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        geocluster_hdbscan.approximate_predict(
            geocluster_hdbscan.HDBSCAN(prediction_data=True).fit(X), np.zeros((3, 3)))
