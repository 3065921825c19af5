"""geocluster_hdbscan.HDBSCAN: scikit-learn's HDBSCAN (same parameter names, defaults, meanings and
results) computed by geocluster's exact core, on points of 1 to 16 features."""

import numpy as np

from . import _native
from ._base import (BaseEstimator, ClusterMixin, check_choice, check_haversine_distance, check_haversine_points,
                    check_features, check_int, check_metric, check_metric_params, check_real, check_sample_weight,
                    check_search, check_X,
                    threads_for)

#: dtype of ``condensed_tree_``: the hdbscan library's ``condensed_tree_.to_numpy()`` rows.
#: ``child < n_samples`` is a point (input row, ``child_size`` 1) leaving ``parent`` at
#: ``lambda_val``; otherwise ``child`` is a cluster born at ``lambda_val``. Cluster ids start at
#: ``n_samples`` (the root); ``lambda_val = 1 / distance``.
CONDENSED_TREE_DTYPE = np.dtype([("parent", np.int64), ("child", np.int64), ("lambda_val", np.float64),
                                 ("child_size", np.int64)])

#: dtype of ``minimum_spanning_tree_``: the mutual-reachability MST's edges between input rows
#: (``from < to``) in ascending ``distance``; the hdbscan library's column names.
MST_DTYPE = np.dtype([("from", np.int64), ("to", np.int64), ("distance", np.float64)])

# The attributes copied out of the library's result on first access, and their cache keys.
_LAZY = {name: "_" + name for name in ("outlier_scores_", "cluster_persistence_", "condensed_tree_",
                                       "minimum_spanning_tree_")}

# scikit-learn's labels and probabilities for rows it leaves out of the fit.
_INFINITE_LABEL, _MISSING_LABEL = -2, -3


