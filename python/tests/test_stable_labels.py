"""stable_labels: today's clusters renumbered after yesterday's. Checked against a brute-force
reading of the documented rule on random labellings, over two refits of a changing set of
listings, and against the CLI's `cluster --previous` on the same files."""

import csv
import subprocess
from collections import Counter

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import cli


def oracle(labels, ids, previous_ids, previous_labels, next_label=0):
    """The rule of docs/python.md, pair by pair: (labels, next label, changes)."""
    before = dict(zip(previous_ids, previous_labels))
    order = {i: (int(i) if isinstance(i, (int, np.integer)) else i) for i in ids}
    shared, size, first = Counter(), Counter(), {}
    for label, i in zip(labels, ids):
        if label < 0:
            continue
        size[label] += 1
        first[label] = min(first.get(label, order[i]), order[i])
        if before.get(i, -1) >= 0:
            shared[label, before[i]] += 1
    stable, taken = {}, set()
    for (today, yesterday), _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0][1], first[kv[0][0]])):
        if today not in stable and yesterday not in taken:
            stable[today], taken = yesterday, taken | {yesterday}
    fresh = max([next_label] + [y + 1 for y in previous_labels if y >= 0])
    for today in sorted(set(size) - set(stable), key=first.get):
        stable[today], fresh = fresh, fresh + 1
    changes = []
    for today in sorted(stable, key=stable.get):
        sources = sorted({y for (t, y) in shared if t == today})
        kind = ("merged" if len(sources) > 1 else "kept") if stable[today] in sources else ("split" if sources else "appeared")
        changes.append({"change": kind, "label": stable[today], "previous_labels": sources,
                        "shared": sum(c for (t, _), c in shared.items() if t == today), "size": size[today]})
    for y in sorted({y for y in previous_labels if y >= 0} - taken):
        changes.append({"change": "vanished", "label": None, "previous_labels": [y],
                        "shared": sum(c for (_, v), c in shared.items() if v == y), "size": 0})
    return [stable[label] if label >= 0 else -1 for label in labels], fresh, changes


