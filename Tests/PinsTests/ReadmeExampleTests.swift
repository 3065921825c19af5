import Testing
import Pins

/// The library example of docs/pins.md ("Library"), line for line (so it compiles), with what it shows checked.
@Suite struct ReadmeExampleTests {
    @Test func readmeExample() throws {
        // What the app's secret store holds (never a literal in the source): a key of its own.
        let keyFromSecretStore = PinsKey.generate().hexEncoded()
        // --- docs/pins.md example begins
        var listings = PinListings(capacity: 3)
        // Two flats in one building (one location key: one place) …
        listings.append(id: 1, longitude: 127.0276, latitude: 37.4979, locationKey: LocationKey(string: "building-17"),
                        category: 0, area: 84, deposit: 50_000, monthlyRent: 0)
        listings.append(id: 2, longitude: 127.0276, latitude: 37.4979, locationKey: LocationKey(string: "building-17"),
                        category: 0, area: 59, deposit: 30_000, monthlyRent: 50)
        // … and a studio 300 m away, keyed by its own coordinate.
        listings.append(id: 3, longitude: 127.0310, latitude: 37.4990, category: 3, area: 23, deposit: 1_000, monthlyRent: 55)

        // The key: PinsKey.generate() once, kept as its 64 hex digits in the app's secret store
        // (never in the data, the app bundle or a log), loaded with PinsKey(hex:).
        let secret = try PinsKey(hex: keyFromSecretStore)
        // The default mask shows every listing at a point shared by at least 5 buildings (kept
        // in a MaskStore); these two buildings share one under K = 2.
        let mask = PrivacyMask(key: secret, sharing: try AnonymityRule(minimum: 2))
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .displaced(mask)))
        let viewport = BoundingBox(minLongitude: 127.00, minLatitude: 37.48, maxLongitude: 127.06, maxLatitude: 37.52)

        let city = try index.pins(zoom: 12.4, bbox: viewport)            // one pin of 3 at the shared point
        let street = try index.pins(zoom: 17, bbox: viewport)            // the same: nothing tells the buildings apart
        let cheap = try index.pins(zoom: 17, bbox: viewport, filter: AttributeFilter(deposit: ValueRange(upper: 40_000)))
        let page = try index.leaves(of: city[0].id, limit: 2, cursor: nil)   // page.next: the next page
        let near = try index.nearby(longitude: 127.028, latitude: 37.498, radius: 5_000)
        // --- docs/pins.md example ends

        #expect(city.count == 1 && city[0].kind == .building && city[0].count == 3)
        #expect(city[0].medianDeposit == 30_000 && city[0].categoryCounts[0] == 2 && city[0].categoryCounts[3] == 1)
        #expect(street.count == 1 && street[0].count == 3 && street[0].expansionZoom == nil)
        #expect(cheap.map(\.count) == [2])
        #expect(page.leaves.count == 2 && page.next != nil)
        #expect(near.total == 3 && near.listings.allSatisfy { $0.distance.truncatingRemainder(dividingBy: 100) == 0 })
        #expect(index.setAside == SetAside())
        // Displayed, never true: the shared point is the two buildings' centroid, about 150 m from each.
        let m = WebMercator.metresPerDegree(latitude: 37.4979)
        let metres = (((street[0].longitude - 127.0276) * m.longitude).magnitudeSquared + ((street[0].latitude - 37.4979) * m.latitude).magnitudeSquared).squareRoot()
        #expect(metres >= 100 && metres <= 200)
    }
}

private extension Double {
    var magnitudeSquared: Double { self * self }
}
