// The displayed position of every published location, kept so that none is ever drawn twice.

/// The displayed position of every location published so far, with the fingerprint of the key
/// and the annulus they were drawn with. A location in the store is shown at its stored
/// position whatever the key, the annulus or its listings (`PrivacyMask.keeping(_:)`); new
/// locations are drawn and added (`add(_:mask:)`). Every fresh draw of a published location is
/// one more sample for an attacker who averages them (or intersects their rings), so the store
/// is what makes a key rotation, a changed annulus or a rebuild safe.
///
/// The store holds location keys (which, for locations without a building key, are the true
/// coordinates quantised to 1e-6°) beside displayed positions: it is as secret as the key.
/// Pins has no file I/O: `serialized()` and `init(serialized:)` give the bytes to keep
/// (little-endian: "GCPMASK1", the fingerprint's 32 hex digits, the annulus's two bounds, the
/// count, then (tag, value, longitude, latitude) per location sorted by key, then a SipHash
/// check word over everything before it).
public struct MaskStore: Sendable, Equatable {
    /// A displayed position, degrees.
    struct Position: Sendable, Equatable { var longitude: Double, latitude: Double }

    /// The fingerprint (`PinsKey.fingerprint`) of the key the store was last used with.
    public private(set) var keyFingerprint: String
    /// The smallest offset of the annulus the store was last used with, metres.
    public private(set) var minDistance: Double
    /// The largest offset of the annulus the store was last used with, metres.
    public private(set) var maxDistance: Double
    var positions: [LocationKey: Position] = [:]

    static let magic = Array("GCPMASK1".utf8)
    static let check = SipHash24(k0: 0x6d61_736b_2d73_746f, k1: 0x7265_2d63_6865_636b)

    /// An empty store for `mask`'s key and annulus.
    public init(for mask: PrivacyMask) {
        keyFingerprint = mask.keyFingerprint
        minDistance = mask.minDistance
        maxDistance = mask.maxDistance
    }

    /// Locations stored.
    public var count: Int { positions.count }

    /// The stored displayed position of a location, nil when it has none yet.
    public func displayedPosition(of key: LocationKey) -> (longitude: Double, latitude: Double)? {
        positions[key].map { ($0.longitude, $0.latitude) }
    }

    /// What differs between the store and `mask` ("another key", "another offset range"), or
    /// nil when the store was made with this key and annulus.
    public func mismatch(with mask: PrivacyMask) -> String? {
        var what: [String] = []
        if mask.keyFingerprint != keyFingerprint { what.append("another key") }
        if mask.minDistance != minDistance || mask.maxDistance != maxDistance { what.append("another offset range") }
        return what.isEmpty ? nil : what.joined(separator: " and ")
    }

    /// Records `mask`'s key fingerprint and annulus as the store's (the stored positions stay
    /// as they are; only locations added later are drawn with the new key and annulus).
    public mutating func adopt(_ mask: PrivacyMask) {
        keyFingerprint = mask.keyFingerprint
        minDistance = mask.minDistance
        maxDistance = mask.maxDistance
    }

    /// Draws and stores the displayed position of every location of `listings` not stored yet,
    /// placed as `PinIndex` places it: from its anchor, the coordinate-wise median of its
    /// listings' true coordinates. A stored location keeps its position whatever listings
    /// are added to it.
    /// - Parameters:
    ///   - listings: the listings whose locations to store.
    ///   - mask: the mask that draws the positions of new locations.
    ///   - tolerance: as `PinOptions.locationTolerance`; the listings are checked before
    ///     anything is stored.
    ///   - threads: worker threads for the draws of an anonymity rule (the same draws for any number).
    /// - Returns: the number of locations added.
    /// - Throws: `PinError.inconsistentLocation` (nothing is stored then).
    /// - Complexity: O(n) expected.
    @discardableResult
    public mutating func add(_ listings: PinListings, mask: PrivacyMask,
                             tolerance: Double = PinOptions.defaultLocationTolerance, threads: Int = 1) throws(PinError) -> Int {
        var groups = PinIndex.groupByKey(listings)
        let anchors = LocationAnchors(&groups, listings: listings, tolerance: tolerance)
        if let error = anchors.error(groups, listings: listings, tolerance: tolerance) { throw error }
        let keys = (0..<groups.tag.count).map { LocationKey(tag: groups.tag[$0], value: groups.value[$0]) }
        let fresh = keys.indices.filter { positions[keys[$0]] == nil }
        guard !fresh.isEmpty else { return 0 }
        // With an anonymity rule every ring is counted among all the locations.
        let drawn = mask.anonymity == nil
            ? fresh.map { mask.drawnPosition(of: keys[$0], longitude: anchors.longitude[$0], latitude: anchors.latitude[$0]) }
            : { let all = mask.drawnPositions(keys: keys, longitudes: anchors.longitude, latitudes: anchors.latitude, threads: threads,
                                              skipping: keys.map { positions[$0] != nil })
                return fresh.map { all[$0] } }()
        for (l, p) in zip(fresh, drawn) { positions[keys[l]] = Position(longitude: p.longitude, latitude: p.latitude) }
        return fresh.count
    }

