import Testing
@testable import Pins
import TestSupport

/// `PinListings` built column by column (the bulk initializer the CLI uses) and handed over to
/// the build (which frees each column once used) gives the same index as appended listings
/// that the caller keeps.
@Suite("PinListings")
struct PinListingsTests {
    /// Every pin of every zoom, as (id, count, centroid, medians) in query order.
    func fingerprint(_ index: PinIndex) throws -> [[String]] {
        try (0...PinOptions.maxZoom).map { z in
            try index.pins(zoom: Double(z)).map { "\($0.id.rawValue) \($0.count) \($0.longitude) \($0.latitude) \(String(describing: $0.medianDeposit)) \(String(describing: $0.medianMonthlyRent)) \($0.categoryCounts)" }
        }
    }

    @Test("columns from init(ids:longitudes:…) and appended listings give the same pins at every zoom, the same leaves and nearby")
    func bulkEqualsAppend() throws {
        // Keys: the scenario's own where it has one; the bulk form takes a key for every listing
        // or none, so compare on a scenario where every listing has one, and on one with none.
        let s = PinScenario(seed: 11)
        let withKeys = s.keys.enumerated().map { $1 ?? LocationKey(string: "\(s.lons[$0]),\(s.lats[$0])") }
        for keys in [withKeys, nil] {
            var appended = PinListings()
            for i in 0..<s.count {
                appended.append(id: s.ids[i], longitude: s.lons[i], latitude: s.lats[i], locationKey: keys?[i], category: s.categories[i],
                                area: s.areas[i], deposit: s.deposits[i], monthlyRent: s.rents[i])
            }
            let bulk = PinListings(ids: s.ids, longitudes: s.lons, latitudes: s.lats, locationKeys: keys,
                                   categories: s.categories.map { $0 ?? ListingCategory.noneCode }, areas: s.areas.map { $0 ?? .nan },
                                   deposits: s.deposits.map { $0 ?? .nan }, monthlyRents: s.rents.map { $0 ?? .nan })
            #expect(bulk.count == s.count)
            let options = PinOptions(privacy: .displaced(PinScenario.mask))
            let a = try PinIndex(listings: appended, options: options)   // a copy: `appended` is kept
            let b = try PinIndex(listings: consume bulk, options: options)  // handed over: freed as built
            #expect(appended.count == s.count, "the caller's copy is untouched by the build")
            #expect(try fingerprint(a) == fingerprint(b))
            let top = try #require(try a.pins(zoom: 10).first)
            #expect(a.allLeaves(top.id) == b.allLeaves(top.id))
            #expect(try a.nearby(longitude: 127.0, latitude: 37.5, radius: 5_000).listings == b.nearby(longitude: 127.0, latitude: 37.5, radius: 5_000).listings)
        }
    }

    @Test("absent columns in init(ids:longitudes:…) are no category and missing values")
    func absentColumns() throws {
        let listings = PinListings(ids: [1, 2], longitudes: [127.0, 127.001], latitudes: [37.5, 37.5])
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .disabled))
        let leaves = index.allLeaves(try #require(try index.pins(zoom: 5).first).id)
        #expect(leaves.count == 2)
        #expect(leaves.allSatisfy { $0.category == nil && $0.area == nil && $0.deposit == nil && $0.monthlyRent == nil })
        // A filter on a missing value fails it (the CLI's semantics).
        #expect(try index.pins(zoom: 5, filter: AttributeFilter(deposit: ValueRange(lower: 0))).isEmpty)
    }
}
