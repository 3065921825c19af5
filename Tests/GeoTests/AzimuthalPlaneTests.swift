import Foundation
import Testing
@testable import Geo
import TestSupport

/// The per-cluster plane of `hulls` and `map` against PROJ's own `+proj=aeqd` on the same
/// sphere, and against itself backwards; then the whole hull run on any thread count.
@Suite struct AzimuthalPlaneTests {
    /// Centres where a plane is hardest to get right: the poles, both sides of ±180°, the
    /// equator, and ordinary places; points up to 4,000 km out in every direction.
    static let centres: [(lat: Double, lon: Double)] = [
        (90, 0), (-90, 0), (89.9, 179.99), (-72.3, -179.5), (0, 180), (0, -180), (0, 0),
        (37.55, 126.99), (-33.9, 151.2), (64.7, -147.3), (51.5, -0.12),
    ]

    @Test(arguments: centres.indices)
    func equalsPROJ(_ k: Int) throws {
        let (lat0, lon0) = Self.centres[k]
        let plane = AzimuthalPlane(latitude: lat0, longitude: lon0)
        let proj = try Projection(crs: plane.crs)
        var rng = SplitMix64(seed: UInt64(k) + 11)
        var lon: [Double] = [], lat: [Double] = []
        for _ in 0..<400 {
            // Out along a random bearing, so every direction and distance up to 4,000 km is
            // tried, however close the centre is to a pole.
            let (bearing, c) = (Double.random(in: 0..<(2 * .pi), using: &rng), Double.random(in: 0...0.63, using: &rng))
            let φ0 = lat0 * .pi / 180
            let φ = asin(sin(φ0) * cos(c) + cos(φ0) * sin(c) * cos(bearing))
            let λ = lon0 * .pi / 180 + atan2(sin(bearing) * sin(c) * cos(φ0), cos(c) - sin(φ0) * sin(φ))
            lat.append(φ * 180 / .pi)
            lon.append(remainder(λ * 180 / .pi, 360))
        }
        let ours = plane.forward(longitudes: lon, latitudes: lat)
        let theirs = try proj.forward(lon: lon, lat: lat)
        for i in lon.indices {
            #expect(abs(ours.x[i] - theirs.x[i]) < 1e-6 && abs(ours.y[i] - theirs.y[i]) < 1e-6,
                    "(\(lon[i]), \(lat[i])): ours \(ours.x[i]), \(ours.y[i]); PROJ \(theirs.x[i]), \(theirs.y[i])")
            let back = plane.inverse(x: ours.x[i], y: ours.y[i])
            let Δλ = abs(remainder(back.lon - lon[i], 360)) * cos(lat[i] * .pi / 180)
            #expect(Δλ < 1e-10 && abs(back.lat - lat[i]) < 1e-10, "(\(lon[i]), \(lat[i])) came back as (\(back.lon), \(back.lat))")
            #expect(abs(back.lon) <= 180)
        }
    }

    /// The same hulls, vertex for vertex, on one worker and on three, for clusters
    /// across the globe (planes of their own) and for local data in one named CRS.
    @Test(arguments: [false, true])
    func sameHullsOnAnyThreadCount(local: Bool) throws {
        var rng = SplitMix64(seed: local ? 5 : 6)
        var lon: [Double] = [], lat: [Double] = [], labels: [Int32] = []
        for c in 0..<40 {
            let (cx, cy) = local ? (126.9 + Double(c % 8) * 0.02, 37.5 + Double(c / 8) * 0.02)
                : (Double.random(in: -180..<180, using: &rng), Double.random(in: -80...80, using: &rng))
            for _ in 0..<(20 + c * 3) {
                lon.append(remainder(cx + Double.random(in: -0.004...0.004, using: &rng) * (local ? 1 : 100), 360))
                lat.append(cy + Double.random(in: -0.004...0.004, using: &rng) * (local ? 1 : 100))
                labels.append(Int32(c))
            }
        }
        labels[3] = -1
        let target: Projection.Target = local ? .crs("EPSG:5179") : .auto
        func hulls(_ threads: Int) throws -> [String] {
            try GeometryContext().clusterHulls(longitudes: lon, latitudes: lat, labels: labels, ratio: 0.3, crs: target,
                                               threads: threads).hulls.map { try $0.geographic.wkt }
        }
        let one = try hulls(1)
        #expect(one.count == 40)
        #expect(try hulls(3) == one)
        #expect(try hulls(2) == one)
    }
}