class HDBSCAN(ClusterMixin, BaseEstimator):
    """Hierarchical density-based clustering, as scikit-learn's HDBSCAN.

    The parameters have scikit-learn's names, defaults and meanings. X has 1 to 16 features
    (columns), Euclidean distances in their unit; 2 (planar x, y) is the fastest path, and the
    only shape ``metric="haversine"`` and ``prediction_data=True`` take.

    Parameters
    ----------
    min_cluster_size : int, default=5
        The smallest group that counts as a cluster (at least 2).
    min_samples : int or None, default=None
        Neighbours defining a point's core distance, the point itself included (as in
        scikit-learn; the hdbscan library does not count it); None means min_cluster_size.
    cluster_selection_epsilon : float, default=0.0
        Clusters born below this distance merge upward (units of X).
    max_cluster_size : int or None, default=None
        Excess of mass never selects a larger cluster; None is unlimited.
    metric : {"euclidean", "haversine"}, default="euclidean"
        "haversine": X holds [latitude, longitude] in radians and every distance
        (cluster_selection_epsilon, the MST's weights, the condensed tree's 1/lambda) is in
        radians, as in scikit-learn; multiply by 6,371,008.8 for metres.
    cluster_selection_method : {"eom", "leaf"}, default="eom"
    allow_single_cluster : bool, default=False
    n_jobs : int or None, default=None
        Threads (None: 1; -1: every CPU). The result is identical for any value.
    gen_min_span_tree : bool, default=False
        Keep the minimum spanning tree as ``minimum_spanning_tree_`` (the hdbscan library's
        parameter and default; not a scikit-learn parameter). Keeping it costs time and memory.
    ties : {"all-at-once", "one-at-a-time"}, default="all-at-once"
        How merges at one mutual-reachability distance are condensed (not a scikit-learn
        parameter). "all-at-once" is HDBSCAN*'s definition: a cluster splits into all its parts
        at that distance in one step, and the result depends only on the set of points.
        "one-at-a-time" is scikit-learn's and the hdbscan library's dendrogram, in an order
        that depends on the points, not on the rows' order: fewer points noise where ties
        decide (docs/python.md, "Ties").
    metric_params : None, alpha : 1.0, algorithm : {"auto", "brute", "kd_tree", "ball_tree"},
    leaf_size : int, copy : bool
        scikit-learn's, accepted where they leave the result as it is: the search settings are
        ignored (the result is exact either way) and X is never modified; another alpha or
        metric_params raises ValueError.
    store_centers : {None, "centroid", "medoid", "both"}, default=None
        As scikit-learn's: ``centroids_`` and/or ``medoids_``, one row per cluster.
    prediction_data : bool, default=False
        As the hdbscan library's: keep what ``approximate_predict``, ``membership_vector`` and
        ``all_points_membership_vectors`` need (with metric="haversine" new points are
        [latitude, longitude] in radians too). Pickling keeps it. Prediction is for 2-D
        points: with X of other than 2 features, fit raises ValueError.

    Attributes
    ----------
    labels_ : ndarray of int32, (n_samples,)
        Cluster of each row, or -1 for noise (-2 for a row with inf, -3 with NaN, as in
        scikit-learn).
    probabilities_ : ndarray of float64, (n_samples,)
        scikit-learn's membership strength (0 for noise and inf rows, NaN for NaN rows).
    outlier_scores_ : ndarray of float64, (n_samples,)
        The hdbscan library's GLOSH score (NaN for rows with NaN or inf).
    cluster_persistence_ : ndarray of float64, (n_clusters,)
        The hdbscan library's persistence of each cluster.
    condensed_tree_ : structured ndarray of CONDENSED_TREE_DTYPE
    minimum_spanning_tree_ : structured ndarray of MST_DTYPE
        Only with ``gen_min_span_tree=True``.
    centroids_, medoids_ : ndarray of float64, (n_clusters, n_features)
        With ``store_centers``: scikit-learn's probability-weighted centres.
    n_features_in_ : int
    """

    def __init__(self, min_cluster_size=5, min_samples=None, cluster_selection_epsilon=0.0,
                 max_cluster_size=None, metric="euclidean", cluster_selection_method="eom",
                 allow_single_cluster=False, n_jobs=None, gen_min_span_tree=False, metric_params=None, alpha=1.0,
                 algorithm="auto", leaf_size=40, store_centers=None, copy="warn", ties="all-at-once",
                 prediction_data=False):
        self.min_cluster_size = min_cluster_size
        self.min_samples = min_samples
        self.cluster_selection_epsilon = cluster_selection_epsilon
        self.max_cluster_size = max_cluster_size
        self.metric = metric
        self.cluster_selection_method = cluster_selection_method
        self.allow_single_cluster = allow_single_cluster
        self.n_jobs = n_jobs
        self.gen_min_span_tree = gen_min_span_tree
        self.metric_params = metric_params
        self.alpha = alpha
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.store_centers = store_centers
        self.copy = copy
        self.ties = ties
        self.prediction_data = prediction_data

    def _checked_parameters(self):
        haversine = check_metric("HDBSCAN", self.metric)
        check_metric_params(self.metric_params)
        check_search(self.algorithm, self.leaf_size, ("auto", "brute", "kd_tree", "ball_tree"))
        if check_real("alpha", self.alpha, 0, inclusive=False) != 1.0:
            raise ValueError(f"alpha={self.alpha} is not supported: it scales the mutual-reachability distances, "
                             "which changes the hierarchy; only alpha=1.0 (the default) is computed")
        if self.store_centers is not None:
            check_choice("store_centers", self.store_centers, ("centroid", "medoid", "both"))
        if self.copy != "warn" and not isinstance(self.copy, (bool, np.bool_)):
            raise TypeError(f"copy must be a bool, got {self.copy!r}")
        for name in ("allow_single_cluster", "gen_min_span_tree", "prediction_data"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")
        return dict(
            min_cluster_size=check_int("min_cluster_size", self.min_cluster_size, 2),
            min_samples=check_int("min_samples", self.min_samples, 1, allow_none=True),
            cluster_selection_epsilon=check_real("cluster_selection_epsilon", self.cluster_selection_epsilon, 0,
                                                 inclusive=True),
            max_cluster_size=check_int("max_cluster_size", self.max_cluster_size, 1, allow_none=True),
            leaf=check_choice("cluster_selection_method", self.cluster_selection_method, ("eom", "leaf")) == "leaf",
            allow_single_cluster=bool(self.allow_single_cluster),
            threads=threads_for(self.n_jobs),
            keep_mst=bool(self.gen_min_span_tree),
            haversine=haversine,
            one_at_a_time=check_choice("ties", self.ties, ("all-at-once", "one-at-a-time")) == "one-at-a-time",
            prediction_data=bool(self.prediction_data),
        )

    def fit(self, X, y=None, sample_weight=None):
        """Clusters X, an array of shape (n_samples, n_features), 1 to 16 features; y is
        ignored. With sample_weight, a
        sample of weight w counts as w identical samples (fast_hdbscan's meaning: core distances,
        cluster sizes and stabilities count weight); weights must be whole numbers. A sample of
        weight 0 takes no part (as if removed) and is labelled noise. Returns self."""
        parameters = self._checked_parameters()
        X = check_X(self, X, ensure_all_finite=False)
        weights = check_sample_weight(sample_weight, X.shape[0], whole=True)
        check_features(self, X, parameters["haversine"])
        if parameters["prediction_data"] and X.shape[1] != 2:
            raise ValueError(f"prediction_data=True with X of {X.shape[1]} features is not supported: prediction "
                             "(approximate_predict, membership_vector, ...) is for 2-D points; fit without it")
        # As scikit-learn: rows with NaN or inf take no part and get labels of their own.
        # (One pass over X when all is finite, the usual case: the row sums cost 4 % of a fit.)
        # Rows of weight 0 take no part either and are noise.
        excluded = infinite = missing = None
        if not bool(np.isfinite(X).all()):
            with np.errstate(invalid="ignore"):  # inf + -inf is NaN: such a row counts as missing
                row_sums = X.sum(axis=1)
            missing = np.isnan(row_sums)
            infinite = np.isinf(row_sums)
            excluded = missing | infinite
        if weights is not None and not weights.all():
            excluded = (weights == 0) if excluded is None else (excluded | (weights == 0))
        finite_rows = None if excluded is None else np.flatnonzero(~excluded)
        points = X if finite_rows is None else X[finite_rows]
        if weights is not None and finite_rows is not None:
            weights = np.ascontiguousarray(weights[finite_rows])
        if weights is not None and parameters["prediction_data"]:
            raise ValueError("prediction_data=True with sample_weight is not supported: fit without weights to predict")
        if parameters["haversine"]:
            check_haversine_distance("cluster_selection_epsilon", parameters["cluster_selection_epsilon"])
            check_haversine_points(points)
        if points.shape[0] == 1:
            raise ValueError("n_samples=1 while HDBSCAN requires more than one sample")
        min_samples = parameters["min_samples"] or parameters["min_cluster_size"]
        available = points.shape[0] if weights is None else int(weights.sum())
        if min_samples > available:
            raise ValueError(f"min_samples ({min_samples}) must be at most the number of samples in X "
                             f"({available}{'' if weights is None else ', counted by weight'})")
        result = _native.hdbscan_fit(points, sample_weight=weights, **parameters)
        for name in _LAZY:
            self.__dict__.pop(_LAZY[name], None)
        self._native = result
        self._mst_kept = parameters["keep_mst"]
        # What rebuilds the prediction data after unpickling (a refit: the same model).
        self._prediction_fit = (np.array(points), parameters) if parameters["prediction_data"] else None
        self._rows = (X.shape[0], finite_rows, missing)
        labels, probabilities = result.labels()
        if finite_rows is not None:
            labels = _spread(labels, finite_rows, X.shape[0], -1)
            probabilities = _spread(probabilities, finite_rows, X.shape[0], 0.0)
            if infinite is not None:
                labels[infinite] = _INFINITE_LABEL
                labels[missing] = _MISSING_LABEL
                probabilities[missing] = np.nan
        self.labels_ = labels
        self.probabilities_ = probabilities
        for name in ("centroids_", "medoids_"):
            self.__dict__.pop(name, None)
        if self.store_centers in ("centroid", "both"):
            self.centroids_ = _centres(X, labels, probabilities, medoid=False)
        if self.store_centers in ("medoid", "both"):
            self.medoids_ = _centres(X, labels, probabilities, medoid=True)
        return self

    # The other attributes are copied out of the library's result on first access (a fit
    # costs what the CLI's does: docs/python.md, "Speed"), then kept; pickling and copying
    # the estimator copy them all out first.

    def _cached(self, name, make):
        key = _LAZY[name]
        if key not in self.__dict__:
            if "_native" not in self.__dict__:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            self.__dict__[key] = make(self._native, *self._rows)
        return self.__dict__[key]

    @property
    def outlier_scores_(self):
        return self._cached("outlier_scores_", _outlier_scores)

    @property
    def cluster_persistence_(self):
        return self._cached("cluster_persistence_", lambda native, *_: native.persistence())

    @property
    def condensed_tree_(self):
        return self._cached("condensed_tree_", _condensed_tree)

    @property
    def minimum_spanning_tree_(self):
        if self.__dict__.get("_mst_kept") is False:
            raise AttributeError("minimum_spanning_tree_ is kept only when fitting with gen_min_span_tree=True "
                                 "(as in the hdbscan library)")
        return self._cached("minimum_spanning_tree_", _minimum_spanning_tree)

    def __getstate__(self):
        state = super().__getstate__() if hasattr(super(), "__getstate__") else self.__dict__.copy()
        state = dict(state)
        if "_native" in state:
            for name, key in _LAZY.items():
                try:
                    state[key] = getattr(self, name)
                except AttributeError:
                    pass
            del state["_native"]
        return state

    def _prediction_native(self):
        """The library's result holding the prediction data, refitted once after unpickling."""
        saved = self.__dict__.get("_prediction_fit")
        if saved is None:
            raise ValueError("Clusterer does not have prediction data! Try fitting with prediction_data=True set")
        if "_native" not in self.__dict__:
            points, parameters = saved
            self.__dict__["_native"] = _native.hdbscan_fit(points, **parameters)
        return self._native, self._rows

    def fit_predict(self, X, y=None, sample_weight=None):
        """Clusters X and returns labels_."""
        return self.fit(X, sample_weight=sample_weight).labels_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def _spread(values, rows, n, fill):
    """`values` of the finite rows placed at `rows` of an array of n, the rest `fill`."""
    out = np.full(n, fill, dtype=values.dtype)
    out[rows] = values
    return out


def _outlier_scores(native, n, finite_rows, missing):
    scores = native.outlier_scores()
    return scores if finite_rows is None else _spread(scores, finite_rows, n, np.nan)


def _condensed_tree(native, n, finite_rows, missing):
    """The library's tree as CONDENSED_TREE_DTYPE, naming input rows."""
    tree = native.condensed_tree()
    parent, child = tree["parent"], tree["child"]
    if finite_rows is not None:
        # Back to input rows: points through the finite rows, cluster ids shifted so the
        # root is n_samples again.
        shift = n - len(finite_rows)
        point = child < len(finite_rows)
        child = np.where(point, finite_rows[np.minimum(child, len(finite_rows) - 1)], child + shift)
        parent = parent + shift
    out = np.empty(len(parent), dtype=CONDENSED_TREE_DTYPE)
    for name, column in (("parent", parent), ("child", child), ("lambda_val", tree["lambda_val"]),
                         ("child_size", tree["child_size"])):
        out[name] = column
    return out


def _minimum_spanning_tree(native, n, finite_rows, missing):
    mst = native.mst()
    a, b = mst["a"], mst["b"]
    if finite_rows is not None:
        a, b = finite_rows[a], finite_rows[b]
    out = np.empty(len(a), dtype=MST_DTYPE)
    for name, column in (("from", a), ("to", b), ("distance", mst["weight"])):
        out[name] = column
    return out


def _centres(X, labels, probabilities, medoid):
    """scikit-learn's store_centers: per cluster, the mean of its points weighted by their
    probabilities (centroid), or the point whose summed distance to the others, each weighted
    by its probability, is least (medoid)."""
    out = np.empty((int(labels.max()) + 1 if len(labels) else 0, X.shape[1]))
    for k in range(len(out)):
        members = labels == k
        points, weights = X[members], probabilities[members]
        if not medoid:
            out[k] = np.average(points, axis=0, weights=weights)
            continue
        totals = np.empty(len(points))
        for start in range(0, len(points), 1024):  # rows of the distance matrix, a block at a time
            block = points[start:start + 1024]
            distances = np.sqrt(((block[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
            totals[start:start + 1024] = (distances * weights).sum(axis=1)
        out[k] = points[np.argmin(totals)]
    return out
