// The anonymity report's numbers: for each displayed point, how many locations an attacker who
// knows every location's true position (a building registry) must choose among.

import ClusterCore

/// For every location of a dataset under a `PrivacyMask`: its displayed point, the point's
/// public ring (`minDistance...R` metres around it; R is the mask's `maxDistance`, or with an
/// `AnonymityRule` the radius the rule gives the point) and k, the number of the dataset's
/// locations whose true position lies in that ring — the locations consistent with the point,
/// the true one among them — and the most of them within 30 m (the rule's spot) of one of
/// them. Under the plain mask each of them is equally likely to an attacker who knows only the
/// mask's rule (offsets are uniform in area over the ring), so an attacker who names the
/// fullest spot comes within 30 m of the truth with probability largestSpot / k. Under an
/// `AnonymityRule` that is at most 1/`minimum`, except where the cap was reached.
///
/// The audit reads true positions; what it exposes is the displayed points, the counts and
/// the displacement's distribution, never a true coordinate or a location's own displacement.
public struct AnonymityAudit: Sendable {
    /// One location's line of the report.
    public struct Location: Sendable, Equatable {
        /// The displayed position, degrees.
        public var longitude: Double, latitude: Double
        /// Locations consistent with the displayed point (its public ring holds their truth).
        public var k: Int
        /// The most of them within the rule's spot (30 m) of one of them: an attacker who names
        /// that spot is right for `largestSpot / k` of the ring.
        public var largestSpot: Int
        /// The public ring's outer radius, metres.
        public var ringRadius: Double
        /// The location's listings.
        public var listings: Int
        /// The location keys shown as this location (more than 1 for units merged into one
        /// place); k and largestSpot count keys.
        public var keys: Int = 1
    }

    /// Every location, by displayed latitude then longitude.
    public let locations: [Location]
    /// The mask's smallest offset (the ring's inner radius), metres.
    public let minDistance: Double
    /// The displacement (true to displayed, metres) at the quantiles 0.5 and 0.9.
    public let medianDisplacement: Double, displacement90: Double
    /// Locations whose displayed point is not in the ring of their own truth (a position stored
    /// with another offset range): the report counts them as they are published.
    public let outsideOwnRing: Int

    /// Locations held back (no shared point yet), not in `locations`.
    public let heldBack: Int

    /// The ids of listings left out because they conflict with their location (not where its
    /// other listings or its stored point are), in id order; not in `locations`.
    public let conflicting: [Int64]

    /// Audits `listings` under `mask` (its stored positions and rule included). Listings that
    /// conflict with their location are left out, as `PinIndex` leaves them out.
    /// - Complexity: O(L · m) where m is the locations in a ring or group.
    public init(listings: PinListings, mask: PrivacyMask, tolerance: Double = PinOptions.defaultLocationTolerance,
                threads: Int = 1) {
        var kept = listings
        let placement = mask.placement(of: listings, tolerance: tolerance)
        kept.removeListings(withIDs: Set(placement.conflicting))
        conflicting = placement.conflicting
        var groups = PinIndex.groupByKey(kept)
        let anchors = LocationAnchors(&groups, listings: kept, tolerance: tolerance)
        let keys = (0..<groups.tag.count).map { LocationKey(tag: groups.tag[$0], value: groups.value[$0]) }
        var counts = [Int](repeating: 0, count: keys.count), weight = [Int](repeating: 1, count: keys.count)
        for l in groups.locationOf { counts[Int(l)] += 1 }
        // Units merged into one place are one row, holding all their listings.
        let slot = Dictionary(uniqueKeysWithValues: keys.indices.map { (keys[$0], $0) })
        var merged = Set<Int>()
        for (unit, place) in placement.representative {
            guard let a = slot[unit], let r = slot[place] else { continue }
            counts[r] += counts[a]; weight[r] += 1; merged.insert(a)
        }
        let present = keys.indices.filter { placement.entries[keys[$0]] != nil && !merged.contains($0) }
        heldBack = keys.count - present.count - merged.count
        let shown = present.map { placement.entries[keys[$0]]! }
        let truth = present.map { (anchors.longitude[$0], anchors.latitude[$0]) }
        var rows: [Location]
        if let rule = mask.anonymity {
            rows = Self.groupRows(shown: shown, truth: truth, listings: present.map { counts[$0] }, keys: present.map { weight[$0] },
                                  spot: rule.spot)
        } else {
            rows = Self.ringRows(shown: shown, truth: truth, listings: present.map { counts[$0] }, mask: mask,
                                 longitudes: anchors.longitude, latitudes: anchors.latitude, threads: threads)
        }
        var moved = zip(truth, shown).map { Self.metres(from: $0.0, to: ($0.1.longitude, $0.1.latitude)) }
        outsideOwnRing = mask.anonymity != nil ? 0 : zip(moved, rows).filter { $0.0 < mask.minDistance - 1e-6 || $0.0 > $0.1.ringRadius + 1e-6 }.count
        // Members of a group share their point, k, spot and radius: their listings order them,
        // and rows equal in all of these are interchangeable (the same for any row order).
        rows.sort { ($0.latitude, $0.longitude, $0.listings, $0.ringRadius) < ($1.latitude, $1.longitude, $1.listings, $1.ringRadius) }
        locations = rows
        minDistance = mask.anonymity != nil ? 0 : mask.minDistance
        moved.sort()
        let L = moved.count
        medianDisplacement = L == 0 ? 0 : moved[(L - 1) / 2]
        displacement90 = L == 0 ? 0 : moved[min(L - 1, Int((0.9 * Double(L - 1)).rounded(.up)))]
    }

