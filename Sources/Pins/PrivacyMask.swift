// The privacy mask: by default every location is shown at a point it shares with at least
// K others (`AnonymityRule`); the weak plain annulus shows each one alone, offset in a
// direction only the key's holder can predict. It runs first; everything Pins computes
// afterwards sees displayed positions only.

import ClusterCore

/// Whether and how listings are displaced before indexing. There is deliberately no default:
/// a caller either gives a secret key or says `.disabled` in so many words.
public enum PrivacyPolicy: Sendable, Equatable {
    /// No displacement: pins show true positions (for data that is public anyway, or tests).
    case disabled
    /// Each location is displaced by `PrivacyMask`.
    case displaced(PrivacyMask)
}

/// Displaces each location by a distance r uniform in area over the annulus
/// `minDistance...maxDistance` metres, r = √(r_min² + U·(r_max² − r_min²)), in a direction
/// uniform over 0–360°, where U and the direction come from SipHash-2-4 keyed by a key derived
/// from the secret `PinsKey` (label "geocluster mask v1") over the location's key and the
/// annulus's two bounds. Listings of one location (one building key, or one true coordinate
/// quantised to 1e-6°) get one offset and move together, so averaging many listings of a
/// building reveals nothing; another annulus gives an unrelated draw, never a point on the
/// same ray from the truth.
///
/// Every draw is a sample an attacker can average: once published, a location's displayed
/// position must not change (keep the key and the annulus, or keep a `MaskStore`).
///
/// Metres become degrees with WGS 84 metres-per-degree at the location's latitude (below
/// 1 mm off for 80 m; see `WebMercator.metresPerDegree(latitude:)`).
public struct PrivacyMask: Sendable, Equatable {
    /// The smallest `minDistance` accepted, metres: below it the mask shows the truth.
    public static let minimumDistance: Double = 1
    /// The largest `maxDistance` accepted, metres (beyond it a displayed point says nothing
    /// about its neighbourhood, and latitudes could leave Web Mercator's range).
    public static let maximumDistance: Double = 5_000
    /// New locations with keys of their own whose anchors lie within this many metres of each
    /// other are one place (units of one building given keys of their own): they are placed as
    /// one and shown at one point (`SetAside.mergedUnits` names them).
    public static let unitRadius: Double = 1

    /// The PRF of the offsets and the PRF of the pin ids, each keyed by its own derived key.
    let drawHasher: SipHash24
    let idHasher: SipHash24
    /// The MAC of the mask file (`MaskStore`), keyed by its own derived key.
    let fileHasher: SipHash24
    /// The key's one-way fingerprint (`PinsKey.fingerprint`).
    public let keyFingerprint: String
    /// True when the key is an insecure test key.
    public let isInsecure: Bool
    /// Smallest displacement in metres (default 30).
    public let minDistance: Double
    /// Largest displacement in metres (default 80).
    public let maxDistance: Double
    /// Positions kept from earlier publications (`keeping(_:)`), shown instead of a draw.
    var stored: [LocationKey: MaskStore.Position]? = nil
    /// The k-anonymity rule (`requiring(_:)`), nil for the plain annulus.
    public internal(set) var anonymity: AnonymityRule? = nil

    /// The mask a publication gets unless it asks for another: keyed by `key`, every displayed
    /// point shared by the locations of a group under `rule` (`AnonymityRule.standard`: at
    /// least 5 locations pairwise more than 60 m apart). Keep its positions in a `MaskStore`.
    public init(key: PinsKey, sharing rule: AnonymityRule = .standard) {
        try! self.init(key: key, annulusFrom: 30, to: 80)
        anonymity = rule
    }

    /// The WEAK plain mask: each location drawn on its own in the annulus
    /// `minDistance...maxDistance` metres around its truth. An attacker who knows every
    /// building's position recovers most of them within 30 m, and one who posts a listing at a
    /// building sees that building's point; use it for data whose positions are not secret.
    /// - Throws: `PinError.invalidParameter` naming `minDistance` or `maxDistance` unless
    ///   `minimumDistance <= minDistance < maxDistance <= maximumDistance`, both finite.
    public static func weakAnnulus(key: PinsKey, minDistance: Double = 30, maxDistance: Double = 80) throws(PinError) -> PrivacyMask {
        try PrivacyMask(key: key, annulusFrom: minDistance, to: maxDistance)
    }

