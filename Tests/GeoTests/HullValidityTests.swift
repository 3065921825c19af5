import Foundation
import Testing
@testable import Geo
import TestSupport

/// Every hull is valid as written (GEOS `isValid` after rounding to the written decimals), on
/// the shapes that broke it: clusters from the world's towns (GeoNames' cities of 1,000 people
/// and more), clusters at the poles, and clusters that cross ±180° at high latitude.
@Suite("Hulls are valid geometry")
struct HullValidityTests {
    /// Each hull's geographic geometry, as written: rounded to `Geometry.writtenDecimals`.
    static func writtenIsValid(_ hull: ClusterHull, _ geos: GeometryContext) throws -> Bool {
        try hull.geographic.rounded(toDecimals: Geometry.writtenDecimals).isValid && hull.geographic.isValid
    }

    static func hulls(_ points: [(lon: Double, lat: Double)], labels: [Int32], ratio: Double) throws -> [ClusterHull] {
        try GeometryContext().clusterHulls(longitudes: points.map(\.lon), latitudes: points.map(\.lat), labels: labels,
                                           ratio: ratio, crs: .auto).hulls
    }

    @Test("six towns along a road in Formosa, Argentina (a GeoNames cluster): no crash in GEOS's concave hull, a valid outline holding them",
          arguments: [0.0, 0.3, 1.0])
    func nearlyCollinearTowns(ratio: Double) throws {
        let towns: [(lon: Double, lat: Double)] = [(-59.33781, -25.56332), (-59.85851, -25.21438), (-59.68212, -25.33453),
                                                   (-60.32359, -24.89682), (-60.59303, -24.70955), (-60.09218, -25.05504)]
        let geos = try GeometryContext()
        let hull = try #require(try Self.hulls(towns, labels: [0, 0, 0, 0, 0, 0], ratio: ratio).first)
        #expect(try Self.writtenIsValid(hull, geos))
        #expect(hull.area > 0 && hull.geographic.type == .polygon)
    }

    @Test("three villages on one parallel (45.01667°N): a line, not a polygon that encloses nothing")
    func townsOnOneParallel() throws {
        let villages: [(lon: Double, lat: Double)] = [(0.0, 45.01667), (0.11667, 45.01667), (0.06667, 45.01667)]
        let geos = try GeometryContext()
        for ratio in [0.0, 0.3, 1.0] {
            let hull = try #require(try Self.hulls(villages, labels: [0, 0, 0], ratio: ratio).first)
            #expect(try Self.writtenIsValid(hull, geos), "ratio \(ratio): \(hull.geographic.type)")
        }
    }

    @Test("clusters around both poles and across ±180° at 60–89° of latitude, concave and convex: every hull valid as written")
    func polarClusters() throws {
        var rng = SplitMix64(seed: 12)
        var points: [(lon: Double, lat: Double)] = [], labels: [Int32] = []
        let centres: [(lon: Double, lat: Double)] = [(0, 89.6), (120, -89.7), (180, 70), (-179.5, 62.5), (155.3, 62.6), (179.9, -65)]
        for (k, c) in centres.enumerated() {
            for _ in 0..<80 {
                let spread = 90 - abs(c.lat) < 1 ? 360.0 : 6.0
                var lon = c.lon + Double.random(in: -0.5...0.5, using: &rng) * spread
                lon = lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon
                let lat = max(-89.99, min(89.99, c.lat + Double.random(in: -0.4...0.4, using: &rng)))
                points.append((lon, lat)); labels.append(Int32(k))
            }
        }
        let geos = try GeometryContext()
        for ratio in [0.0, 0.05, 0.3, 1.0] {
            let hulls = try Self.hulls(points, labels: labels, ratio: ratio)
            #expect(hulls.count == centres.count)
            for hull in hulls { #expect(try Self.writtenIsValid(hull, geos), "ratio \(ratio), label \(hull.label)") }
        }
    }

    @Test("madeValid repairs a bow tie into two triangles of the same total area, and leaves a valid polygon as it is")
    func repair() throws {
        let geos = try GeometryContext()
        let bowTie = try geos.polygon(exterior: Coordinates(x: [0, 2, 2, 0, 0], y: [0, 2, 0, 2, 0]))
        #expect(try !bowTie.isValid)
        let fixed = try bowTie.madeValid()
        #expect(try fixed.isValid && fixed.type == .multiPolygon)
        #expect(abs(try fixed.area - 2) < 1e-12)
        let square = try geos.polygon(exterior: Coordinates(x: [0, 1, 1, 0, 0], y: [0, 0, 1, 1, 0]))
        #expect(try square.madeValid() === square)
    }
}
