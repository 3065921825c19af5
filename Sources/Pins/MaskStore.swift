// The displayed position of every published location, kept so that none is ever drawn twice.

/// The displayed position of every location published so far, bound to the key and the rule
/// they were made with. A location in the store is shown at its stored position whatever its
/// listings (`PrivacyMask.keeping(_:)`); new locations are placed and added (`add(_:mask:)`).
/// Every fresh draw of a published location is one more sample for an attacker who averages
/// them (or intersects their rings or groups), so the store is what makes a rebuild safe.
///
/// The store holds location keys (which, for locations without a building key, are the true
/// coordinates quantised to 1e-6°) beside displayed positions: it is as secret as the key.
/// Pins has no file I/O: `serialized()` and `init(serialized:mask:)` give the bytes to keep
/// (little-endian: "GCPMASK2", the key fingerprint's 32 hex digits, the rule — K (0 for the
/// plain annulus), the annulus's two bounds, the cap and the spot —, the count, then (tag,
/// value, group, longitude, latitude) per location sorted by key, then a SipHash-2-4 MAC
/// over everything before it, keyed by a key derived from the secret key: a file altered,
/// forged or truncated by anyone without the key is refused).
public struct MaskStore: Sendable, Equatable {
    /// A displayed position, degrees, and the shared point's group (0 under the plain annulus).
    struct Position: Sendable, Equatable {
        var longitude: Double, latitude: Double
        var group: UInt64 = 0
    }

    /// The fingerprint (`PinsKey.fingerprint`) of the key the store was last used with.
    public private(set) var keyFingerprint: String
    /// The smallest offset of the annulus the store was last used with, metres.
    public private(set) var minDistance: Double
    /// The largest offset of the annulus the store was last used with, metres.
    public private(set) var maxDistance: Double
    /// The shared-point rule the store was last used with, nil for the plain annulus.
    public private(set) var rule: AnonymityRule?
    /// Whether the MAC was checked (false for a store read with another key than its own).
    public private(set) var isVerified = true
    var positions: [LocationKey: Position] = [:]
    /// The MAC's key, derived from the secret key.
    private var mac: SipHash24

    static let magic = Array("GCPMASK2".utf8)

    /// An empty store for `mask`'s key and rule.
    public init(for mask: PrivacyMask) {
        keyFingerprint = mask.keyFingerprint
        minDistance = mask.minDistance
        maxDistance = mask.maxDistance
        rule = mask.anonymity
        mac = mask.fileHasher
    }

    /// Locations stored.
    public var count: Int { positions.count }

    /// The number of distinct shared points among the stored positions (0 under the annulus).
    public var groupCount: Int { Set(positions.values.lazy.filter { $0.group != 0 }.map(\.group)).count }

    /// The stored displayed position of a location, nil when it has none yet.
    public func displayedPosition(of key: LocationKey) -> (longitude: Double, latitude: Double)? {
        positions[key].map { ($0.longitude, $0.latitude) }
    }

    /// What differs between the store and `mask` ("another key", "another rule"), or nil when
    /// the store was made with this key and rule.
    public func mismatch(with mask: PrivacyMask) -> String? {
        var what: [String] = []
        if mask.keyFingerprint != keyFingerprint { what.append("another key") }
        if mask.anonymity != rule || (rule == nil && (mask.minDistance != minDistance || mask.maxDistance != maxDistance)) {
            what.append("another rule")
        }
        return what.isEmpty ? nil : what.joined(separator: " and ")
    }

    /// A rule in words, as messages name it.
    public static func describe(_ rule: AnonymityRule?, _ minDistance: Double, _ maxDistance: Double) -> String {
        guard let rule else { return "the plain \(Int(minDistance))–\(Int(maxDistance)) m annulus" }
        return "points shared by \(rule.minimum) locations, cap \(Int(rule.cap)) m"
    }

    /// Records `mask`'s key and rule as the store's (the stored positions stay as they are;
    /// only locations added later are placed with the new key and rule).
    public mutating func adopt(_ mask: PrivacyMask) {
        keyFingerprint = mask.keyFingerprint
        minDistance = mask.minDistance
        maxDistance = mask.maxDistance
        rule = mask.anonymity
        mac = mask.fileHasher
        isVerified = true
    }

    /// How many of the locations of `listings` the store holds, and how many they have.
    /// - Complexity: O(n) expected.
    public func overlap(with listings: PinListings) -> (known: Int, locations: Int) {
        var seen = Set<LocationKey>()
        for i in 0..<listings.count { seen.insert(listings.key(i)) }
        return (seen.lazy.filter { positions[$0] != nil }.count, seen.count)
    }

    /// Places and stores every location of `listings` not stored yet, as `PinIndex` places it
    /// (`PrivacyMask.placement`): a stored location keeps its position whatever listings are
    /// added to it; listings that conflict with their location are left out (and placed
    /// nowhere), and under a shared-point rule a location with no group yet is not stored.
    /// - Parameters:
    ///   - listings: the listings to publish.
    ///   - mask: the mask (key and rule) that places them.
    ///   - tolerance: as `PinOptions.locationTolerance`.
    ///   - threads: kept for callers; the placement is sequential (the same for any number).
    /// - Returns: the number of locations added.
    /// - Complexity: O(n) expected, plus the grouping of new locations.
    @discardableResult
    public mutating func add(_ listings: PinListings, mask: PrivacyMask,
                             tolerance: Double = PinOptions.defaultLocationTolerance, threads: Int = 1) -> Int {
        let placement = mask.keeping(self).placement(of: listings, tolerance: tolerance)
        var added = 0
        for (key, p) in placement.entries where positions[key] == nil { positions[key] = p; added += 1 }
        return added
    }

