"""geocluster_hdbscan: exact, fast HDBSCAN and DBSCAN as scikit-learn estimators, for points of 1
to 16 features (2-D, planar or on the sphere, the fastest).

    import geocluster_hdbscan
    labels = geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit_predict(X)   # X: (n, d) array

The clustering runs in geocluster's Swift core (a shared library with the Swift runtime
linked in, loaded with ctypes); the estimators follow scikit-learn's conventions and inherit
its base classes when scikit-learn is installed. See docs/python.md.
"""

from ._dbscan import DBSCAN
from ._hdbscan import CONDENSED_TREE_DTYPE, HDBSCAN, MST_DTYPE
from ._pins import PinIndex
from .prediction import (all_points_membership_vectors, approximate_predict, approximate_predict_scores,
                         membership_vector)
from .stable import StableLabels, stable_labels

__all__ = ["HDBSCAN", "DBSCAN", "PinIndex", "CONDENSED_TREE_DTYPE", "MST_DTYPE", "approximate_predict",
           "approximate_predict_scores", "membership_vector", "all_points_membership_vectors", "stable_labels", "StableLabels"]
__version__ = "0.1.0"
