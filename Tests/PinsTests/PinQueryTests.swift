import Foundation
import Testing
@testable import Pins
import TestSupport

@Suite struct PinQueryTests {
    static let index = PinIndexInvariantTests.index

    @Test func bboxQueriesMatchBruteForceIncludingAcrossTheAntimeridian() throws {
        let boxes = [
            BoundingBox(minLongitude: 126.95, minLatitude: 37.45, maxLongitude: 127.05, maxLatitude: 37.55),
            BoundingBox(minLongitude: 127.0, minLatitude: 37.5, maxLongitude: 127.01, maxLatitude: 37.53),
            // Crosses the antimeridian: everything except 126.95...127.0.
            BoundingBox(minLongitude: 127.0, minLatitude: -90, maxLongitude: 126.95, maxLatitude: 90),
        ]
        for z in [3, 10, 13, 15, 17, 20, 22] {
            let all = try Self.index.pins(zoom: Double(z))
            for box in boxes {
                let expected = all.filter { box.contains(longitude: $0.longitude, latitude: $0.latitude) }
                let got = try Self.index.pins(zoom: Double(z) + 0.7, bbox: box)
                #expect(Set(got.map(\.id)) == Set(expected.map(\.id)), "zoom \(z) box \(box)")
                #expect(got.count == expected.count)
            }
        }
    }

    @Test func filteredPinsMatchBruteForce() throws {
        try Self.checkFilteredPins(Self.index)
    }

    /// With few distinct deposits and rents (to the nearest 1000 and 20), pins of more than
    /// 8 × that many rows take their filtered medians from counts per rank instead of
    /// quickselect: the same brute-force check covers that path.
    @Test func filteredPinsMatchBruteForceWithFewDistinctValues() throws {
        var scenario = PinScenario(seed: 11)
        scenario.deposits = scenario.deposits.map { $0.map { ($0 / 1000).rounded() * 1000 } }
        scenario.rents = scenario.rents.map { $0.map { ($0 / 20).rounded() * 20 } }
        let index = scenario.index()
        #expect(8 * max(index.depositQuantiles.values.count, index.rentQuantiles.values.count) < index.listingCount / 4)
        try Self.checkFilteredPins(index)
    }

