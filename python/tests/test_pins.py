"""geocluster_hdbscan.PinIndex against the CLI's `geocluster pins` on the same listings and key (the
same pins, counts, positions, leaves, filtered and not), its privacy (a published position is
never the true one: 30-80 m from it, the CLI's rule), its key rules and its errors."""

import csv
import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import cli

# Most indexes here are built without a mask file on purpose; the warning is tested below.
pytestmark = pytest.mark.filterwarnings("ignore:no mask file:UserWarning")

ROOT = Path(__file__).resolve().parents[2]
LISTINGS = ROOT / "datasets" / "seoul-5k.csv"


@pytest.fixture(scope="module")
def listings():
    with open(LISTINGS) as handle:
        rows = list(csv.DictReader(handle))
    number = lambda name: np.array([float(r[name]) if r[name] else np.nan for r in rows])
    return dict(ids=np.array([int(r["id"]) for r in rows]), lon=number("lon"), lat=number("lat"),
                keys=[r["building_id"] for r in rows],
                attributes={"category": [r["category"] or None for r in rows], "area_m2": number("area_m2"),
                            "deposit": number("deposit"), "monthly_rent": number("monthly_rent")})


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    """A fresh key, and the CLI's key file holding it."""
    secret = geocluster_hdbscan.PinIndex.generate_key()
    path = tmp_path_factory.mktemp("key") / "pins.key"
    path.write_text(secret.hex() + "\n")
    path.chmod(0o600)
    return secret, path


@pytest.fixture(scope="module")
def index(listings, key):
    return geocluster_hdbscan.PinIndex(listings["lon"], listings["lat"], keys=listings["keys"],
                               attributes=listings["attributes"], key=key[0], ids=listings["ids"])


def cli_pins(tmp_path, key_file, *options):
    out = tmp_path / "pins.geojson"
    subprocess.run([str(cli()), "pins", str(LISTINGS), "--key-file", str(key_file), "--leaves", "-o", str(out),
                    *options], check=True, capture_output=True)
    return json.loads(out.read_text())["features"]


def all_leaves(index, pin_id, limit=37):
    ids, cursor = [], None
    while True:
        page = index.leaves(pin_id, limit=limit, cursor=cursor)
        ids += [leaf["id"] for leaf in page["leaves"]]
        cursor = page["next"]
        if cursor is None:
            return ids


def same_pins(ours, theirs, index, filtered=None):
    """Each pin of the CLI's features has its twin among ours: same id, kind, count, expansion
    zoom, categories, listings; position, box and medians to the CLI's rounding."""
    assert len(ours) == len(theirs)
    by_id = {f["properties"]["id"]: f for f in ours}
    for feature in theirs:
        want = feature["properties"]
        got = by_id[want["id"]]["properties"]
        for name in ("kind", "count", "expansion_zoom", "same_location", "categories", "zoom"):
            assert got[name] == want[name], (name, want["id"])
        np.testing.assert_allclose(by_id[want["id"]]["geometry"]["coordinates"], feature["geometry"]["coordinates"],
                                   rtol=0, atol=6e-8)
        np.testing.assert_allclose(got["bbox"], want["bbox"], rtol=0, atol=6e-8)
        assert abs(got["diameter"] - want["diameter"]) <= 0.051
        for name in ("median_deposit", "median_monthly_rent", "deposit", "monthly_rent", "area_m2"):
            if want.get(name) is None:
                assert got.get(name) is None, name
            else:
                assert abs(got[name] - want[name]) <= 0.0051, name
        if want["count"] == 1:
            assert got["listing_id"] == want["listing_id"] and got["category"] == want["category"]
        if filtered is None:
            assert sorted(all_leaves(index, want["id"])) == sorted(want["leaves"])


def test_pins_are_the_clis(index, key, tmp_path):
    theirs = cli_pins(tmp_path, key[1], "--zooms", "0-22")
    # The listings shown: those not held back (too few locations near them to share a point).
    shown = sum(f["properties"]["count"] for f in theirs if f["properties"]["zoom"] == 0)
    assert 2500 < shown <= 5000 and index.listing_count == shown
    for zoom in range(23):
        at_zoom = [f for f in theirs if f["properties"]["zoom"] == zoom]
        same_pins(index.pins(zoom + 0.5)["features"], at_zoom, index)


