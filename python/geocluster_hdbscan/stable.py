"""Labels that stay the same from one clustering to the next: today's clusters renumbered after
yesterday's, as `geocluster cluster --previous` does (docs/python.md, "Stable labels")."""

import json
import re
from collections import namedtuple

import numpy as np

from . import _native

StableLabels = namedtuple("StableLabels", ["labels", "next_label", "changes"])
StableLabels.__doc__ = """The result of `stable_labels`: `labels` (int64, today's rows, noise -1),
`next_label` (where the next run's fresh labels start: pass it as next_label then) and
`changes` (a list of dicts: change, label, previous_labels, shared, size)."""

_INTEGER = re.compile(r"[+-]?[0-9]+\Z")


def stable_labels(labels, ids, previous_ids, previous_labels, next_label=0):
    """Renumbers today's clusters after yesterday's where they share points (the same id).

    Pairs of clusters are matched by descending shared points, so a cluster that splits keeps
    its label on its larger part and clusters that merge leave the label they share most
    with; every other cluster of today gets a fresh label, from `next_label` upward and above
    every label of yesterday, in the order of the smallest id it holds (ids that are all
    integers by value, else as text). The rule of the CLI's `--previous`, in the same library
    code; nothing depends on the rows' order or on today's numbering.

    labels: today's labels (noise -1), e.g. ``HDBSCAN().fit(X).labels_``; ids: today's ids, one a
    row, unique (integers or strings); previous_ids, previous_labels: yesterday's, the same way.
    Returns a `StableLabels` (labels, next_label, changes). Changes list today's clusters by
    stable label, then yesterday's clusters whose label nobody took (change "vanished"):
    "kept" (all its shared points from the cluster whose label it took), "merged" (also points
    of others), "split" (points of a cluster whose label went to another part), "appeared".
    """
    labels = _labels(labels, "labels")
    previous_labels = _labels(previous_labels, "previous_labels")
    ids, previous_ids = _ids(ids, "ids", len(labels)), _ids(previous_ids, "previous_ids", len(previous_labels))
    if ids.dtype.kind != previous_ids.dtype.kind:
        ids, previous_ids = ids.astype(str), previous_ids.astype(str)
    if not isinstance(next_label, (int, np.integer)) or not 0 <= next_label < 2**31:
        raise ValueError(f"next_label must be an integer from 0 to 2**31 - 1, got {next_label!r}")
    # Today's numbering does not matter to the rule: clusters are renumbered 0 ... k-1 first.
    clusters = np.unique(labels[labels >= 0])
    today = np.where(labels >= 0, np.searchsorted(clusters, labels), -1).astype(np.int32)
    stable, following, text = _native.stable_labels(today, _previous_of(ids, previous_ids, previous_labels),
                                                    _order(ids), previous_labels, int(next_label))
    return StableLabels(stable.astype(np.int64), following, json.loads(text))


def _labels(values, name):
    values = np.asarray(values)
    if values.ndim != 1 or (values.size and values.dtype.kind not in "iu"):
        raise ValueError(f"{name} must be a 1-D array of integer labels, got shape {values.shape}, dtype {values.dtype}")
    if values.size and (values.min() < -1 or values.max() >= 2**31):
        raise ValueError(f"{name} must be -1 (noise) or cluster labels from 0 to 2**31 - 1")
    return values.astype(np.int32)


def _ids(values, name, count):
    values = np.asarray(values)
    if values.ndim != 1 or len(values) != count:
        raise ValueError(f"{name} must be 1-D with one id a row ({count}), got shape {values.shape}")
    if values.dtype.kind in "iu":
        values = values.astype(np.int64)
    elif values.dtype.kind in "USO":
        values = values.astype(str)
    elif values.size:
        raise ValueError(f"{name} must be integers or strings, got dtype {values.dtype}")
    else:
        values = values.astype(np.int64)
    ordered = np.sort(values)
    repeated = np.flatnonzero(ordered[1:] == ordered[:-1])
    if repeated.size:
        raise ValueError(f"{name}: id {ordered[repeated[0]].item()!r} appears more than once; ids must be unique")
    return values


def _previous_of(ids, previous_ids, previous_labels):
    """Yesterday's label of each of today's ids, -1 where it was not there."""
    by_id = np.argsort(previous_ids, kind="stable")
    place = np.searchsorted(previous_ids[by_id], ids)
    inside = place < len(previous_ids)
    found = np.zeros(len(ids), dtype=bool)
    found[inside] = previous_ids[by_id[place[inside]]] == ids[inside]
    before = np.full(len(ids), -1, dtype=np.int32)
    before[found] = previous_labels[by_id[place[found]]]
    return before


def _order(ids):
    """Each id's place in id order: the number itself when every id is an integer (or the
    text of one), else its rank among the ids sorted as text."""
    if ids.dtype.kind == "i":
        return ids
    if all(_INTEGER.match(text) for text in ids.tolist()):
        numbers = [int(text) for text in ids.tolist()]
        if all(-2**63 <= number < 2**63 for number in numbers):
            return np.array(numbers, dtype=np.int64)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[np.argsort(ids, kind="stable")] = np.arange(len(ids))
    return rank
