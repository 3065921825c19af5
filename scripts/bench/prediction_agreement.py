#!/usr/bin/env python3
"""How far geocluster's approximate_predict agrees with the hdbscan library's, next to how far
the hdbscan library agrees with itself when its input rows are shuffled (ties settled by row
order move some answers).

Usage: prediction_agreement.py FIT.csv NEW.csv [--fit-rows 100000] [--new-rows 30000]

Fits the first FIT-ROWS rows of FIT.csv (x,y) as they are and jittered by 1 cm (no coincident
points), with hdbscan 0.8.44 (min_samples 4, exact MST, prediction data) and with
geocluster_hdbscan (min_samples 5, the same clustering, ties one at a time), predicts the first
NEW-ROWS rows of NEW.csv with each, and prints the share of fitted points and of new points
with the same label (up to the numbering of clusters), for geocluster against hdbscan and for
hdbscan against hdbscan on the rows shuffled. Needs hdbscan and geocluster_hdbscan importable.
"""
import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prediction import xy  # noqa: E402


def same_share(a_labels, b_labels, a_new, b_new):
    """Share of fitted and of new points whose a-label maps to their b-label (each a-cluster to
    the b-cluster most of its points have)."""
    votes = {}
    for a, b in zip(a_labels, b_labels):
        if a >= 0:
            votes.setdefault(int(a), Counter())[int(b)] += 1
    to_b = {a: c.most_common(1)[0][0] for a, c in votes.items()}
    same = lambda a, b: (to_b.get(int(a), -2) if a >= 0 else -1) == b  # noqa: E731
    return (np.mean([same(a, b) for a, b in zip(a_labels, b_labels)]),
            np.mean([same(a, b) for a, b in zip(a_new, b_new)]))


def main():
    import geocluster_hdbscan
    import hdbscan

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit")
    parser.add_argument("new")
    parser.add_argument("--fit-rows", type=int, default=100000)
    parser.add_argument("--new-rows", type=int, default=30000)
    args = parser.parse_args()
    fit, new = xy(args.fit, args.fit_rows), xy(args.new, args.new_rows)
    rng = np.random.default_rng(0)
    for name, X in (("as generated", fit), ("jittered 1 cm", fit + rng.normal(0, 0.01, fit.shape))):
        theirs = hdbscan.HDBSCAN(min_cluster_size=15, min_samples=4, prediction_data=True,
                                 approx_min_span_tree=False).fit(X)
        ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=15, min_samples=5, prediction_data=True,
                                          ties="one-at-a-time").fit(X)
        perm = rng.permutation(len(X))
        shuffled = hdbscan.HDBSCAN(min_cluster_size=15, min_samples=4, prediction_data=True,
                                   approx_min_span_tree=False).fit(X[perm])
        shuffled_labels = np.empty_like(shuffled.labels_)
        shuffled_labels[perm] = shuffled.labels_
        their_new = hdbscan.approximate_predict(theirs, new)[0]
        g = same_share(ours.labels_, theirs.labels_, geocluster_hdbscan.approximate_predict(ours, new)[0], their_new)
        h = same_share(shuffled_labels, theirs.labels_, hdbscan.approximate_predict(shuffled, new)[0], their_new)
        print(f"{name}: geocluster vs hdbscan: fitted {100 * g[0]:.2f} %, new {100 * g[1]:.2f} %; "
              f"hdbscan vs itself on shuffled rows: fitted {100 * h[0]:.2f} %, new {100 * h[1]:.2f} %")


if __name__ == "__main__":
    main()
