import Foundation
import Testing
@testable import Pins
import TestSupport

/// Pins of data that straddles ±180° (Fiji, Samoa, Tonga): groups merge across the line, and
/// viewports, aggregates and the privacy mask keep working there.
@Suite struct AntimeridianTests {
    /// Listings around Fiji in two blobs 0.2° apart, one on each side of the antimeridian, plus
    /// singles scattered over 179.5°E…179.5°W, at ids in input order.
    static func fiji(seed: UInt64, perBlob: Int = 150, singles: Int = 60) -> (lons: [Double], lats: [Double]) {
        var g = SplitMix64(seed: seed)
        var lons: [Double] = [], lats: [Double] = []
        for centre in [179.9, -179.9] {
            for _ in 0..<perBlob {
                lons.append(LongitudeWindow.normalized(centre + 0.01 * g.normal()))
                lats.append(-17.8 + 0.01 * g.normal())
            }
        }
        for _ in 0..<singles {
            lons.append(LongitudeWindow.normalized(179.5 + g.uniform()))
            lats.append(-18.3 + 0.6 * g.uniform())
        }
        return (lons, lats)
    }

    static func index(_ lons: [Double], _ lats: [Double], order: [Int]? = nil, privacy: PrivacyPolicy = .displaced(PinScenario.mask),
                      threads: Int = 1) throws -> PinIndex {
        var l = PinListings()
        for i in order ?? Array(lons.indices) { l.append(id: Int64(i), longitude: lons[i], latitude: lats[i], category: UInt8(i % 3)) }
        return try PinIndex(listings: l, options: PinOptions(privacy: privacy, threads: threads))
    }

    /// Degrees east from `a` to `b`, in (−180, 180].
    static func east(_ a: Double, _ b: Double) -> Double {
        var d = b - a
        while d > 180 { d -= 360 }
        while d <= -180 { d += 360 }
        return d
    }

    @Test func fijiIsOnePinAtZoomFiveAndSplitsAtTheLineWhenZoomedIn() throws {
        let (lons, lats) = Self.fiji(seed: 7)
        let index = try Self.index(lons, lats)
        #expect(index.seam > 0)
        let z5 = try index.pins(zoom: 5)
        #expect(z5.count == 1)
        let pin = try #require(z5.first)
        #expect(pin.count == lons.count)
        // The centre is near 180°, inside the data's span (179.5°E…179.5°W), not near 0°.
        #expect(abs(pin.longitude) > 179.4)
        // Its box crosses the antimeridian and holds every displayed position.
        #expect(pin.bbox.minLongitude > pin.bbox.maxLongitude)
        let leaves = index.allLeaves(pin.id, limit: 1000)
        #expect(leaves.count == lons.count)
        #expect(leaves.allSatisfy { pin.bbox.contains(longitude: $0.longitude, latitude: $0.latitude) })
        // The centre is the mean of the leaves' positions measured eastwards from one of them.
        let ref = leaves[0].longitude
        let mean = ref + leaves.map { Self.east(ref, $0.longitude) }.reduce(0, +) / Double(leaves.count)
        #expect(abs(Self.east(mean, pin.longitude)) < 1e-9)
        // At zoom 12 the two blobs (0.2° apart, 580 px) are separate pins, each on one side.
        let z12 = try index.pins(zoom: 12)
        let blobPins = z12.filter { $0.count >= 50 }
        #expect(blobPins.count == 2)
        #expect(blobPins.contains { $0.longitude > 179.8 } && blobPins.contains { $0.longitude < -179.8 })
        for p in blobPins {
            let sides = Set(index.allLeaves(p.id, limit: 1000).map { $0.longitude > 0 })
            #expect(sides.count == 1, "a zoom-12 pin holds listings of both blobs")
        }
        #expect(try index.overlapRate(zoom: 5) == 0 && index.overlapRate(zoom: 12) == 0)
    }

