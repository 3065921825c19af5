// Step 1 of the build (PinIndex.swift's header): listings grouped into locations, the
// locations put in canonical order and given their displayed (masked) positions.

import ClusterCore

/// Step 1's result: the distinct locations in canonical order, each with its displayed
/// position and its listings. It holds no true coordinate.
struct MaskedLocations {
    /// Each location's token (the keyed hash of its key), which put it in its place.
    var token: [UInt64]
    /// Displayed positions, in degrees and in Web Mercator units.
    var longitude: [Double], latitude: [Double]
    var x: [Double], y: [Double]
    /// Location l's listings are the input rows `order[firstRow[l]..<firstRow[l + 1]]`, by id.
    var firstRow: [Int32]
    var order: [Int32]
    /// Listings per location.
    var listingCount: [Int32]
    var count: Int { token.count }
}

/// Listings grouped by location key, the locations numbered in the order first seen.
struct KeyGroups {
    /// Each listing's location.
    var locationOf: [Int32]
    /// Each location's key (`LocationKey`'s tag and value).
    var tag: [UInt64], value: [UInt64]
    /// Each location's first listing's true coordinate (in input order), and the locations
    /// with a listing elsewhere (each once, in no order).
    var lon: [Double], lat: [Double]
    var mixed: [Int]
}

/// The keys a build derives from the privacy policy: the keyed hash behind tokens and ids,
/// and the mask (nil when disabled).
struct BuildKeys {
    let hasher: SipHash24
    var mask: PrivacyMask?

    init(_ privacy: PrivacyPolicy) {
        switch privacy {
        case .disabled: hasher = SipHash24(k0: 0x7069_6e73_2d6f_7065, k1: 0x6e2d_6964_732d_3031); mask = nil
        case .displaced(let m): hasher = m.idHasher; mask = m
        }
    }
}

/// The listings a build leaves out, by id (see `Placement`).
public struct SetAside: Sendable, Equatable {
    /// Listings that conflict with their location (a building id given to a listing elsewhere:
    /// a data error, or a listing spoofed with another building's id), each dropped on its own.
    public var conflicting: [Int64] = []
    /// Listings whose location has no shared point yet: too few compatible locations within
    /// the rule's cap. They are published once enough neighbours arrive.
    public var heldBack: [Int64] = []
    /// Locations with keys of their own merged into one place, before their first publication
    /// (`PrivacyMask.unitRadius`: units of one building given keys of their own): each set as
    /// the smallest listing id of each of its keys, its representative's first. Their
    /// listings are published, all at the representative's point.
    public var mergedUnits: [[Int64]] = []
    /// Nothing left out.
    public init() {}
}

extension PinIndex {
    /// Step 0, place: drops the listings that conflict with their location and, under a
    /// shared-point rule, those held back; then gives every location its displayed position
    /// (`PrivacyMask.placement`) as a stored one of `keys.mask`. Under a shared-point rule each
    /// listing becomes a listing of its group (key tag 3, coordinates the group's point), so
    /// the index sees one location per shared point and nothing of who is grouped with whom.
    static func place(_ listings: inout PinListings, keys: inout BuildKeys, tolerance: Double) -> SetAside {
        var out = SetAside()
        guard let mask = keys.mask else {
            var groups = groupByKey(listings)
            let anchors = LocationAnchors(&groups, listings: listings, tolerance: tolerance)
            out.conflicting = LocationAnchors.outlierRows(groups, anchors: anchors, listings: listings, tolerance: tolerance) { _ in true }
                .map { listings.ids[$0] }.sorted()
            listings.removeListings(withIDs: Set(out.conflicting))
            return out
        }
        let placement = mask.placement(of: listings, tolerance: tolerance)
        out.conflicting = placement.conflicting
        out.heldBack = placement.heldBack
        out.mergedUnits = firstListings(of: placement.merged, in: listings)
        listings.removeListings(withIDs: Set(out.conflicting + out.heldBack))
        var stored: [LocationKey: MaskStore.Position] = [:]
        // Locations shown at one point (a group, or under the plain mask units merged into one
        // place) become one location there: keyed by the group, or by the point.
        var keysAt: [SIMD2<UInt64>: Int] = [:]
        if mask.anonymity == nil {
            for p in placement.entries.values { keysAt[SIMD2(p.longitude.bitPattern, p.latitude.bitPattern), default: 0] += 1 }
        }
        for i in 0..<listings.count {
            let key = listings.key(i), p = placement.entries[key]!
            let bits = SIMD2(p.longitude.bitPattern, p.latitude.bitPattern)
            guard mask.anonymity != nil || keysAt[bits]! > 1 else { stored[key] = p; continue }
            let place = mask.anonymity != nil ? p.group : keys.hasher.hash(bits.x, bits.y)
            listings.keyTags[i] = 3; listings.keyValues[i] = place
            listings.longitudes[i] = p.longitude; listings.latitudes[i] = p.latitude
            stored[LocationKey(tag: 3, value: place)] = p
        }
        var m = mask
        m.stored = stored
        keys.mask = m
        return out
    }

