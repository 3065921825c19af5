// What the mask does with listings before anything is indexed: which listings it sets aside,
// and where each location is shown.

import ClusterCore

/// The listings a build sets aside and each remaining location's displayed position.
struct Placement {
    /// Listings that conflict with their location: for a location published before (in the
    /// store), a listing farther from its displayed point than the rule lets any true position
    /// lie, plus the tolerance — a test on published values only, so whether a listing is kept
    /// says nothing about where its location truly is; for a new location, a listing farther
    /// than half the tolerance from the median of its listings. Each is dropped on its own.
    var conflicting: [Int64] = []
    /// Listings whose location has no group yet (a shared-point rule with too few compatible
    /// neighbours within reach): not published until enough arrive.
    var heldBack: [Int64] = []
    /// Each location kept, with its displayed position (and group, under a shared-point rule).
    var entries: [LocationKey: MaskStore.Position] = [:]
}

extension PrivacyMask {
    /// How far from a stored location's displayed point a listing naming it may lie, metres:
    /// the farthest the rule puts a displayed point from a true one, plus `tolerance`.
    func storedReach(tolerance: Double) -> Double { (anonymity?.cap ?? maxDistance) + tolerance }

    /// Where every location of `listings` is shown (its stored position, else a draw or a
    /// shared point), and the listings set aside (`Placement`).
    /// - Complexity: O(n) expected, plus the grouping of new locations under a shared-point rule.
    func placement(of listings: PinListings, tolerance: Double) -> Placement {
        var groups = PinIndex.groupByKey(listings)
        let anchors = LocationAnchors(&groups, listings: listings, tolerance: tolerance)
        let L = groups.tag.count
        let keys = (0..<L).map { LocationKey(tag: groups.tag[$0], value: groups.value[$0]) }
        let kept = keys.map { stored?[$0] }.map { p in p.flatMap { anonymity == nil || $0.group != 0 ? $0 : nil } }
        var out = Placement()
        let dropped = setAside(groups, anchors: anchors, kept: kept, listings: listings, tolerance: tolerance)
        out.conflicting = dropped.rows.map { listings.ids[$0] }.sorted()
        if let rule = anonymity {
            let tokens = keys.map { idHasher.hash($0.tag, $0.value) }
            let plan = SharedPointPlanner.plan(
                longitudes: anchors.longitude, latitudes: anchors.latitude, tokens: tokens,
                stored: kept.map { $0.map { SharedPoint(group: $0.group, longitude: $0.longitude, latitude: $0.latitude) } },
                rule: rule, absent: dropped.emptied)
            for l in 0..<L where !dropped.emptied[l] {
                if let p = plan[l] { out.entries[keys[l]] = MaskStore.Position(longitude: p.longitude, latitude: p.latitude, group: p.group) }
            }
            let heldLocations = Set((0..<L).filter { plan[$0] == nil && !dropped.emptied[$0] })
            let droppedRows = Set(dropped.rows)
            out.heldBack = (0..<listings.count).filter { heldLocations.contains(Int(groups.locationOf[$0])) && !droppedRows.contains($0) }
                .map { listings.ids[$0] }.sorted()
        } else {
            for l in 0..<L where !dropped.emptied[l] {
                let p = kept[l].map { ($0.longitude, $0.latitude) }
                    ?? drawnPosition(of: keys[l], longitude: anchors.longitude[l], latitude: anchors.latitude[l])
                out.entries[keys[l]] = MaskStore.Position(longitude: p.0, latitude: p.1)
            }
        }
        return out
    }

    /// The rows that conflict with their location (see `Placement.conflicting`), and which
    /// locations lose every listing to it.
    func setAside(_ groups: KeyGroups, anchors: LocationAnchors, kept: [MaskStore.Position?], listings: PinListings,
                  tolerance: Double) -> (rows: [Int], emptied: [Bool]) {
        var rows = LocationAnchors.outlierRows(groups, anchors: anchors, listings: listings, tolerance: tolerance) { kept[$0] == nil }
        let reach = storedReach(tolerance: tolerance)
        for i in 0..<listings.count {
            guard let p = kept[Int(groups.locationOf[i])] else { continue }
            let m = WebMercator.metresPerDegree(latitude: p.latitude)
            var dl = listings.longitudes[i] - p.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            let e = dl * m.longitude, n = (listings.latitudes[i] - p.latitude) * m.latitude
            if !(e * e + n * n <= reach * reach) { rows.append(i) }
        }
        var remaining = [Int](repeating: 0, count: groups.tag.count)
        for l in groups.locationOf { remaining[Int(l)] += 1 }
        for i in rows { remaining[Int(groups.locationOf[i])] -= 1 }
        return (rows.sorted(), remaining.map { $0 == 0 })
    }
}

extension LocationAnchors {
    /// The rows of the conflicting locations that `checked` selects which lie more than half
    /// the tolerance from their location's anchor (the median of its listings).
    static func outlierRows(_ groups: KeyGroups, anchors: LocationAnchors, listings: PinListings, tolerance: Double,
                            checked: (Int) -> Bool) -> [Int] {
        let locations = anchors.conflicts.filter(checked)
        guard !locations.isEmpty else { return [] }
        let halfSquared = tolerance * tolerance / 4
        var out: [Int] = []
        for (l, rows) in zip(locations, rows(of: locations, groups)) {
            let mx = anchors.longitude[l], my = anchors.latitude[l]
            let m = WebMercator.metresPerDegree(latitude: my)
            for i in rows {
                let ex = LongitudeWindow.east(from: mx, to: listings.longitudes[i]) * m.longitude
                let ey = (listings.latitudes[i] - my) * m.latitude
                if !(ex * ex + ey * ey <= halfSquared) { out.append(i) }
            }
        }
        return out
    }
}
