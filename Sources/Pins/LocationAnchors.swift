// Where a location truly is: the coordinate-wise median of its listings' true coordinates
// (its anchor), and the check that a location key names one place. Longitudes are taken the
// short way round from the first listing's, so a building on the antimeridian is one place.

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

/// Each location's anchor (in the numbering of `KeyGroups`) and the locations whose listings
/// do not agree.
struct LocationAnchors {
    var longitude: [Double], latitude: [Double]
    /// The locations (group numbers, ascending) with a listing more than half the tolerance
    /// from the anchor.
    var conflicts: [Int]

    /// Nothing (what is left once the anchors are used).
    init() { longitude = []; latitude = []; conflicts = [] }

    /// The anchor of each location is the coordinate-wise median of its listings' true
    /// coordinates (the mean of the middle two for an even count): it does not depend on the
    /// listings' order or ids, and a location whose listings agree is not moved by a minority
    /// of added listings. A location conflicts when one of its listings lies more than
    /// `tolerance / 2` metres from the anchor (so every two accepted listings of one location
    /// lie within `tolerance` of each other).
    ///
    /// Listings of one location nearly always share one coordinate: `groups` records the first
    /// one seen and which locations have another (`KeyGroups.mixed`); only those are gathered.
    /// Consumes `groups`' first coordinates.
    /// - Complexity: O(L) plus, for the mixed locations, O(n) and a sort of their coordinates.
    init(_ groups: inout KeyGroups, listings: PinListings, tolerance: Double) {
        longitude = groups.lon; latitude = groups.lat
        groups.lon = []; groups.lat = []
        conflicts = []
        guard !groups.mixed.isEmpty else { return }
        let mixed = groups.mixed.sorted()
        let points = Self.rows(of: mixed, groups).map { rows in rows.map { (listings.longitudes[$0], listings.latitudes[$0]) } }
        let halfSquared = tolerance * tolerance / 4
        for (k, l) in mixed.enumerated() {
            var xs = LongitudeWindow.unwrapped(points[k].map(\.0)), ys = points[k].map(\.1)
            let mx = Self.median(&xs), my = Self.median(&ys)
            longitude[l] = LongitudeWindow.normalized(mx); latitude[l] = my
            let m = WebMercator.metresPerDegree(latitude: my)
            for (x, y) in points[k] {
                let ex = LongitudeWindow.east(from: mx, to: x) * m.longitude, ey = (y - my) * m.latitude
                if !(ex * ex + ey * ey <= halfSquared) { conflicts.append(l); break }
            }
        }
    }

    /// The rows of each of `locations` (ascending group numbers), in input order: one pass.
    static func rows(of locations: [Int], _ groups: KeyGroups) -> [[Int]] {
        var slot = [Int32](repeating: -1, count: groups.tag.count)
        for (k, l) in locations.enumerated() { slot[l] = Int32(k) }
        var rows = [[Int]](repeating: [], count: locations.count)
        for i in 0..<groups.locationOf.count {
            let k = slot[Int(groups.locationOf[i])]
            if k >= 0 { rows[Int(k)].append(i) }
        }
        return rows
    }

    /// The median of `values` (the mean of the middle two for an even count); sorts them.
    static func median(_ values: inout [Double]) -> Double {
        values.sort()
        let k = values.count
        return k % 2 == 1 ? values[k / 2] : (values[k / 2 - 1] + values[k / 2]) / 2
    }

    /// The conflict of the location whose rows are `rows`: its listings' ids and span.
    static func conflict(rows: [Int], listings: PinListings) -> LocationConflict {
        let lons = LongitudeWindow.unwrapped(rows.map { listings.longitudes[$0] }), lats = rows.map { listings.latitudes[$0] }
        let m = WebMercator.metresPerDegree(latitude: (lats.min()! + lats.max()!) / 2)
        let dx = (lons.max()! - lons.min()!) * m.longitude, dy = (lats.max()! - lats.min()!) * m.latitude
        return LocationConflict(listingIDs: rows.map { listings.ids[$0] }.sorted(), span: (dx * dx + dy * dy).squareRoot())
    }
}

extension PinListings {
    /// The location keys whose listings lie farther apart than `tolerance` metres (see
    /// `PinOptions.locationTolerance`), each with its listings' ids: where
    /// `PinIndex.init(listings:options:)` leaves the disagreeing listings out one by one
    /// (`PinIndex.setAside`). A caller that prefers to drop whole locations removes them
    /// (`removeListings(withIDs:)`) before building.
    /// - Complexity: O(n) expected.
    public func locationConflicts(tolerance: Double = PinOptions.defaultLocationTolerance) -> [LocationConflict] {
        var groups = PinIndex.groupByKey(self)
        let anchors = LocationAnchors(&groups, listings: self, tolerance: tolerance)
        return LocationAnchors.rows(of: anchors.conflicts, groups).map { LocationAnchors.conflict(rows: $0, listings: self) }
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
        if properties.rows != nil { properties = properties.gathered(keep.map { Int32($0) }) }
    }
}