    @Test func viewportsAcrossTheLineMatchBruteForce() throws {
        let (lons, lats) = Self.fiji(seed: 3)
        let index = try Self.index(lons, lats)
        let boxes = [
            BoundingBox(minLongitude: 179.8, minLatitude: -19, maxLongitude: -179.8, maxLatitude: -17),
            BoundingBox(minLongitude: 179.95, minLatitude: -90, maxLongitude: 180, maxLatitude: 90),
            BoundingBox(minLongitude: -180, minLatitude: -90, maxLongitude: -179.92, maxLatitude: 90),
            BoundingBox(minLongitude: 170, minLatitude: -18, maxLongitude: 179.9, maxLatitude: -17.5),
            BoundingBox(minLongitude: -179.9, minLatitude: -19, maxLongitude: -100, maxLatitude: -17.8),
            BoundingBox(minLongitude: 0, minLatitude: -90, maxLongitude: -0.1, maxLatitude: 90),
            .world,
        ]
        for z in [0, 5, 9, 12, 14, 17, 22] {
            let all = try index.pins(zoom: Double(z))
            #expect(all.map(\.count).reduce(0, +) == lons.count)
            for box in boxes {
                let expected = all.filter { box.contains(longitude: $0.longitude, latitude: $0.latitude) }
                let got = try index.pins(zoom: Double(z) + 0.5, bbox: box)
                #expect(Set(got.map(\.id)) == Set(expected.map(\.id)), "zoom \(z) box \(box)")
                #expect(got.count == expected.count)
                // Filtered (centroids of the passing listings): the same brute force.
                let f = AttributeFilter(categories: [0])
                let allPassing = try index.pins(zoom: Double(z), filter: f)
                let expectedPassing = allPassing.filter { box.contains(longitude: $0.longitude, latitude: $0.latitude) }
                let gotPassing = try index.pins(zoom: Double(z), bbox: box, filter: f)
                #expect(Set(gotPassing.map(\.id)) == Set(expectedPassing.map(\.id)), "zoom \(z) box \(box), filtered")
            }
        }
        // nearby across the line: every listing within 30 km of 180°, brute force on leaves.
        let near = try index.nearby(longitude: 180, latitude: -17.8, radius: 30_000, limit: 10_000)
        let everyLeaf = try index.pins(zoom: 0).flatMap { index.allLeaves($0.id, limit: 1000) }
        let expected = everyLeaf.filter { leaf in
            let m = WebMercator.metresPerDegree(latitude: (leaf.latitude - 17.8) / 2)
            let dx = Self.east(180, leaf.longitude) * m.longitude, dy = (leaf.latitude + 17.8) * m.latitude
            return (dx * dx + dy * dy).squareRoot() <= 30_000
        }
        #expect(near.total == expected.count && near.total > 200)
    }

    /// Rotating every longitude by 180° moves Fiji to the prime meridian, where no window is
    /// needed: the pins are the same groups (counts per zoom), at positions rotated back.
    @Test func rotatingByHalfATurnGivesTheSamePins() throws {
        let (lons, lats) = Self.fiji(seed: 11)
        let rotated = lons.map { LongitudeWindow.normalized($0 + 180) }
        let a = try Self.index(lons, lats, privacy: .disabled)
        let b = try Self.index(rotated, lats, privacy: .disabled)
        #expect(a.seam > 0 && b.seam == 0)
        for z in 0...PinOptions.maxZoom {
            let pa = try a.pins(zoom: Double(z)), pb = try b.pins(zoom: Double(z))
            #expect(pa.map(\.count).sorted() == pb.map(\.count).sorted(), "zoom \(z)")
            // Turned back, then rounded: the positions agree to 1e-6° (about 0.1 m).
            let ca = pa.map { [LongitudeWindow.normalized($0.longitude + 180).rounded(toPlaces: 6), $0.latitude.rounded(toPlaces: 6), Double($0.count)] }
            let cb = pb.map { [$0.longitude.rounded(toPlaces: 6), $0.latitude.rounded(toPlaces: 6), Double($0.count)] }
            #expect(Set(ca) == Set(cb), "zoom \(z)")
        }
    }