    /// The smallest listing id of each key of `sets`, set by set.
    static func firstListings(of sets: [[LocationKey]], in listings: PinListings) -> [[Int64]] {
        guard !sets.isEmpty else { return [] }
        var first: [LocationKey: Int64] = [:]
        for set in sets { for k in set { first[k] = .max } }
        for i in 0..<listings.count {
            let k = listings.key(i)
            if let f = first[k], listings.ids[i] < f { first[k] = listings.ids[i] }
        }
        return sets.map { $0.map { first[$0]! } }
    }

    /// Step 1, mask: takes the listings (whose true positions and keys it frees once read)
    /// and returns the distinct locations in canonical order, by token (keyed hash of the
    /// key), key, then id, with their displayed positions from `keys.mask`.
    ///
    /// Listings are grouped into locations by their key (a hash table, locations numbered by
    /// first row), then the locations, not the listings, are put in the canonical order: by
    /// token with a radix sort, equal tokens (a 64-bit collision) by key. Within a location,
    /// listings go by id. Each location is placed at its anchor (`LocationAnchors`: the
    /// coordinate-wise median of its listings, whatever their ids or order) through the mask.
    /// The listings are those step 0 kept: a location's listings were tested there (against its
    /// published point, or against each other), so none is refused here.
    static func maskedLocations(of listings: inout PinListings, keys: BuildKeys, tolerance: Double,
                                threads: Int) -> MaskedLocations {
        var groups = groupByKey(listings)
        let L = groups.tag.count
        // One anchor per location, in the order locations were numbered (first seen in the
        // input), where their keys are read in sequence; then placed, and gathered into
        // canonical order in one pass of a record per location.
        var anchors = LocationAnchors(&groups, listings: listings, tolerance: tolerance)
        var byToken = canonicalOrder(tags: groups.tag, values: groups.value, hasher: keys.hasher)
        let rows = rowsByLocation(byToken, locationOf: groups.locationOf, ids: listings.ids)
        groups.locationOf = []
        // True positions and keys are not read again.
        listings.longitudes = []; listings.latitudes = []; listings.keyTags = []; listings.keyValues = []
        var placed = displayedPositions(groups, anchors: anchors, mask: keys.mask, threads: threads)
        anchors = LocationAnchors()
        var locations = MaskedLocations(token: [], longitude: [], latitude: [], x: [], y: [],
                                        firstRow: rows.firstRow, order: rows.order, listingCount: [])
        inCanonicalOrder(placed, byToken, into: &locations)
        placed = []
        byToken = []; groups = KeyGroups(locationOf: [], tag: [], value: [], lon: [], lat: [], mixed: [])
        locations.listingCount = (0..<L).map { Int32(rows.firstRow[$0 + 1] - rows.firstRow[$0]) }
        return locations
    }

