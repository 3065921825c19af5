#!/usr/bin/env python3
"""Writes Tests/Fixtures/stats/mannwhitney.json: scipy's two-sided Mann-Whitney U test on
samples like the gate's timings (with and without ties), for HarnessTests/MannWhitneyTests.

Samples come from a seeded numpy generator, rounded so that some cases have ties. For each case
the fixture holds U of the first sample and scipy's p-value with method="exact" (cases without
ties) or method="asymptotic" (with ties; continuity correction on, scipy's default).

    python3 scripts/reference/make_mannwhitney_fixtures.py   (scipy 1.17.1, numpy 2.3.5)
"""
import json
import pathlib

import numpy as np
import scipy
from scipy.stats import mannwhitneyu

rng = np.random.default_rng(20261123)
cases = []
for n1, n2, shift, decimals in [(5, 5, 0.0, 6), (7, 9, 0.3, 6), (15, 15, 0.0, 6), (15, 15, 0.2, 6),
                                (12, 20, -0.25, 6), (15, 15, 0.1, 1), (10, 14, 0.0, 1), (30, 30, 0.05, 2),
                                (40, 45, 0.15, 6)]:
    a = np.round(rng.lognormal(0.0, 0.1, n1) * (1 + shift), decimals)
    b = np.round(rng.lognormal(0.0, 0.1, n2), decimals)
    ties = len(np.unique(np.concatenate([a, b]))) < n1 + n2
    method = "asymptotic" if ties else "exact"
    r = mannwhitneyu(a, b, alternative="two-sided", method=method)
    cases.append({"a": a.tolist(), "b": b.tolist(), "u": float(r.statistic), "p": float(r.pvalue),
                  "method": method})

out = pathlib.Path(__file__).resolve().parents[2] / "Tests/Fixtures/stats/mannwhitney.json"
out.write_text(json.dumps({"scipy": scipy.__version__, "cases": cases}, indent=1) + "\n")
print(f"wrote {out} ({len(cases)} cases)")
