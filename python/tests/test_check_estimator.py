"""scikit-learn's check_estimator, in full, on HDBSCAN and DBSCAN: every check runs on the real
estimators (nothing skipped: SCIPY_ARRAY_API=1 lets scikit-learn run its array API check, so the
suite runs in a subprocess with it set) and every one passes."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("sklearn")

SCRIPT = textwrap.dedent("""
    import json, sys, warnings
    warnings.simplefilter("ignore")
    from sklearn.utils.estimator_checks import check_estimator
    import geocluster_hdbscan
    out = {}
    for estimator in (geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()):
        results = check_estimator(estimator, on_fail=None, on_skip=None)
        out[type(estimator).__name__] = [
            {"check": r["check_name"], "status": r["status"], "exception": repr(r["exception"])} for r in results]
    print(json.dumps(out))
""")


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
    assert {check: status for check, status in statuses.items() if status != "passed"} == {}
    assert "check_array_api_input" in statuses and "check_fit2d_1feature" in statuses
    assert "check_sample_weight_equivalence_on_dense_data" in statuses
