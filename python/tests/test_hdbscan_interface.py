"""Code written for the hdbscan library runs on geocluster by changing its import: the same
script runs with ``import hdbscan`` and with ``import geocluster_hdbscan.hdbscan as hdbscan``,
gets the same types, shapes and columns, and the same answers: exactly where ties cannot decide
(the spanning tree, the single-linkage tree and its cuts), and where they can (the flat
clusters, which the order of merges at one distance decides in hdbscan and scikit-learn too:
the reference fixtures compare those exactly on the rows ties leave settled) on nearly every
row. Clusters may be numbered differently: labels are matched first."""

import numpy as np
import pytest

import geocluster_hdbscan.hdbscan as ours

theirs = pytest.importorskip("hdbscan")

# A data scientist's script, written against the hdbscan library. (With hdbscan's default
# approx_min_span_tree=True its spanning tree is approximate; geocluster's is exact either way,
# so the script asks hdbscan for the exact one to compare.)
SCRIPT = """
clusterer = hdbscan.HDBSCAN(min_cluster_size=15, min_samples=5, gen_min_span_tree=True, prediction_data=True,
                            approx_min_span_tree=False)
clusterer.fit(X)
result = dict(
    labels=clusterer.labels_,
    probabilities=clusterer.probabilities_,
    outlier_scores=clusterer.outlier_scores_,
    persistence=clusterer.cluster_persistence_,
    tree=clusterer.condensed_tree_.to_pandas(),
    tree_numpy=clusterer.condensed_tree_.to_numpy(),
    linkage=clusterer.single_linkage_tree_.to_numpy(),
    cut=clusterer.single_linkage_tree_.get_clusters(0.35, min_cluster_size=10),
    mst=clusterer.minimum_spanning_tree_.to_pandas(),
    validity=clusterer.relative_validity_,
    exemplars=clusterer.exemplars_,
    predicted=hdbscan.approximate_predict(clusterer, new_points),
    membership=hdbscan.membership_vector(clusterer, new_points),
    soft=hdbscan.all_points_membership_vectors(clusterer),
)
"""


def data(seed):
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0], [6, 0], [0, 6], [6, 6.5]])
    X = np.vstack([c + rng.normal(scale=s, size=(120, 2)) for c, s in zip(centres, (0.6, 0.9, 0.5, 1.2))]
                  + [rng.uniform(-3, 9, size=(40, 2))])
    return X, rng.uniform(-2, 8, size=(30, 2))


def run(module, X, new_points):
    namespace = {"hdbscan": module, "np": np, "X": X, "new_points": new_points}
    exec(SCRIPT, namespace)
    return namespace["result"]


def agreement(a, b):
    """The share of rows on which two labellings agree once clusters are matched (each of a's
    clusters to the b cluster it shares most rows with), and that matching."""
    mapping = {-1: -1}
    for x in np.unique(a[a >= 0]):
        values, counts = np.unique(b[a == x], return_counts=True)
        mapping[int(x)] = int(values[np.argmax(counts)])
    return float(np.mean(np.array([mapping[int(x)] for x in a]) == b)), mapping


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_script_for_hdbscan_gives_its_answers(seed):
    X, new_points = data(seed)
    a, b = run(ours, X, new_points), run(theirs, X, new_points)
    # Types, shapes and columns: what the script reads.
    for key in ("labels", "probabilities", "outlier_scores", "persistence", "linkage", "cut", "soft", "membership"):
        assert type(a[key]) is type(b[key]) and np.ndim(a[key]) == np.ndim(b[key]), key
    assert list(a["tree"].columns) == list(b["tree"].columns) == ["parent", "child", "lambda_val", "child_size"]
    assert a["tree_numpy"].dtype.names == b["tree_numpy"].dtype.names
    assert list(a["mst"].columns) == list(b["mst"].columns) == ["from", "to", "distance"]
    # What ties cannot decide, exactly: the spanning tree's weights, the single-linkage tree,
    # the cut (components below a distance), every point in the condensed tree.
    np.testing.assert_allclose(np.sort(a["mst"].distance), np.sort(b["mst"].distance), rtol=1e-12)
    assert a["linkage"].shape == b["linkage"].shape and a["linkage"][-1, 3] == len(X)
    np.testing.assert_allclose(a["linkage"][:, 2], b["linkage"][:, 2], rtol=1e-12)
    assert agreement(a["cut"], b["cut"])[0] == 1.0 and agreement(b["cut"], a["cut"])[0] == 1.0
    assert sorted(a["tree"][a["tree"].child < len(X)].child) == list(range(len(X)))
    # The flat clusters and what follows from them: nearly every row.
    share, mapping = agreement(a["labels"], b["labels"])
    assert share >= 0.98 and agreement(b["labels"], a["labels"])[0] >= 0.98
    k = len(mapping) - 1
    assert k >= 3 and len(b["persistence"]) == k and len(a["exemplars"]) == len(b["exemplars"]) == k
    same = a["labels"] == np.array([mapping[int(x)] for x in a["labels"]])
    close = np.isclose(a["outlier_scores"], b["outlier_scores"], rtol=1e-9, atol=1e-12)
    assert np.mean(close[same]) >= 0.9
    assert isinstance(a["validity"], float)
    predicted, strengths = a["predicted"]
    assert np.mean(np.array([mapping[int(x)] for x in predicted]) == b["predicted"][0]) >= 0.9
    assert a["soft"].shape == b["soft"].shape and a["membership"].shape == b["membership"].shape
    assert np.mean(np.isclose(a["soft"].sum(axis=1), b["soft"].sum(axis=1), atol=1e-9)) >= 0.95
    columns = [mapping[i] for i in range(k)]
    assert np.mean(np.argmax(a["soft"], axis=1) == np.argsort(columns)[np.argmax(b["soft"], axis=1)]) >= 0.9


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_relative_validity_is_hdbscans_formula(seed):
    """On hdbscan's own spanning tree and labels the formula gives hdbscan's value exactly (the
    index moves with the labels, which ties can decide: above, the two fits are compared)."""
    from geocluster_hdbscan.hdbscan import _relative_validity
    X, _ = data(seed)
    fit = theirs.HDBSCAN(min_cluster_size=15, min_samples=5, gen_min_span_tree=True, approx_min_span_tree=False).fit(X)
    assert _relative_validity(fit.minimum_spanning_tree_.to_numpy(), fit.labels_) == fit.relative_validity_