    static func checkFilteredPins(_ index: PinIndex) throws {
        let filters = [
            AttributeFilter(categories: [0, 2]),
            AttributeFilter(deposit: ValueRange(lower: 1000, upper: 3000)),
            AttributeFilter(categories: [1], area: ValueRange(upper: 70), monthlyRent: ValueRange(lower: 40)),
        ]
        for z in [0, 9, 13, 16, 22] {
            let all = try index.pins(zoom: Double(z))
            for f in filters {
                let got = Dictionary(uniqueKeysWithValues: try index.pins(zoom: Double(z), filter: f).map { ($0.id, $0) })
                var expectedCount = 0
                for pin in all {
                    let pass = index.allLeaves(pin.id).filter { l in
                        (f.categories.map { c in l.category.map { c.contains($0) } ?? false } ?? true)
                            && (f.area.map { r in l.area.map { r.contains($0) } ?? false } ?? true)
                            && (f.deposit.map { r in l.deposit.map { r.contains($0) } ?? false } ?? true)
                            && (f.monthlyRent.map { r in l.monthlyRent.map { r.contains($0) } ?? false } ?? true)
                    }
                    guard !pass.isEmpty else { #expect(got[pin.id] == nil); continue }
                    expectedCount += 1
                    guard let g = got[pin.id] else { Issue.record("zoom \(z): pin \(pin.id) missing"); continue }
                    #expect(g.count == pass.count)
                    #expect(g.medianDeposit == median(pass.compactMap(\.deposit)))
                    #expect(g.medianMonthlyRent == median(pass.compactMap(\.monthlyRent)))
                    for code in UInt8(0)..<16 { #expect(g.categoryCounts[code] == pass.filter { $0.category == code }.count) }
                    #expect(abs(g.longitude - pass.map(\.longitude).reduce(0, +) / Double(pass.count)) < 1e-9)
                    #expect(g.listingID == (pass.count == 1 ? pass[0].id : nil))
                    #expect(g.kind == (Set(pass.map(\.longitude)).count == 1 ? (pass.count == 1 ? .listing : .building) : .cluster))
                }
                #expect(got.count == expectedCount)
            }
        }
    }

    @Test func nearbyMatchesBruteForce() throws {
        let everything = try Self.index.pins(zoom: 0).flatMap { Self.index.allLeaves($0.id) }
        let f = AttributeFilter(categories: [0, 1, 2, 3])
        for (lon, lat, radius) in [(127.0, 37.5, 5000.0), (126.93, 37.47, 1500), (127.3, 37.7, 800)] {
            for filter in [nil, f] {
                let expected = everything.compactMap { l -> (Double, Int64)? in
                    if let filter, !(l.category.map { filter.categories!.contains($0) } ?? false) { return nil }
                    // Great-circle metres by the haversine formula with the C library's functions.
                    let r = Double.pi / 180, φ1 = lat * r, φ2 = l.latitude * r
                    let h = pow(sin((φ2 - φ1) / 2), 2) + cos(φ1) * cos(φ2) * pow(sin((l.longitude - lon) * r / 2), 2)
                    let d = 2 * asin(min(1, h.squareRoot())) * 6_371_008.8
                    return d <= radius ? ((d / 100).rounded() * 100, l.id) : nil
                }.sorted { $0 < $1 }
                var got: [(Double, Int64)] = []
                var cursor: PinCursor? = nil
                repeat {
                    let page = try Self.index.nearby(longitude: lon, latitude: lat, radius: radius, filter: filter, limit: 13, cursor: cursor)
                    #expect(page.total == expected.count)
                    got += page.listings.map { ($0.distance, $0.leaf.id) }
                    cursor = page.next
                } while cursor != nil
                #expect(got.map(\.1) == expected.map(\.1))
                #expect(got.map(\.0) == expected.map(\.0))
                #expect(got.allSatisfy { $0.0.truncatingRemainder(dividingBy: 100) == 0 })
            }
        }
        // Default radius is 5 km.
        #expect(try Self.index.nearby(longitude: 127.0, latitude: 37.5).total ==
                Self.index.nearby(longitude: 127.0, latitude: 37.5, radius: 5000).total)
    }

    @Test func badArgumentsAreErrors() throws {
        #expect(throws: PinError.self) { try Self.index.pins(zoom: 23) }
        #expect(throws: PinError.self) { try Self.index.pins(zoom: -0.5) }
        #expect(throws: PinError.self) { try Self.index.pins(zoom: .nan) }
        #expect(throws: PinError.self) {
            try Self.index.pins(zoom: 3, bbox: BoundingBox(minLongitude: 0, minLatitude: 10, maxLongitude: 1, maxLatitude: 5))
        }
        #expect(throws: PinError.self) { try Self.index.nearby(longitude: 127, latitude: 37.5, radius: 0) }
        #expect(throws: PinError.self) { try Self.index.leaves(of: PinID(rawValue: 12345), limit: 3, cursor: nil) }
        let pin = try Self.index.pins(zoom: 0)[0]
        let page = try Self.index.leaves(of: pin.id, limit: 2, cursor: nil)
        let other = try Self.index.pins(zoom: 22)[0]
        #expect(throws: PinError.invalidCursor) { try Self.index.leaves(of: other.id, limit: 2, cursor: page.next) }
        var dup = PinListings()
        dup.append(id: 1, longitude: 127, latitude: 37.5)
        dup.append(id: 1, longitude: 127.1, latitude: 37.5)
        #expect(throws: PinError.duplicateListingID(1)) { try PinIndex(listings: dup, options: PinOptions(privacy: .disabled)) }
        #expect(throws: PinError.self) { try PinIndex(listings: PinListings(), options: PinOptions(privacy: .disabled, radius: 0)) }
        // An empty index answers with nothing.
        let empty = try PinIndex(listings: PinListings(), options: PinOptions(privacy: .disabled))
        #expect(try empty.pins(zoom: 10).isEmpty)
    }
}
