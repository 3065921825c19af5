"""Tests for attack.py: its geometry and matchings on small made-up registries, and (when a
geocluster binary is at hand: GEOCLUSTER_CLI, else .build/release/geocluster) the whole script
against the plain 30-80 m mask, where a Sybil prober must find every target and the tolerance
oracle nothing, and the lost-mask attacker's control. `make python` runs them.

    python3 -m pytest -q scripts/privacy/test_attack.py
"""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import attack  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("GEOCLUSTER_CLI", str(ROOT / ".build/release/geocluster"))
LAT, LON = 37.55, 127.0


def registry(tmp_path, offsets, listings=None):
    """A registry file: location i at (east, north) metres `offsets[i]` from (LON, LAT)."""
    north, east = attack.metres_per_degree(LAT)
    path = tmp_path / "reg.csv"
    with open(path, "w") as f:
        f.write("id,lat,lon,building_id\n")
        n = 0
        for i, (e, no) in enumerate(offsets):
            for _ in range((listings or {}).get(i, 1)):
                f.write(f"{n},{float(LAT + no / north)!r},{float(LON + e / east)!r},b{i}\n")
                n += 1
    return attack.Registry(str(path))


def test_median_of_even_and_odd_groups():
    group, values = np.array([0, 0, 1, 1, 1, 2, 2]), np.array([1.0, 3.0, 5.0, 9.0, 7.0, 2.0, 2.0])
    assert attack.group_median(group, values, 3).tolist() == [2.0, 7.0, 2.0]


def test_spots_are_counted_in_a_local_frame(tmp_path):
    # 20 m north and 20 m east of each other: 28.3 m apart, one spot. Absolute longitude times
    # each one's own metres per degree (the old count) put them about 40 m apart at 127 degrees.
    reg = registry(tmp_path, [(0, 0), (20, 20), (100, 0)])
    offs = reg.offsets(np.arange(3), LON, LAT)
    assert attack.spot_mass(offs).tolist() == [2, 2, 1]
    assert reg.gap(np.array([0]), np.array([1]))[0] == pytest.approx(20 * 2 ** 0.5, abs=0.01)


def test_spot_edge_and_fullest_ties_to_the_nearest(tmp_path):
    reg = registry(tmp_path, [(0, 0), (29.9, 0), (200, 0), (230.1, 0), (300.0, 0)])
    offs = reg.offsets(np.arange(5), LON + 0.001, LAT)  # the point about 88 m east of location 0
    assert attack.spot_mass(offs).tolist() == [2, 2, 1, 1, 1]
    assert attack.fullest(offs) == 1  # spots of 2 at 0 and 1: location 1 is the nearer
    assert attack.fullest(offs, np.array([1, 1, 5, 0, 0.0])) == 2


def test_ring_rule_grows_until_anonymous(tmp_path):
    # Around the point: a complex of 3 at 50 m (one spot), 2 lone buildings at 100 m and 150 m.
    reg = registry(tmp_path, [(50, 0), (52, 0), (50, 2), (0, 100), (-150, 0)])
    plain = attack.Rule(30, 80)
    assert sorted(plain.ring(reg, LON, LAT)[0].tolist()) == [0, 1, 2]
    k2 = attack.Rule(30, 0, max_offset=80, k=2, cap=1500)
    idx, _, _, radius = k2.ring(reg, LON, LAT)
    # 80 m: 3 in one spot (not anonymous at K=2); 113 m: 4 with a spot of 3 > 4 // 2; 160 m: 5, spot 3 > 2;
    # 226 m: the same 5 ... up to the cap, where the last ring is taken.
    assert radius == 1500 and len(idx) == 5
    k2b = attack.Rule(30, 0, max_offset=80, k=3, cap=1500)
    reg2 = registry(tmp_path, [(50, 0), (0, 60), (-70, 0), (0, -100)])
    assert k2b.ring(reg2, LON, LAT)[3] == 80


class Points(SimpleNamespace):
    def __len__(self):
        return len(self.kind)


def scene_of(reg, n_points):
    pub = Points(kind=["building"] * n_points, count=np.full(n_points, 2), lon=np.full(n_points, LON),
                 lat=np.full(n_points, LAT))
    return SimpleNamespace(reg=reg, pub=pub)


def test_matching_keeps_only_what_some_full_matching_allows(tmp_path):
    reg = registry(tmp_path, [(0, 0), (100, 0), (200, 0)])
    # Point 0 can only be location 0; point 1 location 0 or 1; point 2 location 1 or 2.
    rows, cols = np.array([0, 1, 1, 2, 2]), np.array([0, 0, 1, 1, 2])
    scene = scene_of(reg, 3)
    m = attack.Matching(scene, rows, cols, np.ones(5))
    assert m.match[:3].tolist() == [0, 1, 2]
    assert m.allowed.tolist() == [True, False, True, False, True]
    shares = attack.balanced(scene, rows, cols, np.ones(5))
    assert np.allclose(shares, [1, 0, 1, 0, 1], atol=0.02)  # Sinkhorn converges slowly to zeros


def test_matching_with_a_cycle_allows_both(tmp_path):
    reg = registry(tmp_path, [(0, 0), (100, 0)])
    rows, cols = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
    m = attack.Matching(scene_of(reg, 2), rows, cols, np.array([1.0, 2.0, 2.0, 1.0]))
    assert m.match[:2].tolist() == [0, 1]
    assert m.allowed.all()


