// Groups of locations that share one displayed point (`AnonymityRule`): who is grouped with
// whom, and where the group is shown.

import ClusterCore

/// A location's place under a shared-point rule: its group (a keyed hash of the key of the
/// location that founded it) and the group's displayed point, degrees.
struct SharedPoint: Sendable, Equatable {
    var group: UInt64
    var longitude: Double, latitude: Double
}

/// Puts locations into groups of at least `rule.minimum`, members pairwise more than
/// 2 × `rule.spot` apart and within `rule.cap` of their group's point (see `AnonymityRule`).
/// A location that stands for several location keys (units merged into one place) counts as
/// all of them: a group holds at least K times the keys of its heaviest member, since a guess
/// that names that place names every one of its keys.
/// Pure and deterministic: the same groups for the same locations in any order.
struct SharedPointPlanner {
    let rule: AnonymityRule
    /// Anchors (true positions), degrees, and metres per degree at each.
    let lon: [Double], lat: [Double]
    let metresLon: [Double], metresLat: [Double]
    /// Each location's keyed hash: its place in the founders' order and its group's id.
    let token: [UInt64]
    /// The location keys each location stands for (1, or its merged units).
    let weight: [Int]
    var grid: LocationGrid
    /// The result: each location's group, nil while it has none.
    var placed: [SharedPoint?]
    /// The present members of each group, and where each group's point lies.
    var members: [UInt64: [Int32]] = [:]
    var points: [UInt64: (longitude: Double, latitude: Double)] = [:]
    var pointGrid: LocationGrid

    /// Groups the locations whose `stored` entry is nil; a location with an entry stays in its
    /// stored group (whose point is the entry's).
    /// - Returns: each location's shared point, nil for a location held back.
    /// - Complexity: O(L) cell visits for L locations in a city's density, more where they are
    ///   sparse (a founder looks up to `cap / 2` around it).
    /// - Parameters:
    ///   - absent: locations left out (no listing of theirs is published): neither placed nor
    ///     counted as members.
    ///   - weights: the location keys each location stands for (nil: one each).
    static func plan(longitudes: [Double], latitudes: [Double], tokens: [UInt64], stored: [SharedPoint?],
                     rule: AnonymityRule, absent: [Bool], weights: [Int]? = nil) -> [SharedPoint?] {
        var planner = SharedPointPlanner(rule: rule, longitudes: longitudes, latitudes: latitudes, tokens: tokens,
                                         stored: stored, absent: absent, weights: weights)
        var fresh = planner.freshInOrder().filter { !absent[$0] }
        // Rounds until one places nothing: the result is then what a plan over it as stored
        // gives too, so publishing the same listings again changes nothing.
        while !fresh.isEmpty {
            planner.round(fresh)
            let left = fresh.filter { planner.placed[$0] == nil }
            if left.count == fresh.count { break }
            fresh = left
        }
        return planner.placed
    }

    /// One round over `fresh` (in the founders' order): joins, founders within half the cap,
    /// joins, founders within the cap, joins, then the relaxed join.
    mutating func round(_ fresh: [Int]) {
        for l in fresh where placed[l] == nil { _ = join(l) }
        for l in fresh where placed[l] == nil { found(from: l, reach: rule.cap / 2) }
        for l in fresh where placed[l] == nil { _ = join(l) }
        for l in fresh where placed[l] == nil { found(from: l, reach: rule.cap) }
        for l in fresh where placed[l] == nil { _ = join(l) }
        for l in fresh where placed[l] == nil { _ = join(l, relaxed: true) }
    }

    init(rule: AnonymityRule, longitudes: [Double], latitudes: [Double], tokens: [UInt64], stored: [SharedPoint?], absent: [Bool],
         weights: [Int]? = nil) {
        self.rule = rule
        lon = longitudes; lat = latitudes; token = tokens
        weight = weights ?? [Int](repeating: 1, count: tokens.count)
        let m = latitudes.map { WebMercator.metresPerDegree(latitude: $0) }
        metresLon = m.map(\.longitude); metresLat = m.map(\.latitude)
        placed = stored.indices.map { absent[$0] ? nil : stored[$0] }
        grid = LocationGrid(cell: max(2 * rule.spot, 50), latitudes: latitudes)
        pointGrid = LocationGrid(cell: rule.cap, latitudes: latitudes)
        for l in stored.indices where !absent[l] {
            if let p = placed[l] {
                if points[p.group] == nil { addGroup(p) }
                members[p.group, default: []].append(Int32(l))
            } else {
                grid.insert(Int32(l), longitude: lon[l], latitude: lat[l])
            }
        }
    }

