#!/usr/bin/env python3
"""Cross-check Tests/ClusterCoreTests/CondensedTreeHandBuiltTests.swift against scikit-learn.

Feeds the tests' hand-written MST edges, in the same order, to scikit-learn 1.9.1's
make_single_linkage, _condense_tree and tree_to_labels, and checks the values the Swift tests
expect: condensed rows, stabilities (scikit-learn's _compute_stability formula, which is
not exported, written out below), labels and probabilities. Where a tie decides something
(cases a and b) it checks scikit-learn's own values: it merges tied edges one at a time, which
geocluster does with ties=one-at-a-time (the tests' `tieOneAtATime` cases expect these values),
while its default splits them all at once (docs/commands.md, "What HDBSCAN computes here,
exactly").

Run from anywhere:  python scripts/reference/check_hand_built_trees.py
It prints one line per check and exits non-zero on the first mismatch.
"""

import math
import warnings

import numpy as np
import sklearn
from sklearn.cluster._hdbscan._linkage import MST_edge_dtype, make_single_linkage
from sklearn.cluster._hdbscan._tree import _condense_tree, tree_to_labels

INF = math.inf


def sklearn_run(edges, min_cluster_size, **options):
    """Rows as a sorted list of (parent, child, lambda, size), stabilities, labels, probabilities."""
    hierarchy = make_single_linkage(np.array(edges, dtype=MST_edge_dtype))
    tree = _condense_tree(hierarchy, min_cluster_size)
    rows = sorted((int(r["parent"]), int(r["child"]), float(r["value"]), int(r["cluster_size"])) for r in tree)
    root = min(r[0] for r in rows)
    births = {child: lam for _, child, lam, _ in rows}
    births[root] = 0.0
    stability = {}
    for parent, _, lam, size in rows:
        stability[parent] = stability.get(parent, 0.0) + (lam - births[parent]) * size
    with warnings.catch_warnings():
        # numpy 2.3's "Conversion of an array with ndim > 0 to a scalar" inside scikit-learn.
        warnings.simplefilter("ignore", DeprecationWarning)
        labels, probabilities = tree_to_labels(hierarchy, min_cluster_size, **options)
    return rows, [stability[k] for k in sorted(stability)], labels.tolist(), probabilities.tolist()


def check(name, got, expected):
    if got != expected:
        raise SystemExit(f"MISMATCH {name}:\n  scikit-learn {got}\n  expected     {expected}")
    print(f"ok  {name}")


def four_points(o):
    return [(o, o + 1, 1.0), (o + 1, o + 2, 1.0)], (o + 2, o + 3, 2.0)


def group_rows(cluster, o):
    return [(cluster, o, 1.0, 1), (cluster, o + 1, 1.0, 1), (cluster, o + 2, 1.0, 1), (cluster, o + 3, 0.5, 1)]