    /// Groups the listings by location key: a hash table from key to location.
    /// - Complexity: O(n) expected.
    static func groupByKey(_ listings: PinListings) -> KeyGroups {
        let n = listings.count
        var locOf = [Int32](repeating: 0, count: n)
        var kTag: [UInt64] = [], kValue: [UInt64] = []
        var kLon: [Double] = [], kLat: [Double] = [], isMixed: [Bool] = [], mixed: [Int] = []
        kTag.reserveCapacity(n / 4 + 16); kValue.reserveCapacity(n / 4 + 16)
        kLon.reserveCapacity(n / 4 + 16); kLat.reserveCapacity(n / 4 + 16); isMixed.reserveCapacity(n / 4 + 16)
        // Each slot holds its key beside the location number, so a probe reads one cache
        // line (comparing against the key arrays was a second miss per listing).
        struct Slot { var value: UInt64; var tag: UInt32; var location: Int32 }
        var capacity = 1 << 12
        var t = UnsafeMutableBufferPointer<Slot>.allocate(capacity: capacity)
        t.initialize(repeating: Slot(value: 0, tag: 0, location: -1))
        defer { t.deallocate() }
        @inline(__always) func slot(_ t: UInt64, _ v: UInt64, _ mask: Int) -> Int {
            var h = v &+ t &* 0x9E37_79B9_7F4A_7C15
            h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
            h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
            return Int(truncatingIfNeeded: h ^ (h >> 33)) & mask
        }
        listings.keyTags.withUnsafeBufferPointer { tags in
        listings.keyValues.withUnsafeBufferPointer { values in
        listings.longitudes.withUnsafeBufferPointer { lons in
        listings.latitudes.withUnsafeBufferPointer { lats in
        locOf.withUnsafeMutableBufferPointer { locOf in
            for i in 0..<n {
                let k = tags[i] == 0 ? LocationKey(longitude: lons[i], latitude: lats[i])
                    : LocationKey(tag: UInt64(tags[i]), value: values[i])
                if 2 * kTag.count >= capacity {
                    capacity *= 2
                    t.deallocate()
                    t = .allocate(capacity: capacity)
                    t.initialize(repeating: Slot(value: 0, tag: 0, location: -1))
                    for l in 0..<kTag.count {
                        var s = slot(kTag[l], kValue[l], capacity - 1)
                        while t[s].location >= 0 { s = (s + 1) & (capacity - 1) }
                        t[s] = Slot(value: kValue[l], tag: UInt32(kTag[l]), location: Int32(l))
                    }
                }
                var s = slot(k.tag, k.value, capacity - 1)
                let tag32 = UInt32(k.tag)
                while true {
                    let e = t[s]
                    if e.location < 0 {
                        let l = Int32(kTag.count)
                        t[s] = Slot(value: k.value, tag: tag32, location: l)
                        kTag.append(k.tag); kValue.append(k.value)
                        kLon.append(lons[i]); kLat.append(lats[i]); isMixed.append(false)
                        locOf[i] = l
                        break
                    }
                    if e.value == k.value && e.tag == tag32 {
                        let l = Int(e.location)
                        locOf[i] = e.location
                        // Listings of one location nearly always share its first coordinate.
                        if (lons[i] != kLon[l] || lats[i] != kLat[l]) && !isMixed[l] { isMixed[l] = true; mixed.append(l) }
                        break
                    }
                    s = (s + 1) & (capacity - 1)
                }
            }
        }}}}}
        return KeyGroups(locationOf: locOf, tag: kTag, value: kValue, lon: kLon, lat: kLat, mixed: mixed)
    }

    /// The locations (numbered as in `tags`/`values`) in canonical order, each with its token:
    /// by token, equal tokens by key.
    /// - Complexity: O(L) for the radix sort, plus the sort of equal tokens (rare).
    static func canonicalOrder(tags kTag: [UInt64], values kValue: [UInt64], hasher: SipHash24) -> [TokenRoot] {
        let L = kTag.count
        var byToken = [TokenRoot](unsafeUninitializedCapacity: L) { b, c in
            for l in 0..<L { b[l] = TokenRoot(key: hasher.hash(kTag[l], kValue[l]), root: Int32(l)) }
            c = L
        }
        var scratch: [TokenRoot] = []
        Cut.sortByKey(&byToken, scratch: &scratch)
        scratch = []
        var runStart = 0
        while runStart < L {
            var runEnd = runStart + 1
            while runEnd < L && byToken[runEnd].key == byToken[runStart].key { runEnd += 1 }
            if runEnd - runStart > 1 {
                byToken[runStart..<runEnd].sort { a, b in
                    (kTag[Int(a.root)], kValue[Int(a.root)]) < (kTag[Int(b.root)], kValue[Int(b.root)])
                }
            }
            runStart = runEnd
        }
        return byToken
    }

