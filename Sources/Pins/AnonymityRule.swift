// k-anonymity for the privacy mask: a location's ring of admissible offsets grows outward,
// step by step up to a cap, until enough locations are consistent with its displayed point.

import ClusterCore

/// The rule of `PrivacyMask.requiring(_:)`: every displayed point d has a *public ring*, the
/// annulus `minDistance...R(d)` around it, and the location drawn there lies in it.
///
/// The ring's radius steps through `radii(maxDistance:)`: R₀ = the mask's `maxDistance`, each
/// next one √2 times larger (twice the area), the last one `cap`. R(d) is the first radius at
/// which at least `minimum` locations of the dataset lie in the ring `minDistance...R` around
/// d (the last radius when none does): anyone who knows every location's true position (a
/// building registry) can compute it from d alone, and then finds at least `minimum`
/// locations that could be the truth.
///
/// A location draws a point d uniformly (in area) in the annulus of step s, for s = 0, 1, …,
/// and publishes the first d whose public ring is exactly that step's (R(d) = Rₛ), starting
/// again from step 0 with fresh draws when no step takes its draw. In a dense neighbourhood the
/// first draw is taken (the mask is then the plain 30–80 m annulus); a lone building's point
/// moves out until its ring holds `minimum` locations. Donut masking with k-anonymity (Hampton
/// et al. 2010, Allshouse et al. 2010), with the ring decided from the displayed point so the
/// count holds for the published point, not only around the truth.
///
/// Every location's ring depends on the other locations: a rebuild with other listings could
/// draw a published location again, so keep the positions in a `MaskStore`.
public struct AnonymityRule: Sendable, Equatable {
    /// The default `cap`, metres.
    public static let defaultCap: Double = 1_500
    /// The largest `minimum` accepted.
    public static let largestMinimum = 1_000

    /// Locations (the true one counted) that must be consistent with each displayed point (K).
    public let minimum: Int
    /// The largest ring radius, metres: a location whose ring at the cap still holds fewer
    /// than `minimum` locations is published at a draw of that ring (the anonymity report
    /// counts them).
    public let cap: Double

    /// - Throws: `PinError.invalidParameter` naming `minimum` (2...`largestMinimum`) or `cap`
    ///   (finite, at most `PrivacyMask.maximumDistance`; above the mask's `maxDistance` is
    ///   checked by `PrivacyMask.requiring(_:)`).
    public init(minimum: Int, cap: Double = AnonymityRule.defaultCap) throws(PinError) {
        guard (2...Self.largestMinimum).contains(minimum) else {
            throw .invalidParameter(name: "minAnonymity", value: "\(minimum)",
                                    requirement: "must be 2...\(Self.largestMinimum) locations (1 is the plain mask)")
        }
        guard cap.isFinite, cap > 0, cap <= PrivacyMask.maximumDistance else {
            throw .invalidParameter(name: "anonymityCap", value: "\(cap)",
                                    requirement: "must be a distance in metres, at most \(Int(PrivacyMask.maximumDistance))")
        }
        self.minimum = minimum
        self.cap = cap
    }

    /// The ring radii R₀ = `maxDistance` < R₁ < … < cap, each √2 times the one before.
    public func radii(maxDistance: Double) -> [Double] {
        var r = [maxDistance]
        while r[r.count - 1] * 2.0.squareRoot() < cap * (1 - 1e-9) { r.append(r[r.count - 1] * 2.0.squareRoot()) }
        if cap > maxDistance { r.append(cap) }
        return r
    }
}

extension PrivacyMask {
    /// This mask with `rule`'s k-anonymity: a displayed point's ring grows until `rule.minimum`
    /// locations are consistent with it.
    /// - Throws: `PinError.invalidParameter` naming `anonymityCap` unless the cap exceeds
    ///   `maxDistance`.
    public func requiring(_ rule: AnonymityRule) throws(PinError) -> PrivacyMask {
        guard rule.cap > maxDistance else {
            throw .invalidParameter(name: "anonymityCap", value: "\(rule.cap)",
                                    requirement: "must be above the mask's largest offset (\(maxDistance) m)")
        }
        var m = self
        m.anonymity = rule
        return m
    }

