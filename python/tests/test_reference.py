"""Exactness against scikit-learn (and the hdbscan library's GLOSH scores) on the project's
reference fixtures: the same cases, the same rules as Tests/ClusterCoreTests."""

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import load_fixtures, same_partition

HDBSCAN_CASES = load_fixtures("hdbscan")
DBSCAN_CASES = load_fixtures("dbscan")


def fit_case(case, **extra):
    p = case["params"]
    model = geocluster_hdbscan.HDBSCAN(
        min_cluster_size=p["min_cluster_size"], min_samples=p["min_samples"],
        cluster_selection_epsilon=p["cluster_selection_epsilon"], max_cluster_size=p["max_cluster_size"],
        cluster_selection_method=p["cluster_selection_method"], allow_single_cluster=p["allow_single_cluster"],
        **extra)
    return model.fit(np.array(case["points"], dtype=np.float64))


def adjusted_rand_index(a, b):
    from sklearn.metrics import adjusted_rand_score
    return adjusted_rand_score(a, b)


@pytest.mark.parametrize("ties", ["all-at-once", "one-at-a-time"])
@pytest.mark.parametrize("name,case", HDBSCAN_CASES, ids=[n for n, _ in HDBSCAN_CASES])
def test_hdbscan_partition(name, case, ties):
    """Identical partition where scikit-learn's own labels survive shuffling the rows; elsewhere
    (tied weights settled by row order) identical on the rows it labels stably and as close
    overall as scikit-learn is to itself. Under either tie rule."""
    labels = fit_case(case, ties=ties).labels_
    expected = np.array(case["sklearn"]["labels"])
    if case["sklearn"]["shuffle_stable"]:
        assert same_partition(labels, expected)
    else:
        pytest.importorskip("sklearn")
        assert adjusted_rand_index(labels, expected) >= case["sklearn"]["min_shuffle_ari"] - 1e-12
        stable = np.setdiff1d(np.arange(len(expected)), case["sklearn"]["unstable_points"])
        assert same_partition(labels[stable], expected[stable])


@pytest.mark.parametrize("name,case", HDBSCAN_CASES, ids=[n for n, _ in HDBSCAN_CASES])
def test_hdbscan_probabilities(name, case):
    reference = case["sklearn"]
    if not (reference["shuffle_stable"] and reference["probabilities_shuffle_stable"]):
        pytest.skip("scikit-learn's probabilities change when its rows are shuffled")
    np.testing.assert_allclose(fit_case(case).probabilities_, reference["probabilities"], rtol=0, atol=1e-9)


@pytest.mark.parametrize("name,case", HDBSCAN_CASES, ids=[n for n, _ in HDBSCAN_CASES])
def test_hdbscan_mst_weights(name, case):
    """The spanning tree's sorted weights equal scikit-learn's; its edges join input rows."""
    model = fit_case(case, gen_min_span_tree=True)
    mst = model.minimum_spanning_tree_
    np.testing.assert_allclose(mst["distance"], case["sklearn"]["mst_weights_sorted"], rtol=1e-9, atol=0)
    assert mst.dtype == geocluster_hdbscan.MST_DTYPE
    assert np.all(mst["from"] < mst["to"]) and np.all(np.diff(mst["distance"]) >= 0)


@pytest.mark.parametrize("name,case", HDBSCAN_CASES, ids=[n for n, _ in HDBSCAN_CASES])
def test_hdbscan_outlier_scores(name, case):
    lib = case.get("hdbscan_lib")
    if not lib or not (lib["shuffle_stable"] and lib["outlier_scores_shuffle_stable"]):
        pytest.skip("no stable hdbscan-library run for this case")
    model = fit_case(case)
    assert same_partition(model.labels_, lib["labels"])
    expected = np.array([np.nan if s is None else s for s in lib["outlier_scores"]], dtype=np.float64)
    finite = np.isfinite(expected)
    np.testing.assert_allclose(model.outlier_scores_[finite], expected[finite], rtol=0, atol=1e-9)


@pytest.mark.parametrize("name,case", HDBSCAN_CASES, ids=[n for n, _ in HDBSCAN_CASES])
def test_hdbscan_trees_agree_with_labels(name, case):
    """The condensed tree is the one the labels came from: every point has exactly one row,
    points of one cluster leave the same subtree, and the result is the same for any n_jobs."""
    model = fit_case(case)
    tree = model.condensed_tree_
    n = len(case["points"])
    assert tree.dtype == geocluster_hdbscan.CONDENSED_TREE_DTYPE
    point_rows = tree[tree["child"] < n]
    assert sorted(point_rows["child"].tolist()) == list(range(n))
    assert np.all(point_rows["child_size"] == 1) and np.all(tree["parent"] >= n)
    assert len(model.cluster_persistence_) == model.labels_.max() + 1
    again = fit_case(case, n_jobs=2)
    np.testing.assert_array_equal(again.labels_, model.labels_)
    np.testing.assert_array_equal(again.condensed_tree_, model.condensed_tree_)


DBSCAN_RUNS = [(f"{name}-eps{run['eps']}-ms{run['min_samples']}", case, run)
               for name, case in DBSCAN_CASES for run in case["runs"]]


@pytest.mark.parametrize("label,case,run", DBSCAN_RUNS, ids=[r[0] for r in DBSCAN_RUNS])
def test_dbscan_exact(label, case, run):
    """Labels, core points and components exactly scikit-learn's."""
    X = np.array(case["points"], dtype=np.float64)
    model = geocluster_hdbscan.DBSCAN(eps=run["eps"], min_samples=run["min_samples"]).fit(X)
    np.testing.assert_array_equal(model.labels_, run["labels"])
    core = np.flatnonzero(np.array(run["core"]) == 1)
    np.testing.assert_array_equal(model.core_sample_indices_, core)
    np.testing.assert_array_equal(model.components_, X[core])


@pytest.mark.parametrize("name,case", HDBSCAN_CASES, ids=[n for n, _ in HDBSCAN_CASES])
def test_hdbscan_cluster_persistence_is_the_hdbscan_librarys(name, case):
    """cluster_persistence_ equals the hdbscan library's, run live on the fixture as
    scripts/reference/make_hdbscan_fixtures.py runs it (its exact algorithm, its own
    min_samples convention: the fixture's hdbscan_lib.min_samples), where its tree is stable."""
    hdbscan = pytest.importorskip("hdbscan")
    lib = case.get("hdbscan_lib")
    if not lib or not (lib["shuffle_stable"] and lib["outlier_scores_shuffle_stable"]):
        pytest.skip("no stable hdbscan-library run for this case")
    p = case["params"]
    theirs = hdbscan.HDBSCAN(
        min_cluster_size=p["min_cluster_size"], min_samples=lib["min_samples"],
        cluster_selection_epsilon=p["cluster_selection_epsilon"], max_cluster_size=p["max_cluster_size"] or 0,
        cluster_selection_method=p["cluster_selection_method"], allow_single_cluster=p["allow_single_cluster"],
        algorithm="generic", metric="minkowski", p=2,
    ).fit(np.array(case["points"], dtype=np.float64))
    ours = fit_case(case)
    assert same_partition(ours.labels_, theirs.labels_)
    renamed = {a: b for a, b in zip(ours.labels_.tolist(), theirs.labels_.tolist()) if a >= 0}
    expected = [theirs.cluster_persistence_[renamed[k]] for k in range(len(ours.cluster_persistence_))]
    np.testing.assert_allclose(ours.cluster_persistence_, expected, rtol=0, atol=1e-12)