    /// The locations to place, in the founders' order: the ones standing for more keys first
    /// (they need the most neighbours), then along a Hilbert curve over the grid's cells, then
    /// by token.
    func freshInOrder() -> [Int] {
        let fresh = placed.indices.filter { placed[$0] == nil }
        let keyed = fresh.map { l -> (Int, UInt64, UInt64, Int) in
            let c = grid.cell(longitude: lon[l], latitude: lat[l])
            return (-weight[l], Hilbert.index(x: UInt32(truncatingIfNeeded: c.col), y: UInt32(truncatingIfNeeded: c.row)), token[l], l)
        }
        return keyed.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.3)
    }

    /// Metres between locations `a` and `b`, as the mask measures offsets (east and north at
    /// the mean of their scales).
    @inline(__always)
    func metres(_ a: Int, _ b: Int) -> Double {
        metres(a, longitude: lon[b], latitude: lat[b])
    }

    @inline(__always)
    func metres(_ a: Int, longitude: Double, latitude: Double) -> Double {
        var dl = longitude - lon[a]
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let e = dl * metresLon[a], n = (latitude - lat[a]) * metresLat[a]
        return (e * e + n * n).squareRoot()
    }

    /// Whether `l` lies more than 2 × spot from every one of `group`.
    func compatible(_ l: Int, with group: [Int32]) -> Bool {
        let gap = 2 * rule.spot
        return group.allSatisfy { metres(Int($0), l) > gap }
    }

    /// Whether pairwise compatible `members` (and `extra`, when given) are enough: at least K
    /// times the keys of the heaviest (K members when each stands for one key).
    func enough(_ members: [Int32], adding extra: Int? = nil) -> Bool {
        var total = 0, heaviest = 0
        if let extra { total = weight[extra]; heaviest = weight[extra] }
        for l in members { total += weight[Int(l)]; heaviest = max(heaviest, weight[Int(l)]) }
        return total >= rule.minimum * heaviest
    }

    /// Founds a group at `founder` with its nearest compatible locations within `reach`
    /// (cap / 2, so the centroid lies within the cap of all; then the cap, checked), nearest
    /// first (ties by token), until they are `enough`; leaves everything as it was when they
    /// never are.
    mutating func found(from founder: Int, reach: Double) {
        var chosen: [Int32] = [Int32(founder)]
        var pool: [(metres: Double, token: UInt64, l: Int32)] = []
        let home = grid.cell(longitude: lon[founder], latitude: lat[founder])
        var ring = 0
        while !enough(chosen) {
            for l in grid.take(ring: ring, around: home, skipping: placed) where Int(l) != founder {
                let d = metres(founder, Int(l))
                if d <= reach { pool.append((d, token[Int(l)], l)) }
            }
            // Every location within `complete` metres has been seen: those can be taken in order.
            let complete = Double(ring) * grid.cellMetres, last = complete >= reach
            pool.sort { ($0.metres, $0.token) < ($1.metres, $1.token) }
            var rest: [(metres: Double, token: UInt64, l: Int32)] = []
            for entry in pool {
                guard !enough(chosen), entry.metres <= complete || last else { rest.append(entry); continue }
                if compatible(Int(entry.l), with: chosen) { chosen.append(entry.l) }
            }
            pool = rest
            if last { break }
            ring += 1
        }
        guard enough(chosen) else { return }
        let point = centroid(of: chosen)
        guard chosen.allSatisfy({ metres(Int($0), longitude: point.longitude, latitude: point.latitude) <= rule.cap }) else { return }
        let group = SharedPoint(group: token[founder], longitude: point.longitude, latitude: point.latitude)
        addGroup(group)
        for l in chosen { placed[Int(l)] = group; members[group.group, default: []].append(l) }
    }

    /// Whether `group` with `l` added still has no disc of 2 × spot around a member holding
    /// more than 1/K of its keys (any guess within `spot` of several members lies in such a
    /// disc).
    func diverse(_ l: Int, with group: [Int32]) -> Bool {
        let all = group.map(Int.init) + [l], gap = 2 * rule.spot
        let total = all.reduce(0) { $0 + weight[$1] }
        return all.allSatisfy { a in
            all.lazy.filter { b in self.metres(a, b) <= gap }.reduce(0) { $0 + weight[$1] } * rule.minimum <= total
        }
    }

    /// Puts `l` in the nearest group whose point lies within the cap and whose members are all
    /// compatible with it and still `enough` with it (or, with `relaxed`, that stays diverse
    /// with it; ties by group id).
    /// Returns whether it found one.
    mutating func join(_ l: Int, relaxed: Bool = false) -> Bool {
        var candidates: [(metres: Double, group: UInt64)] = []
        let home = pointGrid.cell(longitude: lon[l], latitude: lat[l])
        for ring in 0...1 {
            pointGrid.visitGroups(ring: ring, around: home) { g in
                let p = points[g]!
                let d = metres(l, longitude: p.longitude, latitude: p.latitude)
                if d <= rule.cap { candidates.append((d, g)) }
            }
        }
        candidates.sort { ($0.metres, $0.group) < ($1.metres, $1.group) }
        guard let g = candidates.first(where: {
            let group = members[$0.group] ?? []
            return relaxed ? diverse(l, with: group) : compatible(l, with: group) && enough(group, adding: l)
        })?.group else { return false }
        let p = points[g]!
        placed[l] = SharedPoint(group: g, longitude: p.longitude, latitude: p.latitude)
        members[g, default: []].append(Int32(l))
        return true
    }

    mutating func addGroup(_ p: SharedPoint) {
        points[p.group] = (p.longitude, p.latitude)
        pointGrid.insertGroup(p.group, longitude: p.longitude, latitude: p.latitude)
    }

    /// The centroid of locations (longitudes taken the short way round from the first).
    func centroid(of group: [Int32]) -> (longitude: Double, latitude: Double) {
        let first = Int(group[0])
        var sx = 0.0, sy = 0.0
        for l in group {
            var dl = lon[Int(l)] - lon[first]
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            sx += dl; sy += lat[Int(l)]
        }
        var x = lon[first] + sx / Double(group.count)
        if x >= 180 { x -= 360 } else if x < -180 { x += 360 }
        return (x, sy / Double(group.count))
    }
}