    @Test func sameFijiPinsInAnyRowOrderAndOnTwoThreads() throws {
        let (lons, lats) = Self.fiji(seed: 5)
        var g = SplitMix64(seed: 99)
        var order = Array(lons.indices)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(g.next() % UInt64(i + 1))) }
        let a = try Self.index(lons, lats), b = try Self.index(lons, lats, order: order, threads: 2)
        for z in [0, 5, 10, 14, 22] {
            #expect(try a.pins(zoom: Double(z)) == b.pins(zoom: Double(z)))
        }
    }

    /// A building on the antimeridian (Taveuni, Fiji): its listings 10 m apart on both sides
    /// are one place; a listing with its key 100 m away is still refused, and so is one on
    /// the far side of the world.
    @Test func aBuildingOnTheLineIsOnePlace() throws {
        let key = LocationKey(string: "taveuni-1")
        let m = WebMercator.metresPerDegree(latitude: -16.8)
        func listings(_ extra: [(Double, Double)]) -> PinListings {
            var l = PinListings()
            for (k, lon) in [180 - 5 / m.longitude, -180 + 5 / m.longitude, 180 - 2 / m.longitude].enumerated() {
                l.append(id: Int64(k), longitude: LongitudeWindow.normalized(lon), latitude: -16.8, locationKey: key, category: 0)
            }
            for (k, p) in extra.enumerated() {
                l.append(id: 10 + Int64(k), longitude: p.0, latitude: p.1, locationKey: key, category: 0)
            }
            l.append(id: 99, longitude: 179.5, latitude: -16.5, category: 1)
            return l
        }
        let one = listings([])
        #expect(one.locationConflicts().isEmpty)
        let index = try PinIndex(listings: one, options: PinOptions(privacy: .disabled))
        let building = try #require(index.pins(zoom: 22).first { $0.count == 3 })
        #expect(building.kind == .building && abs(abs(building.longitude) - 180) < 1e-4)
        for far in [(-180 + 100 / m.longitude, -16.8), (0.0, -16.8)] {
            #expect(listings([far]).locationConflicts().map(\.listingIDs) == [[0, 1, 2, 10]], "\(far)")
            let index = try PinIndex(listings: listings([far]), options: PinOptions(privacy: .disabled))
            #expect(index.setAside.conflicting == [10], "the far listing is left out on its own")
        }
    }

    /// Two discs facing each other across ±180° overlap as two at 0° would.
    @Test func overlapIsMeasuredAcrossTheLine() {
        let lats = [-17.8, -17.8], d = [30.0, 30.0]
        for zoom in [8, 12] {
            let across = PinOverlap.rate(longitudes: [179.9999, -179.9999], latitudes: lats, diameters: d, zoom: zoom)
            let atZero = PinOverlap.rate(longitudes: [-0.0001, 0.0001], latitudes: lats, diameters: d, zoom: zoom)
            #expect(across == atZero && across == 1, "zoom \(zoom)")
        }
    }

    @Test func dataAwayFromTheLineKeepsTheUsualFrame() throws {
        #expect(PinIndexInvariantTests.index.seam == 0)
        // Every continent: the widest gap is the Pacific's, which holds the antimeridian.
        let world: [(Double, Double)] = [(-74, 40.7), (-46.6, -23.5), (-0.1, 51.5), (31.2, 30), (28, -26.2), (77.2, 28.6),
                                        (139.7, 35.7), (151.2, -33.9), (-122.4, 37.8), (18.4, -33.9)]
        let index = try Self.index(world.map(\.0), world.map(\.1))
        #expect(index.seam == 0)
        #expect(LongitudeWindow(containing: world.map(\.0)) == .standard)
        // The widest stretch elsewhere: the window starts just after it.
        #expect(LongitudeWindow(containing: [178, -179, 179.5, -175]).west == 178)
        #expect(LongitudeWindow(containing: [10, 100, -170]).west == 10)
        #expect(LongitudeWindow(containing: []).west == -180)
    }
}

private extension Double {
    func rounded(toPlaces p: Int) -> Double {
        let m = pow(10, Double(p))
        return (self * m).rounded() / m
    }
}