    /// The store as bytes (the same bytes for the same contents and key).
    /// - Complexity: O(count log count).
    public func serialized() -> [UInt8] {
        var out = Self.magic
        func word(_ w: UInt64) { for j in 0..<8 { out.append(UInt8(truncatingIfNeeded: w >> UInt64(8 * j))) } }
        out += Array(keyFingerprint.utf8)
        word(UInt64(rule?.minimum ?? 0)); word(minDistance.bitPattern); word(maxDistance.bitPattern)
        word((rule?.cap ?? 0).bitPattern); word((rule?.spot ?? 0).bitPattern)
        word(UInt64(positions.count))
        for (key, p) in positions.sorted(by: { $0.key < $1.key }) {
            word(key.tag); word(key.value); word(p.group); word(p.longitude.bitPattern); word(p.latitude.bitPattern)
        }
        word(mac.hash(bytes: out))
        return out
    }

    /// A store from `serialized()`'s bytes, its MAC checked with `mask`'s key when the store
    /// was made with that key (`isVerified`); a store made with another key is read unchecked
    /// and `mismatch(with:)` names the key.
    /// - Throws: `PinError.invalidParameter` (name `mask`) for bytes that are not a store, are
    ///   truncated, or were altered or forged.
    public init(serialized bytes: some Collection<UInt8>, mask: PrivacyMask) throws(PinError) {
        let b = Array(bytes)
        func bad(_ what: String) -> PinError { .invalidParameter(name: "mask", value: "\(b.count) bytes", requirement: what) }
        let head = 8 + 32 + 48, entry = 40
        if b.count >= 8, Array(b[0..<8]) == Array("GCPMASK1".utf8) {
            throw bad("it was written by an earlier version of geocluster (GCPMASK1, before shared points); keep it as a record and start a new mask file")
        }
        guard b.count >= head + 8, Array(b[0..<8]) == Self.magic else { throw bad("not a mask file (it does not start with GCPMASK2)") }
        func word(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << UInt64(8 * $1) } }
        let n = word(head - 8)
        guard n <= UInt64(b.count), b.count == head + Int(n) * entry + 8 else { throw bad("the mask file is truncated (its length does not match its count)") }
        keyFingerprint = String(decoding: b[8..<40], as: UTF8.self)
        mac = mask.fileHasher
        isVerified = keyFingerprint == mask.keyFingerprint
        if isVerified && mac.hash(bytes: b[0..<(b.count - 8)]) != word(b.count - 8) {
            throw bad("the mask file was altered or is not this key's (its MAC does not match); restore it from a backup")
        }
        let k = word(40)
        minDistance = Double(bitPattern: word(48)); maxDistance = Double(bitPattern: word(56))
        let cap = Double(bitPattern: word(64)), spot = Double(bitPattern: word(72))
        guard (try? PrivacyMask.check(minDistance: minDistance, maxDistance: maxDistance)) != nil else { throw bad("its offset range is invalid") }
        if k == 0 { rule = nil } else {
            guard k <= UInt64(AnonymityRule.largestMinimum), let r = try? AnonymityRule(minimum: Int(k), cap: cap, spot: spot) else {
                throw bad("its rule is invalid")
            }
            rule = r
        }
        positions.reserveCapacity(Int(n))
        for i in 0..<Int(n) {
            let at = head + entry * i
            let tag = word(at), lon = Double(bitPattern: word(at + 24)), lat = Double(bitPattern: word(at + 32))
            guard tag == 1 || tag == 2, lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else {
                throw bad("location \(i + 1) is not a valid entry")
            }
            positions[LocationKey(tag: tag, value: word(at + 8))] = Position(longitude: lon, latitude: lat, group: word(at + 16))
        }
    }
}

extension PrivacyMask {
    /// This mask, showing every location stored in `store` at its stored position (whatever
    /// the key, the annulus or the true coordinate) and drawing only the others.
    public func keeping(_ store: MaskStore) -> PrivacyMask {
        var m = self
        m.stored = store.positions
        return m
    }
}

extension PrivacyMask {
    /// Each listing's displayed position, in the listings' order, as a `PinIndex` built with
    /// this mask shows it: for callers that hand positions to other code (a benchmark's
    /// baselines) and must hand over displayed ones only. A listing the index would not show
    /// (set aside or held back, `PinIndex.setAside`) gets NaN.
    /// - Complexity: O(n) expected, plus the grouping of new locations.
    public func displayedPositions(of listings: PinListings,
                                   tolerance: Double = PinOptions.defaultLocationTolerance) -> (longitudes: [Double], latitudes: [Double]) {
        let placement = placement(of: listings, tolerance: tolerance)
        let left = Set(placement.conflicting)
        var lon = [Double](repeating: .nan, count: listings.count), lat = lon
        for i in 0..<listings.count where !left.contains(listings.ids[i]) {
            guard let p = placement.entries[listings.key(i)] else { continue }
            lon[i] = p.longitude; lat[i] = p.latitude
        }
        return (lon, lat)
    }
}
