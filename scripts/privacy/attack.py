#!/usr/bin/env python3
"""Attacks on geocluster's map pins, played from the outside: what a publication gives away.

The deployment publishes once: `geocluster pins LISTINGS --zoom 22 --leaves --key-file KEY
--mask M [--pins-args]`, with M a fresh mask file in a temporary directory. Every zoom-22 pin
is one published point (its displayed position) holding the listing ids in its `leaves`; a pin
may hold the listings of several locations, whatever its kind. The script reads only that
GeoJSON and the input file, and needs numpy and scipy only (no geocluster code).

What every attacker knows:
  * the registry: every location's true position (the coordinate-wise median of its listings'
    lat/lon in the input) and its building id (--location-column);
  * the public rule: --public-radius R, the farthest a displayed point lies from the true
    position of a location it shows (default 1500 m), and --min-offset (default 0). With
    --min-anonymity K (the script's option: the ring rule of the pins before shared points,
    docs/pins.md "k-anonymity against a registry"; pass the same K in --pins-args to make the
    binary use it) the public ring of a point d is min-offset..R(d) (min-offset default 30), R(d)
    the first of --max-offset, x sqrt(2), ..., --anonymity-cap whose ring holds K locations
    with no 30 m spot holding more than 1/K of them, computed as that rule computes it;
  * the publication. The truth (which listing is at which location) is used only to score.

A guess names one registry location for each attacked location (reached through one of its
listings in the publication; --sample of them, seeded); it succeeds within 30 m when the named
location's true position lies within 30 m of the attacked location's. Distances are east/north
metres at the attacked location's latitude (WGS 84 metres per degree), as the tool measures
offsets; spots are counted on offsets from the published point (differences first, then
scaled). "The fullest spot" of a set of candidates is the candidate with the most of them (or
the most weight) within 30 m, ties to the nearest to the point. A point's candidates are the
registry locations in its public ring, widened by the coordinates' rounding (1 cm) and, for a
cluster pin, by half its spread.

The attackers (each line: locations attacked, % within 10 m, % within 30 m, median error):
  ring        guess = the fullest spot of the point's candidates (every candidate equally
              likely: exact for a uniform annulus).
  matching    uses that every location is shown exactly once. Always: "nearest" (each registry
              location goes to its nearest point within the public radius; guess = the fullest
              spot of the point's share) and "soft" (candidates weighted by 1 / the points within
              the public radius of them). When points hold one location each (--pins-hold; auto:
              the points and clusters' listings can hold every registry location; a cluster pin
              gets optional slots): "min-cost", a min-cost full matching of points to candidates
              (cost = distance; scipy's LAPJVsp per connected component); "pruned", the fullest
              spot of the candidates that some full matching gives the point (alternating cycles
              and paths, by strongly connected components) -- these two up to --max-pairs
              (point, candidate) pairs; "balanced", the fullest spot weighted
              by each pair's share in the maximum-entropy assignment (Sinkhorn scaling: every
              point's shares sum to its locations, every location's to 1). The best is reported.
  simulation  runs the binary with --sim-keys keys of its own (fresh `pins-key`, fresh mask
              file, the same --pins-args) on the registry written as a listing file (one listing
              per location at its true position, with its building id), records every location's
              displayed offset in each run, and weighs each candidate c of a point d by a Gaussian
              kernel density (--bandwidth) of the offset d - c among c's simulated offsets, plus
              --sim-floor times the uniform density over the public disc: "kde", the heaviest
              spot; with one location per point also "kde+min-cost" (cost -log weight),
              "kde+pruned" and "kde+balanced". The best is reported.
  sybil       posts listings. For each of --sybil-targets targets it takes up to
              --sybil-budget candidates of the target's point (nearest first), adds one listing
              at each (a new id, the candidate's building id and registry position), republishes
              with the deployment's key and a copy of its mask file, and keeps the candidates
              whose listing joins the target's pin; guess = their fullest spot (when none does:
              of the candidates whose probe was not seen at another point). Targets whose
              candidate sets are disjoint share one republication.
  groups      the Sybil prober's ceiling, without posting: told every point's true set of
              registry locations (what probes at every candidate of every point would reveal
              through the pins they join), guess = that set's fullest spot. A prober learns at
              most its target's set, so this bounds it, computed over every attacked location
              rather than --sybil-targets of them.
  oracle      uses the building-consistency check (--location-tolerance T, run with
              --skip-bad-rows). It is given the target's building id (a platform shows which
              building a listing is in) but not that id's registry entry (that would be the
              answer). First it measures the check's refusal radius (one republication with
              probes at buildings it can name, at distances around T/2 and T; --oracle-radius
              skips this); a one-listing building (a pin of one listing) is refused only beyond
              T at least, its median then being the midpoint. Then, per round (--oracle-probes
              republications, all targets batched), one listing with the target's id at the
              candidate where a disc of that radius covers the most survivors (or splits them
              best); refused when the target's listings vanish, the probe is missing or in
              another pin, or the target's pin moves. It keeps the candidates consistent with
              every observation and guesses their fullest spot; the line shows the success
              before and after each round, and the denial: the listings besides the probes that
              probes removed, and the exit code of a publication run without --skip-bad-rows
              holding one probe.
  lostmask    a deployment that keeps no mask file (`--weak-no-mask-file`, the same key and
              --pins-args) publishes the input (A), then the input plus --lost-mask-added listings
              at as many new buildings (B): seeded rows of another generated city (`generate
              --count 20000 --seed SEED+1000`, its positions and attributes, new ids, building ids
              added-0, ...). Each attacked location is found in A and B through its listings; when
              its point moved, guess = the fullest spot (from A's point) of B's registry locations
              within the public ring of both points (the discs' intersection; A's ring if empty),
              else the ring guess on A. The line shows the locations moved, the largest move, the
              moved ones' success with the ring on A alone and after intersecting, and the ring on
              A over all; and, as a control, the locations moved when B is published with a copy
              of the deployment's (fresh) mask file instead (expected 0), and the locations A shows
              elsewhere than the deployment (expected 0: the same key and listings).

Also printed: the share of published points holding exactly one location and the displacement
(published point to true position: median and 90th percentile) over the published locations;
--json adds one line with every number.

  scripts/privacy/attack.py LISTINGS.csv --geocluster .build/release/geocluster --key-file pins.key \\
      [--attackers ring,matching,simulation,sybil,groups,oracle,lostmask] [--pins-args "..."] \\
      [--public-radius 1500] [--min-offset 0] [--sample 20000] [--seed 1] [--json]

The plain 30-80 m annulus: --public-radius 80 --min-offset 30 (with the pins before shared
points, no --pins-args; after, --pins-args --weak-plain-mask). The ring rule (pins before shared
points): --pins-args "--min-anonymity 5" --min-anonymity 5. On a large file, lower --sim-keys,
--sybil-targets and --oracle-targets (each republication publishes the whole file again);
--sample bounds the ring and matching attackers' targets.
"""
import argparse, csv, json, math, os, shlex, shutil, subprocess, sys, tempfile, time
from collections import defaultdict

import numpy as np
from scipy.sparse import bmat, csr_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components, min_weight_full_bipartite_matching
from scipy.spatial import cKDTree

A, E2 = 6378137.0, 6.69437999014e-3  # WGS 84
SPOT = 30.0                           # a guess succeeds within this many metres
ATTACKERS = ("ring", "matching", "simulation", "sybil", "groups", "oracle", "lostmask")