def test_disjoint_batches_and_probe_choice():
    batches = attack.disjoint_batches([1, 2, 3], {1: [10, 11], 2: [11, 12], 3: [13]})
    assert batches == [[1, 3], [2]]
    assert attack.choose_probe(np.array([[40.0, 0], [50, 0], [45, 5]]), 15) is None  # one spot
    j = attack.choose_probe(np.array([[40.0, 0], [45, 0], [200, 0], [400, 0]]), 15)
    assert j in (0, 1)  # the disc that covers two


def test_the_public_rule_from_the_options():
    args = attack.parse_args(["x.csv", "--geocluster", "g", "--key-file", "k", "--min-anonymity", "5", "--anonymity-cap", "1000"])
    rule = attack.public_rule(args)
    assert (rule.k, rule.min_offset, rule.radius, rule.radii[0], rule.radii[-1]) == (5, 30, 1000, 80, 1000)
    plain = attack.public_rule(attack.parse_args(["x.csv", "--geocluster", "g", "--key-file", "k"]))
    assert (plain.k, plain.min_offset, plain.radius) == (0, 0, 1500)


def test_lostmask_guesses_in_the_intersection_of_the_two_discs(tmp_path):
    # Points A 60 m west and B 60 m east of the origin, public disc 100 m. Locations 1-3 (one spot,
    # the ring's guess on A) lie in A's disc only, 4 in B's only, 0 and 5 in both.
    reg = registry(tmp_path, [(0, 0), (-150, 0), (-140, 10), (-145, -10), (150, 0), (0, 50)])
    east = attack.metres_per_degree(LAT)[1]
    at = lambda e: (LON + e / east, LAT, 0.01)
    rule = attack.Rule(0, 100)
    assert attack.lens_guess(rule, reg, at(-60), at(-60)) == (2, 5, 5)  # not moved: the ring guess
    assert attack.lens_guess(rule, reg, at(-60), at(60)) == (0, 5, 2)   # 0 and 5: 0 nearer to A
    assert attack.lens_guess(rule, reg, at(-60), at(400)) == (2, 5, 0)  # nothing in both: A's ring
    assert attack.lens_guess(rule, reg, at(5000), at(6000))[0] == -1
    pub_a = Points(kind=["shared"] * 2, lon=np.array([at(-60)[0], at(0)[0]]), lat=np.full(2, LAT))
    pub_b = Points(kind=["shared"], lon=np.array([at(60)[0]]), lat=np.array([LAT]))
    assert attack.point_gap(pub_a, np.array([0]), pub_b, np.array([0]))[0] == pytest.approx(120, abs=0.01)
    assert attack.unlike(pub_a, np.array([0, 1, -1]), pub_b, np.array([0, -1, 0])) == 1


def test_added_listings_are_new_buildings_of_the_input_columns(tmp_path):
    reg = registry(tmp_path, [(0, 0), (10, 0)])  # columns id,lat,lon,building_id; ids 0 and 1
    other = tmp_path / "other.csv"
    other.write_text("building_id,lon,lat,id,price\n7,127.01,37.56,0,5\n7,127.02,37.57,1,6\n8,127.03,37.58,2,7\n")
    rows = attack.added_listings(reg, str(other), 3, seed=1)
    assert rows == [["2", "37.56", "127.01", "added-0"], ["3", "37.57", "127.02", "added-1"],
                    ["4", "37.58", "127.03", "added-2"]]
    attack.extend_listings(reg, rows, str(tmp_path / "b.csv"))
    b = attack.Registry(str(tmp_path / "b.csv"))
    assert len(b) == 5 and b.lat[b.keys.index("added-1")] == 37.57 and b.location_of["1"] == b.keys.index("b1")


def run_script(tmp_path, *arguments):
    """attack.py on 3,000 generated listings with a fresh key: its --json report."""
    data, key = tmp_path / "s.csv", tmp_path / "k.key"
    subprocess.run([CLI, "generate", "--count", "3000", "--seed", "2", "-o", str(data)], check=True, capture_output=True)
    # A fixed key (the digest of a phrase), so that a run's figures are the same every time: the
    # thresholds below are about 40 targets, where one target more or less is 2.5 %.
    key.write_text(hashlib.sha256(b"geocluster attack.py test key").hexdigest() + "\n")
    key.chmod(0o600)
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("attack.py")), str(data), "--geocluster", CLI,
                          "--key-file", str(key), *arguments, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="no geocluster binary")
def test_whole_script_against_the_plain_mask(tmp_path):
    report = run_script(tmp_path, "--pins-args", "--weak-plain-mask", "--public-radius", "80", "--min-offset", "30",
                        "--attackers", "ring,matching,sybil,oracle", "--sybil-targets", "40", "--oracle-targets", "40")
    a = report["attackers"]
    assert a["sybil"]["within_30m"] == 100
    assert a["matching"]["within_30m"] >= a["ring"]["within_30m"] > 30
    # The check is on published values: the probes teach nothing (within two of 40 targets) and
    # remove nothing but themselves.
    rounds = a["oracle"]["within_30m_by_round"]
    assert max(rounds) <= rounds[0] + 5 and a["oracle"]["listings_of_others_removed"] == 0
    assert a["oracle"]["one_probe_exit_without_skip"] == 0  # a probe is left out on its own, never stops the map
    assert 30 <= report["displacement_median_m"] <= 80


@pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="no geocluster binary")
def test_lostmask_moves_nothing_with_a_mask_file(tmp_path):
    a = run_script(tmp_path, "--attackers", "ring,lostmask", "--lost-mask-added", "100")["attackers"]
    lost = a["lostmask"]
    assert lost["moved_with_mask_file"] == 0 and lost["points_a_unlike_deployment"] == 0
    assert lost["within_30m_ring_a"] == a["ring"]["within_30m"]
    assert lost["moved"] > 0
