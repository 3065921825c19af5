import Foundation
import Testing
@testable import Pins
import TestSupport

/// The anonymity audit and `--min-anonymity`'s rule against brute force: every location's true
/// position (here the scenario's, all listings of a key at one coordinate), every ring counted
/// by comparing each displayed point with every location.
@Suite struct AnonymityTests {
    /// The scenario's locations: each key's true position, once.
    static func truths(_ s: PinScenario) -> [(lon: Double, lat: Double)] {
        var seen = Set<LocationKey>(), out: [(lon: Double, lat: Double)] = []
        for i in 0..<s.count {
            let key = s.keys[i] ?? LocationKey(longitude: s.lons[i], latitude: s.lats[i])
            if seen.insert(key).inserted { out.append((s.lons[i], s.lats[i])) }
        }
        return out
    }

    /// The offset (east, north metres) from a true position to a displayed point, as the mask
    /// measures it (WGS 84 local scale at the true position; C library maths).
    static func offset(_ t: (lon: Double, lat: Double), _ lon: Double, _ lat: Double) -> (e: Double, n: Double) {
        let phi = t.lat * .pi / 180, e2 = 0.00669437999014, a = 6378137.0
        let w = 1 - e2 * sin(phi) * sin(phi)
        let mLat = .pi / 180 * a * (1 - e2) / pow(w, 1.5), mLon = .pi / 180 * a / sqrt(w) * cos(phi)
        return ((lon - t.lon) * mLon, (lat - t.lat) * mLat)
    }

    /// The locations whose true position lies `inner...outer` metres from a displayed point
    /// (as offsets to it), by brute force over all locations.
    static func ring(_ truths: [(lon: Double, lat: Double)], _ lon: Double, _ lat: Double,
                     inner: Double, outer: Double) -> [(e: Double, n: Double)] {
        truths.map { offset($0, lon, lat) }.filter { o in
            let r = hypot(o.e, o.n)
            return r >= inner && r <= outer
        }
    }

    static func bruteK(_ truths: [(lon: Double, lat: Double)], _ lon: Double, _ lat: Double, inner: Double, outer: Double) -> Int {
        ring(truths, lon, lat, inner: inner, outer: outer).count
    }

    /// The most members within `spot` metres of one member, by brute force over all pairs.
    static func bruteSpot(_ members: [(e: Double, n: Double)], spot: Double = 30) -> Int {
        members.map { p in members.filter { hypot($0.e - p.e, $0.n - p.n) <= spot }.count }.max() ?? 0
    }

    /// The public ring a displayed point gets under `rule`, by brute force: the first radius
    /// whose ring holds at least K locations and no 30 m spot holding more than 1/K of them.
    static func bruteRing(_ truths: [(lon: Double, lat: Double)], _ lon: Double, _ lat: Double,
                          rule: AnonymityRule, mask: PrivacyMask) -> (radius: Double, k: Int, spot: Int) {
        let radii = rule.radii(maxDistance: mask.maxDistance)
        for r in radii {
            let members = ring(truths, lon, lat, inner: mask.minDistance, outer: r)
            let spot = bruteSpot(members)
            if (members.count >= rule.minimum && spot * rule.minimum <= members.count) || r == radii.last! {
                return (r, members.count, spot)
            }
        }
        fatalError()
    }

    static let scenario = PinScenario(seed: 11, blobs: 4, perBlob: 60, strip: 20, singles: 250, buildings: 4)

    @Test("the audit's k of every location is the brute-force count of locations in the ring around its displayed point")
    func plainAuditMatchesBruteForce() throws {
        let s = Self.scenario, truths = Self.truths(s)
        let mask = try PrivacyMask(insecureTestSeed: 3)
        let audit = try AnonymityAudit(listings: s.listings(), mask: mask)
        try #require(audit.locations.count == truths.count)
        for l in audit.locations {
            let members = Self.ring(truths, l.longitude, l.latitude, inner: 30, outer: 80)
            #expect(l.k == members.count && l.largestSpot == Self.bruteSpot(members))
            #expect(l.ringRadius == 80 && l.k >= 1)
        }
        // Both cases of the spot: alone, and complexes where one spot holds several.
        #expect(audit.locations.contains { $0.largestSpot >= 3 } && audit.locations.contains { $0.largestSpot == 1 })
        // The scattered singles are alone in their rings: the test data has both cases.
        #expect(audit.share(kBelow: 2) > 0.2 && audit.share(kBelow: 2) < 0.95)
        #expect(audit.outsideOwnRing == 0)
        #expect(audit.medianDisplacement >= 30 && audit.medianDisplacement <= 80)
    }

