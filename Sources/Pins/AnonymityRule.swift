// k-anonymity for the privacy mask: a location's ring of admissible offsets grows outward,
// step by step up to a cap, until enough locations are consistent with its displayed point.

import ClusterCore


/// The rule of `PrivacyMask.requiring(_:)`: every displayed point d has a *public ring*, the
/// annulus `minDistance...R(d)` around it, and the location drawn there lies in it.
///
/// A ring is *anonymous* when an attacker who names one spot of it is right for at most 1/K of
/// the locations it holds (K = `minimum`): it holds at least K locations, and no disc of
/// `spot` metres around one of them holds more than 1/K of them (a complex of buildings a few
/// metres apart is one spot to an attacker who only needs to come within `spot` metres).
///
/// The ring's radius steps through `radii(maxDistance:)`: R₀ = the mask's `maxDistance`, each
/// next one √2 times larger (twice the area), the last one `cap`. R(d) is the first radius at
/// which the ring `minDistance...R` around d is anonymous among the dataset's locations (the
/// last radius when none is): anyone who knows every location's true position (a building
/// registry) can compute it from d alone.
///
/// A location draws a point d uniformly (in area) in the annulus of step s, for s = 0, 1, …,
/// and publishes the first d whose public ring is exactly that step's (R(d) = Rₛ), starting
/// again from step 0 with fresh draws when no step takes its draw. In a mixed neighbourhood
/// the first draw is taken (the mask is then the plain 30–80 m annulus); a lone building's
/// point, or a point in a dense complex, moves out until its ring is anonymous. Donut masking
/// with k-anonymity (Hampton et al. 2010, Allshouse et al. 2010), with the ring decided from
/// the displayed point so the count holds for the published point, not only around the truth.
///
/// Every location's ring depends on the other locations: a rebuild with other listings could
/// draw a published location again, so keep the positions in a `MaskStore`.
public struct AnonymityRule: Sendable, Equatable {
    /// The default `cap`, metres.
    public static let defaultCap: Double = 1_500
    /// The largest `minimum` accepted.
    public static let largestMinimum = 1_000

    /// The default `spot`, metres.
    public static let defaultSpot: Double = 30

    /// K: an attacker naming one spot of a ring is right for at most 1/K of its locations.
    public let minimum: Int
    /// The radius of an attacker's spot, metres: how close a guess must come to count.
    public let spot: Double
    /// The largest ring radius, metres: a location whose ring at the cap still holds fewer
    /// than `minimum` locations is published at a draw of that ring (the anonymity report
    /// counts them).
    public let cap: Double

    /// - Throws: `PinError.invalidParameter` naming `minimum` (2...`largestMinimum`), `cap`
    ///   (finite, at most `PrivacyMask.maximumDistance`; above the mask's `maxDistance` is
    ///   checked by `PrivacyMask.requiring(_:)`) or `spot` (finite, ≥ 0, below the cap).
    public init(minimum: Int, cap: Double = AnonymityRule.defaultCap, spot: Double = AnonymityRule.defaultSpot) throws(PinError) {
        guard (2...Self.largestMinimum).contains(minimum) else {
            throw .invalidParameter(name: "minAnonymity", value: "\(minimum)",
                                    requirement: "must be 2...\(Self.largestMinimum) locations (1 is the plain mask)")
        }
        guard cap.isFinite, cap > 0, cap <= PrivacyMask.maximumDistance else {
            throw .invalidParameter(name: "anonymityCap", value: "\(cap)",
                                    requirement: "must be a distance in metres, at most \(Int(PrivacyMask.maximumDistance))")
        }
        guard spot.isFinite, spot >= 0, spot < cap else {
            throw .invalidParameter(name: "anonymitySpot", value: "\(spot)", requirement: "must be a distance >= 0 metres, below the cap")
        }
        self.minimum = minimum
        self.cap = cap
        self.spot = spot
    }

