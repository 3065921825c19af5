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
    /// Locations merged into one place (`PrivacyMask.unitRadius`), each set's keys with its
    /// representative's first: the sets with a new location (to be named), and every merged
    /// location's representative.
    var merged: [[LocationKey]] = []
    var representative: [LocationKey: LocationKey] = [:]
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
        let tokens = keys.map { idHasher.hash($0.tag, $0.value) }
        let units = placesOf(anchors: anchors, keys: keys, kept: kept, present: { !dropped.emptied[$0] })
        out.merged = units.sets.filter { $0.contains { kept[$0] == nil } }.map { $0.map { keys[$0] } }
        for set in units.sets { for l in set.dropFirst() { out.representative[keys[l]] = keys[set[0]] } }
        var shown: [MaskStore.Position?]
        if let rule = anonymity {
            let plan = SharedPointPlanner.plan(
                longitudes: anchors.longitude, latitudes: anchors.latitude, tokens: tokens,
                stored: kept.map { $0.map { SharedPoint(group: $0.group, longitude: $0.longitude, latitude: $0.latitude) } },
                rule: rule, absent: (0..<L).map { dropped.emptied[$0] || units.isMerged($0) }, weights: units.keysPerPlace)
            shown = (0..<L).map { l in plan[units.into[l]].map { MaskStore.Position(longitude: $0.longitude, latitude: $0.latitude, group: $0.group) } }
        } else {
            shown = (0..<L).map { l in
                kept[l] ?? {
                    let r = units.into[l], p = drawnPosition(of: keys[r], longitude: anchors.longitude[r], latitude: anchors.latitude[r])
                    return MaskStore.Position(longitude: p.0, latitude: p.1)
                }()
            }
        }
        for l in 0..<L where !dropped.emptied[l] { out.entries[keys[l]] = shown[l] }
        let heldLocations = Set((0..<L).filter { shown[$0] == nil && !dropped.emptied[$0] })
        let droppedRows = Set(dropped.rows)
        out.heldBack = (0..<listings.count).filter { heldLocations.contains(Int(groups.locationOf[$0])) && !droppedRows.contains($0) }
            .map { listings.ids[$0] }.sorted()
        return out
    }

    /// The places of the `present` locations (`UnitMerge`): new ones within `unitRadius` of
    /// each other, and stored ones within it shown at one point (merged when first published),
    /// never a new one with a stored one (that would tell whoever added it where the stored one
    /// truly is).
    func placesOf(anchors: LocationAnchors, keys: [LocationKey], kept: [MaskStore.Position?],
                  present: (Int) -> Bool) -> UnitMerge {
        UnitMerge(longitudes: anchors.longitude, latitudes: anchors.latitude, keys: keys,
                  radius: Self.unitRadius, candidates: present) { a, b in
            switch (kept[a], kept[b]) {
            case (nil, nil): return true
            case let (p?, q?): return p.group == q.group && p.longitude == q.longitude && p.latitude == q.latitude
            default: return false
            }
        }
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
