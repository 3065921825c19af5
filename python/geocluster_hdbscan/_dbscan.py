"""geocluster_hdbscan.DBSCAN: scikit-learn's DBSCAN (same parameters, labels and core points, exactly)
computed by geocluster's core: a grid in 2-D, a k-d tree in 1 and 3 to 16 dimensions."""

import numpy as np

from . import _native
from ._base import (BaseEstimator, ClusterMixin, check_features, check_haversine_distance, check_haversine_points,
                    check_int, check_metric, check_metric_params, check_real, check_sample_weight, check_search,
                    check_X, threads_for)


class DBSCAN(ClusterMixin, BaseEstimator):
    """Density-based clustering, as scikit-learn's DBSCAN, of points of 1 to 16 features
    (2, planar x, y, is the fastest path and the only shape metric="haversine" takes).

    Parameters
    ----------
    eps : float, default=0.5
        Neighbourhood radius, inclusive, in the units of X (finite, > 0).
    min_samples : int, default=5
        Neighbours within eps, the point itself included, that make a point core.
    metric : {"euclidean", "haversine"}, default="euclidean"
        "haversine": X holds [latitude, longitude] in radians and eps is in radians, as in
        scikit-learn.
    n_jobs : int or None, default=None
        Threads (None: 1; -1: every CPU). The result is identical for any value.
    metric_params : None, algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, leaf_size : int,
    p : None or 2
        scikit-learn's, accepted where they leave the result as it is (the search settings are
        ignored: the result is exact either way); another p or metric_params raises ValueError.

    Attributes
    ----------
    labels_ : ndarray of int32, (n_samples,)
        Cluster of each row numbered as scikit-learn numbers them, -1 for noise.
    core_sample_indices_ : ndarray of int64, (n_core_samples,)
        Rows of the core points, ascending.
    components_ : ndarray of float64, (n_core_samples, n_features)
        The core points' coordinates.
    n_features_in_ : int
    """

    def __init__(self, eps=0.5, *, min_samples=5, metric="euclidean", metric_params=None, algorithm="auto",
                 leaf_size=30, p=None, n_jobs=None):
        self.eps = eps
        self.min_samples = min_samples
        self.metric = metric
        self.metric_params = metric_params
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.n_jobs = n_jobs

    def fit(self, X, y=None, sample_weight=None):
        """Clusters X, an array of shape (n_samples, n_features), 1 to 16 features; y is
        ignored. With sample_weight (as
        scikit-learn's), a point is core when the weights within eps, its own included, add up to
        min_samples; weights may be any finite number, negative too. Returns self."""
        eps = check_real("eps", self.eps, 0, inclusive=False)
        min_samples = check_int("min_samples", self.min_samples, 1)
        haversine = check_metric("DBSCAN", self.metric)
        check_metric_params(self.metric_params)
        check_search(self.algorithm, self.leaf_size, ("auto", "ball_tree", "kd_tree", "brute"))
        if self.p is not None and (isinstance(self.p, bool) or self.p != 2):
            raise ValueError(f"p={self.p!r} is not supported: it is the power of a Minkowski distance other than "
                             "the Euclidean one; give None (or 2)")
        threads = threads_for(self.n_jobs)
        X = check_X(self, X, ensure_all_finite=True)
        weights = check_sample_weight(sample_weight, X.shape[0])
        check_features(self, X, haversine)
        if haversine:
            check_haversine_distance("eps", eps)
            check_haversine_points(X)
        labels, core = _native.dbscan_fit(X, eps, min_samples, threads, haversine=haversine, sample_weight=weights)
        self.labels_ = labels
        self.core_sample_indices_ = np.flatnonzero(core)
        self.components_ = X[self.core_sample_indices_].copy()
        return self

    def fit_predict(self, X, y=None, sample_weight=None):
        """Clusters X and returns labels_."""
        return self.fit(X, sample_weight=sample_weight).labels_
