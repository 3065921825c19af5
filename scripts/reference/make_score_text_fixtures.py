#!/usr/bin/env python3
"""Write Tests/Fixtures/score_text/<case>.json: label files with text labels (US state codes,
region names with spaces, commas, quotes and Hangul) and scikit-learn 1.9.1's external scores
on the same strings, for `geocluster score` (GeoclusterCLITests/ScoreTextLabelTests).

Each case holds the two CSV files as text (written with Python's csv module, quoted where
needed), the columns and the --noise-label the test passes, and the scores under the three
noise modes. scikit-learn is given the label strings themselves (integers for an integer
column), after the noise mode is applied with `score`'s rule:

* a label column whose values are all integers ("3", "-1", "3.0"; spaces around ignored) is
  read as integers, and -1 is its noise;
* any other column is read as text: each distinct value (spaces around ignored, case kept)
  is a label, and only the value given with --noise-label is noise (none without it).

Rows are matched as `score` matches them: by id when both files have an id column, else by
row order. The script shuffles the labels file of the id-matched cases, so a test that
matched by order would fail.

    python scripts/reference/make_score_text_fixtures.py            (~1 s)
    python scripts/reference/make_score_text_fixtures.py --out-dir /tmp/fixtures

Output is deterministic (seeded generators, sorted keys). Same environment as the other
fixtures (scripts/reference/requirements.txt; numpy 2.3.5, scikit-learn 1.9.1).
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_dbscan_metrics_fixtures import to_json  # noqa: E402  (same JSON layout)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT_DIR = REPO_ROOT / "Tests" / "Fixtures" / "score_text"
PINNED = {"numpy": "2.3.5", "scikit-learn": "1.9.1"}
NOISE_MODES = ("as-cluster", "singletons", "excluded")
INTEGER = re.compile(r"^[+-]?[0-9]+(\.0*)?$")


def csv_text(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def read_column(values: list[str], noise_label: str | None):
    """The labels of one column and which are noise, by score's rule (module docstring)."""
    trimmed = [v.strip(" ") for v in values]
    if all(INTEGER.match(v) for v in trimmed):
        labels = [int(v.split(".")[0]) for v in trimmed]
        return labels, [v == -1 for v in labels], "integer"
    noise = noise_label.strip(" ") if noise_label is not None else None
    return trimmed, [noise is not None and v == noise for v in trimmed], "text"


def apply_mode(t, t_noise, p, p_noise, mode):
    """as-cluster: labels as they are (noise is one more label); singletons: every noise point a
    label of its own (strings no label can equal); excluded: rows noise in either file dropped."""
    if mode == "as-cluster":
        return list(t), list(p)
    if mode == "singletons":
        t2 = [f"\x00noise {i}" if n else v for i, (v, n) in enumerate(zip(t, t_noise))]
        p2 = [f"\x00noise {i}" if n else v for i, (v, n) in enumerate(zip(p, p_noise))]
        return [str(v) for v in t2], [str(v) for v in p2]
    keep = [not (a or b) for a, b in zip(t_noise, p_noise)]
    return [v for v, k in zip(t, keep) if k], [v for v, k in zip(p, keep) if k]


def sklearn_scores(t, p) -> dict:
    from sklearn import metrics

    t = np.array(t, dtype=object)
    p = np.array(p, dtype=object)
    h, c, v = metrics.homogeneity_completeness_v_measure(t, p)
    return {
        "adjusted_rand": float(metrics.adjusted_rand_score(t, p)),
        "adjusted_mutual_info": float(metrics.adjusted_mutual_info_score(t, p)),
        "normalized_mutual_info": float(metrics.normalized_mutual_info_score(t, p)),
        "homogeneity": float(h), "completeness": float(c), "v_measure": float(v),
        "fowlkes_mallows": float(metrics.fowlkes_mallows_score(t, p)),
        "points": len(t), "truth_labels": len(set(t.tolist())), "predicted_labels": len(set(p.tolist())),
    }


def case(name, description, truth_header, truth_rows, truth_column, labels_header, labels_rows,
         labels_column, noise_label=None):
    ti, li = truth_header.index(truth_column), labels_header.index(labels_column)
    t_id = "id" in truth_header and "id" in labels_header
    if t_id:
        order = {row[labels_header.index("id")]: row[li] for row in labels_rows}
        p_values = [order[row[truth_header.index("id")]] for row in truth_rows]
    else:
        p_values = [row[li] for row in labels_rows]
    t, t_noise, t_kind = read_column([str(r[ti]) for r in truth_rows], noise_label)
    p, p_noise, p_kind = read_column([str(v) for v in p_values], noise_label)
    scores = {m: sklearn_scores(*apply_mode(t, t_noise, p, p_noise, m)) for m in NOISE_MODES}
    return {
        "name": name, "description": description,
        "truth_csv": csv_text(truth_header, truth_rows), "truth_column": truth_column, "truth_kind": t_kind,
        "labels_csv": csv_text(labels_header, labels_rows), "labels_column": labels_column, "labels_kind": p_kind,
        "noise_label": noise_label, "matched_by": "id" if t_id else "row order",
        "truth_noise": sum(t_noise), "labels_noise": sum(p_noise), "scores": scores,
    }