/// Locations (or groups) in square cells at least `cellMetres` on a side everywhere in the
/// data: rows of `cellMetres` of latitude at the equator's scale, columns of `cellMetres` of
/// longitude at the data's most poleward latitude (wider nearer the equator), wrapping at ±180°.
struct LocationGrid {
    let cellMetres: Double
    let cellLat: Double, cellLon: Double
    let columns: Int64
    private var cells: [Int64: [Int32]] = [:]
    private var groupCells: [Int64: [UInt64]] = [:]

    init(cell metres: Double, latitudes: [Double]) {
        let poleward = min(latitudes.map(abs).max() ?? 0, 85)
        cellMetres = metres
        cellLat = metres / WebMercator.metresPerDegree(latitude: 0).latitude
        cellLon = metres / WebMercator.metresPerDegree(latitude: poleward).longitude
        columns = max(Int64((360 / cellLon).rounded(.down)), 1)
    }

    func cell(longitude: Double, latitude: Double) -> (row: Int64, col: Int64) {
        let col = Int64(((longitude + 180) / cellLon).rounded(.down))
        return (Int64(((latitude + 90) / cellLat).rounded(.down)), ((col % columns) + columns) % columns)
    }

    private func key(_ row: Int64, _ col: Int64) -> Int64 { row * columns + ((col % columns) + columns) % columns }

    mutating func insert(_ l: Int32, longitude: Double, latitude: Double) {
        let c = cell(longitude: longitude, latitude: latitude)
        cells[key(c.row, c.col), default: []].append(l)
    }

    mutating func insertGroup(_ g: UInt64, longitude: Double, latitude: Double) {
        let c = cell(longitude: longitude, latitude: latitude)
        groupCells[key(c.row, c.col), default: []].append(g)
    }

    /// The cells at Chebyshev distance `ring` from `home` (each once, however the columns wrap).
    func ringKeys(_ ring: Int, around home: (row: Int64, col: Int64)) -> [Int64] {
        let r = Int64(ring)
        var keys: [Int64] = []
        for dr in -r...r {
            let full = abs(dr) == r
            let dcs: [Int64] = full ? Array(-r...r) : (r == 0 ? [0] : [-r, r])
            for dc in dcs where abs(dc) <= (columns - 1) / 2 || r == 0 { keys.append(key(home.row + dr, home.col + dc)) }
        }
        return keys
    }

    /// Every location in the cells of `ring` not placed yet, dropping placed ones from those
    /// cells as it goes.
    mutating func take(ring: Int, around home: (row: Int64, col: Int64), skipping placed: [SharedPoint?]) -> [Int32] {
        var out: [Int32] = []
        for k in ringKeys(ring, around: home) {
            guard var list = cells[k] else { continue }
            list.removeAll { placed[Int($0)] != nil }
            if list.isEmpty { cells[k] = nil } else { cells[k] = list }
            out += list
        }
        return out
    }

    /// Calls `body` with every location in the cells at Chebyshev distance `ring` from `home`.
    func visit(ring: Int, around home: (row: Int64, col: Int64), _ body: (Int32) -> Void) {
        for k in ringKeys(ring, around: home) { for l in cells[k] ?? [] { body(l) } }
    }

    func visitGroups(ring: Int, around home: (row: Int64, col: Int64), _ body: (UInt64) -> Void) {
        for k in ringKeys(ring, around: home) { for g in groupCells[k] ?? [] { body(g) } }
    }
}

/// The position along a Hilbert curve of order 32 of a cell (x, y): nearby cells get nearby
/// positions, so groups founded in this order are founded among neighbours.
enum Hilbert {
    static func index(x: UInt32, y: UInt32) -> UInt64 {
        var x = UInt64(x), y = UInt64(y), d: UInt64 = 0
        var s: UInt64 = 1 << 31
        while s > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0, ry: UInt64 = (y & s) > 0 ? 1 : 0
            d &+= s &* s &* ((3 &* rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = 0xFFFF_FFFF - x; y = 0xFFFF_FFFF - y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
