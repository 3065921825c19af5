// Location keys finer than places: units of one building given keys of their own (a unit or
// listing id as the location column, or units geocoded decimetres apart with no building
// column). Placed one by one, each would be one more draw around the same truth under the plain
// mask, and one more group holding that building under shared points, which whoever links the
// units narrows to the intersection. New locations that lie this close together are one place.

/// New locations merged into one place: each keeps its key, but all of a set are placed as the
/// first of the set (its representative) and shown where it is shown.
struct UnitMerge {
    /// Each location's representative: itself, or the location it was merged into.
    var into: [Int]
    /// The sets of two or more, each its representative first, then its others by key; the
    /// sets in their representatives' order by key.
    var sets: [[Int]]

    /// Merges the locations `candidates` selects whose anchors lie within `radius` metres of
    /// an earlier one's (by `LocationKey`, an unkeyed hash: the secret key changes nothing here)
    /// that they are `joinable` with: each in that order that no earlier one took takes the
    /// untaken joinable ones within `radius` of its own anchor. The sets do not chain (every
    /// member lies within `radius` of its representative), and they depend on the locations, not
    /// on the rows' order.
    /// - Complexity: O(L) expected: one grid of `radius` cells, each location's 3 × 3 cells.
    init(longitudes: [Double], latitudes: [Double], keys: [LocationKey], radius: Double,
         candidates: (Int) -> Bool, joinable: (Int, Int) -> Bool = { _, _ in true }) {
        let L = longitudes.count
        into = Array(0..<L)
        sets = []
        let chosen = (0..<L).filter(candidates)
        guard chosen.count > 1 else { return }
        var grid = LocationGrid(cell: radius, latitudes: chosen.map { latitudes[$0] })
        for l in chosen { grid.insert(Int32(l), longitude: longitudes[l], latitude: latitudes[l]) }
        let order = chosen.sorted { keys[$0] < keys[$1] }
        var taken = [Bool](repeating: false, count: L)
        for l in order where !taken[l] {
            taken[l] = true
            let m = WebMercator.metresPerDegree(latitude: latitudes[l])
            let home = grid.cell(longitude: longitudes[l], latitude: latitudes[l])
            var near: [Int] = []
            for ring in 0...1 {
                grid.visit(ring: ring, around: home) { other in
                    let o = Int(other)
                    guard !taken[o], joinable(l, o) else { return }
                    let e = LongitudeWindow.east(from: longitudes[l], to: longitudes[o]) * m.longitude
                    let n = (latitudes[o] - latitudes[l]) * m.latitude
                    if e * e + n * n <= radius * radius { near.append(o) }
                }
            }
            guard !near.isEmpty else { continue }
            near.sort { keys[$0] < keys[$1] }
            for o in near { taken[o] = true; into[o] = l }
            sets.append([l] + near)
        }
    }

    /// The location keys each location stands for: its set's size for a representative, 1
    /// for a location on its own (and for a merged one, which stands for none of its own).
    var keysPerPlace: [Int] {
        var out = [Int](repeating: 1, count: into.count)
        for set in sets { out[set[0]] = set.count }
        return out
    }

    /// Whether location `l` was merged into another.
    func isMerged(_ l: Int) -> Bool { into[l] != l }
}