def test_filtered_pins_in_a_box_are_the_clis(index, key, tmp_path):
    box = (126.95, 37.45, 127.10, 37.60)
    theirs = cli_pins(tmp_path, key[1], "--zoom", "13", "--bbox", ",".join(map(str, box)),
                      "--deposit", "..20000", "--category", "villa,one-room")
    ours = index.pins(13, bbox=box, filter={"deposit": (None, 20000), "category": ["villa", "one-room"]})
    assert len(theirs) > 10
    same_pins(ours["features"], theirs, index, filtered=True)


def test_children_expansion_zoom_and_leaves_paging(index):
    clusters = [f for f in index.pins(11)["features"] if f["properties"]["kind"] == "cluster"]
    assert clusters
    for feature in clusters[:20]:
        pin_id = feature["properties"]["id"]
        zoom = index.expansion_zoom(pin_id)
        assert zoom == feature["properties"]["expansion_zoom"] and zoom > 11
        children = index.children(pin_id)["features"]
        assert len(children) >= 2 or zoom == 23
        assert sum(c["properties"]["count"] for c in children) == feature["properties"]["count"]
        leaves = all_leaves(index, pin_id)
        assert len(leaves) == len(set(leaves)) == feature["properties"]["count"]
        assert sorted(leaves) == sorted(sum((all_leaves(index, c["properties"]["id"]) for c in children), []))


def test_nearby_is_sorted_and_pages(index):
    densest = max(index.pins(12)["features"], key=lambda f: f["properties"]["count"])
    lon, lat = densest["geometry"]["coordinates"]
    first = index.nearby(lon, lat, radius=1500, limit=10)
    assert first["total"] > 30
    listings, cursor = list(first["listings"]), first["next"]
    while cursor is not None:
        page = index.nearby(lon, lat, radius=1500, limit=10, cursor=cursor)
        listings += page["listings"]
        cursor = page["next"]
    assert len(listings) == first["total"]
    keys = [(item["distance_m"], item["id"]) for item in listings]
    assert keys == sorted(keys) and all(item["distance_m"] % 100 == 0 and item["distance_m"] <= 1500 for item in listings)