@pytest.mark.parametrize("seed", range(12))
def test_random_labellings_follow_the_rule(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    previous_ids = rng.permutation(3 * n)[: n]
    previous_labels = rng.integers(-1, int(rng.integers(1, 12)), n)
    # Today: some of yesterday's ids, some new; clusters numbered in any way, with gaps.
    ids = np.concatenate([rng.choice(previous_ids, n // 2, replace=False), 3 * n + np.arange(n - n // 2)])
    labels = np.where(rng.random(n) < 0.2, -1, 7 * rng.integers(0, int(rng.integers(1, 10)), n) + 3)
    next_label = int(rng.integers(0, 30))
    result = geocluster_hdbscan.stable_labels(labels, ids, previous_ids, previous_labels, next_label=next_label)
    expected_labels, expected_next, expected_changes = oracle(labels.tolist(), ids.tolist(), previous_ids.tolist(),
                                                              previous_labels.tolist(), next_label)
    assert result.labels.tolist() == expected_labels
    assert result.next_label == expected_next
    assert result.changes == expected_changes
    # Nothing depends on the rows' order.
    shuffle = rng.permutation(n)
    again = geocluster_hdbscan.stable_labels(labels[shuffle], ids[shuffle], previous_ids, previous_labels,
                                             next_label=next_label)
    assert again.labels.tolist() == result.labels[shuffle].tolist()
    assert again.changes == result.changes


def blob(rng, centre, count, spread=20.0):
    return rng.normal(centre, spread, (count, 2))


def line(start, end, count):
    """Points every (end - start) / count metres from start to end: a bridge DBSCAN follows."""
    return np.linspace(start, end, count)


def labelled(estimator, parts):
    """The ids and labels of a fit of the named parts (each (points, ids)), taken in name order."""
    X = np.concatenate([parts[name][0] for name in sorted(parts)])
    ids = np.concatenate([parts[name][1] for name in sorted(parts)])
    return ids, estimator.fit(X).labels_


def test_two_refits_keep_labels_and_report_what_changed():
    rng = np.random.default_rng(5)
    dbscan = geocluster_hdbscan.DBSCAN(eps=60, min_samples=5)
    # Day 1: blobs a, b, c, d, and b2 tied to b by a bridge of listings (one cluster with b).
    day1 = {"a": (blob(rng, (0, 0), 120), 1000 + np.arange(120)),
            "b": (blob(rng, (3000, 0), 150), 2000 + np.arange(150)),
            "b2": (np.concatenate([blob(rng, (3600, 0), 60), line((3000, 0), (3600, 0), 30)]), 2500 + np.arange(90)),
            "c": (blob(rng, (0, 3000), 120), 3000 + np.arange(120)),
            "d": (blob(rng, (600, 3000), 160), 4000 + np.arange(160))}
    ids1, labels1 = labelled(dbscan, day1)
    first = geocluster_hdbscan.stable_labels(labels1, ids1, [], [])
    label = {name: set(first.labels[np.isin(ids1, day1[name][1])].tolist()) for name in day1}
    assert label["b"] == label["b2"] and len({min(v) for v in label.values()}) == 4
    label = {name: min(v) for name, v in label.items()}
    # Day 2: "a" gone, "e" new; the bridge gone, so b and b2 split (b, the larger, keeps the
    # label); c and d joined by a bridge (d, sharing more, keeps its label; c's vanishes).
    day2 = {"b": day1["b"], "b2": (day1["b2"][0][:60], day1["b2"][1][:60]),
            "c": day1["c"], "d": (np.concatenate([day1["d"][0], line((0, 3000), (600, 3000), 30)]),
                                  np.concatenate([day1["d"][1], 4500 + np.arange(30)])),
            "e": (blob(rng, (6000, 0), 100), 6000 + np.arange(100))}
    ids2, labels2 = labelled(dbscan, day2)
    second = geocluster_hdbscan.stable_labels(labels2, ids2, ids1, first.labels, next_label=first.next_label)
    def today(result, ids, name, parts):
        return set(result.labels[np.isin(ids, parts[name][1])].tolist())
    assert today(second, ids2, "b", day2) == {label["b"]}
    assert today(second, ids2, "c", day2) == today(second, ids2, "d", day2) == {label["d"]}
    fresh = first.next_label
    assert today(second, ids2, "b2", day2) | today(second, ids2, "e", day2) == {fresh, fresh + 1}
    changes = {(c["change"], c["label"]): c for c in second.changes if c["label"] is not None}
    assert changes["merged", label["d"]]["previous_labels"] == sorted([label["c"], label["d"]])
    vanished = [c["previous_labels"] for c in second.changes if c["change"] == "vanished"]
    assert vanished == sorted([[label["a"]], [label["c"]]])
    b2 = today(second, ids2, "b2", day2).pop()
    assert changes["split", b2]["previous_labels"] == [label["b"]] and changes["split", b2]["size"] == 60
    assert changes["appeared", today(second, ids2, "e", day2).pop()]["size"] == 100
    assert sorted(c["change"] for c in second.changes) == ["appeared", "kept", "merged", "split", "vanished", "vanished"]
    # Day 3, rows in another order and a few listings more: every label holds, none is new.
    day3 = dict(day2, e=(np.concatenate([day2["e"][0], blob(rng, (6000, 0), 20)]),
                         np.concatenate([day2["e"][1], 6500 + np.arange(20)])))
    ids3, labels3 = labelled(dbscan, day3)
    shuffle = rng.permutation(len(ids3))
    third = geocluster_hdbscan.stable_labels(labels3[shuffle], ids3[shuffle], ids2, second.labels,
                                             next_label=second.next_label)
    before = dict(zip(ids2.tolist(), second.labels.tolist()))
    for i, l in zip(ids3[shuffle].tolist(), third.labels.tolist()):
        assert l == before.get(i, l)
    assert third.next_label == second.next_label
    assert {c["change"] for c in third.changes} == {"kept"}


def test_an_hdbscan_refit_keeps_its_labels():
    rng = np.random.default_rng(6)
    hdbscan = geocluster_hdbscan.HDBSCAN(min_cluster_size=30, min_samples=5)
    day1 = {name: (blob(rng, centre, 120), 1000 * k + np.arange(120))
            for k, (name, centre) in enumerate({"a": (0, 0), "b": (3000, 0), "c": (0, 3000)}.items())}
    ids1, labels1 = labelled(hdbscan, day1)
    first = geocluster_hdbscan.stable_labels(labels1, ids1, [], [])
    day2 = dict(day1, a=(day1["a"][0][:100], day1["a"][1][:100]), d=(blob(rng, (3000, 3000), 90), 9000 + np.arange(90)))
    ids2, labels2 = labelled(hdbscan, day2)
    second = geocluster_hdbscan.stable_labels(labels2, ids2, ids1, first.labels, next_label=first.next_label)
    before = dict(zip(ids1.tolist(), first.labels.tolist()))
    for i, l in zip(ids2.tolist(), second.labels.tolist()):
        assert l == before.get(i, first.next_label)


def write_points(path, ids, X):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "x", "y"])
        writer.writerows([str(i), repr(float(x)), repr(float(y))] for i, (x, y) in zip(ids, X))


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_the_cli_and_python_agree(tmp_path):
    rng = np.random.default_rng(9)
    X1 = np.concatenate([blob(rng, c, 80) for c in [(0, 0), (2000, 0), (0, 2000)]])
    ids1 = [f"L{i:04d}" for i in range(len(X1))]
    keep = rng.permutation(len(X1))[:200]
    X2 = np.concatenate([X1[keep], blob(rng, (2000, 2000), 70), blob(rng, (2000, 0), 30)])
    ids2 = [ids1[i] for i in keep] + [f"N{i:03d}" for i in range(100)]
    write_points(tmp_path / "day1.csv", ids1, X1)
    write_points(tmp_path / "day2.csv", ids2, X2)
    flags = ["--min-cluster-size", "20", "--min-samples", "5"]
    subprocess.run([cli(), "cluster", tmp_path / "day1.csv", "-o", tmp_path / "l1.csv", *flags], check=True)
    subprocess.run([cli(), "cluster", tmp_path / "day2.csv", "-o", tmp_path / "l2.csv", "--previous", tmp_path / "l1.csv",
                    "--changes", tmp_path / "c2.csv", *flags], check=True, capture_output=True)
    yesterday, today = read_rows(tmp_path / "l1.csv"), read_rows(tmp_path / "l2.csv")
    labels = geocluster_hdbscan.HDBSCAN(min_cluster_size=20, min_samples=5).fit(X2).labels_
    ours = geocluster_hdbscan.stable_labels(labels, ids2, [r["id"] for r in yesterday],
                                            [int(r["label"]) for r in yesterday])
    assert [r["id"] for r in today] == ids2
    assert ours.labels.tolist() == [int(r["label"]) for r in today]
    expected = [{"change": r["change"], "label": int(r["label"]) if r["label"] else None,
                 "previous_labels": [int(v) for v in r["previous_labels"].split(";") if v],
                 "shared": int(r["shared"]), "size": int(r["size"])} for r in read_rows(tmp_path / "c2.csv")]
    assert ours.changes == expected
    assert any(c["change"] != "kept" for c in expected)


@pytest.mark.parametrize("arguments, message", [
    (([0, 1], [1, 1], [], []), "ids: id 1 appears more than once"),
    (([0, 1], [1, 2], [5, 5], [0, 0]), "previous_ids: id 5 appears more than once"),
    (([0, -2], [1, 2], [], []), "labels must be -1"),
    (([0, 1], [1, 2, 3], [], []), "ids must be 1-D with one id a row (2)"),
    (([0.5, 1], [1, 2], [], []), "labels must be a 1-D array of integer labels"),
    (([0, 1], [1.5, 2.5], [], []), "ids must be integers or strings"),
])
def test_bad_input_is_refused_with_its_name(arguments, message):
    with pytest.raises(ValueError) as raised:
        geocluster_hdbscan.stable_labels(*arguments)
    assert message in str(raised.value)


def test_next_label_is_checked():
    with pytest.raises(ValueError, match="next_label"):
        geocluster_hdbscan.stable_labels([0], [1], [], [], next_label=-1)


def test_the_library_refuses_gaps_in_todays_numbering():
    from geocluster_hdbscan import _native
    with pytest.raises(_native.NativeError, match="no point has cluster 1, below the largest, 2"):
        _native.stable_labels(np.array([0, 2, 2], np.int32), np.array([-1, -1, -1], np.int32),
                              np.array([1, 2, 3], np.int64), np.array([], np.int32), 0)


def test_labels_past_the_largest_are_refused():
    from geocluster_hdbscan import _native
    # Two new clusters after a label of 2**31 - 2: the second fresh label would not fit.
    with pytest.raises(_native.NativeError, match="past the largest label"):
        geocluster_hdbscan.stable_labels([0, 0, 1, 1], [1, 2, 3, 4], [9], [2**31 - 2])
    assert geocluster_hdbscan.stable_labels([0, 0, 1, 1], [1, 2, 3, 4], [9], [2**31 - 4]).next_label == 2**31 - 1
    with pytest.raises(_native.NativeError, match="k at most the 2 points"):
        _native.stable_labels(np.array([0, 2**31 - 1], np.int32), np.array([-1, -1], np.int32),
                              np.array([1, 2], np.int64), np.array([], np.int32), 0)