def test_the_same_answers_as_the_estimator_with_scikit_learns_conventions():
    """hdbscan's meanings mapped onto geocluster's estimator: min_samples + 1, ties one at a
    time, max_cluster_size 0 unlimited; every answer identical."""
    import geocluster_hdbscan
    X, new_points = data(3)
    compat = ours.HDBSCAN(min_cluster_size=15, min_samples=5, max_cluster_size=0, prediction_data=True).fit(X)
    plain = geocluster_hdbscan.HDBSCAN(min_cluster_size=15, min_samples=6, ties="one-at-a-time",
                                       prediction_data=True).fit(X)
    np.testing.assert_array_equal(compat.labels_, plain.labels_)
    np.testing.assert_array_equal(compat.probabilities_, plain.probabilities_)
    np.testing.assert_array_equal(compat.condensed_tree_.to_numpy(), plain.condensed_tree_)
    for function in (ours.approximate_predict, ours.membership_vector):
        np.testing.assert_array_equal(np.asarray(function(compat, new_points)), np.asarray(function(plain, new_points)))


def test_parameters_have_the_hdbscan_meanings():
    X, _ = data(4)
    # min_samples leaves the point itself out: hdbscan's 5 is scikit-learn's 6.
    compat = ours.HDBSCAN(min_cluster_size=15, min_samples=5).fit(X)
    sklearn_style = __import__("geocluster_hdbscan").HDBSCAN(min_cluster_size=15, min_samples=6,
                                                             ties="one-at-a-time").fit(X)
    np.testing.assert_array_equal(compat.labels_, sklearn_style.labels_)
    assert ours.HDBSCAN().get_params()["max_cluster_size"] == 0
    assert ours.HDBSCAN(algorithm="boruvka_kdtree", core_dist_n_jobs=1).fit(X).labels_.tolist() == \
        ours.HDBSCAN().fit(X).labels_.tolist()
    with pytest.raises(ValueError, match="alpha"):
        ours.HDBSCAN(alpha=0.5).fit(X)
    with pytest.raises(AttributeError, match="spanning tree"):
        ours.HDBSCAN().fit(X).minimum_spanning_tree_


def test_pickling_keeps_the_trees():
    import pickle
    X, new_points = data(5)
    clusterer = ours.HDBSCAN(min_cluster_size=15, gen_min_span_tree=True, prediction_data=True).fit(X)
    again = pickle.loads(pickle.dumps(clusterer))
    np.testing.assert_array_equal(again.condensed_tree_.to_numpy(), clusterer.condensed_tree_.to_numpy())
    np.testing.assert_array_equal(again.single_linkage_tree_.to_numpy(), clusterer.single_linkage_tree_.to_numpy())
    assert again.relative_validity_ == clusterer.relative_validity_
    np.testing.assert_array_equal(ours.approximate_predict(again, new_points)[0],
                                  ours.approximate_predict(clusterer, new_points)[0])


def test_plots_draw(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    X, _ = data(6)
    clusterer = ours.HDBSCAN(min_cluster_size=15, gen_min_span_tree=True).fit(X)
    for name, draw in (("condensed", lambda ax: clusterer.condensed_tree_.plot(select_clusters=True, axis=ax)),
                       ("linkage", lambda ax: clusterer.single_linkage_tree_.plot(axis=ax)),
                       ("mst", lambda ax: clusterer.minimum_spanning_tree_.plot(axis=ax))):
        figure, axis = plt.subplots(figsize=(6, 4))
        assert draw(axis) is axis
        path = tmp_path / f"{name}.png"
        figure.savefig(path)
        plt.close(figure)
        assert path.stat().st_size > 5000
    pytest.importorskip("networkx")
    graph = clusterer.condensed_tree_.to_networkx()
    assert graph.number_of_edges() == len(clusterer.condensed_tree_.to_numpy())
