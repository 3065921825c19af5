import Testing
import Pins

/// The library example of docs/pins.md ("Library"), line for line (so it compiles), with what it shows checked.
@Suite struct ReadmeExampleTests {
    @Test func readmeExample() throws {
        let keyFromSecretStore = PinsKey.generate().hexEncoded()
        // --- docs/pins.md example begins
        var listings = PinListings(capacity: 3)
        // Two flats in one building (one location key: one displacement, one building pin) …
        listings.append(id: 1, longitude: 127.0276, latitude: 37.4979, locationKey: LocationKey(string: "building-17"),
                        category: 0, area: 84, deposit: 50_000, monthlyRent: 0)
        listings.append(id: 2, longitude: 127.0276, latitude: 37.4979, locationKey: LocationKey(string: "building-17"),
                        category: 0, area: 59, deposit: 30_000, monthlyRent: 50)
        // … and a studio 300 m away, keyed by its own coordinate.
        listings.append(id: 3, longitude: 127.0310, latitude: 37.4990, category: 3, area: 23, deposit: 1_000, monthlyRent: 55)

        // The key: PinsKey.generate() once, kept as its 64 hex digits in the app's secret store
        // (never in the data, the app bundle or a log), loaded with PinsKey(hex:).
        let secret = try PinsKey(hex: keyFromSecretStore)
        let index = try PinIndex(listings: listings,
                                 options: PinOptions(privacy: .displaced(try PrivacyMask(key: secret))))
        let viewport = BoundingBox(minLongitude: 127.00, minLatitude: 37.48, maxLongitude: 127.06, maxLatitude: 37.52)

        let city = try index.pins(zoom: 12.4, bbox: viewport)            // zoom 12: one cluster of 3
        let street = try index.pins(zoom: 17, bbox: viewport)            // a building pin (2) and a listing pin
        let cheap = try index.pins(zoom: 17, bbox: viewport, filter: AttributeFilter(deposit: ValueRange(upper: 40_000)))
        let page = try index.leaves(of: city[0].id, limit: 2, cursor: nil)   // page.next: the next page
        let near = try index.nearby(longitude: 127.028, latitude: 37.498, radius: 5_000)
        // --- docs/pins.md example ends

        #expect(city.count == 1 && city[0].kind == .cluster && city[0].count == 3)
        #expect(city[0].medianDeposit == 30_000 && city[0].categoryCounts[0] == 2 && city[0].categoryCounts[3] == 1)
        let expansion = try #require(city[0].expansionZoom)
        #expect(expansion > 12 && expansion <= 17)
        #expect(street.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.building, .listing])
        #expect(street.first { $0.kind == .building }?.expansionZoom == nil)
        #expect(cheap.map(\.count).sorted() == [1, 1])
        #expect(page.leaves.count == 2 && page.next != nil)
        #expect(near.total == 3 && near.listings.allSatisfy { $0.distance.truncatingRemainder(dividingBy: 100) == 0 })
        // Displayed, never true: the building's pin sits 30–80 m from its true position.
        let building = try #require(street.first { $0.kind == .building })
        let m = WebMercator.metresPerDegree(latitude: 37.4979)
        let metres = (((building.longitude - 127.0276) * m.longitude).magnitudeSquared + ((building.latitude - 37.4979) * m.latitude).magnitudeSquared).squareRoot()
        #expect(metres >= 30 && metres <= 80)
    }
}

private extension Double {
    var magnitudeSquared: Double { self * self }
}