    private init(key: PinsKey, annulusFrom minDistance: Double, to maxDistance: Double) throws(PinError) {
        try Self.check(minDistance: minDistance, maxDistance: maxDistance)
        let m = key.derive(PinsKey.maskLabel), i = key.derive(PinsKey.idsLabel), f = key.derive(PinsKey.maskFileLabel)
        drawHasher = SipHash24(k0: m.0, k1: m.1)
        idHasher = SipHash24(k0: i.0, k1: i.1)
        fileHasher = SipHash24(k0: f.0, k1: f.1)
        keyFingerprint = key.fingerprint
        isInsecure = key.isInsecureTestKey
        self.minDistance = minDistance
        self.maxDistance = maxDistance
    }

    /// A mask keyed by `PinsKey.insecureTestKey(seed:)`: for tests and benchmarks only.
    /// - Throws: as `init(key:minDistance:maxDistance:)`.
    /// It is the plain annulus; `requiring(_:)` gives it a shared-point rule.
    public init(insecureTestSeed seed: UInt64, minDistance: Double = 30, maxDistance: Double = 80) throws(PinError) {
        try self.init(key: .insecureTestKey(seed: seed), annulusFrom: minDistance, to: maxDistance)
    }

    /// Checks an annulus (see `init(key:minDistance:maxDistance:)`).
    public static func check(minDistance: Double, maxDistance: Double) throws(PinError) {
        guard minDistance.isFinite, minDistance >= minimumDistance, minDistance < maximumDistance else {
            throw .invalidParameter(name: "minDistance", value: "\(minDistance)",
                                    requirement: "must be a distance of at least \(Int(minimumDistance)) m and below \(Int(maximumDistance)) m")
        }
        guard maxDistance.isFinite, maxDistance > minDistance, maxDistance <= maximumDistance else {
            throw .invalidParameter(name: "maxDistance", value: "\(maxDistance)",
                                    requirement: "must be above minDistance (\(minDistance) m) and at most \(Int(maximumDistance)) m")
        }
    }

    /// The offset of a location in metres (east, north) and its polar form. `package`: the
    /// displacement itself is for this package's tests, never for what an app publishes.
    /// - Complexity: O(1): two SipHash evaluations, a sine and a cosine.
    package func offset(for key: LocationKey) -> (east: Double, north: Double, distance: Double, bearing: Double) {
        let h = drawHasher, lo = minDistance.bitPattern, hi = maxDistance.bitPattern
        let u = SipHash24.unit(h.hash(key.tag, key.value, lo, hi, tail: 1, tailCount: 1))
        let a = SipHash24.unit(h.hash(key.tag, key.value, lo, hi, tail: 2, tailCount: 1))
        let r0 = minDistance * minDistance, r1 = maxDistance * maxDistance
        let r = (r0 + u * (r1 - r0)).squareRoot()
        let theta = 2 * Double.pi * a                   // bearing, clockwise from north
        return (r * ElementaryMath.sin(theta), r * ElementaryMath.cos(theta), r, theta * 180 / Double.pi)
    }

    /// The displayed position of a location whose true position is (`longitude`, `latitude`):
    /// its stored position when the mask keeps one (`keeping(_:)`), else its draw.
    /// - Complexity: O(1) (expected, with stored positions).
    public func displayedPosition(of key: LocationKey, longitude: Double, latitude: Double) -> (longitude: Double, latitude: Double) {
        if let p = stored?[key] { return (p.longitude, p.latitude) }
        return drawnPosition(of: key, longitude: longitude, latitude: latitude)
    }

    /// The drawn position (the true position plus `offset(for:)`), ignoring stored positions
    /// and the anonymity rule.
    func drawnPosition(of key: LocationKey, longitude: Double, latitude: Double) -> (longitude: Double, latitude: Double) {
        let o = offset(for: key)
        return Self.move(longitude: longitude, latitude: latitude, east: o.east, north: o.north)
    }

    /// An offset uniform in area over `minDistance...outer` metres for one step of the
    /// anonymity rule: SipHash over the key, the two bounds and `tail` (the rule's minimum,
    /// round and step), so every step and round is a draw of its own.
    func offset(for key: LocationKey, outer: Double, tail: UInt64) -> (east: Double, north: Double) {
        let h = drawHasher, lo = minDistance.bitPattern, hi = outer.bitPattern
        let u = SipHash24.unit(h.hash(key.tag, key.value, lo, hi, tail: tail << 1, tailCount: 7))
        let a = SipHash24.unit(h.hash(key.tag, key.value, lo, hi, tail: tail << 1 | 1, tailCount: 7))
        let r0 = minDistance * minDistance, r1 = outer * outer
        let r = (r0 + u * (r1 - r0)).squareRoot(), theta = 2 * Double.pi * a
        return (r * ElementaryMath.sin(theta), r * ElementaryMath.cos(theta))
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