    @Test("with --min-anonymity every displayed point's ring is anonymous at K (or is the cap), and holds the truth",
          arguments: [2, 5])
    func ruleGivesKLocationsAndHoldsTheTruth(_ K: Int) throws {
        let s = Self.scenario, truths = Self.truths(s)
        let rule = try AnonymityRule(minimum: K, cap: 3000)
        let mask = try PrivacyMask(insecureTestSeed: 3).requiring(rule)
        let audit = try AnonymityAudit(listings: s.listings(), mask: mask)
        var capped = 0
        for l in audit.locations {
            let ring = Self.bruteRing(truths, l.longitude, l.latitude, rule: rule, mask: mask)
            #expect(l.ringRadius == ring.radius && l.k == ring.k && l.largestSpot == ring.spot)
            if ring.radius == 3000 && ring.spot * K > ring.k { capped += 1 } else { #expect(l.k >= K && l.largestSpot * K <= l.k) }
        }
        // The data has all three cases: rings kept at 80 m (blobs), grown, and capped (singles
        // scattered over 35 km).
        let radii = Set(audit.locations.map(\.ringRadius))
        #expect(radii.contains(80) && radii.count >= 4 && capped < audit.locations.count / 2)
        // Every location lies in its own displayed point's public ring: the index's positions
        // are the audit's, and each is within [min, R(d)] of its truth.
        let index = s.index(privacy: .displaced(mask))
        let rowOf = s.rowOfID
        for pin in try index.pins(zoom: 0) {
            for leaf in index.allLeaves(pin.id, limit: 2000) {
                let i = rowOf[leaf.id]!
                let r = localMetres(s.lons[i], s.lats[i], leaf.longitude, leaf.latitude)
                let ring = Self.bruteRing(truths, leaf.longitude, leaf.latitude, rule: rule, mask: mask)
                #expect(r >= 30 - 1e-6 && r <= ring.radius + 1e-6)
            }
        }
        #expect(audit.share(notAnonymousAt: K) == Double(capped) / Double(audit.locations.count))
    }

    @Test("the rule's draws do not depend on the row order or the thread count")
    func ruleIsDeterministic() throws {
        let s = Self.scenario
        let mask = try PrivacyMask(insecureTestSeed: 9).requiring(AnonymityRule(minimum: 5, cap: 1000))
        let a = try AnonymityAudit(listings: s.listings(), mask: mask, threads: 1)
        let reversed = Array((0..<s.count).reversed())
        let b = try AnonymityAudit(listings: s.listings(order: reversed), mask: mask, threads: 2)
        #expect(a.locations == b.locations)
        #expect(a.medianDisplacement == b.medianDisplacement)
    }

    @Test("another K or cap draws a location afresh, never on the ray of its other draw")
    func otherSettingsGiveUnrelatedDraws() throws {
        let s = Self.scenario, truths = Self.truths(s)
        let base = try PrivacyMask(insecureTestSeed: 4)
        let five = try AnonymityAudit(listings: s.listings(), mask: base.requiring(AnonymityRule(minimum: 5, cap: 1000)))
        let six = try AnonymityAudit(listings: s.listings(), mask: base.requiring(AnonymityRule(minimum: 6, cap: 1000)))
        let shared = Set(five.locations.map { "\($0.longitude),\($0.latitude)" })
            .intersection(six.locations.map { "\($0.longitude),\($0.latitude)" })
        #expect(shared.isEmpty)
        _ = truths
    }

    @Test("a mask store keeps the rule's positions: the index shows what the store drew")
    func storeKeepsRulePositions() throws {
        let s = Self.scenario
        let mask = try PrivacyMask(insecureTestSeed: 5).requiring(AnonymityRule(minimum: 4, cap: 800))
        var store = MaskStore(for: mask)
        try store.add(s.listings(), mask: mask)
        let kept = try AnonymityAudit(listings: s.listings(), mask: mask.keeping(store))
        let fresh = try AnonymityAudit(listings: s.listings(), mask: mask)
        #expect(kept.locations == fresh.locations)
        // Without the rule, the same store still shows the rule's positions.
        let plain = try AnonymityAudit(listings: s.listings(), mask: PrivacyMask(insecureTestSeed: 5).keeping(store))
        #expect(Set(plain.locations.map(\.longitude)) == Set(kept.locations.map(\.longitude)))
    }

    @Test("bad rules are refused naming the parameter")
    func badRules() throws {
        for k in [Int.min, -1, 0, 1, 1001] {
            #expect(throws: PinError.self) { try AnonymityRule(minimum: k) }
        }
        for cap in [0, -5, Double.nan, .infinity, 5000.5, 1e20] {
            #expect(throws: PinError.self) { try AnonymityRule(minimum: 5, cap: cap) }
        }
        let mask = try PrivacyMask(insecureTestSeed: 1, minDistance: 30, maxDistance: 200)
        #expect(throws: PinError.self) { try mask.requiring(AnonymityRule(minimum: 5, cap: 200)) }
        #expect(try AnonymityRule(minimum: 5, cap: 1500).radii(maxDistance: 80).count == 10)
    }
}