def cases() -> list[dict]:
    out = []
    # An airport list without ids, its state column the truth, against `cluster`'s id,label
    # output (ids 0..n-1, -1 noise): rows matched by order.
    rng = np.random.default_rng(2801)
    states = ["NY", "NJ", "PA", "MA", "CA", "IL", "MD", "VA", "TX", "WA"]
    truth = [states[i] for i in rng.integers(0, len(states), 60)]
    group = {s: k for k, s in enumerate(states)}
    pred = [(-1 if rng.random() < 0.15 else (group[s] // 2 if rng.random() < 0.85 else int(rng.integers(0, 5))))
            for s in truth]
    out.append(case(
        "states_by_row_order", "60 airports' state codes (no id column) against cluster output, matched by row order",
        ["iata", "name", "state", "lat", "lon"],
        [[f"A{i:02d}", f"Airport {i}, {s}", s, 40 + i / 100, -74 - i / 100] for i, s in enumerate(truth)], "state",
        ["id", "label", "probability", "outlier_score"], [[i, l, 1.0, 0.0] for i, l in enumerate(pred)], "label"))

    # Text in both files, matched by id (labels shuffled); "unknown" is noise in both, the
    # empty text is an ordinary label, and "-1" in a text column is an ordinary label too.
    rng = np.random.default_rng(2802)
    regions = ["north", " north ", "south", "east", "unknown", ""]
    truth = [regions[i] for i in rng.integers(0, len(regions), 80)]
    groups = ["g1", "g2", "g3", "-1", "unknown"]
    pred = [groups[i] for i in rng.integers(0, len(groups), 80)]
    ids = [f"r{i}" for i in range(80)]
    labels_rows = [[ids[i], pred[i]] for i in rng.permutation(80)]
    out.append(case(
        "noise_label_text_both", "text regions and text groups matched by id; --noise-label unknown",
        ["id", "region"], [[ids[i], truth[i]] for i in range(80)], "region",
        ["id", "group"], labels_rows, "group", noise_label="unknown"))

    # Labels with commas, quotes and Hangul in a column with a Hangul name; integer labels
    # written "3.0" in places; no noise label (so no text is noise; -1 in the integer file is).
    rng = np.random.default_rng(2803)
    names = ["서울", "부산", "Seoul, KR", 'the "old" town', "Jeju"]
    truth = [names[i] for i in rng.integers(0, len(names), 50)]
    pred = [int(rng.integers(-1, 4)) for _ in truth]
    out.append(case(
        "unicode_and_quotes", "Hangul, commas and quotes in text labels; integer labels with .0 and -1",
        ["지역", "lat", "lon"], [[s, 37.5, 127.0] for s in truth], "지역",
        ["id", "label"], [[i, f"{l}.0" if i % 3 == 0 else l] for i, l in enumerate(pred)], "label"))

    # An integer truth column (-1 noise) against text labels whose noise is "NA".
    rng = np.random.default_rng(2804)
    truth = [int(v) for v in rng.integers(-1, 6, 70)]
    words = ["alpha", "beta", "gamma", "NA"]
    pred = [words[i] for i in rng.integers(0, len(words), 70)]
    out.append(case(
        "integer_truth_text_labels", "integer truth (-1 noise) against text labels (--noise-label NA)",
        ["truth"], [[v] for v in truth], "truth", ["cluster"], [[v] for v in pred], "cluster", noise_label="NA"))

    # Larger: 3,000 rows, 40 classes, predictions that mostly agree, 10 % noise.
    rng = np.random.default_rng(2805)
    truth = [f"class-{k}" for k in rng.integers(0, 40, 3000)]
    pred = [-1 if rng.random() < 0.1 else (int(t[6:]) // 3 if rng.random() < 0.8 else int(rng.integers(0, 14)))
            for t in truth]
    out.append(case(
        "larger_random", "3,000 rows, 40 text classes against integer labels with 10 % noise, by row order",
        ["kind"], [[t] for t in truth], "kind", ["label"], [[v] for v in pred], "label"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR)
    ap.add_argument("--allow-version-mismatch", action="store_true")
    args = ap.parse_args()
    from importlib.metadata import version

    wrong = {k: version(k) for k, want in PINNED.items() if version(k) != want}
    if wrong and not args.allow_version_mismatch:
        sys.exit(f"need {PINNED}, have {wrong} (--allow-version-mismatch to experiment; don't commit that)")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for c in cases():
        path = args.out_dir / f"{c['name']}.json"
        path.write_text(to_json(c) + "\n", encoding="utf-8")
        ari = c["scores"]["as-cluster"]["adjusted_rand"]
        print(f"{c['name']:28s} {c['matched_by']:9s} truth {c['truth_kind']:7s} labels {c['labels_kind']:7s} "
              f"ARI(as-cluster) {ari:.6f}  -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