    /// The ring radii R₀ = `maxDistance` < R₁ < … < cap, each √2 times the one before.
    /// `package`: how the rule grows its rings, for this package's tests.
    package func radii(maxDistance: Double) -> [Double] {
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
    /// ring is its step's, among all the locations given.
    /// - Parameter skipping: locations not drawn (their entry is (0, 0)), for example stored ones.
    /// - Complexity: O(L) draws; with a rule, about two ring censuses per draw.
    func drawnPositions(keys: [LocationKey], longitudes: [Double], latitudes: [Double], threads: Int,
                        skipping: [Bool]? = nil) -> [(longitude: Double, latitude: Double)] {
        let L = keys.count
        var out = [(longitude: Double, latitude: Double)](repeating: (longitude: 0, latitude: 0), count: L)
        // The registry only when some location is drawn under the rule (a rebuild from a full
        // mask store draws none).
        let drawsAny = skipping.map { $0.contains(false) } ?? (L > 0)
        let rings = anonymity != nil && drawsAny ? RingCounter(longitudes: longitudes, latitudes: latitudes, cell: maxDistance) : nil
        out.withUnsafeMutableBufferPointer { out in
            let parts = L >= 1 << 12 ? threads : 1
            Parallel.forEachChunk(count: parts, grain: 1, threads: threads) { chunk, _ in
                var scratch: [SIMD2<Double>] = []
                for part in chunk {
                    for l in (L * part / parts)..<(L * (part + 1) / parts) where skipping?[l] != true {
                        if let rings, let rule = anonymity {
                            out[l] = anonymousPosition(of: keys[l], longitude: longitudes[l], latitude: latitudes[l],
                                                       rule: rule, rings: rings, scratch: &scratch).position
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
                           rings: RingCounter, scratch: inout [SIMD2<Double>])
        -> (position: (longitude: Double, latitude: Double), step: Int) {
        let maxRounds = 64, radii = rule.radii(maxDistance: maxDistance)
        var fallback: ((longitude: Double, latitude: Double), Int)? = nil
        // Whether the ring of radius `outer` around d is anonymous.
        func anonymous(_ d: (longitude: Double, latitude: Double), _ outer: Double) -> Bool {
            rings.members(longitude: d.longitude, latitude: d.latitude, inner: minDistance, outer: outer, into: &scratch)
            return RingCensus.isAnonymous(&scratch, minimum: rule.minimum, spot: rule.spot)
        }
        for round in 0..<maxRounds {
            for s in radii.indices {
                let o = offset(for: key, outer: radii[s], tail: UInt64(rule.minimum) << 32 | UInt64(round) << 8 | UInt64(s))
                let d = Self.move(longitude: longitude, latitude: latitude, east: o.east, north: o.north)
                // The public ring of d is step s exactly: this ring is anonymous (or the last), and
                // no ring before is (the truth then lies inside d's ring). A larger ring can be
                // less anonymous than a smaller one, taking in a complex: every ring is checked.
                // Smallest ring first: an anonymous one rejects the draw at once.
                guard !(0..<s).contains(where: { anonymous(d, radii[$0]) }) else { continue }
                if s == radii.count - 1 || anonymous(d, radii[s]) { return (d, s) }
                if fallback == nil { fallback = (d, s) }
            }
        }
        return fallback!
    }

    /// The public ring of the displayed point (`longitude`, `latitude`): its radius and the
    /// census of the locations of `rings` in it.
    func publicRing(longitude: Double, latitude: Double, rings: RingCounter,
                    scratch: inout [SIMD2<Double>]) -> (radius: Double, census: RingCensus) {
        let spot = anonymity?.spot ?? AnonymityRule.defaultSpot, minimum = anonymity?.minimum ?? 1
        let radii = anonymity?.radii(maxDistance: maxDistance) ?? [maxDistance]
        for s in radii.indices {
            rings.members(longitude: longitude, latitude: latitude, inner: minDistance, outer: radii[s], into: &scratch)
            if s == radii.count - 1 || RingCensus.isAnonymous(&scratch, minimum: minimum, spot: spot) {
                return (radii[s], RingCensus.of(&scratch, spot: spot))
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
