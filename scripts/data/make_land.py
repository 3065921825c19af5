"""Generate Sources/Reports/LandData.swift: world land polygons for SVG basemaps.

Source: Natural Earth 1:110m Admin 0 Countries (v5.1), as shipped inside the
geopandas 0.14.4 wheel on PyPI (geopandas/datasets/naturalearth_lowres). No PyPI
package found ships ne_110m_land itself, so the 177 countries are dissolved into
land (127 polygons, the Caspian Sea their one hole). Then: clip to Web Mercator
latitudes [-85.05, 85.05] (this cuts a second piece off Antarctica, and draws
its south edge straight), drop rings under 0.05 deg^2, simplify with
Douglas-Peucker (0.1 deg, topology kept so small islands stay), snap to a
0.01 deg grid, and encode every ring into one Swift string literal.

Licence of the data: Natural Earth is public domain (naturalearthdata.com).

Run from the repository root:
    .build/python-venv/bin/pip install -r scripts/data/requirements.txt
    .build/python-venv/bin/python scripts/data/make_land.py          # writes the file
    .build/python-venv/bin/python scripts/data/make_land.py --check  # verifies it

Requirements (pinned, see requirements.txt): pyshp==3.1.6, shapely==2.2.0.

Encoding of `LandData.encoded`: rings separated by "|". A ring is its vertices
(closed implicitly, first vertex not repeated), each as two integers lon*100
then lat*100; the first vertex absolute, every later one as the delta from the
previous vertex. Each integer v is zigzagged (z = 2v if v >= 0 else -2v - 1),
split into 5-bit groups, least significant first; every group but the last gets
0x20 added, and each group (0..63) is written as the character at that index of
the base64url alphabet A-Z a-z 0-9 - _. Rings are ordered by polygon area
(largest first), each exterior followed by its holes. Exteriors are
counter-clockwise and holes clockwise in lon/lat; draw with fill-rule="evenodd".
"""

import hashlib
import io
import pathlib
import sys
import urllib.request
import zipfile

import shapefile
import shapely
from shapely.geometry import box, shape
from shapely.geometry.polygon import orient

PACKAGE = "geopandas==0.14.4"
WHEEL = "geopandas-0.14.4-py3-none-any.whl"
URL = ("https://files.pythonhosted.org/packages/3e/b0/"
       "69fa7a0f55122847506a42fea6988d03b34136938082f142151bc9d9f7e7/" + WHEEL)
SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
LAYER = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
NE_LAYER = "1:110m Admin 0 Countries v5.1 dissolved to land"

ROOT = pathlib.Path(__file__).resolve().parents[2]
CACHE = ROOT / ".build" / "data" / WHEEL
OUTPUT = ROOT / "Sources" / "Reports" / "LandData.swift"

MAX_LAT = 85.05
TOLERANCE = 0.1  # degrees, Douglas-Peucker
GRID = 0.01  # degrees, quantization step
MIN_AREA = 0.05  # deg^2, smaller rings are dropped
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
DELIMITER = "|"


def fetch_wheel():
    """Return the pinned wheel's bytes, downloading it into the cache if needed."""
    if CACHE.exists() and hashlib.sha256(CACHE.read_bytes()).hexdigest() == SHA256:
        return CACHE.read_bytes()
    with urllib.request.urlopen(URL, timeout=120) as response:
        data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        sys.exit(f"sha256 mismatch for {URL}: got {digest}, want {SHA256}")
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    CACHE.write_bytes(data)
    return data


def read_countries(wheel):
    """Read the country polygons of the shapefile layer inside the wheel."""
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        part = {ext: io.BytesIO(archive.read(f"{LAYER}.{ext}")) for ext in ("shp", "shx", "dbf")}
    with shapefile.Reader(**part) as reader:
        return [shape(s.__geo_interface__) for s in reader.shapes()]


def dissolve(countries):
    """Union the countries into land, clipped to Web Mercator latitudes."""
    land = shapely.union_all([shapely.make_valid(c) for c in countries])
    return land.intersection(box(-180, -MAX_LAT, 180, MAX_LAT))


def drop_small(land):
    """Polygons and holes of at least MIN_AREA, measured before simplifying."""
    polygons = []
    for polygon in land.geoms:
        if polygon.area >= MIN_AREA:
            holes = [h for h in polygon.interiors if shapely.Polygon(h).area >= MIN_AREA]
            polygons.append(shapely.Polygon(polygon.exterior, holes))
    return shapely.MultiPolygon(polygons)


