// The privacy mask: every location is shown 30–80 m (configurable) from its true position,
// in a direction and at a distance that only the holder of the secret seed can predict.
// It runs first; everything Pins computes afterwards sees displayed positions only.

/// Whether and how listings are displaced before indexing. There is deliberately no default:
/// a caller either gives a secret seed or says `.disabled` in so many words.
public enum PrivacyPolicy: Sendable, Equatable {
    /// No displacement: pins show true positions (for data that is public anyway, or tests).
    case disabled
    /// Each location is displaced by `PrivacyMask`.
    case displaced(PrivacyMask)
}

/// Displaces each location by a distance r uniform in area over the annulus
/// `minDistance...maxDistance` metres, r = √(r_min² + U·(r_max² − r_min²)), in a direction
/// uniform over 0–360°, where U and the direction come from SipHash-2-4 keyed by the secret
/// seed over the location's key. Listings of one location (one building key, or one true
/// coordinate quantised to 1e-6°) get one offset and move together, so averaging many listings
/// of a building reveals nothing.
///
/// Metres become degrees with WGS 84 metres-per-degree at the location's latitude (below
/// 1 mm off for 80 m; see `WebMercator.metresPerDegree(latitude:)`).
public struct PrivacyMask: Sendable, Equatable {
    /// The 128-bit secret key of the PRF: keep it out of the data, the app bundle and logs;
    /// the same seed reproduces the same displayed positions, another seed gives unrelated ones.
    public let seed: (UInt64, UInt64)
    /// Smallest displacement in metres (default 30), at least 0.
    public let minDistance: Double
    /// Largest displacement in metres (default 80), above `minDistance`.
    public let maxDistance: Double

    /// A mask from a secret seed (the second half of the 128-bit key defaults to 0, which
    /// leaves 64 bits of secret) and the annulus in metres.
    /// - Throws: `PinError.invalidParameter` unless `0 <= minDistance < maxDistance`, both finite.
    public init(seed: UInt64, seedHigh: UInt64 = 0, minDistance: Double = 30, maxDistance: Double = 80) throws(PinError) {
        guard minDistance.isFinite, minDistance >= 0 else {
            throw .invalidParameter(name: "minDistance", value: "\(minDistance)", requirement: "must be a finite distance >= 0 m")
        }
        guard maxDistance.isFinite, maxDistance > minDistance else {
            throw .invalidParameter(name: "maxDistance", value: "\(maxDistance)",
                                    requirement: "must be finite and above minDistance (\(minDistance) m)")
        }
        self.seed = (seed, seedHigh)
        self.minDistance = minDistance
        self.maxDistance = maxDistance
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.seed == b.seed && a.minDistance == b.minDistance && a.maxDistance == b.maxDistance
    }

    var hasher: SipHash24 { SipHash24(k0: seed.0, k1: seed.1) }

    /// The offset of a location in metres (east, north) and its polar form.
    /// - Complexity: O(1): two SipHash evaluations, a sine and a cosine.
    public func offset(for key: LocationKey) -> (east: Double, north: Double, distance: Double, bearing: Double) {
        let h = hasher
        let u = SipHash24.unit(h.hash(key.tag, key.value, tail: 1, tailCount: 1))
        let a = SipHash24.unit(h.hash(key.tag, key.value, tail: 2, tailCount: 1))
        let r0 = minDistance * minDistance, r1 = maxDistance * maxDistance
        let r = (r0 + u * (r1 - r0)).squareRoot()
        let theta = 2 * Double.pi * a                   // bearing, clockwise from north
        return (r * ElementaryMath.sin(theta), r * ElementaryMath.cos(theta), r, theta * 180 / Double.pi)
    }

    /// The displayed position of a location whose true position is (`longitude`, `latitude`).
    /// - Complexity: O(1).
    public func displayedPosition(of key: LocationKey, longitude: Double, latitude: Double) -> (longitude: Double, latitude: Double) {
        let o = offset(for: key)
        let m = WebMercator.metresPerDegree(latitude: latitude)
        var lon = longitude + o.east / m.longitude
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let lat = latitude + o.north / m.latitude
        return (lon, lat)
    }
}

/// What makes listings one location: an explicit building/location key, or (when none is
/// given) the true coordinate quantised to 1e-6° (about 0.1 m). Only its PRF image is kept.
public struct LocationKey: Sendable, Hashable, Comparable {
    /// A tag (1 explicit, 2 quantised coordinate) and the value: the PRF's two message words.
    let tag: UInt64
    let value: UInt64

    /// An explicit key, for example a building id (use `init(string:)` for text keys).
    public init(explicit value: UInt64) { tag = 1; self.value = value }

    /// A key from its two words (tag 1 or 2, as stored by `PinListings`).
    init(tag: UInt64, value: UInt64) { self.tag = tag; self.value = value }

    /// A text key (a building id column), as the SipHash of its UTF-8 bytes under a fixed
    /// public key: two different keys collide with probability about n²/2⁶⁵.
    public init(string: String) {
        tag = 1
        value = SipHash24(k0: 0x5069_6e73_4b65_7931, k1: 0x4c6f_6361_7469_6f6e).hash(bytes: string.utf8)
    }

    /// The key of a true coordinate: longitude and latitude rounded to 1e-6°.
    public init(longitude: Double, latitude: Double) {
        let qx = Int64((longitude * 1e6).rounded(.toNearestOrEven))
        let qy = Int64((latitude * 1e6).rounded(.toNearestOrEven))
        tag = 2
        value = (UInt64(bitPattern: qx) << 32) | (UInt64(bitPattern: qy) & 0xFFFF_FFFF)
    }

    public static func < (a: Self, b: Self) -> Bool { (a.tag, a.value) < (b.tag, b.value) }
}