def metres_per_degree(lat_deg):
    """(north, east) metres per degree of latitude and of longitude at a latitude (WGS 84)."""
    phi = np.radians(lat_deg)
    w2 = 1 - E2 * np.sin(phi) ** 2
    m = A * (1 - E2) / (w2 * np.sqrt(w2))
    n = A / np.sqrt(w2)
    return np.pi / 180 * m, np.pi / 180 * n * np.cos(phi)


# --- The registry (and the truth, for scoring) ------------------------------------------------

def group_median(group, values, n_groups):
    """The median of `values` within each group 0..n_groups-1 (the mean of the middle two)."""
    order = np.lexsort((values, group))
    v, sizes = values[order], np.bincount(group, minlength=n_groups)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return (v[starts + (sizes - 1) // 2] + v[starts + sizes // 2]) / 2


class Registry:
    """Every location's true position and building id, read from the listing file; distances as
    the mask measures them (east and north metres at the location's latitude)."""

    def __init__(self, path, location_column="building_id", id_column="id"):
        self.path, self.location_column, self.id_column = path, location_column, id_column
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            self.header = next(reader)
            col = {name: i for i, name in enumerate(self.header)}
            ci, cla, clo, ck = col[id_column], col["lat"], col["lon"], col.get(location_column)
            ids, lat, lon, keys = [], [], [], []
            for row in reader:
                if not ids:
                    self.template = row
                ids.append(row[ci]); lat.append(float(row[cla])); lon.append(float(row[clo]))
                keys.append(row[ck] if ck is not None and row[ck] else f"{round(lon[-1] * 1e6)},{round(lat[-1] * 1e6)}")
        self.keys = sorted(set(keys))
        index = {k: i for i, k in enumerate(self.keys)}
        loc = np.fromiter((index[k] for k in keys), dtype=np.intp, count=len(keys))
        self.location_of = dict(zip(ids, loc.tolist()))
        self.listings = np.bincount(loc, minlength=len(self.keys))
        self.lon = group_median(loc, np.array(lon), len(self.keys))
        self.lat = group_median(loc, np.array(lat), len(self.keys))
        self.next_id = 1 + max((int(i) for i in ids if i.isdigit()), default=len(ids))
        self.m_lat, self.m_lon = metres_per_degree(self.lat)
        lat0 = float(np.mean(self.lat))
        self.k_lat, self.k_lon = metres_per_degree(lat0)
        self.tree = cKDTree(self.plane(self.lon, self.lat))
        self.pad = 1.02 * float(np.max(self.k_lon / self.m_lon)) + 0.01  # local-plane stretch bound

    def __len__(self):
        return len(self.keys)

    def plane(self, lon, lat):
        return np.column_stack([np.atleast_1d(lon) * self.k_lon, np.atleast_1d(lat) * self.k_lat])

    def offsets(self, idx, lon, lat):
        """(east, north) metres from locations `idx` to the points (lon, lat), at the locations' latitudes."""
        dl = lon - self.lon[idx]
        dl = np.where(dl > 180, dl - 360, np.where(dl < -180, dl + 360, dl))
        return np.column_stack([dl * self.m_lon[idx], (lat - self.lat[idx]) * self.m_lat[idx]])

    def near(self, lon, lat, inner, outer):
        """The locations whose true position lies inner..outer metres from (lon, lat): indices,
        offsets to the point, distances."""
        idx = np.array(self.tree.query_ball_point(self.plane(lon, lat)[0], outer * self.pad), dtype=np.intp)
        offs = self.offsets(idx, lon, lat)
        d2 = (offs ** 2).sum(axis=1)
        keep = (d2 >= inner * inner) & (d2 <= outer * outer)
        return idx[keep], offs[keep], np.sqrt(d2[keep])

    def gap(self, t, g):
        """Metres from the true positions of locations `t` to those of `g`, at t's latitudes."""
        return np.hypot(*self.offsets(t, self.lon[g], self.lat[g]).T)

    def row(self, listing_id, key, lon, lat):
        """A listing row of this file's columns: the first row's values, with this id, key and position."""
        row = list(self.template)
        col = {name: i for i, name in enumerate(self.header)}
        row[col[self.id_column]], row[col["lat"]], row[col["lon"]] = str(listing_id), repr(float(lat)), repr(float(lon))
        if self.location_column in col:
            row[col[self.location_column]] = key
        return row


def read_registry(path, location_column):
    """Each location's true position (lon, lat: median of its listings) and each listing id's location."""
    r = Registry(path, location_column)
    return np.column_stack([r.lon, r.lat]), r.location_of


# --- Publications ---------------------------------------------------------------------------

class Publication:
    """The zoom-22 pins of one run: each a published point holding listing ids."""

    def __init__(self, path):
        feats = [f for f in json.load(open(path))["features"] if f["properties"].get("zoom", 22) == 22]
        xy = np.array([f["geometry"]["coordinates"] for f in feats], dtype=float).reshape(-1, 2)
        self.lon, self.lat = xy[:, 0], xy[:, 1]
        self.kind = [f["properties"]["kind"] for f in feats]
        self.count = np.array([f["properties"]["count"] for f in feats], dtype=int)
        box = np.array([f["properties"].get("bbox") or [0, 0, 0, 0] for f in feats], dtype=float).reshape(-1, 4)
        n, e = metres_per_degree(self.lat)
        # How far a location shown by this pin can lie from the pin's position beyond the rule:
        # the coordinates' rounding (1e-7 degree), and half a cluster's spread.
        self.slack = 0.01 + np.where(np.array([k == "cluster" for k in self.kind], dtype=bool),
                                     np.hypot((box[:, 2] - box[:, 0]) * e, (box[:, 3] - box[:, 1]) * n) / 2, 0)
        self.leaves = [[str(l) for l in f["properties"]["leaves"]] for f in feats]
        self.point_of = {l: p for p, leaves in enumerate(self.leaves) for l in leaves}

    def __len__(self):
        return len(self.lon)

    def locate(self, reg):
        """The registry locations of each point, each location's point (-1: not published) and
        the first listing through which it is reached."""
        where, reference = np.full(len(reg), -1, dtype=np.intp), {}
        holds = []
        for p, leaves in enumerate(self.leaves):
            locs = sorted({reg.location_of[l] for l in leaves if l in reg.location_of})
            holds.append(np.array(locs, dtype=np.intp))
            for l in leaves:
                t = reg.location_of.get(l)
                if t is not None and t not in reference:
                    where[t], reference[t] = p, l
        return holds, where, reference


def run_pins(args, listings, key, mask, out, extra=()):
    """One `geocluster pins` run at zoom 22 with leaves (mask None: --weak-no-mask-file); the
    completed process."""
    keep = ["--mask", mask] if mask is not None else ["--weak-no-mask-file"]
    cmd = [args.geocluster, "pins", listings, "--zoom", "22", "--leaves", "--key-file", key, *keep,
           *shlex.split(args.pins_args), *extra, "-o", out]
    for attempt in range(3):  # the binary may be replaced while we run: retry a crash
        try:
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode >= 0:
                return done
        except OSError:
            if attempt == 2:
                raise
        time.sleep(2)
    return done


# --- The public rule and spots ----------------------------------------------------------------

def spot_mass(offs, weights=None, spot=SPOT):
    """For each candidate (offsets in metres), the count (or weight) of candidates within `spot` of it."""
    w = np.ones(len(offs)) if weights is None else np.asarray(weights, dtype=float)
    if len(offs) < 2:
        return w.copy()
    pairs = cKDTree(offs).query_pairs(spot, output_type="ndarray")
    mass = w.copy()
    np.add.at(mass, pairs[:, 0], w[pairs[:, 1]])
    np.add.at(mass, pairs[:, 1], w[pairs[:, 0]])
    return mass


def fullest(offs, weights=None):
    """The candidate (an index into offs) with the most candidates or weight within 30 m, ties to the nearest."""
    mass = spot_mass(offs, weights)
    best = np.flatnonzero(mass >= mass.max() * (1 - 1e-9))
    return best[np.argmin((offs[best] ** 2).sum(axis=1))]


class Rule:
    """The public rule: the ring of a displayed point where the truth of a location it shows lies."""

    def __init__(self, min_offset, radius, max_offset=80.0, k=0, cap=1500.0, spot=30.0):
        self.min_offset, self.radius, self.k, self.spot = min_offset, radius, k, spot
        self.radii = [radius]
        if k:
            r = [max_offset]
            while r[-1] * math.sqrt(2) < cap * (1 - 1e-9):
                r.append(r[-1] * math.sqrt(2))
            if cap > max_offset:
                r.append(cap)
            self.radii, self.radius = r, max(cap, radius)

    def anonymous(self, offs):
        limit = len(offs) // self.k
        return limit >= 1 and spot_mass(offs, spot=self.spot).max() <= limit

    def ring(self, reg, lon, lat, slack=0.0):
        """Candidates of the point (lon, lat): indices, offsets to the point, distances, ring radius
        (the ring widened by `slack` metres each way)."""
        for s, outer in enumerate(self.radii):
            cand = reg.near(lon, lat, max(self.min_offset - slack, 0), outer + slack)
            if not self.k or s == len(self.radii) - 1 or self.anonymous(cand[1]):
                return (*cand, outer)

    def __str__(self):
        if self.k:
            return f"ring rule K={self.k}, rings {self.min_offset:g}..{self.radii[0]:g}..{self.radii[-1]:g} m"
        return f"public ring {self.min_offset:g}..{self.radius:g} m"


# --- The scene: what the attacker holds --------------------------------------------------------

class Scene:
    def __init__(self, args, reg, rule, pub, workdir, key, mask):
        self.args, self.reg, self.rule, self.pub, self.workdir = args, reg, rule, pub, workdir
        self.key, self.mask = key, mask
        self.holds, self.where, self.reference = pub.locate(reg)
        published = np.flatnonzero(self.where >= 0)
        rng = np.random.default_rng(args.seed)
        self.attacked = published if len(published) <= args.sample else np.sort(
            rng.choice(published, args.sample, replace=False))
        self._rings, self._ring_guess = {}, {}

    def ring(self, p):
        if p not in self._rings:
            self._rings[p] = self.rule.ring(self.reg, self.pub.lon[p], self.pub.lat[p], self.pub.slack[p])
        return self._rings[p]

    def ring_guess(self, p):
        """The ring attacker's guess for point p (-1 without candidates)."""
        if p not in self._ring_guess:
            idx, offs = self.ring(p)[:2]
            self._ring_guess[p] = int(idx[fullest(offs)]) if len(idx) else -1
        return self._ring_guess[p]

    def guess_among(self, p, cand, weights=None):
        """The fullest spot among registry locations `cand` as seen from point p (the ring guess when empty)."""
        cand = np.asarray(cand, dtype=np.intp)
        if len(cand) == 0:
            return self.ring_guess(p)
        offs = self.reg.offsets(cand, self.pub.lon[p], self.pub.lat[p])
        return int(cand[fullest(offs, weights)])

    def targets(self, n, seed_offset, distinct_points=False):
        """A seeded sample of n attacked locations (at most one per point if asked)."""
        order = np.random.default_rng(self.args.seed + seed_offset).permutation(self.attacked)
        if distinct_points:
            _, first = np.unique(self.where[order], return_index=True)
            order = order[np.sort(first)]
        return np.sort(order[:n])

    def attacked_points(self):
        return np.unique(self.where[self.attacked])

    def by_location(self, targets, point_guess):
        return np.array([point_guess.get(self.where[t], -1) for t in targets], dtype=np.intp)


def score(reg, targets, guess):
    """Success of guesses (registry indices, -1 none) for the target locations."""
    err = np.full(len(targets), np.inf)
    ok = guess >= 0
    err[ok] = reg.gap(targets[ok], guess[ok])
    n = max(len(targets), 1)
    med = float(np.median(err)) if len(err) else math.inf
    return {"locations": int(len(targets)), "within_10m": 100 * float(np.sum(err <= 10)) / n,
            "within_30m": 100 * float(np.sum(err <= SPOT)) / n, "median_error_m": med if math.isfinite(med) else None,
            "exact": int(np.sum(err < 0.5))}


def extend_listings(reg, rows, path):
    """A copy of the registry's listing file at `path`, with `rows` (of its columns) appended."""
    shutil.copyfile(reg.path, path)
    with open(path, "rb+") as f:
        f.seek(-1, os.SEEK_END)
        if f.read(1) != b"\n":
            f.write(b"\n")
    with open(path, "a", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def republish(scene, probes, name, extra=()):
    """The deployment's listings plus `probes` [(id, key, lon, lat)], published with its key and a copy
    of its mask file: (return code, Publication or None)."""
    listings = os.path.join(scene.workdir, f"{name}.csv")
    extend_listings(scene.reg, [scene.reg.row(*probe) for probe in probes], listings)
    mask, out = os.path.join(scene.workdir, f"{name}.mask"), os.path.join(scene.workdir, f"{name}.geojson")
    shutil.copyfile(scene.mask, mask)
    os.chmod(mask, 0o600)  # as secret as the key: the tool may refuse a mask file others can read
    done = run_pins(scene.args, listings, scene.key, mask, out, extra)
    return done.returncode, (Publication(out) if done.returncode == 0 else None)


# --- 1. ring ----------------------------------------------------------------------------------

def attack_ring(scene):
    guess = {p: scene.ring_guess(p) for p in scene.attacked_points()}
    return score(scene.reg, scene.attacked, scene.by_location(scene.attacked, guess)), {}


# --- 2. matching ------------------------------------------------------------------------------

def ring_pairs(scene):
    """Every (point, candidate) pair of the publication: point, location, distance."""
    reg, pub, rule = scene.reg, scene.pub, scene.rule
    if rule.k:
        rings = [scene.ring(p) for p in range(len(pub))]
        rows = np.repeat(np.arange(len(pub)), [len(r[0]) for r in rings])
        cols = np.concatenate([r[0] for r in rings]) if rings else np.zeros(0, np.intp)
        dist = np.concatenate([r[2] for r in rings]) if rings else np.zeros(0)
        return rows, cols.astype(np.intp), dist
    lists = reg.tree.query_ball_point(reg.plane(pub.lon, pub.lat), (rule.radius + pub.slack) * reg.pad)
    rows = np.repeat(np.arange(len(pub)), [len(l) for l in lists])
    cols = np.fromiter((c for l in lists for c in l), dtype=np.intp, count=len(rows))
    d = np.hypot(*reg.offsets(cols, pub.lon[rows], pub.lat[rows]).T)
    keep = (d >= rule.min_offset - pub.slack[rows]) & (d <= rule.radius + pub.slack[rows])
    return rows[keep], cols[keep], d[keep]


def one_location_per_pin(scene):
    """Whether points hold one location each (a cluster: one or more): decided by the rule's
    public flag (--pins-hold), or by whether the slots can hold every registry location."""
    if scene.args.pins_hold != "auto":
        return scene.args.pins_hold == "one"
    return len(scene.pub) >= 0.9 * len(scene.reg) - sum(c - 1 for k, c in zip(scene.pub.kind, scene.pub.count) if k == "cluster")


def groups(labels):
    """{label: the indices holding it}."""
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    return {int(labels[g[0]]): g for g in np.split(order, cuts)} if len(order) else {}


class Matching:
    """Full matchings of the points' slots (one per point, plus one optional slot per further
    listing of a cluster pin) to registry locations within their rings."""

    BIG = 1e6  # the cost of leaving an optional slot empty

    def __init__(self, scene, rows, cols, cost):
        pub, L, P = scene.pub, len(scene.reg), len(scene.pub)
        ncand = np.bincount(rows, minlength=P)
        extra = np.array([max(0, min(c, n) - 1) if k == "cluster" else 0
                          for k, c, n in zip(pub.kind, pub.count, ncand)], dtype=np.intp)
        start = P + np.concatenate([[0], np.cumsum(extra)[:-1]])
        rep = 1 + extra[rows]
        e = np.repeat(np.arange(len(rows)), rep)
        j = np.arange(len(e)) - np.repeat(np.cumsum(rep) - rep, rep)
        slot = np.where(j == 0, rows[e], start[rows[e]] + j - 1)
        n_opt = int(extra.sum())
        self.slot_point = np.concatenate([np.arange(P), np.repeat(np.arange(P), extra)])
        opt = np.arange(P, P + n_opt)
        self.r = np.concatenate([slot, opt]).astype(np.intp)
        self.pair = np.concatenate([e, np.full(n_opt, -1)]).astype(np.intp)
        self.c = np.concatenate([cols[e], L + opt - P]).astype(np.intp)
        w = np.concatenate([cost[e], np.full(n_opt, self.BIG)])
        self.L, self.shape = L, (P + n_opt, L + n_opt)
        self.B = csr_matrix((w, (self.r, self.c)), shape=self.shape)
        self.match = self.solve()
        self.allowed = self.usable()

    def solve(self):
        """The matched column of every slot (-1 where no full matching of its component exists),
        component by component."""
        n_r = self.shape[0]
        match = np.full(n_r, -1, dtype=np.intp)
        _, lab = connected_components(bmat([[None, self.B], [self.B.T, None]]), directed=False)
        rows_of, cols_of = groups(lab[:n_r]), groups(lab[n_r:])
        for label, rr in rows_of.items():
            cc = cols_of.get(label, np.zeros(0, np.intp))
            if len(rr) > len(cc):
                continue
            sub = self.B[rr][:, cc]
            if len(rr) == 1:
                match[rr[0]] = cc[sub.indices[np.argmin(sub.data)]]
                continue
            try:
                r, c = min_weight_full_bipartite_matching(sub)
                match[rr[r]] = cc[c]
            except ValueError:
                continue
        return match

    def usable(self):
        """Per edge: whether some full matching uses it (in the matching, on an alternating cycle,
        or on an alternating path from an unmatched column); every edge of an unsolved slot."""
        n_r, n_c = self.shape
        in_m = self.match[self.r] == self.c
        # Rows 0..n_r-1, columns n_r.., a source: matched edges row -> column, others column -> row.
        src = n_r + n_c
        free = np.setdiff1d(np.arange(n_c), self.match[self.match >= 0])
        a = np.where(in_m, self.r, n_r + self.c)
        b = np.where(in_m, n_r + self.c, self.r)
        a, b = np.concatenate([a, np.full(len(free), src)]), np.concatenate([b, n_r + free])
        g = csr_matrix((np.ones(len(a)), (a, b)), shape=(src + 1, src + 1))
        _, scc = connected_components(g, directed=True, connection="strong")
        reach = np.zeros(src + 1, dtype=bool)
        reach[breadth_first_order(g, src, directed=True, return_predecessors=False)] = True
        return in_m | (scc[self.r] == scc[n_r + self.c]) | reach[n_r + self.c] | (self.match[self.r] < 0)

    def point_guesses(self, scene, points, weights=None):
        """Per point: the min-cost matching's guess, and the fullest spot of the allowed candidates
        (weighted by `weights`, one per pair, when given)."""
        real = self.c < self.L
        allowed = defaultdict(list)
        for k in np.flatnonzero(real & self.allowed):
            allowed[self.slot_point[self.r[k]]].append(k)
        matched = defaultdict(list)
        for s in np.flatnonzero(self.match >= 0):
            if self.match[s] < self.L:
                matched[self.slot_point[s]].append(self.match[s])
        cheapest, pruned = {}, {}
        for p in points:
            cheapest[p] = scene.guess_among(p, matched.get(p, []))
            ks = np.array(allowed.get(p, []), dtype=np.intp)
            ks = ks[np.unique(self.c[ks], return_index=True)[1]]  # a cluster's slots share candidates
            pruned[p] = scene.guess_among(p, self.c[ks], None if weights is None else weights[self.pair[ks]])
        return cheapest, pruned


def nearest_assignment(scene, points):
    """Each registry location goes to its nearest point within the public radius; per point, the
    fullest spot of its share."""
    reg, pub, rule = scene.reg, scene.pub, scene.rule
    k = min(8, len(pub))
    _, near = cKDTree(reg.plane(pub.lon, pub.lat)).query(reg.plane(reg.lon, reg.lat), k=k)
    near = near.reshape(len(reg), k)
    loc = np.repeat(np.arange(len(reg)), k)
    d = np.hypot(*reg.offsets(loc, pub.lon[near.ravel()], pub.lat[near.ravel()]).T).reshape(len(reg), k)
    best = np.argmin(d, axis=1)
    home = np.where(d[np.arange(len(reg)), best] <= rule.radius, near[np.arange(len(reg)), best], -1)
    share = defaultdict(list)
    for c in np.flatnonzero(home >= 0):
        share[home[c]].append(c)
    return {p: scene.guess_among(p, share.get(p, [])) for p in points}


def point_capacity(scene):
    """How many locations each point holds when points hold one each: 1, and for a cluster pin
    its share of the locations left over (by listings beyond the first)."""
    pub = scene.pub
    cluster = np.array([k == "cluster" for k in pub.kind])
    cap = np.ones(len(pub))
    surplus, extra = len(scene.reg) - len(pub), (pub.count - 1) * cluster
    if surplus > 0 and extra.sum() > 0:
        cap += np.minimum(surplus * extra / extra.sum(), pub.count - 1)
    return cap


def balanced(scene, rows, cols, w, iterations=200):
    """Each pair's share when every point holds its locations and every location is shown once:
    the weights scaled per point and per location until each point's sum is its capacity and
    each location's is 1 (Sinkhorn-Knopp: the maximum-entropy assignment's marginals)."""
    P, L = len(scene.pub), len(scene.reg)
    W = csr_matrix((w, (rows, cols)), shape=(P, L))
    WT, cap = W.T.tocsr(), point_capacity(scene)
    u, v = np.ones(P), np.ones(L)
    for _ in range(iterations):
        v = 1 / np.maximum(WT @ u, 1e-300)
        u = cap / np.maximum(W @ v, 1e-300)
    return w * u[rows] * v[cols]


def soft_shares(scene, points):
    """Per point: the fullest spot of its candidates, each weighted by 1 / the number of points
    within the public radius of it (each location is shown at one of them)."""
    reg, pub, rule = scene.reg, scene.pub, scene.rule
    tree = cKDTree(reg.plane(pub.lon, pub.lat))
    guess = {}
    for p in points:
        idx, offs = scene.ring(p)[:2]
        if len(idx) == 0:
            guess[p] = -1
            continue
        n = tree.query_ball_point(reg.plane(reg.lon[idx], reg.lat[idx]), rule.radius, return_length=True)
        guess[p] = int(idx[fullest(offs, 1 / np.maximum(n, 1))])
    return guess


def pair_guesses(scene, points, rows, cols, w):
    """Per point: the heaviest spot of its pairs' candidates."""
    order = np.argsort(rows, kind="stable")
    starts = np.searchsorted(rows[order], np.arange(len(scene.pub) + 1))
    return {p: scene.guess_among(p, cols[order[starts[p]:starts[p + 1]]], w[order[starts[p]:starts[p + 1]]])
            for p in points}


def best_of(scene, variants, extra=None):
    """The score of the best variant, and every variant's."""
    scores = {name: score(scene.reg, scene.attacked, scene.by_location(scene.attacked, g)) for name, g in variants.items()}
    best = max(scores, key=lambda n: scores[n]["within_30m"])
    return scores[best], {"variant": best, "variants": scores, **(extra or {})}


def attack_matching(scene):
    points = scene.attacked_points()
    variants = {"nearest": nearest_assignment(scene, points), "soft": soft_shares(scene, points)}
    if one_location_per_pin(scene):
        rows, cols, dist = ring_pairs(scene)
        if len(rows) <= scene.args.max_pairs:
            m = Matching(scene, rows, cols, dist + 1.0)
            variants["min-cost"], variants["pruned"] = m.point_guesses(scene, points)
        variants["balanced"] = pair_guesses(scene, points, rows, cols, balanced(scene, rows, cols, np.ones(len(rows))))
    return best_of(scene, variants)


# --- 3. simulation ----------------------------------------------------------------------------

def write_registry_listings(reg, path):
    """The registry as a listing file: listing i is location i, at its true position."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(reg.header)
        w.writerows(reg.row(i, reg.keys[i], reg.lon[i], reg.lat[i]) for i in range(len(reg)))


def simulate(scene):
    """Displayed offsets (east, north metres) of every registry location in each of --sim-keys
    runs of the rule with the attacker's own keys and mask files (NaN: not published)."""
    args, reg, wd = scene.args, scene.reg, scene.workdir
    listings = os.path.join(wd, "registry.csv")
    write_registry_listings(reg, listings)
    sims = np.full((args.sim_keys, len(reg), 2), np.nan)
    for k in range(args.sim_keys):
        key, mask, out = (os.path.join(wd, f"sim{k}.{x}") for x in ("key", "mask", "geojson"))
        subprocess.run([args.geocluster, "pins-key", "-o", key, "--force"], check=True, capture_output=True)
        done = run_pins(args, listings, key, mask, out)
        if done.returncode != 0:
            sys.exit(f"simulation run {k} failed: {done.stderr.strip()[-500:]}")
        pub = Publication(out)
        for p, leaves in enumerate(pub.leaves):
            locs = np.array([int(l) for l in leaves], dtype=np.intp)
            sims[k, locs] = reg.offsets(locs, pub.lon[p], pub.lat[p])
    return sims


def likelihood(sims, cols, offs, bandwidth, floor, chunk=200_000):
    """Kernel density of offsets `offs` (displayed - candidate) among each candidate's simulated offsets."""
    out = np.empty(len(cols))
    for s in range(0, len(cols), chunk):
        c, o = cols[s:s + chunk], offs[s:s + chunk]
        sq = ((o[None] - sims[:, c]) ** 2).sum(axis=2)
        with np.errstate(invalid="ignore"):
            k = np.exp(-sq / (2 * bandwidth ** 2))
        seen = np.sum(~np.isnan(sq), axis=0)
        out[s:s + chunk] = np.nansum(k, axis=0) / np.maximum(seen, 1) / (2 * math.pi * bandwidth ** 2)
    return out + floor


def attack_simulation(scene):
    args, reg, pub, rule = scene.args, scene.reg, scene.pub, scene.rule
    sims = simulate(scene)
    floor = args.sim_floor / (math.pi * rule.radius ** 2)
    points = scene.attacked_points()
    weighted = {}
    for p in points:
        idx, offs = scene.ring(p)[:2]
        w = likelihood(sims, idx, offs, args.bandwidth, floor)
        weighted[p] = int(idx[fullest(offs, w)]) if len(idx) else -1
    variants = {"kde": weighted}
    if one_location_per_pin(scene):
        rows, cols, _ = ring_pairs(scene)
        w = likelihood(sims, cols, reg.offsets(cols, pub.lon[rows], pub.lat[rows]), args.bandwidth, floor)
        if len(rows) <= args.max_pairs:
            cost = -np.log(w)
            m = Matching(scene, rows, cols, cost - cost.min() + 1.0)
            variants["kde+min-cost"], variants["kde+pruned"] = m.point_guesses(scene, points, w)
        variants["kde+balanced"] = pair_guesses(scene, points, rows, cols, balanced(scene, rows, cols, w))
    return best_of(scene, variants, {"keys": args.sim_keys, "bandwidth_m": args.bandwidth})


# --- 4. sybil ---------------------------------------------------------------------------------

def disjoint_batches(targets, cands):
    """Targets grouped so that no two of a group share a candidate."""
    batches, used = [], []
    for t in targets:
        for b, u in zip(batches, used):
            if not u.intersection(cands[t]):
                b.append(t); u.update(cands[t])
                break
        else:
            batches.append([t]); used.append(set(cands[t]))
    return batches


def attack_sybil(scene):
    args, reg = scene.args, scene.reg
    targets = scene.targets(args.sybil_targets, 1)
    cands = {}
    for t in targets:
        idx, _, dist = scene.ring(scene.where[t])[:3]
        cands[t] = idx[np.argsort(dist, kind="stable")[:args.sybil_budget]].tolist()
    batches = disjoint_batches(targets, cands)
    shown_at, next_id = {}, reg.next_id  # probed location -> the deployment's point its probe joined
    for b, batch in enumerate(batches):
        probes, probe_of = [], {}
        for t in batch:
            for c in cands[t]:
                probes.append((next_id, reg.keys[c], reg.lon[c], reg.lat[c]))
                probe_of[str(next_id)] = c
                next_id += 1
        rc, out = republish(scene, probes, f"sybil{b}")
        if rc != 0:
            sys.exit(f"sybil republication {b} failed (exit {rc})")
        for pid, c in probe_of.items():
            shown_at[c] = deployment_point(scene, out, out.point_of.get(pid))
    guess = [sybil_guess(scene, t, shown_at) for t in targets]
    result = score(reg, targets, np.array(guess, dtype=np.intp))
    return result, {"republications": len(batches), "budget": args.sybil_budget,
                    "probes": int(sum(len(cands[t]) for t in targets))}


def deployment_point(scene, out, feature):
    """The deployment's point shown by a republication's pin (through a listing of both; -1 if none)."""
    for l in ([] if feature is None else out.leaves[feature]):
        if l in scene.pub.point_of:
            return scene.pub.point_of[l]
    return -1


def sybil_guess(scene, t, shown_at):
    """The fullest spot of the probed candidates shown at the target's point; when none is, of the
    ring candidates not shown elsewhere."""
    p = scene.where[t]
    idx = scene.ring(p)[0]
    hits = [c for c in idx if shown_at.get(c) == p]
    return scene.guess_among(p, hits or [c for c in idx if c not in shown_at])


def attack_groups(scene):
    """The Sybil prober told every point's set of registry locations (its ceiling)."""
    members = defaultdict(list)
    for loc in np.flatnonzero(scene.where >= 0):
        members[int(scene.where[loc])].append(int(loc))
    guess = {p: scene.guess_among(p, members[p]) for p in scene.attacked_points()}
    return score(scene.reg, scene.attacked, scene.by_location(scene.attacked, guess)), {}


# --- 5. oracle --------------------------------------------------------------------------------

def choose_probe(offs, radius):
    """The survivor at which a probe of the model's radius tells the most: covering as close to
    half the survivors as it can (the most it can, while under half); None once the fullest 30 m
    spot holds them all."""
    if len(offs) == 0 or spot_mass(offs).max() >= len(offs):
        return None
    cover = spot_mass(offs, spot=radius)
    value = np.minimum(cover, len(offs) - cover)
    best = np.flatnonzero(value == value.max())
    best = best[cover[best] == cover[best].max()]
    return best[np.argmin((offs[best] ** 2).sum(axis=1))]


CALIBRATION = (0.3, 0.45, 0.48, 0.52, 0.55, 0.7, 0.85, 0.95, 0.98, 1.02, 1.05, 1.3)  # times T


def calibrate_oracle(scene, base, next_id, per=4):
    """The check's refusal radius, measured: one republication with probes at buildings whose id
    and position the attacker knows (the registry's), `per` of them at each distance of
    CALIBRATION x T; the radius is midway between the last distance most of whose probes pass
    and the next."""
    reg, T = scene.reg, scene.args.location_tolerance
    pool = np.flatnonzero((scene.where >= 0) & (scene.pub.count[np.maximum(scene.where, 0)] >= 2))
    rng = np.random.default_rng(scene.args.seed + 3)
    chosen = rng.choice(pool, min(len(pool), per * len(CALIBRATION)), replace=False)
    probes, asked = [], []
    for i, c in enumerate(chosen):
        r, a = CALIBRATION[i % len(CALIBRATION)] * T, rng.uniform(0, 2 * math.pi)
        probes.append((next_id + i, reg.keys[c], reg.lon[c] + r * math.sin(a) / reg.m_lon[c],
                       reg.lat[c] + r * math.cos(a) / reg.m_lat[c]))
        asked.append((i % len(CALIBRATION), c, str(next_id + i)))
    rc, out = republish(scene, probes, "oracle-calibration", ["--skip-bad-rows"])
    if rc != 0:
        return T / 2
    passed = np.zeros(len(CALIBRATION))
    for f, c, pid in asked:
        passed[f] += not refused(scene, base, out, c, pid)
    tried = np.bincount([f for f, _, _ in asked], minlength=len(CALIBRATION))
    fails = np.flatnonzero(passed <= tried / 2)
    if len(fails) == 0:
        return CALIBRATION[-1] * T
    first = fails[0]
    return (CALIBRATION[first] + (CALIBRATION[first - 1] if first else 0)) / 2 * T


class OracleTarget:
    """One target's survivors (registry indices) and the model's refusal radius (a one-listing
    building: at least T, its median being the midpoint of the probe and its listing)."""

    def __init__(self, scene, t, radius):
        self.t, self.p = t, scene.where[t]
        self.alive = scene.ring(self.p)[0].copy()
        T = scene.args.location_tolerance
        self.radius = max(radius, T) if scene.pub.count[self.p] == 1 else radius

    def guess(self, scene):
        return scene.guess_among(self.p, self.alive)

    def observe(self, reg, at, refused, margin=0.5):
        """Keep the survivors consistent with a probe at location `at` being refused or not."""
        d = reg.gap(self.alive, np.full(len(self.alive), at))
        keep = d > self.radius - margin if refused else d <= self.radius + margin
        self.alive = self.alive[keep]


def refused(scene, base, out, t, pid):
    """Whether the republication shows the target's building refused (or changed) by its probe."""
    ref = scene.reference[t]
    if ref not in out.point_of or pid not in out.point_of or out.point_of[pid] != out.point_of[ref]:
        return True
    p0, p1 = base.point_of[ref], out.point_of[ref]
    return abs(base.lon[p0] - out.lon[p1]) > 1e-9 or abs(base.lat[p0] - out.lat[p1]) > 1e-9


def attack_oracle(scene):
    args, reg = scene.args, scene.reg
    rc, base = republish(scene, [], "oracle-base", ["--skip-bad-rows"])
    if rc != 0:
        sys.exit(f"oracle baseline republication failed (exit {rc})")
    radius = args.oracle_radius or calibrate_oracle(scene, base, reg.next_id)
    states = [OracleTarget(scene, t, radius) for t in scene.targets(args.oracle_targets, 2, True)]
    targets = np.array([s.t for s in states], dtype=np.intp)
    success = lambda: score(reg, targets, np.array([s.guess(scene) for s in states], dtype=np.intp))
    rounds, removed, failed, next_id = [success()["within_30m"]], 0, None, reg.next_id + 1000
    for r in range(args.oracle_probes):
        rc, gone, next_id = oracle_round(scene, base, states, f"oracle{r}", next_id)
        if rc:
            failed = rc
        if rc or gone is None:
            break
        removed += gone
        rounds.append(success()["within_30m"])
    return success(), {"probes": args.oracle_probes, "refusal_radius_m": radius, "within_30m_by_round": rounds,
                       "listings_of_others_removed": removed, "failed_with_skip": failed,
                       "one_probe_exit_without_skip": stop_probe(scene, states, next_id)}


def oracle_round(scene, base, states, name, next_id):
    """One republication with a probe for every target still unresolved, and the observations:
    (exit code, listings besides the probes that vanished (None: no probe left), next id)."""
    reg, probes, asked = scene.reg, [], []
    for s in states:
        j = choose_probe(reg.offsets(s.alive, scene.pub.lon[s.p], scene.pub.lat[s.p]), s.radius)
        if j is not None:
            at = int(s.alive[j])
            probes.append((next_id, reg.keys[s.t], reg.lon[at], reg.lat[at]))
            asked.append((s, at, str(next_id)))
            next_id += 1
    if not probes:
        return 0, None, next_id
    rc, out = republish(scene, probes, name, ["--skip-bad-rows"])
    if rc:
        return rc, None, next_id
    probe_ids = {pid for _, _, pid in asked}
    gone = sum(1 for l in base.point_of if l not in out.point_of and l not in probe_ids)
    for s, at, pid in asked:
        s.observe(reg, at, refused(scene, base, out, s.t, pid))
    return 0, gone, next_id


def stop_probe(scene, states, probe_id):
    """The exit code of a publication run without --skip-bad-rows holding one probe: the first
    target's building id, beyond the public radius + T north of its displayed point (so surely
    inconsistent)."""
    if not states:
        return None
    s, reg = states[0], scene.reg
    north = (scene.rule.radius + 2 * scene.args.location_tolerance) / metres_per_degree(scene.pub.lat[s.p])[0]
    rc, _ = republish(scene, [(probe_id, reg.keys[s.t], scene.pub.lon[s.p], scene.pub.lat[s.p] + north)], "oracle-stop")
    return rc


# --- 6. lostmask ------------------------------------------------------------------------------

def added_listings(reg, other, n, seed):
    """n seeded rows of another listing file `other` as new listings of the registry's columns:
    ids from reg.next_id up, building ids added-0, added-1, ..., the other file's positions and
    attributes (a column it lacks: the registry's first row's value)."""
    with open(other, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        col = {name: i for i, name in enumerate(next(reader))}
        rows = list(reader)
    pick = np.sort(np.random.default_rng(seed).choice(len(rows), min(n, len(rows)), replace=False))
    added = []
    for i, r in enumerate(pick):
        row = [rows[r][col[name]] if name in col else v for name, v in zip(reg.header, reg.template)]
        row[reg.header.index(reg.id_column)] = str(reg.next_id + i)
        if reg.location_column in reg.header:
            row[reg.header.index(reg.location_column)] = f"added-{i}"
        added.append(row)
    return added


def point_gap(pub_a, a, pub_b, b):
    """Metres between points a of pub_a and b of pub_b (east/north at a's latitude)."""
    north, east = metres_per_degree(pub_a.lat[a])
    dl = (pub_b.lon[b] - pub_a.lon[a] + 180) % 360 - 180
    return np.hypot(dl * east, (pub_b.lat[b] - pub_a.lat[a]) * north)


def lens_guess(rule, reg, a, b):
    """The fullest spot (seen from a) of the registry locations within the public ring of both
    points a and b, each (lon, lat, slack); of a's alone when none is (-1: no candidate). Also
    the candidates' counts: a's ring, both rings."""
    in_a = rule.ring(reg, *a)[0]
    both = np.intersect1d(in_a, rule.ring(reg, *b)[0])
    cand = both if len(both) else in_a
    return (int(cand[fullest(reg.offsets(cand, a[0], a[1]))]) if len(cand) else -1), len(in_a), len(both)


def publish(scene, listings, mask, name):
    """One publication of `listings` with the deployment's key (mask None: no mask file)."""
    out = os.path.join(scene.workdir, f"{name}.geojson")
    done = run_pins(scene.args, listings, scene.key, mask, out)
    if done.returncode != 0:
        sys.exit(f"lostmask publication {name} failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return Publication(out)


def lostmask_listings(scene):
    """The input plus --lost-mask-added listings at new buildings, taken from another generated
    city (seed --seed + 1000): the listing file of publication B and its registry."""
    args, wd = scene.args, scene.workdir
    other, path = os.path.join(wd, "lostmask-other.csv"), os.path.join(wd, "lostmask-b.csv")
    subprocess.run([args.geocluster, "generate", "--count", str(max(20000, args.lost_mask_added)),
                    "--seed", str(args.seed + 1000), "-o", other], check=True, capture_output=True)
    extend_listings(scene.reg, added_listings(scene.reg, other, args.lost_mask_added, args.seed + 4), path)
    return path, Registry(path, args.location_column, args.id_column)


def attack_lostmask(scene):
    args, reg, rule = scene.args, scene.reg, scene.rule
    path_b, reg_b = lostmask_listings(scene)
    a = Scene(args, reg, rule, publish(scene, reg.path, None, "lostmask-a"), scene.workdir, scene.key, None)
    pub_b = publish(scene, path_b, None, "lostmask-b")
    index_b = {k: i for i, k in enumerate(reg_b.keys)}
    to_b = np.array([index_b[k] for k in reg.keys], dtype=np.intp)
    t, pa = a.attacked, a.where[a.attacked]
    pb = pub_b.locate(reg_b)[1][to_b[t]]
    move = np.where(pb >= 0, point_gap(a.pub, pa, pub_b, np.maximum(pb, 0)), 0.0)
    moved = move > 0.01
    ring = np.array([a.ring_guess(p) for p in pa], dtype=np.intp)
    before = np.where(ring >= 0, to_b[np.maximum(ring, 0)], -1)
    lens = {}
    for p, q in set(zip(pa[moved].tolist(), pb[moved].tolist())):
        lens[p, q] = lens_guess(rule, reg_b, (a.pub.lon[p], a.pub.lat[p], a.pub.slack[p]),
                                (pub_b.lon[q], pub_b.lat[q], pub_b.slack[q]))
    seen = np.array([lens[p, q] for p, q in zip(pa[moved].tolist(), pb[moved].tolist())], dtype=np.intp).reshape(-1, 3)
    after = before.copy()
    after[moved] = seen[:, 0]
    tb = to_b[t]
    return score(reg_b, tb, after), {
        "added": args.lost_mask_added, "moved": int(moved.sum()), "moved_pct": 100 * float(np.mean(moved)) if len(t) else 0.0,
        "largest_move_m": float(move.max()) if len(t) else 0.0, "not_shown_in_b": int(np.sum(pb < 0)),
        "moved_within_30m_ring_a": score(reg_b, tb[moved], before[moved])["within_30m"],
        "moved_within_30m_lens": score(reg_b, tb[moved], after[moved])["within_30m"],
        "within_30m_ring_a": score(reg_b, tb, before)["within_30m"],
        "moved_candidates_median": [float(np.median(seen[:, 1])), float(np.median(seen[:, 2]))] if len(seen) else None,
        "points_a_unlike_deployment": unlike(a.pub, pa, scene.pub, scene.where[t]),
        "moved_with_mask_file": lostmask_control(scene, t, path_b, reg_b, to_b)}


def lostmask_control(scene, t, path_b, reg_b, to_b):
    """The normal deployment: the attacked locations whose point moved from the deployment's
    publication (A with a fresh mask file) to B published with a copy of that mask file."""
    mask = os.path.join(scene.workdir, "lostmask-control.mask")
    shutil.copyfile(scene.mask, mask)
    os.chmod(mask, 0o600)
    pub_c = publish(scene, path_b, mask, "lostmask-control")
    return unlike(scene.pub, scene.where[t], pub_c, pub_c.locate(reg_b)[1][to_b[t]])


def unlike(pub_a, pa, pub_b, pb):
    """How many locations shown at points pa of pub_a and pb of pub_b (-1: not shown) are shown in
    both at points more than 1 cm apart."""
    both = (pa >= 0) & (pb >= 0)
    return int(np.sum(point_gap(pub_a, pa[both], pub_b, pb[both]) > 0.01))


# --- Report -----------------------------------------------------------------------------------

def displacement(scene):
    """Published point to true position, metres, over every published location; and the share
    of points holding exactly one location."""
    reg, pub = scene.reg, scene.pub
    locs = np.flatnonzero(scene.where >= 0)
    d = np.hypot(*reg.offsets(locs, pub.lon[scene.where[locs]], pub.lat[scene.where[locs]]).T)
    one = np.mean([len(h) == 1 for h in scene.holds]) if len(scene.holds) else math.nan
    return {"points": len(pub), "published_locations": int(len(locs)), "single_location_points_pct": 100 * float(one),
            "displacement_median_m": float(np.median(d)), "displacement_p90_m": float(np.percentile(d, 90))}


def line(name, result, extra, seconds):
    med = result["median_error_m"]
    text = (f"{name:<11} {result['locations']:>6} locations attacked  within 10 m {result['within_10m']:5.1f} %  "
            f"within 30 m {result['within_30m']:5.1f} %  median error {'inf' if med is None else f'{med:.0f}'} m")
    notes = [f"exact {result['exact']}/{result['locations']}"]
    if "variant" in extra:
        notes.append("best of " + ", ".join(f"{k} {v['within_30m']:.1f} %" for k, v in extra["variants"].items()))
    if "republications" in extra:
        notes.append(f"{extra['republications']} republications, {extra['probes']} probes")
    if "within_30m_by_round" in extra:
        notes.append(f"refusal radius {extra['refusal_radius_m']:.1f} m; 30 m by round "
                     + " -> ".join(f"{x:.1f} %" for x in extra["within_30m_by_round"]))
        notes.append(f"denial: probes removed {extra['listings_of_others_removed']} listings besides themselves, "
                     f"one probe without --skip-bad-rows: exit {extra['one_probe_exit_without_skip']}")
        if extra["failed_with_skip"] is not None:
            notes.append(f"a republication with --skip-bad-rows failed: exit {extra['failed_with_skip']}")
    if "moved_with_mask_file" in extra:
        notes.append(f"{extra['added']} listings added: moved {extra['moved']}/{result['locations']} "
                     f"({extra['moved_pct']:.1f} %), largest move {extra['largest_move_m']:.0f} m, "
                     f"{extra['not_shown_in_b']} not shown in B")
        notes.append(f"moved within 30 m: ring on A {extra['moved_within_30m_ring_a']:.1f} % -> intersected "
                     f"{extra['moved_within_30m_lens']:.1f} %; all: ring on A {extra['within_30m_ring_a']:.1f} %")
        if extra["moved_candidates_median"]:
            notes.append("moved ones' candidates, median: A's ring {:.0f} -> both rings {:.0f}".format(*extra["moved_candidates_median"]))
        notes.append(f"with a mask file: moved {extra['moved_with_mask_file']}; "
                     f"A unlike the deployment: {extra['points_a_unlike_deployment']}")
    return f"{text}  [{'; '.join(notes)}; {seconds:.1f} s]"


RUN = {"ring": attack_ring, "matching": attack_matching, "simulation": attack_simulation,
       "sybil": attack_sybil, "groups": attack_groups, "oracle": attack_oracle, "lostmask": attack_lostmask}


def public_rule(args):
    k = args.min_anonymity or 0
    min_offset = args.min_offset if args.min_offset is not None else (30.0 if k else 0.0)
    radius = args.public_radius or (args.anonymity_cap if k else 1500.0)
    return Rule(min_offset, radius, args.max_offset, k, args.anonymity_cap, args.anonymity_spot)


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("listings")
    ap.add_argument("--geocluster", required=True, help="the geocluster binary")
    ap.add_argument("--key-file", required=True, help="the deployment's key")
    ap.add_argument("--attackers", default=",".join(ATTACKERS))
    ap.add_argument("--pins-args", default="", help="extra `pins` arguments, one string (shlex-split)")
    ap.add_argument("--public-radius", type=float, help="farthest published point from a location's truth, m (default 1500; the cap under --min-anonymity)")
    ap.add_argument("--min-offset", type=float, help="nearest, m (default 0; 30 under --min-anonymity)")
    ap.add_argument("--min-anonymity", type=int, help="the ring rule's K (the pins before shared points)")
    ap.add_argument("--max-offset", type=float, default=80, help="the ring rule's first ring, m")
    ap.add_argument("--anonymity-cap", type=float, default=1500, help="the ring rule's cap, m")
    ap.add_argument("--anonymity-spot", type=float, default=30, help="the ring rule's spot radius, m")
    ap.add_argument("--pins-hold", choices=("auto", "one", "several"), default="auto",
                    help="whether a building/listing pin holds one location (auto: inferred from the counts)")
    ap.add_argument("--location-column", default="building_id")
    ap.add_argument("--id-column", default="id")
    ap.add_argument("--sample", type=int, default=20000, help="attack at most this many locations (seeded sample)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-pairs", type=int, default=8_000_000,
                    help="matching: above this many (point, candidate) pairs, no min-cost and pruned variants (LAPJVsp)")
    ap.add_argument("--sim-keys", type=int, default=20, help="simulation: runs with keys of its own")
    ap.add_argument("--bandwidth", type=float, default=15, help="simulation: kernel bandwidth, m")
    ap.add_argument("--sim-floor", type=float, default=0.01, help="simulation: floor, as a share of the uniform density over the public disc")
    ap.add_argument("--sybil-targets", type=int, default=300)
    ap.add_argument("--sybil-budget", type=int, default=50, help="sybil: listings posted per target")
    ap.add_argument("--oracle-targets", type=int, default=300)
    ap.add_argument("--oracle-probes", type=int, default=4, help="oracle: republications (one probe per target each)")
    ap.add_argument("--location-tolerance", type=float, default=30, help="oracle: the tool's tolerance T, m")
    ap.add_argument("--oracle-radius", type=float, help="oracle: the check's refusal radius, m (default: measured)")
    ap.add_argument("--lost-mask-added", type=int, default=400, help="lostmask: listings at new buildings in publication B")
    ap.add_argument("--workdir", help="keep the runs' files here (default: a temporary directory)")
    ap.add_argument("--json", action="store_true", help="end with one JSON line of every number")
    argv, fixed = list(sys.argv[1:] if argv is None else argv), []
    while argv:  # --pins-args takes the next word whatever it is (--pins-args --weak-plain-mask)
        word = argv.pop(0)
        fixed.append(f"{word}={argv.pop(0)}" if word == "--pins-args" and argv else word)
    args = ap.parse_args(fixed)
    unknown = set(args.attackers.split(",")) - set(ATTACKERS)
    if unknown:
        ap.error(f"unknown attackers: {', '.join(sorted(unknown))}")
    return args


def main(argv=None):
    args = parse_args(argv)
    rule = public_rule(args)
    reg = Registry(args.listings, args.location_column, args.id_column)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        mask, out = os.path.join(workdir, "deploy.mask"), os.path.join(workdir, "deploy.geojson")
        if os.path.exists(mask):
            os.remove(mask)
        done = run_pins(args, args.listings, args.key_file, mask, out)
        if done.returncode != 0:
            sys.exit(f"the publication failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
        scene = Scene(args, reg, rule, Publication(out), workdir, args.key_file, mask)
        report = {"listings": args.listings, "pins_args": args.pins_args, "rule": str(rule),
                  "registry_locations": len(reg), **displacement(scene), "attackers": {}}
        print(f"{args.listings}: {len(reg)} locations in the registry, {report['points']} published points "
              f"({report['single_location_points_pct']:.1f} % hold one location), {len(scene.attacked)} locations attacked; "
              f"{rule}; pins {args.pins_args or '(default)'}")
        print(f"displacement: median {report['displacement_median_m']:.0f} m, 90th percentile {report['displacement_p90_m']:.0f} m")
        for name in args.attackers.split(","):
            start = time.time()
            result, extra = RUN[name](scene)
            seconds = time.time() - start
            print(line(name, result, extra, seconds), flush=True)
            report["attackers"][name] = {**result, **extra, "seconds": round(seconds, 1)}
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    sys.exit(main())