def simplify(land):
    """Simplify and snap to the grid; return polygons oriented and sorted by area."""
    snapped = shapely.set_precision(land.simplify(TOLERANCE, preserve_topology=True), GRID)
    polygons = [orient(p, sign=1.0) for p in snapped.geoms]
    return sorted(polygons, key=lambda p: (-p.area, p.exterior.coords[0]))


def rings_of(polygons):
    """Quantized integer rings (exterior, then holes by area), last vertex dropped."""
    rings = []
    for polygon in polygons:
        holes = sorted(polygon.interiors, key=lambda h: -shapely.Polygon(h).area)
        for ring in [polygon.exterior, *holes]:
            rings.append([(round(x / GRID), round(y / GRID)) for x, y in ring.coords[:-1]])
    return rings


def encode_int(value):
    """Zigzag, then 5-bit groups (low first, 0x20 = more follow) as base64url chars."""
    z = 2 * value if value >= 0 else -2 * value - 1
    out = []
    while z >= 0x20:
        out.append(ALPHABET[0x20 | (z & 0x1F)])
        z >>= 5
    out.append(ALPHABET[z])
    return "".join(out)


def encode_ring(ring):
    """First vertex absolute, then deltas; lon before lat."""
    out, prev = [], (0, 0)
    for x, y in ring:
        out.append(encode_int(x - prev[0]) + encode_int(y - prev[1]))
        prev = (x, y)
    return "".join(out)


def decode(encoded):
    """Inverse of the encoding: a list of rings of (lon, lat) integer pairs."""
    rings = []
    for text in encoded.split(DELIMITER):
        values, z, shift = [], 0, 0
        for char in text:
            group = ALPHABET.index(char)
            z |= (group & 0x1F) << shift
            shift += 5
            if group < 0x20:
                values.append(z >> 1 if z % 2 == 0 else -(z + 1) // 2)
                z, shift = 0, 0
        ring, x, y = [], 0, 0
        for dx, dy in zip(values[0::2], values[1::2]):
            x, y = x + dx, y + dy
            ring.append((x, y))
        rings.append(ring)
    return rings


def swift_source(rings):
    """The whole LandData.swift text."""
    encoded = DELIMITER.join(encode_ring(r) for r in rings)
    vertices = sum(len(r) for r in rings)
    return (
        f"// Generated by scripts/data/make_land.py from {PACKAGE}, {WHEEL}:{LAYER}.shp, "
        f"Natural Earth {NE_LAYER}, public domain. Do not edit.\n"
        "enum LandData {\n"
        "    /// Land rings, encoded: see `LandLayer` for the format.\n"
        f"    /// {len(rings)} rings, {vertices} vertices; draw with fill-rule=\"evenodd\".\n"
        f'    static let encoded = "{encoded}"\n'
        "}\n"
    )


def signed_area(ring):
    """Shoelace area in deg^2 of an integer ring (positive if counter-clockwise)."""
    twice = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))
    return twice / 2 * GRID * GRID


def check(land, polygons, text):
    """Decode the Swift file and compare it with the geometry; return problems."""
    if not OUTPUT.exists() or OUTPUT.read_text() != text:
        return [f"{OUTPUT} differs from a fresh run: regenerate it"]
    encoded = text.split('static let encoded = "')[1].split('"')[0]
    decoded = decode(encoded)
    problems = []
    want = sum(len(r) for r in rings_of(polygons))
    got = sum(len(r) for r in decoded)
    if got != want:
        problems.append(f"vertex count {got} != {want}")
    area = sum(signed_area(r) for r in decoded)
    exact = sum(p.area for p in polygons)
    if abs(area - exact) > 1e-6 * exact:
        problems.append(f"area {area:.4f} != snapped geometry {exact:.4f}")
    unsnapped = land.simplify(TOLERANCE, preserve_topology=True)
    bound = unsnapped.boundary.length * GRID * 0.71
    if abs(area - unsnapped.area) > bound:
        problems.append(f"area {area:.2f} vs unsnapped {unsnapped.area:.2f} over {bound:.2f}")
    print(f"decoded {len(decoded)} rings, {got} vertices, area {area:.2f} deg^2 "
          f"(snapped {exact:.2f}, unsnapped {unsnapped.area:.2f})")
    return problems


def main(argv):
    land = drop_small(dissolve(read_countries(fetch_wheel())))
    polygons = simplify(land)
    text = swift_source(rings_of(polygons))
    if "--check" in argv:
        problems = check(land, polygons, text)
        print("\n".join(problems) or "LandData.swift OK")
        return 1 if problems else 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
