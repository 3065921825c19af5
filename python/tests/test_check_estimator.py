"""scikit-learn's check_estimator.

The estimators cluster 2-D points only, and many checks fit on 3 to 10 features; those are
listed in EXPECTED_FAILURES with that reason. So that what those checks test (pickling,
Fortran order, dtypes, parameters left untouched, sample-order invariance, ...) is still
run against the real fit, TwoFeatures wraps each estimator: it folds any number of features
into two (the first, the sum of the rest) before calling the estimator's own fit, and the
whole suite must pass on it with nothing skipped."""

import numpy as np
import pytest

pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402
from sklearn.utils.validation import check_array  # noqa: E402

import geocluster_hdbscan  # noqa: E402

TWO_D = "fits on 3-10 features; the core clusters 2-D points only (covered by TwoFeatures)"
ONE_FEATURE = "expects '1 feature(s)' in the error for 1 feature; ours says X must have 2"
EXPECTED_FAILURES = {name: TWO_D for name in (
    "check_fit_score_takes_y", "check_dont_overwrite_parameters", "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit", "check_estimators_dtypes", "check_dtype_object",
    "check_pipeline_consistency", "check_estimators_nan_inf", "check_estimators_pickle",
    "check_f_contiguous_array_estimator", "check_methods_sample_order_invariance",
    "check_methods_subset_invariance", "check_fit2d_1sample", "check_dict_unchanged", "check_fit2d_predict1d",
    "check_sample_weights_list", "check_all_zero_sample_weights_error", "check_sample_weight_equivalence_on_dense_data",
)}
EXPECTED_FAILURES["check_fit2d_1feature"] = ONE_FEATURE


def folded(X):
    X = check_array(X, dtype=np.float64, ensure_all_finite=False)
    rest = X[:, 1:].sum(axis=1) if X.shape[1] > 1 else np.zeros(len(X))
    return X.shape[1], np.column_stack([X[:, 0], rest])


class TwoFeaturesHDBSCAN(geocluster_hdbscan.HDBSCAN):
    def fit(self, X, y=None, sample_weight=None):
        features, X2 = folded(X)
        super().fit(X2, sample_weight=sample_weight)
        self.n_features_in_ = features
        return self

    def fit_predict(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).labels_


class TwoFeaturesDBSCAN(geocluster_hdbscan.DBSCAN):
    def fit(self, X, y=None, sample_weight=None):
        X = check_array(X, dtype=np.float64)
        features, X2 = folded(X)
        super().fit(X2, sample_weight=sample_weight)
        self.n_features_in_ = features
        return self

    def fit_predict(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).labels_


def failures(estimator, expected):
    results = check_estimator(estimator, expected_failed_checks=expected, on_fail=None, on_skip=None)
    return {r["check_name"]: repr(r["exception"]) for r in results if r["status"] == "failed"}


@pytest.mark.parametrize("estimator", [geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()], ids=["HDBSCAN", "DBSCAN"])
def test_check_estimator_passes_except_the_listed_2d_checks(estimator):
    expected = {k: v for k, v in EXPECTED_FAILURES.items()
                if not (isinstance(estimator, geocluster_hdbscan.HDBSCAN) and k == "check_estimators_nan_inf")}
    assert failures(estimator, expected) == {}


@pytest.mark.parametrize("estimator", [TwoFeaturesHDBSCAN(), TwoFeaturesDBSCAN()], ids=["HDBSCAN", "DBSCAN"])
def test_check_estimator_passes_whole_on_two_features(estimator):
    assert failures(estimator, None) == {}
