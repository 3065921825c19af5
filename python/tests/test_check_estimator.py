"""scikit-learn's check_estimator, in full, on HDBSCAN and DBSCAN: every check runs on the real
estimators (nothing skipped: SCIPY_ARRAY_API=1 lets scikit-learn run its array API check, so the
suite runs in a subprocess with it set) and passes, but one: the sample-weight equivalence check
fits X of 30 features, and the core clusters 1 to 16 (GC_MAX_DIMENSIONS), so it must fail with
exactly that refusal. What it checks for a clusterer without predict (that a fit with integer
weights and one with the rows repeated both succeed) is tested at d <= 16 with the labels
compared too (test_dimensions.py, test_sample_weight.py)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("sklearn")

BEYOND_16 = "check_sample_weight_equivalence_on_dense_data"
REASON = "fits X of 30 features; geocluster clusters 1 to 16"

SCRIPT = textwrap.dedent("""
    import json, sys, warnings
    warnings.simplefilter("ignore")
    from sklearn.utils.estimator_checks import check_estimator
    import geocluster_hdbscan
    out = {}
    for estimator in (geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()):
        results = check_estimator(estimator, expected_failed_checks={%r: %r}, on_fail=None, on_skip=None)
        out[type(estimator).__name__] = [
            {"check": r["check_name"], "status": r["status"], "exception": repr(r["exception"])} for r in results]
    print(json.dumps(out))
""" % (BEYOND_16, REASON))


@pytest.fixture(scope="module")
def results():
    run = subprocess.run([sys.executable, "-c", SCRIPT], env=dict(os.environ, SCIPY_ARRAY_API="1"),
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.parametrize("name", ["HDBSCAN", "DBSCAN"])
def test_check_estimator_passes_in_full(results, name):
    checks = results[name]
    assert len(checks) >= 50
    statuses = {c["check"]: c["status"] for c in checks}
    assert {check: status for check, status in statuses.items() if status != "passed" and check != BEYOND_16} == {}
    assert "check_array_api_input" in statuses and "check_fit2d_1feature" in statuses


@pytest.mark.parametrize("name", ["HDBSCAN", "DBSCAN"])
def test_the_one_check_beyond_16_features_fails_for_that_reason_alone(results, name):
    beyond = [c for c in results[name] if c["check"] == BEYOND_16]
    assert len(beyond) == 1 and beyond[0]["status"] == "xfail"
    assert f"X has 30 features, but {name} clusters points of 1 to 16 features" in beyond[0]["exception"]
