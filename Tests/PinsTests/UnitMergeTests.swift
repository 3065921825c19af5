import Foundation
import Testing
@testable import Pins
import TestSupport

/// Location keys finer than places: units of one building with keys of their own are merged
/// into one place before their first publication, so that no building is placed twice.
@Suite struct UnitMergeTests {
    static let origin = (lon: 127.0300, lat: 37.5000)

    /// A point `east`, `north` metres from the origin.
    static func at(east: Double, north: Double) -> (lon: Double, lat: Double) {
        let m = WebMercator.metresPerDegree(latitude: origin.lat)
        return (origin.lon + east / m.longitude, origin.lat + north / m.latitude)
    }

    /// East-north metres between two points, at the first one's scale.
    static func metres(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> Double {
        let m = WebMercator.metresPerDegree(latitude: a.lat)
        return hypot((b.lon - a.lon) * m.longitude, (b.lat - a.lat) * m.latitude)
    }

    /// 60 buildings on a 150 m lattice (one listing each, ids 1000…), plus the target building's
    /// `units` units (ids 1…), each with a key of its own, `spread` metres apart in a row at the
    /// lattice's middle.
    static func listings(units: Int, spread: Double, order seed: UInt64? = nil) -> PinListings {
        var rows: [(Int64, (lon: Double, lat: Double), LocationKey)] = []
        for b in 0..<60 {
            rows.append((1000 + Int64(b), at(east: Double(b % 8) * 150 - 525, north: Double(b / 8) * 150 - 525),
                         LocationKey(string: "building-\(b)")))
        }
        for u in 0..<units {
            rows.append((1 + Int64(u), at(east: 40 + Double(u) * spread, north: 40), LocationKey(string: "unit-\(u)")))
        }
        if let seed {
            var g = SplitMix64(seed: seed)
            rows.shuffle(using: &g)
        }
        var l = PinListings()
        for (id, p, key) in rows { l.append(id: id, longitude: p.lon, latitude: p.lat, locationKey: key, category: 0, deposit: 1) }
        return l
    }

    /// Each published listing's displayed position, by id (zoom 22 leaves).
    static func shown(_ index: PinIndex) throws -> [Int64: (lon: Double, lat: Double)] {
        var out: [Int64: (lon: Double, lat: Double)] = [:]
        for pin in try index.pins(zoom: 22) {
            for leaf in try index.leaves(of: pin.id, limit: 10_000, cursor: nil).leaves { out[leaf.id] = (leaf.longitude, leaf.latitude) }
        }
        return out
    }

    static let shared = PrivacyMask(key: .insecureTestKey(seed: 21))
    static let plain = try! PrivacyMask(insecureTestSeed: 21)

    @Test("units of one building with keys of their own, 0–0.4 m apart, are one place: shown at one point under shared points and under the plain mask, named in setAside, whatever the row order")
    func unitsAreOnePlace() throws {
        for mask in [Self.shared, Self.plain] {
            var first: [[Int64]]? = nil
            for seed in [nil, 1, 2] as [UInt64?] {
                let index = try PinIndex(listings: Self.listings(units: 4, spread: 0.1, order: seed), options: PinOptions(privacy: .displaced(mask)))
                let shown = try Self.shown(index)
                let points = Set((1...4).map { shown[Int64($0)].map { "\($0.lon.bitPattern) \($0.lat.bitPattern)" } ?? "absent" })
                #expect(points.count == 1 && !points.contains("absent"), "the four units at one displayed point")
                #expect(index.setAside.mergedUnits.count == 1)
                #expect(index.setAside.mergedUnits.first.map { Set($0) } == Set(1...4))
                if let first { #expect(index.setAside.mergedUnits == first, "the same set, representative first, for any row order") }
                first = index.setAside.mergedUnits
            }
        }
    }

    @Test("the four units are one place of four keys: the audit shows it once, and its group holds K × 4 keys, so naming the place finds at most 1 in K of the keys shown there")
    func placeCountsItsKeys() throws {
        let listings = Self.listings(units: 4, spread: 0, order: nil)
        let audit = AnonymityAudit(listings: listings, mask: Self.shared)
        let K = AnonymityRule.defaultMinimum
        #expect(audit.locations.count + audit.heldBack == 61, "61 places, not 64 locations")
        #expect(audit.heldBack == 0 && audit.locations.map(\.listings).reduce(0, +) == 64)
        let building = try #require(audit.locations.first { $0.listings == 4 }, "the building's row holds its four units' listings")
        #expect(building.keys == 4 && building.k >= 4 * K && building.largestSpot == 4)
        for row in audit.locations { #expect(row.k >= K && row.largestSpot * K <= row.k) }
        #expect(audit.expectedSpotGuesses <= 1 / Double(K))
        // From the outside: the pin showing the units holds at least 4 × (K - 1) other buildings.
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .displaced(Self.shared)))
        let shown = try Self.shown(index)
        let unitPoint = try #require(shown[1])
        let others = (1000..<1060).filter { shown[Int64($0)].map { $0 == unitPoint } ?? false }
        #expect(others.count >= 4 * (K - 1), "\(others.count) buildings share the units' point")
    }

    @Test("buildings 1.2 m apart stay apart; units in a row 0.6 m apart do not chain: each merged location lies within 1 m of its set's first")
    func noChaining() throws {
        let apart = try PinIndex(listings: Self.listings(units: 2, spread: 1.2), options: PinOptions(privacy: .displaced(Self.shared)))
        #expect(apart.setAside.mergedUnits.isEmpty)
        let row = try PinIndex(listings: Self.listings(units: 6, spread: 0.6), options: PinOptions(privacy: .displaced(Self.shared)))
        let sets = row.setAside.mergedUnits
        #expect(!sets.isEmpty && sets.allSatisfy { $0.count <= 3 }, "3 m of units make no single place")
        for set in sets {
            let first = Self.at(east: 40 + Double(set[0] - 1) * 0.6, north: 40)
            for id in set { #expect(Self.metres(first, Self.at(east: 40 + Double(id - 1) * 0.6, north: 40)) <= PrivacyMask.unitRadius + 1e-9) }
        }
    }

    @Test("UnitMerge against brute force on random points: members within the radius of their representative, representatives pairwise farther apart, every candidate accounted for once")
    func mergeMatchesBruteForce() {
        var g = SplitMix64(seed: 7)
        for trial in 0..<20 {
            let n = 40 + trial * 10
            let pts = (0..<n).map { _ in Self.at(east: Double.random(in: 0...12, using: &g), north: Double.random(in: 0...12, using: &g)) }
            let keys = (0..<n).map { LocationKey(string: "k\($0)") }
            let candidate = (0..<n).map { _ in Double.random(in: 0...1, using: &g) < 0.8 }
            let m = UnitMerge(longitudes: pts.map(\.lon), latitudes: pts.map(\.lat), keys: keys,
                              radius: PrivacyMask.unitRadius) { candidate[$0] }
            let reps = (0..<n).filter { candidate[$0] && !m.isMerged($0) }
            for l in 0..<n {
                if !candidate[l] { #expect(m.into[l] == l); continue }
                #expect(Self.metres(pts[m.into[l]], pts[l]) <= PrivacyMask.unitRadius * (1 + 1e-9))
            }
            for a in reps { for b in reps where a < b { #expect(Self.metres(pts[a], pts[b]) > PrivacyMask.unitRadius * (1 - 1e-9)) } }
            let inSets = m.sets.flatMap { $0 }
            let inSomeSet = (0..<n).filter { l in m.isMerged(l) || (0..<n).contains { $0 != l && m.into[$0] == l } }
            #expect(Set(inSets).count == inSets.count && Set(inSets) == Set(inSomeSet))
            for set in m.sets { #expect(set.dropFirst().allSatisfy { m.into[$0] == set[0] } && !m.isMerged(set[0])) }
        }
    }

    @Test("per location key, brute force: on 300 buildings, a fifth of them split into 2–6 unit keys within 0.5 m, no published point lets a 30 m guess name more than 1/K of the keys it shows",
          arguments: [2, 5])
    func groupsHoldKPerKey(_ K: Int) throws {
        var g = SplitMix64(seed: UInt64(K))
        var l = PinListings(), truth: [LocationKey: (lon: Double, lat: Double)] = [:], keyOf: [Int64: LocationKey] = [:]
        var id: Int64 = 1
        for b in 0..<300 {
            let home = Self.at(east: Double.random(in: -1500...1500, using: &g), north: Double.random(in: -1500...1500, using: &g))
            let units = Double.random(in: 0...1, using: &g) < 0.2 ? Int.random(in: 2...6, using: &g) : 1
            for u in 0..<units {
                let m = WebMercator.metresPerDegree(latitude: home.lat)
                let p = (lon: home.lon + Double(u) * 0.1 / m.longitude, lat: home.lat)
                let key = LocationKey(string: "b\(b)-u\(u)")
                truth[key] = p; keyOf[id] = key
                l.append(id: id, longitude: p.lon, latitude: p.lat, locationKey: key, category: 0, deposit: 1)
                id += 1
            }
        }
        let mask = PrivacyMask(key: .insecureTestKey(seed: 4), sharing: try AnonymityRule(minimum: K))
        let index = try PinIndex(listings: l, options: PinOptions(privacy: .displaced(mask)))
        var shownKeys = 0
        for pin in try index.pins(zoom: 22) {
            let keys = Set(index.allLeaves(pin.id, limit: 10_000).map { keyOf[$0.id]! })
            let members = keys.map { truth[$0]! }
            let crowd = members.map { a in members.filter { Self.metres(a, $0) <= 60 }.count }.max() ?? 0
            #expect(crowd * K <= members.count, "\(crowd) of \(members.count) keys within one 60 m disc")
            shownKeys += members.count
        }
        #expect(shownKeys > 200 && index.setAside.mergedUnits.count > 20)
    }

    @Test("a unit key added after its building was published is not merged into it (that would tell a prober where the building is): it is placed on its own")
    func storedLocationsAreNotMergedInto() throws {
        var store = MaskStore(for: Self.shared)
        store.add(Self.listings(units: 1, spread: 0), mask: Self.shared)
        let later = try PinIndex(listings: Self.listings(units: 2, spread: 0.2), options: PinOptions(privacy: .displaced(Self.shared.keeping(store))))
        #expect(later.setAside.mergedUnits.isEmpty)
    }
}