    /// The store as bytes (the same bytes for the same contents).
    /// - Complexity: O(count log count).
    public func serialized() -> [UInt8] {
        var out = Self.magic
        func word(_ w: UInt64) { for j in 0..<8 { out.append(UInt8(truncatingIfNeeded: w >> UInt64(8 * j))) } }
        out += Array(keyFingerprint.utf8)
        word(minDistance.bitPattern); word(maxDistance.bitPattern); word(UInt64(positions.count))
        for (key, p) in positions.sorted(by: { $0.key < $1.key }) {
            word(key.tag); word(key.value); word(p.longitude.bitPattern); word(p.latitude.bitPattern)
        }
        word(Self.check.hash(bytes: out))
        return out
    }

    /// A store from `serialized()`'s bytes.
    /// - Throws: `PinError.invalidParameter` (name `mask`) for bytes that are not a store, are
    ///   truncated or were altered.
    public init(serialized bytes: some Collection<UInt8>) throws(PinError) {
        let b = Array(bytes)
        func bad(_ what: String) -> PinError {
            .invalidParameter(name: "mask", value: "\(b.count) bytes", requirement: what)
        }
        let head = 8 + 32 + 24
        guard b.count >= head + 8, Array(b[0..<8]) == Self.magic else { throw bad("not a mask file (it does not start with GCPMASK1)") }
        func word(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << UInt64(8 * $1) } }
        guard Self.check.hash(bytes: b[0..<(b.count - 8)]) == word(b.count - 8) else {
            throw bad("the mask file is truncated or was altered (its check word does not match); restore it from a backup")
        }
        let n = word(head - 8)
        guard n <= UInt64(b.count), b.count == head + Int(n) * 32 + 8 else { throw bad("the mask file's length does not match its count") }
        keyFingerprint = String(decoding: b[8..<40], as: UTF8.self)
        minDistance = Double(bitPattern: word(40))
        maxDistance = Double(bitPattern: word(48))
        guard (try? PrivacyMask.check(minDistance: minDistance, maxDistance: maxDistance)) != nil else { throw bad("its offset range is invalid") }
        positions.reserveCapacity(Int(n))
        for k in 0..<Int(n) {
            let at = head + 32 * k
            let tag = word(at), lon = Double(bitPattern: word(at + 16)), lat = Double(bitPattern: word(at + 24))
            guard tag == 1 || tag == 2, lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else {
                throw bad("location \(k + 1) is not a valid entry")
            }
            positions[LocationKey(tag: tag, value: word(at + 8))] = Position(longitude: lon, latitude: lat)
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
    /// this mask shows it (one position per location, placed from its anchor, the median of
    /// its listings): for callers that hand positions to other code (a benchmark's baselines)
    /// and must hand over displayed ones only.
    /// - Throws: `PinError.inconsistentLocation`, as `MaskStore.add(_:mask:tolerance:)`.
    /// - Complexity: O(n) expected.
    public func displayedPositions(of listings: PinListings,
                                   tolerance: Double = PinOptions.defaultLocationTolerance) throws(PinError) -> (longitudes: [Double], latitudes: [Double]) {
        var store = MaskStore(for: self)
        if let stored { store.positions = stored }
        try store.add(listings, mask: self, tolerance: tolerance)
        var lon = [Double](repeating: 0, count: listings.count), lat = lon
        for i in 0..<listings.count {
            let p = store.positions[listings.key(i)]!
            lon[i] = p.longitude; lat[i] = p.latitude
        }
        return (lon, lat)
    }
}