    /// The drawn position of every location (true anchors `longitudes`, `latitudes`), ignoring
    /// stored positions: each its own draw, or with an `AnonymityRule` the draw whose public
    /// ring is its step's, counted among all the locations given.
    /// - Complexity: O(L) draws; with a rule, about two ring counts per draw.
    /// - Parameter skipping: locations not drawn (their entry is (0, 0)), for example stored ones.
    func drawnPositions(keys: [LocationKey], longitudes: [Double], latitudes: [Double], threads: Int,
                        skipping: [Bool]? = nil) -> [(longitude: Double, latitude: Double)] {
        let L = keys.count
        var out = [(longitude: Double, latitude: Double)](repeating: (longitude: 0, latitude: 0), count: L)
        let rings = anonymity.map { _ in RingCounter(longitudes: longitudes, latitudes: latitudes, cell: maxDistance) }
        let radii = anonymity?.radii(maxDistance: maxDistance) ?? []
        out.withUnsafeMutableBufferPointer { out in
            let parts = L >= 1 << 12 ? threads : 1
            Parallel.forEachChunk(count: parts, grain: 1, threads: threads) { chunk, _ in
                for part in chunk {
                    for l in (L * part / parts)..<(L * (part + 1) / parts) where skipping?[l] != true {
                        if let rings, let rule = anonymity {
                            out[l] = anonymousPosition(of: keys[l], longitude: longitudes[l], latitude: latitudes[l],
                                                       rule: rule, radii: radii, rings: rings).position
                        } else {
                            out[l] = drawnPosition(of: keys[l], longitude: longitudes[l], latitude: latitudes[l])
                        }
                    }
                }
            }
        }
        return out
    }

    /// A location's draw under `rule` (see `AnonymityRule`): the first draw, over rounds of
    /// steps 0…last, whose public ring is its step's; after `maxRounds` rounds (a location
    /// whose every step keeps missing, which needs a contrived neighbourhood) the first draw
    /// whose public ring holds the truth, so the report's ring always does.
    func anonymousPosition(of key: LocationKey, longitude: Double, latitude: Double, rule: AnonymityRule,
                           radii: [Double], rings: RingCounter) -> (position: (longitude: Double, latitude: Double), step: Int) {
        let maxRounds = 64
        var fallback: ((longitude: Double, latitude: Double), Int)? = nil
        for round in 0..<maxRounds {
            for s in radii.indices {
                let o = offset(for: key, outer: radii[s], tail: UInt64(rule.minimum) << 32 | UInt64(round) << 8 | UInt64(s))
                let d = Self.move(longitude: longitude, latitude: latitude, east: o.east, north: o.north)
                // The public ring of d is step s exactly: fewer than K within the ring before
                // (the truth then lies inside d's ring), and K within this one, or the last.
                if s > 0 && rings.count(longitude: d.longitude, latitude: d.latitude, inner: minDistance,
                                        outer: radii[s - 1], atLeast: rule.minimum) >= rule.minimum { continue }
                if fallback == nil { fallback = (d, s) }
                if s == radii.count - 1 || rings.count(longitude: d.longitude, latitude: d.latitude, inner: minDistance,
                                                       outer: radii[s], atLeast: rule.minimum) >= rule.minimum {
                    return (d, s)
                }
            }
        }
        return fallback!
    }

    /// The public ring of the displayed point (`longitude`, `latitude`): its step, radius, and
    /// the number of locations of `rings` in it.
    func publicRing(longitude: Double, latitude: Double, rings: RingCounter) -> (step: Int, radius: Double, count: Int) {
        guard let rule = anonymity else {
            return (0, maxDistance, rings.count(longitude: longitude, latitude: latitude, inner: minDistance,
                                                outer: maxDistance, atLeast: .max))
        }
        let radii = rule.radii(maxDistance: maxDistance)
        for s in radii.indices {
            let k = rings.count(longitude: longitude, latitude: latitude, inner: minDistance, outer: radii[s], atLeast: rule.minimum)
            if k >= rule.minimum || s == radii.count - 1 {
                return (s, radii[s], k < rule.minimum ? k
                        : rings.count(longitude: longitude, latitude: latitude, inner: minDistance, outer: radii[s], atLeast: .max))
            }
        }
        fatalError("unreachable: the last radius returns")
    }

