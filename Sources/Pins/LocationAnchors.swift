// Where a location truly is: the coordinate-wise median of its listings' true coordinates
// (its anchor), and the check that a location key names one place.

import ClusterCore

/// A location key whose listings lie farther apart than `PinOptions.locationTolerance`: a
/// building id given to listings in different places (a data error, or a listing spoofed
/// with a target's building id).
public struct LocationConflict: Sendable, Equatable {
    /// Every listing of the location, ascending.
    public var listingIDs: [Int64]
    /// The diagonal of its listings' bounding box, metres (at least their largest distance
    /// apart divided by √2).
    public var span: Double
}

/// Each location's anchor and whether its listings agree, for locations given as rows
/// `order[first[l]..<first[l + 1]]`.
struct LocationAnchors {
    var longitude: [Double], latitude: [Double]
    /// The locations whose listings do not all lie within half the tolerance of the anchor.
    var conflicts: [Int]

    /// Nothing (what is left once the anchors are used).
    init() { longitude = []; latitude = []; conflicts = [] }

    /// The anchor of each location is the coordinate-wise median of its listings' true
    /// coordinates (the mean of the middle two for an even count): it does not depend on the
    /// listings' order or ids, and a location whose listings agree is not moved by a minority
    /// of added listings. A location conflicts when one of its listings lies more than
    /// `tolerance / 2` metres from the anchor (so every two accepted listings of one location
    /// lie within `tolerance` of each other).
    /// - Complexity: O(n) plus a sort of each location's coordinates (O(k log k) for k listings).
    init(first: [Int32], order: [Int32], longitudes: [Double], latitudes: [Double], tolerance: Double, threads: Int) {
        let L = first.count - 1
        var lon = [Double](repeating: 0, count: L), lat = lon
        var bad = [Bool](repeating: false, count: L)
        let half = tolerance / 2, halfSquared = half * half
        first.withUnsafeBufferPointer { first in
        order.withUnsafeBufferPointer { order in
        longitudes.withUnsafeBufferPointer { lons in
        latitudes.withUnsafeBufferPointer { lats in
        lon.withUnsafeMutableBufferPointer { outLon in
        lat.withUnsafeMutableBufferPointer { outLat in
        bad.withUnsafeMutableBufferPointer { bad in
            let parts = L >= 1 << 14 ? threads : 1
            Parallel.forEachChunk(count: parts, grain: 1, threads: threads) { chunk, _ in
                var xs: [Double] = [], ys: [Double] = []
                for part in chunk {
                    for l in (L * part / parts)..<(L * (part + 1) / parts) {
                        let lo = Int(first[l]), hi = Int(first[l + 1])
                        let i0 = Int(order[lo])
                        if hi - lo == 1 { outLon[l] = lons[i0]; outLat[l] = lats[i0]; continue }
                        var same = true
                        for p in (lo + 1)..<hi {
                            let i = Int(order[p])
                            if lons[i] != lons[i0] || lats[i] != lats[i0] { same = false; break }
                        }
                        if same { outLon[l] = lons[i0]; outLat[l] = lats[i0]; continue }
                        xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
                        for p in lo..<hi { let i = Int(order[p]); xs.append(lons[i]); ys.append(lats[i]) }
                        let mx = Self.median(&xs), my = Self.median(&ys)
                        outLon[l] = mx; outLat[l] = my
                        let m = WebMercator.metresPerDegree(latitude: my)
                        for p in lo..<hi {
                            let i = Int(order[p])
                            let dx = (lons[i] - mx) * m.longitude, dy = (lats[i] - my) * m.latitude
                            if !(dx * dx + dy * dy <= halfSquared) { bad[l] = true; break }
                        }
                    }
                }
            }
        }}}}}}}
        longitude = lon; latitude = lat
        conflicts = bad.indices.filter { bad[$0] }
    }

    /// The median of `values` (the mean of the middle two for an even count); sorts them.
    static func median(_ values: inout [Double]) -> Double {
        values.sort()
        let k = values.count
        return k % 2 == 1 ? values[k / 2] : (values[k / 2 - 1] + values[k / 2]) / 2
    }

    /// The conflict of location `l`: its listings' ids and span.
    static func conflict(first: [Int32], order: [Int32], location l: Int, listings: PinListings) -> LocationConflict {
        let rows = order[Int(first[l])..<Int(first[l + 1])].map(Int.init)
        let lons = rows.map { listings.longitudes[$0] }, lats = rows.map { listings.latitudes[$0] }
        let m = WebMercator.metresPerDegree(latitude: (lats.min()! + lats.max()!) / 2)
        let dx = (lons.max()! - lons.min()!) * m.longitude, dy = (lats.max()! - lats.min()!) * m.latitude
        return LocationConflict(listingIDs: rows.map { listings.ids[$0] }.sorted(), span: (dx * dx + dy * dy).squareRoot())
    }

    /// The listings grouped by location in the numbering of `groups` (rows in input order).
    static func rowsByGroup(_ groups: KeyGroups) -> (first: [Int32], order: [Int32]) {
        let L = groups.tag.count, n = groups.locationOf.count
        var first = [Int32](repeating: 0, count: L + 1)
        for l in groups.locationOf { first[Int(l) + 1] += 1 }
        for l in 0..<L { first[l + 1] += first[l] }
        var next = Array(first[0..<L]), order = [Int32](repeating: 0, count: n)
        for i in 0..<n { let l = Int(groups.locationOf[i]); order[Int(next[l])] = Int32(i); next[l] += 1 }
        return (first, order)
    }
}

extension PinListings {
    /// The location keys whose listings lie farther apart than `tolerance` metres (see
    /// `PinOptions.locationTolerance`), each with its listings' ids: what
    /// `PinIndex.init(listings:options:)` refuses. A caller that prefers to drop such
    /// listings removes them (`removeListings(withIDs:)`) before building.
    /// - Complexity: O(n) expected.
    public func locationConflicts(tolerance: Double = PinOptions.defaultLocationTolerance) -> [LocationConflict] {
        let groups = PinIndex.groupByKey(self)
        let rows = LocationAnchors.rowsByGroup(groups)
        let anchors = LocationAnchors(first: rows.first, order: rows.order, longitudes: longitudes, latitudes: latitudes,
                                      tolerance: tolerance, threads: 1)
        return anchors.conflicts.map { LocationAnchors.conflict(first: rows.first, order: rows.order, location: $0, listings: self) }
    }

    /// Removes the listings whose ids are in `ids`.
    /// - Complexity: O(n).
    public mutating func removeListings(withIDs ids: Set<Int64>) {
        guard !ids.isEmpty else { return }
        let keep = self.ids.indices.filter { !ids.contains(self.ids[$0]) }
        self.ids = keep.map { self.ids[$0] }
        longitudes = keep.map { longitudes[$0] }; latitudes = keep.map { latitudes[$0] }
        keyTags = keep.map { keyTags[$0] }; keyValues = keep.map { keyValues[$0] }
        categories = keep.map { categories[$0] }
        areas = keep.map { areas[$0] }; deposits = keep.map { deposits[$0] }; rents = keep.map { rents[$0] }
    }
}