def main():
    print(f"scikit-learn {sklearn.__version__}")

    # (a) Three-way tie. scikit-learn: root 12 -> 13 (A and B, merged first) and 14 (C); 13 -> 15 (A),
    # 16 (B) at the same lambda, stability 0. geocluster: 12 -> 13, 14, 15 directly.
    (a1, a2), (b1, b2), (c1, c2) = four_points(0), four_points(4), four_points(8)
    edges = a1 + b1 + c1 + [a2, b2, c2] + [(3, 4, 4.0), (7, 8, 4.0)]
    rows, stability, labels, probabilities = sklearn_run(edges, 3)
    check("a rows", rows, sorted([(12, 13, 0.25, 8), (12, 14, 0.25, 4), (13, 15, 0.25, 4), (13, 16, 0.25, 4)]
                                 + group_rows(15, 0) + group_rows(16, 4) + group_rows(14, 8)))
    check("a stability", stability, [3.0, 0.0, 2.5, 2.5, 2.5])
    check("a labels (the same partition, numbered C, A, B)", labels, [1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0])
    check("a probabilities", probabilities, [1, 1, 1, 0.5] * 3)

    # (b) Tie with a part below min_cluster_size. A-B first: identical to geocluster.
    base = a1 + b1 + [(8, 9, 1.0), a2, b2]
    rows, stability, labels, probabilities = sklearn_run(base + [(3, 4, 4.0), (0, 8, 4.0)], 3)
    check("b (A-B first) rows", rows, sorted([(10, 8, 0.25, 1), (10, 9, 0.25, 1), (10, 11, 0.25, 4), (10, 12, 0.25, 4)]
                                             + group_rows(11, 0) + group_rows(12, 4)))
    check("b (A-B first) stability", stability, [2.5, 2.5, 2.5])
    check("b (A-B first) labels", labels, [0, 0, 0, 0, 1, 1, 1, 1, -1, -1])
    check("b (A-B first) probabilities", probabilities, [1, 1, 1, 0.5, 1, 1, 1, 0.5, 0, 0])
    # A-S first: scikit-learn puts S into A's cluster (geocluster: noise, whatever the order).
    _, _, labels, probabilities = sklearn_run(base + [(0, 8, 4.0), (3, 4, 4.0)], 3)
    check("b (A-S first) labels differ: S joins A", labels, [0, 0, 0, 0, 1, 1, 1, 1, 0, 0])
    check("b (A-S first) probabilities", probabilities, [1, 1, 1, 0.5, 1, 1, 1, 0.5, 0.25, 0.25])

    # (c) Coincident points.
    rows, stability, labels, probabilities = sklearn_run(
        [(0, 1, 0.0), (1, 2, 0.0), (4, 5, 0.0), (5, 6, 0.0), (2, 3, 1.0), (6, 7, 1.0), (0, 4, 8.0)], 3)
    check("c rows", rows, sorted([(8, 9, 0.125, 4), (8, 10, 0.125, 4), (9, 3, 1.0, 1), (10, 7, 1.0, 1)]
                                 + [(9, p, INF, 1) for p in (0, 1, 2)] + [(10, p, INF, 1) for p in (4, 5, 6)]))
    check("c stability", stability, [1.0, INF, INF])
    check("c labels", labels, [0, 0, 0, 0, 1, 1, 1, 1])
    check("c probabilities", probabilities, [1, 1, 1, 0, 1, 1, 1, 0])

    # (d) EOM tie keeps the parent; (f) max_cluster_size on the same shape, root split at 32 m.
    def nested(root):
        return [(0, 1, 1.0), (2, 3, 1.0), (6, 7, 1.0), (1, 2, 2.0), (3, 4, 4.0), (4, 5, 8.0), (5, 6, root)]

    def nested_rows(r):
        return sorted([(8, 9, r, 6), (8, 10, r, 2), (9, 4, 0.25, 1), (9, 5, 0.125, 1), (9, 11, 0.5, 2),
                       (9, 12, 0.5, 2), (10, 6, 1.0, 1), (10, 7, 1.0, 1), (11, 0, 1.0, 1), (11, 1, 1.0, 1),
                       (12, 2, 1.0, 1), (12, 3, 1.0, 1)])

    rows, stability, labels, probabilities = sklearn_run(nested(16.0), 2)
    check("d rows", rows, nested_rows(0.0625))
    check("d stability", stability, [0.5, 2.0, 1.875, 1.0, 1.0])
    check("d labels (the parent kept)", labels, [0, 0, 0, 0, 0, 0, 1, 1])
    check("d probabilities", probabilities, [1, 1, 1, 1, 0.5, 0.25, 1, 1])
    _, _, labels, _ = sklearn_run(nested(16.0), 2, max_cluster_size=5)
    check("d max_cluster_size=5 labels", labels, [1, 1, 2, 2, -1, -1, 0, 0])

    rows, stability, _, _ = sklearn_run(nested(32.0), 2)
    check("f rows", rows, nested_rows(0.03125))
    check("f stability", stability, [0.25, 2.1875, 1.9375, 1.0, 1.0])
    for limit in (None, 6):
        _, _, labels, probabilities = sklearn_run(nested(32.0), 2, max_cluster_size=limit)
        check(f"f max_cluster_size={limit} labels", labels, [0, 0, 0, 0, 0, 0, 1, 1])
        check(f"f max_cluster_size={limit} probabilities", probabilities, [1, 1, 1, 1, 0.5, 0.25, 1, 1])
    _, _, labels, probabilities = sklearn_run(nested(32.0), 2, max_cluster_size=5)
    check("f max_cluster_size=5 labels", labels, [1, 1, 2, 2, -1, -1, 0, 0])
    check("f max_cluster_size=5 probabilities", probabilities, [1, 1, 1, 1, 0, 0, 1, 1])
    _, _, labels, _ = sklearn_run(nested(32.0), 2, max_cluster_size=1)
    check("f max_cluster_size=1 labels", labels, [-1] * 8)

    # (e) Epsilon.
    edges = [(0, 1, 0.25), (2, 3, 0.5), (5, 6, 0.5), (1, 2, 1.0), (3, 4, 2.0), (4, 5, 4.0)]
    rows, stability, labels, probabilities = sklearn_run(edges, 2)
    check("e rows", rows, sorted([(7, 8, 0.25, 5), (7, 9, 0.25, 2), (8, 4, 0.5, 1), (8, 10, 1.0, 2), (8, 11, 1.0, 2),
                                  (9, 5, 2.0, 1), (9, 6, 2.0, 1), (10, 0, 4.0, 1), (10, 1, 4.0, 1), (11, 2, 2.0, 1),
                                  (11, 3, 2.0, 1)]))
    check("e stability", stability, [1.75, 3.25, 3.5, 6.0, 2.0])
    for epsilon in (0.0, 1.0):
        _, _, labels, probabilities = sklearn_run(edges, 2, cluster_selection_epsilon=epsilon)
        check(f"e epsilon={epsilon} labels", labels, [1, 1, 2, 2, -1, 0, 0])
        check(f"e epsilon={epsilon} probabilities", probabilities, [1, 1, 1, 1, 0, 1, 1])
    for options in ({"cluster_selection_epsilon": 1.5}, {"cluster_selection_epsilon": 4.0},
                    {"cluster_selection_method": "leaf", "cluster_selection_epsilon": 1.5}):
        _, _, labels, probabilities = sklearn_run(edges, 2, **options)
        check(f"e {options} labels", labels, [0, 0, 0, 0, 0, 1, 1])
        check(f"e {options} probabilities", probabilities, [1, 1, 1, 1, 0.5, 1, 1])
    _, _, labels, probabilities = sklearn_run(edges, 2, cluster_selection_epsilon=5.0, allow_single_cluster=True)
    check("e epsilon=5 allow_single_cluster labels", labels, [0] * 7)
    check("e epsilon=5 allow_single_cluster probabilities", probabilities, [1] * 7)


if __name__ == "__main__":
    main()