    /// A true position moved by (`east`, `north`) metres, converted at its latitude.
    static func move(longitude: Double, latitude: Double, east: Double, north: Double) -> (longitude: Double, latitude: Double) {
        let m = WebMercator.metresPerDegree(latitude: latitude)
        var lon = longitude + east / m.longitude
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return (lon, latitude + north / m.latitude)
    }
}

/// Counts the locations whose true position lies within a ring around a point: the
/// locations' anchors in a grid of cells about `cell` metres, distances measured as the mask
/// measures offsets (east and north metres at the location's latitude).
struct RingCounter: Sendable {
    private let lon: [Double], lat: [Double]
    /// Metres per degree of longitude and latitude at each location.
    private let mLon: [Double], mLat: [Double]
    /// Locations sorted by cell; each cell's range in that order.
    private let order: [Int32]
    private let cells: [Int64: Range<Int32>]
    private let cellLon: Double, cellLat: Double, columns: Int64
    private let cellMetres: Double, polewardMetresPerDegree: Double

    init(longitudes: [Double], latitudes: [Double], cell metres: Double) {
        lon = longitudes; lat = latitudes
        let m = latitudes.map { WebMercator.metresPerDegree(latitude: $0) }
        mLon = m.map(\.longitude); mLat = m.map(\.latitude)
        // Cells no wider than `metres` anywhere in the data: degrees at the most poleward
        // latitude (capped where a degree of longitude shrinks towards nothing).
        let poleward = min(latitudes.map(abs).max() ?? 0, 85)
        let cLat = metres / WebMercator.metresPerDegree(latitude: 0).latitude
        polewardMetresPerDegree = WebMercator.metresPerDegree(latitude: poleward).longitude
        cellMetres = metres
        let cLon = metres / polewardMetresPerDegree
        let cols = Int64((360 / cLon).rounded(.up))
        cellLat = cLat; cellLon = cLon; columns = cols
        var keyed = (0..<longitudes.count).map { (key: Self.key(longitudes[$0], latitudes[$0], cLon, cLat, cols), l: Int32($0)) }
        keyed.sort { ($0.key, $0.l) < ($1.key, $1.l) }
        order = keyed.map(\.l)
        var cells: [Int64: Range<Int32>] = [:]
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count && keyed[end].key == keyed[start].key { end += 1 }
            cells[keyed[start].key] = Int32(start)..<Int32(end)
            start = end
        }
        self.cells = cells
    }

    private static func key(_ lon: Double, _ lat: Double, _ cellLon: Double, _ cellLat: Double, _ columns: Int64) -> Int64 {
        let row = Int64(((lat + 90) / cellLat).rounded(.down))
        let col = Int64(((lon + 180) / cellLon).rounded(.down)) % columns
        return row * columns + col
    }

    /// The locations c with `inner` ≤ |d − c| ≤ `outer` metres, d = (`longitude`, `latitude`);
    /// stops counting at `atLeast`.
    func count(longitude: Double, latitude: Double, inner: Double, outer: Double, atLeast: Int) -> Int {
        // Rows and columns that can hold a location within `outer` metres of the point: a cell
        // is at least `cellMetres` high everywhere, and `cellMetres` wide at the data's most
        // poleward latitude, wider nearer the equator.
        let dRows = Int64((outer / cellMetres - 1e-9).rounded(.up))
        let widest = min(abs(latitude) + outer / 100_000, 85)
        let stretch = polewardMetresPerDegree / WebMercator.metresPerDegree(latitude: widest).longitude
        let dCols = min(Int64((outer / cellMetres * max(stretch, 1) - 1e-9).rounded(.up)), (columns - 1) / 2)
        let row = Int64(((latitude + 90) / cellLat).rounded(.down))
        let col = Int64(((longitude + 180) / cellLon).rounded(.down))
        let i2 = inner * inner, o2 = outer * outer
        var n = 0
        for r in (row - dRows)...(row + dRows) {
            for c in (col - dCols)...(col + dCols) {
                guard let range = cells[r * columns + ((c % columns) + columns) % columns] else { continue }
                for p in range {
                    let l = Int(order[Int(p)])
                    var dl = longitude - lon[l]
                    if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
                    let e = dl * mLon[l], north = (latitude - lat[l]) * mLat[l]
                    let q = e * e + north * north
                    if q >= i2 && q <= o2 { n += 1; if n >= atLeast { return n } }
                }
            }
        }
        return n
    }
}