def metres(lon0, lat0, lon1, lat1):
    r = 6371008.8
    p0, p1 = math.radians(lat0), math.radians(lat1)
    a = math.sin((p1 - p0) / 2) ** 2 + math.cos(p0) * math.cos(p1) * math.sin(math.radians(lon1 - lon0) / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def test_published_points_are_shared_and_within_the_cap(listings, index):
    """The default rule: every point shown holds at least 5 locations, all within 1,500 m of
    it, and lies within 30 m of at most one place of them."""
    true = {i: (lon, lat) for i, lon, lat in zip(listings["ids"].tolist(), listings["lon"], listings["lat"])}
    points = [f for f in index.pins(22)["features"] if f["properties"]["kind"] != "cluster"]
    assert len(points) > 50
    for feature in points:
        lon, lat = feature["geometry"]["coordinates"]
        members = {true[i] for i in all_leaves(index, feature["properties"]["id"])}
        assert len(members) >= 5, len(members)
        assert all(metres(lon, lat, *m) <= 1500 * 1.005 for m in members)
        near = [m for m in members if metres(lon, lat, *m) < 30]  # one place: units within 1 m of each other are one
        assert all(metres(*a, *b) <= 10 for a in near for b in near)
    unmasked = geocluster_hdbscan.PinIndex(listings["lon"], listings["lat"], keys=listings["keys"], ids=listings["ids"],
                                   privacy=False)
    for feature in unmasked.pins(22)["features"]:
        if feature["properties"]["kind"] == "listing":
            lon, lat = feature["geometry"]["coordinates"]
            assert metres(lon, lat, *true[feature["properties"]["listing_id"]]) < 0.01


def test_min_anonymity_and_cap_are_the_clis(listings, key, tmp_path):
    """K = 8 within 1,000 m: every point holds at least 8 locations within 1,000 m of it, and
    the pins are the CLI's with --min-anonymity 8 --anonymity-cap 1000."""
    true = {i: (lon, lat) for i, lon, lat in zip(listings["ids"].tolist(), listings["lon"], listings["lat"])}
    strict = geocluster_hdbscan.PinIndex(listings["lon"], listings["lat"], keys=listings["keys"], ids=listings["ids"],
                                         attributes=listings["attributes"], key=key[0], min_anonymity=8, anonymity_cap=1000)
    points = [f for f in strict.pins(22)["features"] if f["properties"]["kind"] != "cluster"]
    assert len(points) > 20
    for feature in points:
        lon, lat = feature["geometry"]["coordinates"]
        members = {true[i] for i in all_leaves(strict, feature["properties"]["id"])}
        assert len(members) >= 8 and all(metres(lon, lat, *m) <= 1000 * 1.005 for m in members)
    key_file = tmp_path / "strict.key"  # its mask file beside it, apart from the default rule's
    key_file.write_text(key[1].read_text())
    key_file.chmod(0o600)
    theirs = cli_pins(tmp_path, key_file, "--zoom", "14", "--min-anonymity", "8", "--anonymity-cap", "1000")
    same_pins(strict.pins(14.5)["features"], theirs, strict)


def test_another_key_gives_other_pin_ids(listings, index):
    other = geocluster_hdbscan.PinIndex(listings["lon"], listings["lat"], keys=listings["keys"], ids=listings["ids"],
                                key=geocluster_hdbscan.PinIndex.generate_key())
    ours = {f["properties"]["id"] for f in index.pins(12)["features"]}
    theirs = {f["properties"]["id"] for f in other.pins(12)["features"]}
    assert ours and theirs and not (ours & theirs)


def test_key_rules(monkeypatch):
    lon, lat = [127.0, 127.001], [37.5, 37.5]
    monkeypatch.delenv(geocluster_hdbscan._pins.KEY_VARIABLE, raising=False)
    with pytest.raises(ValueError, match="^key: give a secret key"):
        geocluster_hdbscan.PinIndex(lon, lat)
    with pytest.raises(TypeError, match="^key must be bytes"):
        geocluster_hdbscan.PinIndex(lon, lat, key=12345)
    with pytest.raises(ValueError, match="^key: a key is 32 bytes"):
        geocluster_hdbscan.PinIndex(lon, lat, key=b"short")
    with pytest.raises(ValueError, match="^key: a key is 32 bytes"):
        geocluster_hdbscan.PinIndex(lon, lat, key=geocluster_hdbscan.PinIndex.generate_key()[:16])
    with pytest.raises(ValueError, match="^key: a key is 64 hexadecimal digits"):
        geocluster_hdbscan.PinIndex(lon, lat, key=geocluster_hdbscan.PinIndex.generate_key().hex()[:32])
    # Keys not drawn at random: refused by the library, naming what is wrong, never echoing them.
    for weak in [bytes(32), b"\xff" * 32, bytes(range(32)), bytes(range(16)) * 2, "0123456789abcdef" * 4]:
        with pytest.raises(ValueError, match="^key: key = a weak key") as refused:
            geocluster_hdbscan.PinIndex(lon, lat, key=weak)
        assert "geocluster pins-key -o FILE" in str(refused.value)
        assert (weak if isinstance(weak, str) else weak.hex())[:16] not in str(refused.value).lower()
    with pytest.raises(ValueError, match="^key: a key is 64 hexadecimal digits"):
        geocluster_hdbscan.PinIndex(lon, lat, key="xyz")
    with pytest.raises(ValueError, match="contradict"):
        geocluster_hdbscan.PinIndex(lon, lat, key=bytes(32), privacy=False)
    secret = geocluster_hdbscan.PinIndex.generate_key()
    monkeypatch.setenv(geocluster_hdbscan._pins.KEY_VARIABLE, secret.hex())
    from_env = geocluster_hdbscan.PinIndex(lon, lat).pins(22)
    assert from_env == geocluster_hdbscan.PinIndex(lon, lat, key=secret).pins(22)
    assert from_env == geocluster_hdbscan.PinIndex(lon, lat, key=secret.hex().upper()).pins(22)


@pytest.mark.parametrize("kwargs, error, pattern", [
    (dict(lat=[37.5, 91.0]), ValueError, "^lon, lat: listing row 1"),
    (dict(lon=[127.0, np.nan]), ValueError, "^lon, lat: listing row 1"),
    (dict(lat=[37.5]), ValueError, "^lon and lat must have the same length"),
    (dict(ids=[7, 7]), ValueError, "^ids: listing id 7 appears more than once"),
    (dict(keys=["a", None]), ValueError, r"^keys\[1\] is missing"),
    (dict(keys=["a", ""]), ValueError, r"^keys\[1\] is empty"),
    (dict(attributes={"price": [1, 2]}), ValueError, "^attributes: unknown column 'price'"),
    (dict(attributes={"category": ["villa", "castle"]}), ValueError, r"^attributes\['category'\]\[1\] = 'castle'"),
    (dict(attributes={"deposit": [1, -5]}), ValueError, "^attributes: deposit of listing 1"),
    (dict(min_anonymity=1), ValueError, "^min_anonymity: minAnonymity = 1 is invalid"),
    (dict(min_anonymity=True), TypeError, "^min_anonymity must be an int"),
    (dict(anonymity_cap=9000), ValueError, "^anonymity_cap: anonymityCap = 9000"),
    (dict(min_offset=30), TypeError, "unexpected keyword argument 'min_offset'"),
    (dict(radius=-1), ValueError, "^radius: radius"),
    (dict(min_samples=0), ValueError, "^min_samples: minSamples = 0 is invalid"),
    (dict(min_points=2), TypeError, "^min_points is now min_samples"),
    (dict(location_tolerance=np.inf), ValueError, "^location_tolerance: locationTolerance"),
])
def test_bad_input_names_the_parameter(kwargs, error, pattern):
    arguments = dict(lon=[127.0, 127.001], lat=[37.5, 37.5], key=geocluster_hdbscan.PinIndex.generate_key())
    arguments.update(kwargs)
    lon, lat = arguments.pop("lon"), arguments.pop("lat")
    with pytest.raises(error, match=pattern):
        geocluster_hdbscan.PinIndex(lon, lat, **arguments)


def test_bad_queries_name_the_parameter(index):
    pin_id = index.pins(10)["features"][0]["properties"]["id"]
    bad = [(lambda: index.pins(23), r"^zoom: '23\.0' must be a number 0\.\.\.below 23"),
           (lambda: index.pins(-1), r"^zoom: '-1\.0' must be a number"),
           (lambda: index.pins(10, bbox=(0, 10, 1, 5)), r"^bbox: '0\.0,10\.0,1\.0,5\.0': minLat 10\.0 is greater than maxLat 5\.0"),
           (lambda: index.pins(10, bbox=(0, 0, 200, 1)), r"^bbox: '.*': maxLon 200\.0 is outside ±180 degrees"),
           (lambda: index.pins(10, bbox=(1, 2)), "^bbox must be"),
           (lambda: index.pins(10, filter={"price": (1, 2)}), "^filter: unknown attribute 'price'"),
           (lambda: index.pins(10, filter={"category": "castle"}), r"^filter\['category'\]: 'castle'"),
           (lambda: index.children(12345), "^pin_id: no pin has id 12345"),
           (lambda: index.children("not an id"), "^pin_id must be"),
           (lambda: index.leaves(pin_id, limit=0), "^limit must be at least 1"),
           (lambda: index.leaves(pin_id, limit=10_001), r"^limit: '10001' must be a whole number 1\.\.\.10000"),
           (lambda: index.leaves(pin_id, cursor="nonsense"), "^cursor: 'nonsense' is not a cursor"),
           (lambda: index.leaves(pin_id, cursor="1.0"), "^cursor: the cursor belongs to another query"),
           (lambda: index.nearby(127.0, 88.0), r"^lat: '88\.0' must be a number -85\.\.\.85"),
           (lambda: index.nearby(127.0, 37.5, radius=0), r"^radius: '0\.0' must be a number 1\.\.\.1000000")]
    for call, pattern in bad:
        with pytest.raises(ValueError, match=pattern):
            call()
    plain = geocluster_hdbscan.PinIndex([127.0, 127.001], [37.5, 37.5], key=geocluster_hdbscan.PinIndex.generate_key())
    with pytest.raises(ValueError, match=r"^filter: 'deposit' needs attributes\['deposit'\]"):
        plain.pins(10, filter={"deposit": (None, 5)})


def positions(index, zoom=22):
    return {f["properties"]["listing_id"]: tuple(f["geometry"]["coordinates"])
            for f in index.pins(zoom)["features"] if f["properties"]["kind"] == "listing"}


def test_mask_file_is_the_clis_both_ways(listings, key, tmp_path):
    """A mask file the CLI wrote gives the CLI's positions, and one Python wrote (mode 0600)
    gives the CLI the same ones."""
    cli_mask, py_mask = tmp_path / "cli.mask", tmp_path / "py.mask"
    theirs = cli_pins(tmp_path, key[1], "--zoom", "22", "--mask", str(cli_mask))
    build = lambda mask: geocluster_hdbscan.PinIndex(listings["lon"], listings["lat"], keys=listings["keys"], ids=listings["ids"],
                                             attributes=listings["attributes"], key=key[0], mask=mask)
    from_cli = build(cli_mask)
    same_pins(from_cli.pins(22)["features"], theirs, from_cli)
    build(py_mask)
    assert py_mask.stat().st_mode & 0o777 == 0o600 and py_mask.read_bytes() == cli_mask.read_bytes()


def test_a_listing_far_from_its_building_is_left_out_alone(key):
    """Three listings of building "a", one 1.1 km from the other two: that one is left out,
    the building is shown with its neighbours."""
    lon = np.array([127.0, 127.0, 127.0] + [127.0 + 0.002 * k for k in range(1, 6)])
    lat = np.array([37.5, 37.5, 37.51] + [37.5] * 5)
    with pytest.warns(UserWarning, match=r"1 listing\(s\) left out: .*; ids 2$"):
        index = geocluster_hdbscan.PinIndex(lon, lat, keys=["a", "a", "a", "b", "c", "d", "e", "f"], key=key[0])
    assert index.listing_count == 7
    assert index.set_aside == {"conflicting": [2], "held_back": [], "merged_units": []}


def test_set_aside_names_what_the_build_left_out(listings, index):
    """Held back: every listing not shown (the sample is sparse in places). Merged: a few
    buildings of the generated sample lie within 1 m of another; with listing ids as keys
    (finer than buildings) each building's listings are one place too, named by one id per key."""
    n = len(listings["ids"])
    assert index.set_aside["conflicting"] == []
    held = index.set_aside["held_back"]
    assert len(held) == n - index.listing_count > 0 and held == sorted(held)
    buildings = dict(zip(listings["ids"].tolist(), listings["keys"]))
    with pytest.warns(UserWarning, match="location keys lie within 1 m of one another"):
        units = geocluster_hdbscan.PinIndex(listings["lon"], listings["lat"], keys=listings["ids"].tolist(),
                                            ids=listings["ids"], key=geocluster_hdbscan.PinIndex.generate_key())
    merged = units.set_aside["merged_units"]
    assert len(merged) > len(index.set_aside["merged_units"]) + 100
    # Mostly the units of one building; neighbours closer than 1 m may share a place too.
    assert sum(len({buildings[i] for i in place}) == 1 for place in merged) > 0.9 * len(merged)


def test_mask_file_keeps_a_building_where_it_was_published(key, tmp_path):
    """With the mask file a building stays at the point it was published at when a listing is
    added to it 20 m away and a new building joins its group; without the file the group is
    formed afresh and its point moves."""
    lon, lat = np.array([127.0 + 0.002 * k for k in range(6)]), np.array([37.5] * 6)
    names = ["a", "b", "c", "d", "e", "f"]
    mask = tmp_path / "pins.mask"
    before = geocluster_hdbscan.PinIndex(lon, lat, keys=names, key=key[0], mask=mask)
    assert before.listing_count == 6
    grown = (np.append(lon, [127.0, 127.011]), np.append(lat, [37.5 + 20 / 111_000, 37.501]))
    kw = dict(keys=names + ["a", "g"], key=key[0])
    after = geocluster_hdbscan.PinIndex(*grown, mask=mask, **kw)
    building = lambda index: [f["geometry"]["coordinates"] for f in index.pins(22)["features"]
                              if 0 in [leaf["id"] for leaf in index.leaves(f["properties"]["id"])["leaves"]]][0]
    assert building(after) == building(before)
    with pytest.warns(UserWarning, match="no mask file"):
        unmasked = geocluster_hdbscan.PinIndex(*grown, **kw)
    assert building(unmasked) != building(before)


def test_mask_file_of_another_key(key, tmp_path):
    lon, lat = [127.0, 127.01], [37.5, 37.5]
    mask = tmp_path / "pins.mask"
    first = positions(geocluster_hdbscan.PinIndex(lon, lat, key=key[0], mask=mask))
    other = geocluster_hdbscan.PinIndex.generate_key()
    with pytest.raises(ValueError, match="^mask: the mask file was made with another key"):
        geocluster_hdbscan.PinIndex(lon, lat, key=other, mask=mask)
    with pytest.warns(UserWarning, match="^remask"):
        again = geocluster_hdbscan.PinIndex(lon, lat, key=other, mask=mask, remask=True)
    assert positions(again) == first
    with pytest.raises(ValueError, match="does not go with privacy=False"):
        geocluster_hdbscan.PinIndex(lon, lat, privacy=False, mask=mask)
    with pytest.raises(ValueError, match="^remask goes with mask"):
        geocluster_hdbscan.PinIndex(lon, lat, key=other, remask=True)
    (tmp_path / "bad.mask").write_bytes(b"not a mask")
    (tmp_path / "bad.mask").chmod(0o644)
    with pytest.raises(ValueError, match="^mask: "), pytest.warns(UserWarning, match="can be read by other users"):
        geocluster_hdbscan.PinIndex(lon, lat, key=other, mask=tmp_path / "bad.mask")