    /// Under a shared-point rule: k is the group's location keys, the spot the most of them
    /// within 2 × spot of one of its places (every key within `spot` of a guess lies there), the
    /// ring radius the farthest member from the point. (Units merged into one place are one row
    /// holding their `keys`.)
    static func groupRows(shown: [MaskStore.Position], truth: [(Double, Double)], listings: [Int], keys: [Int],
                          spot: Double) -> [Location] {
        var byGroup: [UInt64: [Int]] = [:]
        for (i, p) in shown.enumerated() { byGroup[p.group, default: []].append(i) }
        var rows = [Location](repeating: Location(longitude: 0, latitude: 0, k: 0, largestSpot: 0, ringRadius: 0, listings: 0), count: shown.count)
        for members in byGroup.values {
            let p = shown[members[0]]
            let radius = members.map { Self.metres(from: truth[$0], to: (p.longitude, p.latitude)) }.max() ?? 0
            let largest = members.map { a in
                members.filter { b in Self.metres(from: truth[a], to: truth[b]) <= 2 * spot }.reduce(0) { $0 + keys[$1] }
            }.max() ?? 0
            let k = members.reduce(0) { $0 + keys[$1] }
            for i in members {
                rows[i] = Location(longitude: p.longitude, latitude: p.latitude, k: k, largestSpot: largest,
                                   ringRadius: radius, listings: listings[i], keys: keys[i])
            }
        }
        return rows
    }

    /// Under the plain annulus: k is the locations whose truth lies in the ring around the point.
    static func ringRows(shown: [MaskStore.Position], truth: [(Double, Double)], listings: [Int], mask: PrivacyMask,
                         longitudes: [Double], latitudes: [Double], threads: Int) -> [Location] {
        let rings = RingCounter(longitudes: longitudes, latitudes: latitudes, cell: mask.maxDistance)
        let L = shown.count
        var rows = [Location](repeating: Location(longitude: 0, latitude: 0, k: 0, largestSpot: 0, ringRadius: 0, listings: 0), count: L)
        rows.withUnsafeMutableBufferPointer { rows in
            let parts = L >= 1 << 12 ? threads : 1
            Parallel.forEachChunk(count: parts, grain: 1, threads: threads) { chunk, _ in
                var scratch: [SIMD2<Double>] = []
                for part in chunk {
                    for l in (L * part / parts)..<(L * (part + 1) / parts) {
                        let d = shown[l]
                        let ring = mask.publicRing(longitude: d.longitude, latitude: d.latitude, rings: rings, scratch: &scratch)
                        rows[l] = Location(longitude: d.longitude, latitude: d.latitude, k: ring.census.count,
                                           largestSpot: ring.census.largestSpot, ringRadius: ring.radius, listings: listings[l])
                    }
                }
            }
        }
        return rows
    }

    /// The share of locations with k below `k`.
    public func share(kBelow k: Int) -> Double {
        locations.isEmpty ? 0 : Double(locations.lazy.filter { $0.k < k }.count) / Double(locations.count)
    }

    /// The share of locations whose ring is not anonymous at `k`: fewer than k locations, or a
    /// spot holding more than 1/k of them (`AnonymityRule`).
    public func share(notAnonymousAt k: Int) -> Double {
        locations.isEmpty ? 0 : Double(locations.lazy.filter { $0.largestSpot * k > $0.k }.count) / Double(locations.count)
    }

    /// The expected share of location keys an attacker finds within the spot (30 m), naming
    /// the spot of each ring that holds the most keys: the mean of largestSpot / k over keys.
    public var expectedSpotGuesses: Double {
        let keys = locations.reduce(0) { $0 + $1.keys }
        return keys == 0 ? 0 : locations.reduce(0) { $0 + Double($1.keys * $1.largestSpot) / Double(max($1.k, 1)) } / Double(keys)
    }

    /// The median k.
    public var medianK: Int {
        let k = locations.map(\.k).sorted()
        return k.isEmpty ? 0 : k[(k.count - 1) / 2]
    }

    /// East-north metres from a true position to a displayed one, as the mask measures offsets.
    static func metres(from p: (Double, Double), to d: (Double, Double)) -> Double {
        let m = WebMercator.metresPerDegree(latitude: p.1)
        var dl = d.0 - p.0
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let e = dl * m.longitude, n = (d.1 - p.1) * m.latitude
        return (e * e + n * n).squareRoot()
    }
}
