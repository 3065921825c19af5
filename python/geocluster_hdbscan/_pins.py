"""geocluster_hdbscan.PinIndex: map pins per zoom over listings, with the privacy mask, as the CLI's
`geocluster pins` computes them (the Pins module through the C API; docs/pins.md)."""

import ctypes
import json
import math
import numbers
import os
import stat
import tempfile
import warnings
from pathlib import Path

import numpy as np

from . import _native
from ._base import threads_for

#: The attribute columns a PinIndex takes (the CLI's column names).
ATTRIBUTES = ("category", "area_m2", "deposit", "monthly_rent")
KEY_VARIABLE = "GEOCLUSTER_PINS_KEY"


def _category_names():
    text = _native._handle()
    _native._lib.gc_pins_category_names(ctypes.byref(text))
    return _native.take_text(text).split(",")


CATEGORIES = tuple(_category_names())


class PinIndex:
    """Map pins for zooms 0-22 over listings, cut from one hierarchy of privacy-masked
    positions: what a map back end queries per viewport. Every position it returns is a
    displayed one: a point shared by at least ``min_anonymity`` locations (the CLI's default
    rule, docs/pins.md); the index holds no true coordinate.

    Parameters
    ----------
    lon, lat : array-like of float, (n,)
        True positions in degrees (WGS 84); latitudes within ±85°.
    keys : sequence of str or int, (n,), optional
        Location keys (a building id): listings with one key are one location, displaced
        together, one building pin. None: the true coordinate rounded to 1e-6° is the key.
        An empty or None key is refused; a key whose listings lie more than
        ``location_tolerance`` metres apart is refused.
    attributes : mapping, optional
        Columns "category" (names, see CATEGORIES, or None), "area_m2", "deposit",
        "monthly_rent" (numbers, NaN or None where absent).
    key : bytes (32) or str (64 hexadecimal digits), optional
        The secret key of the mask (``PinIndex.generate_key()``, kept in a secret store; the
        CLI's key file holds its hex digits). A key not drawn at random (all zeros, a repeated
        block, a run such as 00 01 02 ..., a handful of byte values) is refused, as by the CLI. None reads GEOCLUSTER_PINS_KEY, as the CLI does;
        without either, ``privacy=False`` must be given.
    ids : array-like of int, (n,), optional
        Listing ids (unique); default the row numbers.
    privacy : bool, default True
        False shows true positions (only for data that is public anyway); no key then.
    min_anonymity : int, default 5
        K: every listing is shown at a point shared by at least K locations (2-1000) pairwise
        more than 60 m apart, so a guess within 30 m names at most 1 in K of them. Locations
        with too few neighbours for a group are held back (not published) until enough arrive.
    anonymity_cap : float, default 1500
        The farthest a shared point lies from any of its locations, metres (above 120, at most
        5000).
    location_tolerance : float, default 30
        How far apart the listings of one key may lie, metres.
    radius : float, default 12.5
        Merge threshold in pixels of 256-pixel tiles.
    min_samples : int, default 2
        HDBSCAN's min_samples for the hierarchy (1 or 2: plain single linkage); formerly
        ``min_points``, which is refused with a message naming this one.
    n_jobs : int or None
        Threads for the build (the index is the same for any value).
    mask : str or path, optional
        The CLI's mask file (``--mask``): every location's displayed position, kept from one
        build to the next (created when missing, rewritten with mode 0600 before the index is
        returned; as secret as the key). Without it, each build groups the locations afresh
        (a warning says so, as the CLI's does).
    remask : bool, default False
        Use a mask file made with another key or rule: its positions stay, new locations are
        placed with this key and rule.

    Attributes
    ----------
    listing_count, location_count : int
        The listings shown and the locations (shared points) they are shown at.
    set_aside : dict
        What the build left out, by listing id, as the CLI names it on standard error (a
        UserWarning here): "conflicting" (a listing far from its key's others), "held_back"
        (too few neighbours to share a point with yet), and "merged_units" (keys within 1 m
        of one another published as one place: one listing id per key, lists of lists).
    """

    def __init__(self, lon, lat, keys=None, attributes=None, key=None, *, ids=None, privacy=True, min_anonymity=5,
                 anonymity_cap=1500.0, location_tolerance=30.0, radius=12.5, min_samples=2, n_jobs=None, mask=None,
                 remask=False, **unknown):
        _refuse_unknown(unknown)
        secret = _secret(key, privacy)
        stored = _read_mask(mask, secret, remask)
        lon, lat = _coordinates(lon, "lon"), _coordinates(lat, "lat")
        n = len(lon)
        if len(lat) != n:
            raise ValueError(f"lon and lat must have the same length, got {n} and {len(lat)}")
        ids = None if ids is None else _column(ids, "ids", n, np.int64)
        key_bytes, key_offsets = _keys(keys, n)
        columns = _attributes(attributes, n)
        self._given = {name for name in ATTRIBUTES if columns[name] is not None}
        for name, value in (("anonymity_cap", anonymity_cap), ("location_tolerance", location_tolerance), ("radius", radius)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"{name} must be a number, got {value!r}")
        for name, value in (("min_samples", min_samples), ("min_anonymity", min_anonymity)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{name} must be an int, got {value!r}")
        self._handle, store = _native.pins_build(
            lon, lat, ids, key_bytes, key_offsets, columns["category"], columns["area_m2"], columns["deposit"],
            columns["monthly_rent"], secret, int(min_anonymity), float(anonymity_cap), float(radius), int(min_samples),
            float(location_tolerance), threads_for(n_jobs), stored, remask)
        if store is not None:
            _write_secret(Path(mask), store)  # before any position is published
        listings, locations = ctypes.c_int64(), ctypes.c_int64()
        _native._lib.gc_pins_counts(self._handle, ctypes.byref(listings), ctypes.byref(locations))
        self.listing_count, self.location_count = listings.value, locations.value
        self.privacy = secret is not None
        self.set_aside = json.loads(_native.call_for_text(_native._lib.gc_pins_set_aside, self._handle))
        _warn_set_aside(self.set_aside)

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None and _native._lib is not None:
            _native._lib.gc_pins_free(handle)

    @staticmethod
    def generate_key():
        """A new 256-bit key from the operating system's random source (os.urandom): keep it
        (its .hex() is the CLI's key file) and never change it once pins are published."""
        return os.urandom(32)

    def pins(self, zoom, bbox=None, filter=None):
        """The pins shown at `zoom` (0 <= zoom < 23, floored) whose centroid lies in `bbox`
        (min_lon, min_lat, max_lon, max_lat; None: the world), over the listings passing
        `filter`, as a GeoJSON FeatureCollection dict: the CLI's `pins` properties."""
        parameters = [("zoom", _number(_real("zoom", zoom)))]
        if bbox is not None:
            box = np.asarray(bbox, dtype=np.float64)
            if box.shape != (4,):
                raise ValueError(f"bbox must be (min_lon, min_lat, max_lon, max_lat), got {bbox!r}")
            parameters.append(("bbox", ",".join(_number(v) for v in box)))
        return self._request("pins", None, parameters + self._filter(filter))

    def children(self, pin_id):
        """The pins `pin_id` splits into at its expansion zoom (FeatureCollection dict)."""
        return self._request("children", _pin_id(pin_id), [])

    def pin(self, pin_id):
        """The pin with this id, unfiltered (a GeoJSON Feature dict)."""
        return self._request("pin", _pin_id(pin_id), [])["features"][0]

    def expansion_zoom(self, pin_id):
        """The first zoom at which the pin splits (23: only beyond the deepest zoom), or None
        for a building or listing pin, which zooming never splits."""
        return self.pin(pin_id)["properties"]["expansion_zoom"]

    def leaves(self, pin_id, limit=100, cursor=None):
        """One page of the pin's listings at their displayed positions: {"leaves": [...],
        "next": cursor of the next page or None}. Pass None first, then each page's next."""
        return self._request("leaves", _pin_id(pin_id), [("limit", str(_count("limit", limit)))] + _cursor(cursor))

    def nearby(self, lon, lat, radius=5000.0, filter=None, limit=20, cursor=None):
        """Listings within `radius` metres of (lon, lat), by distance to their displayed
        position rounded to 100 m, then id: {"listings": [...], "total": n, "next": cursor}."""
        parameters = [("lon", _number(_real("lon", lon))), ("lat", _number(_real("lat", lat))),
                      ("radius", _number(_real("radius", radius))), ("limit", str(_count("limit", limit)))]
        return self._request("nearby", None, parameters + _cursor(cursor) + self._filter(filter))

    def _request(self, endpoint, pin_id, parameters):
        """The answer to one request, made with the query parameters `geocluster serve` takes
        (the same parsing and the same index call in the library), as a dict."""
        names = (ctypes.c_char_p * max(len(parameters), 1))(*[name.encode() for name, _ in parameters])
        values = (ctypes.c_char_p * max(len(parameters), 1))(*[value.encode("utf-8") for _, value in parameters])
        pin = None if pin_id is None else str(pin_id).encode()
        return json.loads(_native.call_for_text(_native._lib.gc_pins_request, self._handle, endpoint.encode(), pin,
                                                names, values, len(parameters)))

    def _filter(self, filter):
        """The query parameters of a filter dict: {"category": name or names, "area_m2" /
        "deposit" / "monthly_rent": (low, high), None for an open end}."""
        if filter is None:
            return []
        if not isinstance(filter, dict):
            raise TypeError(f"filter must be a dict, got {type(filter).__name__}")
        for name in filter:
            if name not in ATTRIBUTES:
                raise ValueError(f"filter: unknown attribute {name!r}; one of {', '.join(ATTRIBUTES)}")
            if name not in self._given:
                raise ValueError(f"filter: {name!r} needs attributes[{name!r}] when the index is built")
        parameters = []
        if "category" in filter:
            names = filter["category"]
            names = [names] if isinstance(names, str) else list(names)
            for name in names:
                if name not in CATEGORIES:
                    raise ValueError(f"filter['category']: {name!r} is not a category; one of {', '.join(CATEGORIES)}")
            parameters.append(("category", ",".join(names)))
        for name, parameter in (("area_m2", "area"), ("deposit", "deposit"), ("monthly_rent", "rent")):
            if name not in filter:
                continue
            bounds = filter[name]
            if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
                raise ValueError(f"filter[{name!r}] must be (low, high), either None for open, got {bounds!r}")
            ends = ["" if bound is None else _number(_real(f"filter[{name!r}]", bound)) for bound in bounds]
            if ends == ["", ""]:
                continue
            parameters.append((parameter, "..".join(ends)))
        return parameters

def _refuse_unknown(arguments):
    """Keyword arguments PinIndex does not take: a renamed one is refused with its new name."""
    for name in arguments:
        if name == "min_points":
            raise TypeError("min_points is now min_samples (HDBSCAN's min_samples of the hierarchy, its name everywhere)")
        raise TypeError(f"PinIndex() got an unexpected keyword argument '{name}'")


def _secret(key, privacy):
    """The key's bytes under the CLI's rules, or None without privacy."""
    if not isinstance(privacy, (bool, np.bool_)):
        raise TypeError(f"privacy must be a bool, got {privacy!r}")
    if not privacy:
        if key is not None:
            raise ValueError("key and privacy=False contradict each other; give one")
        return None
    if key is None:
        key = os.environ.get(KEY_VARIABLE)
        if key is None:
            raise ValueError(f"key: give a secret key (PinIndex.generate_key(), kept in your secret store, or set "
                             f"{KEY_VARIABLE} to its hex digits) to mask true positions, or privacy=False to show them")
    if isinstance(key, str):
        digits = key.strip()
        if len(digits) != 64 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise ValueError(f"key: a key is 64 hexadecimal digits (as `geocluster pins-key` writes), got "
                             f"{len(digits)} characters that are not (the key is not shown)")
        return bytes.fromhex(digits)
    if isinstance(key, (bytes, bytearray, memoryview)):
        key = bytes(key)
        if len(key) != 32:
            raise ValueError(f"key: a key is 32 bytes (256 bits), got {len(key)} bytes")
        return key
    raise TypeError(f"key must be bytes (os.urandom(32), PinIndex.generate_key()) or hex digits, never a number; "
                    f"got {type(key).__name__}")


def _read_mask(mask, secret, remask):
    """The mask file's bytes (b"" when it does not exist yet), None without one; the CLI's
    warnings: no mask file, a file others can read, --remask."""
    if not isinstance(remask, (bool, np.bool_)):
        raise TypeError(f"remask must be a bool, got {remask!r}")
    if mask is None:
        if remask:
            raise ValueError("remask goes with mask=FILE")
        if secret is not None:
            warnings.warn("no mask file: each build draws the displayed positions afresh from the listings, so a "
                          "building's position moves when its listings change (a listing added to a one-listing "
                          "building tells how far) and another key or offset range draws every location again; "
                          "publish with mask=FILE (docs/pins.md, Privacy model)", UserWarning, stacklevel=3)
        return None
    if secret is None:
        raise ValueError("mask keeps masked positions; it does not go with privacy=False")
    path = Path(mask)
    if not path.exists():
        return b""
    if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        warnings.warn(f"{path} can be read by other users: chmod 600 {path}", UserWarning, stacklevel=3)
    if remask:
        warnings.warn(f"remask: {path} now records this key and rule; its stored positions stay as published "
                      "and only new locations are placed with the new settings. Never delete the mask file or publish "
                      "without it: every new draw of a published location is one more sample of it", UserWarning,
                      stacklevel=3)
    return path.read_bytes()


def _write_secret(path, data):
    """Writes `data` to `path` atomically with mode 0600."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _coordinates(values, name):
    array = np.ascontiguousarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    return array


def _column(values, name, n, dtype):
    array = np.ascontiguousarray(values, dtype=dtype)
    if array.shape != (n,):
        raise ValueError(f"{name} must have one value per listing ({n}), got shape {array.shape}")
    return array


def _keys(keys, n):
    """Location keys as UTF-8 bytes and n + 1 offsets; (None, None) for none."""
    if keys is None:
        return None, None
    if isinstance(keys, (str, bytes)) or len(keys) != n:
        raise ValueError(f"keys must have one key per listing ({n})")
    texts = []
    for i, k in enumerate(keys):
        if k is None or (isinstance(k, float) and math.isnan(k)):
            raise ValueError(f"keys[{i}] is missing: give every listing its building's key, or keys=None")
        if isinstance(k, (np.integer, int)) and not isinstance(k, bool):
            k = str(int(k))
        elif isinstance(k, bytes):
            k = k.decode("utf-8")
        elif not isinstance(k, str):
            raise TypeError(f"keys[{i}] must be a str or an int, got {type(k).__name__}")
        texts.append(k.encode("utf-8"))
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(t) for t in texts], out=offsets[1:])
    return np.frombuffer(b"".join(texts) or b"\0", dtype=np.uint8), offsets


def _attributes(attributes, n):
    columns = dict.fromkeys(ATTRIBUTES)
    if attributes is None:
        return columns
    for name in attributes:
        if name not in ATTRIBUTES:
            raise ValueError(f"attributes: unknown column {name!r}; the columns are {', '.join(ATTRIBUTES)}")
    if "category" in attributes:
        codes = np.full(n, 255, dtype=np.uint8)
        values = list(attributes["category"])
        if len(values) != n:
            raise ValueError(f"attributes['category'] must have one value per listing ({n}), got {len(values)}")
        for i, value in enumerate(values):
            if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
                continue
            if value not in CATEGORIES:
                raise ValueError(f"attributes['category'][{i}] = {value!r} is not a category; one of "
                                 f"{', '.join(CATEGORIES)}")
            codes[i] = CATEGORIES.index(value)
        columns["category"] = codes
    for name in ATTRIBUTES[1:]:
        if name in attributes:
            values = [np.nan if v is None else v for v in attributes[name]] \
                if not isinstance(attributes[name], np.ndarray) else attributes[name]
            columns[name] = _column(values, f"attributes[{name!r}]", n, np.float64)
    return columns


def _real(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    return float(value)


def _count(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return int(value)


def _pin_id(pin_id):
    """A pin id as the queries give it (a decimal string: 64 bits) or an int."""
    try:
        value = int(pin_id)
    except (TypeError, ValueError):
        raise ValueError(f"pin_id must be a pin's id (the 'id' property of a pin), got {pin_id!r}") from None
    if not 0 <= value < 1 << 64:
        raise ValueError(f"pin_id must be a pin's id (the 'id' property of a pin), got {pin_id!r}")
    return value


def _cursor(cursor):
    """The cursor parameter: none for the first page, else the previous page's next."""
    if cursor is None:
        return []
    if not isinstance(cursor, str):
        raise TypeError(f"cursor must be the 'next' string of the previous page or None, got {cursor!r}")
    return [("cursor", cursor)]


def _number(value):
    """A float as the query text gives it: the shortest text that reads back as the same double."""
    if not np.isfinite(value):
        return str(value)
    return repr(float(value))

def _warn_set_aside(set_aside):
    """Says what the build left out, as the CLI does on standard error (ids, the first ten)."""
    def ids(values):
        return ", ".join(map(str, values[:10])) + (", ..." if len(values) > 10 else "")
    conflicting, held, merged = set_aside["conflicting"], set_aside["held_back"], set_aside["merged_units"]
    if conflicting:
        warnings.warn(f"{len(conflicting)} listing(s) left out: farther from their key's other listings (or from where "
                      f"the key is published) than location_tolerance allows; ids {ids(conflicting)}", UserWarning,
                      stacklevel=3)
    if held:
        warnings.warn(f"{len(held)} listing(s) held back: their location has too few compatible locations within "
                      f"anonymity_cap to share a point with; published once enough arrive (ids {ids(held)})",
                      UserWarning, stacklevel=3)
    if merged:
        warnings.warn(f"{sum(map(len, merged))} location keys lie within 1 m of one another and are published as "
                      f"{len(merged)} place(s), each at one point (a building's units with keys of their own, or "
                      f"neighbours closer than that); a listing of each key: "
                      + "; ".join(" + ".join(map(str, m)) for m in merged[:10]), UserWarning, stacklevel=3)
