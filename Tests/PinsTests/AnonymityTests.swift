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

    static let scenario = PinScenario(seed: 11, blobs: 4, perBlob: 60, strip: 20, singles: 250, buildings: 4)

    @Test("the audit's k of every location is the brute-force count of locations in the ring around its displayed point")
    func plainAuditMatchesBruteForce() throws {
        let s = Self.scenario, truths = Self.truths(s)
        let mask = try PrivacyMask(insecureTestSeed: 3)
        let audit = AnonymityAudit(listings: s.listings(), mask: mask)
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

    /// The locations (scenario rows' true positions, one per key) under each pin of `index`'s
    /// finest zoom, with the pin's position.
    static func groups(_ index: PinIndex, _ s: PinScenario) throws -> [(lon: Double, lat: Double, members: [(lon: Double, lat: Double)])] {
        let rowOf = s.rowOfID
        return try index.pins(zoom: 22).map { pin in
            var seen = Set<LocationKey>(), members: [(lon: Double, lat: Double)] = []
            for leaf in index.allLeaves(pin.id, limit: 5000) {
                let i = rowOf[leaf.id]!
                if seen.insert(s.keys[i] ?? LocationKey(longitude: s.lons[i], latitude: s.lats[i])).inserted { members.append((s.lons[i], s.lats[i])) }
            }
            return (pin.longitude, pin.latitude, members)
        }
    }

    @Test("shared points: every published point holds at least K locations, no 60 m disc around one holds more than 1/K of them, each within the cap (brute force)",
          arguments: [2, 5])
    func sharedPointsHoldK(_ K: Int) throws {
        let s = Self.scenario, truths = Self.truths(s)
        let rule = try AnonymityRule(minimum: K, cap: 3000)
        let mask = try PrivacyMask(insecureTestSeed: 3).requiring(rule)
        let index = s.index(privacy: .displaced(mask))
        let groups = try Self.groups(index, s)
        var shown = 0
        for g in groups {
            shown += g.members.count
            #expect(g.members.count >= K)
            let crowd = g.members.map { a in g.members.filter { localMetres(a.lon, a.lat, $0.lon, $0.lat) <= 60 }.count }.max()!
            #expect(crowd * K <= g.members.count)
            for m in g.members { #expect(localMetres(m.lon, m.lat, g.lon, g.lat) <= 3000 + 1e-6) }
        }
        // Every location is shown once or held back, and most are shown.
        #expect(shown <= truths.count && shown > truths.count * 3 / 4)
        let audit = AnonymityAudit(listings: s.listings(), mask: mask)
        #expect(audit.locations.count == shown && audit.heldBack == truths.count - shown)
        #expect(audit.locations.allSatisfy { $0.k >= K && $0.largestSpot * K <= $0.k })
    }

    @Test("shared points do not depend on the row order or the thread count")
    func ruleIsDeterministic() throws {
        let s = Self.scenario
        let mask = try PrivacyMask(insecureTestSeed: 9).requiring(AnonymityRule(minimum: 5, cap: 1000))
        let a = AnonymityAudit(listings: s.listings(), mask: mask, threads: 1)
        let reversed = Array((0..<s.count).reversed())
        let b = AnonymityAudit(listings: s.listings(order: reversed), mask: mask, threads: 2)
        #expect(a.locations == b.locations)
        #expect(a.medianDisplacement == b.medianDisplacement)
    }

    @Test("a mask store keeps the groups: the index shows what the store placed, and a rebuild with more listings moves no stored location")
    func storeKeepsGroups() throws {
        let s = Self.scenario
        let mask = try PrivacyMask(insecureTestSeed: 5).requiring(AnonymityRule(minimum: 4, cap: 800))
        var store = MaskStore(for: mask)
        let half = PinScenario(seed: 11, blobs: 4, perBlob: 60, strip: 20, singles: 250, buildings: 4)
        store.add(half.listings(order: Array(0..<(half.count / 2))), mask: mask)
        let before = store
        store.add(s.listings(), mask: mask)
        for (key, p) in before.positions { #expect(store.positions[key] == p) }
        let kept = AnonymityAudit(listings: s.listings(), mask: mask.keeping(store))
        #expect(kept.locations.allSatisfy { $0.k >= 4 })
    }

    @Test("bad rules are refused naming the parameter")
    func badRules() throws {
        for k in [Int.min, -1, 0, 1, 1001] {
            #expect(throws: PinError.self) { try AnonymityRule(minimum: k) }
        }
        for cap in [0, -5, Double.nan, .infinity, 5000.5, 1e20, 100] {
            #expect(throws: PinError.self) { try AnonymityRule(minimum: 5, cap: cap) }
        }
    }
}