    /// The listings by location in canonical order: location r's input rows are
    /// `order[firstRow[r]..<firstRow[r + 1]]`, placed in input order, then by id.
    /// - Complexity: O(n), plus the sort of a location whose ids do not ascend.
    static func rowsByLocation(_ byToken: [TokenRoot], locationOf locOf: [Int32],
                               ids: [Int64]) -> (firstRow: [Int32], order: [Int32]) {
        let n = locOf.count, L = byToken.count
        var rankOf = [Int32](repeating: 0, count: L)
        var locFirstRow = [Int32](repeating: 0, count: L + 1)   // first position in `order` of each location
        var order = [Int32](repeating: 0, count: n)
        rankOf.withUnsafeMutableBufferPointer { rankOf in
        locFirstRow.withUnsafeMutableBufferPointer { first in
        order.withUnsafeMutableBufferPointer { order in
        locOf.withUnsafeBufferPointer { locOf in
        ids.withUnsafeBufferPointer { ids in
            for r in 0..<L { rankOf[Int(byToken[r].root)] = Int32(r) }
            for i in 0..<n { first[Int(rankOf[Int(locOf[i])]) + 1] += 1 }
            for r in 0..<L { first[r + 1] += first[r] }
            var next = Array(first[0..<L])
            next.withUnsafeMutableBufferPointer { next in
                for i in 0..<n {
                    let r = Int(rankOf[Int(locOf[i])])
                    order[Int(next[r])] = Int32(i); next[r] += 1
                }
            }
            for r in 0..<L {
                let lo = Int(first[r]), hi = Int(first[r + 1])
                var sorted = true
                var p = lo + 1
                while p < hi { if ids[Int(order[p])] < ids[Int(order[p - 1])] { sorted = false; break }; p += 1 }
                if !sorted {
                    var slice = UnsafeMutableBufferPointer(rebasing: order[lo..<hi])
                    slice.sort { ids[Int($0)] < ids[Int($1)] }
                }
            }
        }}}}}
        rankOf = []
        return (locFirstRow, order)
    }

    /// A location's displayed position in degrees and in Mercator units.
    struct Placed { var lon: Double, lat: Double, x: Double, y: Double }

    /// Each location's displayed position (in the order of `groups`): its anchor through the
    /// mask, or the anchor itself without one.
    static func displayedPositions(_ groups: KeyGroups, anchors: LocationAnchors, mask: PrivacyMask?,
                                   threads: Int) -> [Placed] {
        let L = groups.tag.count
        var placed = [Placed](repeating: Placed(lon: 0, lat: 0, x: 0, y: 0), count: L)
        anchors.longitude.withUnsafeBufferPointer { lons in
        anchors.latitude.withUnsafeBufferPointer { lats in
        placed.withUnsafeMutableBufferPointer { placed in
        groups.tag.withUnsafeBufferPointer { kTag in
        groups.value.withUnsafeBufferPointer { kValue in
          // Each location on its own (disjoint slots), in parts on `threads` threads.
          let parts = L >= 1 << 14 ? threads : 1
          Parallel.forEachChunk(count: parts, grain: 1, threads: threads) { chunk, _ in
            for part in chunk {
              for l in (L * part / parts)..<(L * (part + 1) / parts) {
                var lon = lons[l], lat = lats[l]
                if let mask {
                    (lon, lat) = mask.displayedPosition(of: LocationKey(tag: kTag[l], value: kValue[l]), longitude: lon, latitude: lat)
                }
                placed[l] = Placed(lon: lon, lat: lat, x: WebMercator.x(longitude: lon), y: WebMercator.y(latitude: lat))
              }
            }
          }
        }}}}}
        return placed
    }

    /// Writes the tokens and positions of `locations` in canonical order: `placed` (in the
    /// order locations were numbered) gathered through `byToken`.
    static func inCanonicalOrder(_ placed: [Placed], _ byToken: [TokenRoot], into locations: inout MaskedLocations) {
        let L = byToken.count
        var locToken = [UInt64](repeating: 0, count: L)
        var lLon = [Double](repeating: 0, count: L), lLat = [Double](repeating: 0, count: L)
        var lX = [Double](repeating: 0, count: L), lY = [Double](repeating: 0, count: L)
        locToken.withUnsafeMutableBufferPointer { locToken in
        lLon.withUnsafeMutableBufferPointer { lLon in
        lLat.withUnsafeMutableBufferPointer { lLat in
        lX.withUnsafeMutableBufferPointer { lX in
        lY.withUnsafeMutableBufferPointer { lY in
        byToken.withUnsafeBufferPointer { byToken in
        placed.withUnsafeBufferPointer { placed in
            for r in 0..<L {
                let p = placed[Int(byToken[r].root)]
                locToken[r] = byToken[r].key
                lLon[r] = p.lon; lLat[r] = p.lat; lX[r] = p.x; lY[r] = p.y
            }
        }}}}}}}
        locations.token = locToken
        locations.longitude = lLon; locations.latitude = lLat
        locations.x = lX; locations.y = lY
    }
}
