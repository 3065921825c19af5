#!/usr/bin/env python3
"""Writes datasets/seoul-sample.csv: 5,000 synthetic listings around Seoul for `make demo`.

Apartment complexes are Gaussian blobs (sigma 30-400 m, heavy-tailed sizes) whose units share
their building's exact coordinates; officetels lie along straight road segments with 20-50 m
jitter; villas and one-rooms are scattered uniformly (truth -1). Deterministic: numpy's PCG64
seeded with 20261121. Regenerate with:  python3 scripts/make_sample.py
(The seeded Swift generator of `geocluster generate` will supersede this script.)
"""
import numpy as np

SEED = 20261121
N = 5000
LAT0, LAT1, LON0, LON1 = 37.41, 37.70, 126.76, 127.18
M_PER_DEG_LAT = 111_320.0
M_PER_DEG_LON = 111_320.0 * np.cos(np.radians(37.55))

rng = np.random.default_rng(SEED)
rows = []

def add(lat, lon, category, truth):
    rows.append((lat, lon, category, truth))

n_noise = N // 4
n_strip = N // 8
n_apartment = N - n_noise - n_strip

# Apartment complexes: Pareto-distributed sizes, each complex a set of buildings.
sizes = np.maximum(15, (rng.pareto(1.5, 60) + 1) * 25).astype(int)
sizes = (sizes * n_apartment / sizes.sum()).astype(int)
sizes[0] += n_apartment - sizes.sum()
for c, size in enumerate(sizes):
    clat = rng.uniform(LAT0 + 0.02, LAT1 - 0.02)
    clon = rng.uniform(LON0 + 0.02, LON1 - 0.02)
    sigma = rng.uniform(30, 400)
    made = 0
    while made < size:
        units = min(size - made, int(rng.integers(1, 12)))
        dx, dy = rng.normal(0, sigma, 2)
        blat, blon = clat + dy / M_PER_DEG_LAT, clon + dx / M_PER_DEG_LON
        for _ in range(units):
            add(blat, blon, "apartment", c)
        made += units

# Officetel strips along road segments 1-3 km long.
n_strips = 6
per = n_strip // n_strips
for s in range(n_strips):
    lat_a, lon_a = rng.uniform(LAT0 + 0.03, LAT1 - 0.03), rng.uniform(LON0 + 0.03, LON1 - 0.03)
    length, angle, jitter = rng.uniform(1000, 3000), rng.uniform(0, np.pi), rng.uniform(20, 50)
    count = per if s < n_strips - 1 else n_strip - per * (n_strips - 1)
    for t in rng.uniform(0, length, count):
        ex, ny = t * np.cos(angle) + rng.normal(0, jitter), t * np.sin(angle) + rng.normal(0, jitter)
        add(lat_a + ny / M_PER_DEG_LAT, lon_a + ex / M_PER_DEG_LON, "officetel", len(sizes) + s)

# Villas and one-rooms scattered over the city: background, truth -1.
for _ in range(n_noise):
    add(rng.uniform(LAT0, LAT1), rng.uniform(LON0, LON1), str(rng.choice(["villa", "one-room"])), -1)

order = rng.permutation(len(rows))
with open("datasets/seoul-sample.csv", "w") as f:
    f.write("id,lat,lon,category,truth\n")
    for i, k in enumerate(order):
        lat, lon, cat, truth = rows[k]
        f.write(f"L{i:05d},{lat:.6f},{lon:.6f},{cat},{truth}\n")
print(f"wrote datasets/seoul-sample.csv ({len(rows)} listings)")
