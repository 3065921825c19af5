"""numpy is the only hard dependency: with scikit-learn unimportable the estimators still
fit (2-D and d-dimensional X), give the same results, keep get_params / set_params, and
validate X with the same messages' first lines. Run in a subprocess whose import of sklearn
fails."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import geocluster_hdbscan

SCRIPT = textwrap.dedent("""
    import json, sys
    sys.modules["sklearn"] = None          # every `import sklearn...` now raises ImportError
    import numpy as np
    import geocluster_hdbscan
    from geocluster_hdbscan import _base
    assert not _base.HAVE_SKLEARN
    X = np.array(json.loads(sys.argv[1]))
    h = geocluster_hdbscan.HDBSCAN(min_cluster_size=10)
    h.set_params(min_samples=4)
    d = geocluster_hdbscan.DBSCAN(eps=0.4, min_samples=4)
    out = {"params": h.get_params(), "repr": repr(d), "hdbscan": h.fit_predict(X).tolist(),
           "probabilities": h.probabilities_.tolist(), "dbscan": d.fit(X).labels_.tolist(), "errors": []}
    X3 = np.column_stack([X, X[:, 0] - X[:, 1]])
    d3 = geocluster_hdbscan.DBSCAN(eps=0.6, min_samples=4).fit(np.asfortranarray(X3))
    out["d3"] = [h.fit_predict(X3).tolist(), d3.labels_.tolist(), h.n_features_in_]
    for bad in (np.zeros((0, 2)), np.zeros(4), np.array([[np.nan, 1.0], [2.0, 3.0]]), np.zeros((2, 3, 1))):
        try:
            geocluster_hdbscan.DBSCAN().fit(bad)
        except ValueError as error:
            out["errors"].append(str(error))
    try:
        h.set_params(gamma=1.0)
    except ValueError as error:
        out["errors"].append("set_params: " + str(error))
    print(json.dumps(out))
""")


def test_numpy_only():
    X = np.random.default_rng(5).normal(size=(200, 2))
    run = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(X.tolist())], capture_output=True, text=True,
                         check=True)
    out = json.loads(run.stdout)
    assert out["params"]["min_samples"] == 4 and out["params"]["min_cluster_size"] == 10
    assert out["repr"].startswith("DBSCAN(")
    h = geocluster_hdbscan.HDBSCAN(min_cluster_size=10, min_samples=4).fit(X)
    assert out["hdbscan"] == h.labels_.tolist() and out["probabilities"] == h.probabilities_.tolist()
    assert out["dbscan"] == geocluster_hdbscan.DBSCAN(eps=0.4, min_samples=4).fit(X).labels_.tolist()
    X3 = np.column_stack([X, X[:, 0] - X[:, 1]])
    assert out["d3"] == [geocluster_hdbscan.HDBSCAN(min_cluster_size=10, min_samples=4).fit_predict(X3).tolist(),
                         geocluster_hdbscan.DBSCAN(eps=0.6, min_samples=4).fit(X3).labels_.tolist(), 3]
    cluster = pytest.importorskip("sklearn.cluster")
    expected = []
    for bad in (np.zeros((0, 2)), np.zeros(4), np.array([[np.nan, 1.0], [2.0, 3.0]]), np.zeros((2, 3, 1))):
        with pytest.raises(ValueError) as error:
            cluster.DBSCAN().fit(bad)
        expected.append(str(error.value).split("\n")[0])
    assert [e.split("\n")[0] for e in out["errors"][:4]] == expected
    assert out["errors"][4].startswith("set_params: Invalid parameter 'gamma'")
