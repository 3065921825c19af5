import Foundation
import Testing
import Geo
import TestSupport

/// `n` points scattered over an ellipse centred at (`lon`, `lat`) degrees with half-axes
/// `a` km east–west and `b` km north–south, longitudes wrapped into [-180, 180].
private func cloud(lon: Double, lat: Double, a: Double, b: Double, n: Int, seed: UInt64) -> (lon: [Double], lat: [Double]) {
    var rng = SplitMix64(seed: seed)
    var lons: [Double] = [], lats: [Double] = []
    let kmPerDegree = 111.2
    while lons.count < n {
        let u = Double.random(in: -1...1, using: &rng), v = Double.random(in: -1...1, using: &rng)
        guard u * u + v * v <= 1 else { continue }
        let φ = lat + v * b / kmPerDegree
        let λ = lon + u * a / (kmPerDegree * cos(φ * .pi / 180))
        lons.append(wrapped(λ))
        lats.append(φ)
    }
    return (lons, lats)
}

/// `λ` moved by whole turns into [-180, 180).
private func wrapped(_ λ: Double) -> Double {
    let r = (λ + 180).truncatingRemainder(dividingBy: 360)
    return (r < 0 ? r + 360 : r) - 180
}

/// What RFC 7946 asks of a hull's longitude/latitude geometry, checked on its rings: every
/// longitude within ±180°, no edge spanning more than 180°, rings closed, the feature's box
/// around every vertex (across ±180° when west > east), and a hull cut at ±180° meeting there
/// exactly: the latitudes on +180° are those on -180°.
private func checkRFC7946(_ hull: ClusterHull, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let rings = try hull.rings()
    var onEast: Set<Double> = [], onWest: Set<Double> = []
    for ring in rings {
        if hull.geographic.type == .polygon || hull.geographic.type == .multiPolygon {
            #expect(ring.count >= 4 && ring.x.first == ring.x.last && ring.y.first == ring.y.last, sourceLocation: sourceLocation)
        }
        for i in ring.x.indices {
            #expect(abs(ring.x[i]) <= 180 && abs(ring.y[i]) <= 90, sourceLocation: sourceLocation)
            if i > 0 { #expect(abs(ring.x[i] - ring.x[i - 1]) <= 180, "edge \(i)", sourceLocation: sourceLocation) }
            let inLon = hull.west <= hull.east ? ring.x[i] >= hull.west && ring.x[i] <= hull.east
                : ring.x[i] >= hull.west || ring.x[i] <= hull.east
            #expect(inLon && ring.y[i] >= hull.south && ring.y[i] <= hull.north, sourceLocation: sourceLocation)
            if ring.x[i] == 180 { onEast.insert(ring.y[i]) }
            if ring.x[i] == -180 { onWest.insert(ring.y[i]) }
        }
    }
    if hull.crossesAntimeridian {
        #expect(!onEast.isEmpty && onEast == onWest, "the parts meet at ±180°", sourceLocation: sourceLocation)
    }
}

/// Whether (`lon`, `lat`) lies in the continuous rings, trying the longitude a turn either way.
private func insideContinuous(_ lon: Double, _ lat: Double, _ rings: [Coordinates]) -> Bool {
    [lon - 360, lon, lon + 360].contains { rayCastingInside(x: $0, y: lat, rings: rings) }
}

@Suite("Hulls across the antimeridian and near the poles")
struct AntimeridianHullTests {
    static let fiji = cloud(lon: 180, lat: -17, a: 200, b: 120, n: 600, seed: 7)

    @Test("a cluster across ±180° (Fiji): cut into a MultiPolygon meeting at ±180°, box west > east, area as in one piece",
          arguments: [1.0, 0.3])
    func fiji(ratio: Double) throws {
        let (lon, lat) = Self.fiji
        let labels = [Int32](repeating: 0, count: lon.count)
        let hull = try #require(try GeometryContext().clusterHulls(longitudes: lon, latitudes: lat, labels: labels,
                                                                   ratio: ratio, crs: .auto).hulls.first)
        #expect(hull.crossesAntimeridian && hull.geographic.type == .multiPolygon)
        #expect(hull.west > 177 && hull.west < 179 && hull.east > -179 && hull.east < -177, "\(hull.west) \(hull.east)")
        #expect(hull.south > -18.2 && hull.north < -15.8)
        try checkRFC7946(hull)
        // The parts' geodesic area is the uncut hull's: the cut vertices lie on its geodesic edges.
        #expect(abs(try Geodesic.area(of: hull.geographic) / hull.area - 1) < 1e-9, "\(hull.area)")
        // Every point is inside (or on) the uncut hull.
        let continuous = try hull.continuousRings()
        let lost = lon.indices.filter { !insideContinuous(lon[$0], lat[$0], continuous) }
        #expect(lost.count <= lon.count / 20, "points on the outline may fall either side: \(lost.count)")
    }

    @Test("turning every point by a longitude offset moves the hull with it: same area, same points inside",
          arguments: [-40.0, 3.0, 95.0, 180.0])
    func rotation(offset: Double) throws {
        let (lon, lat) = Self.fiji
        let labels = [Int32](repeating: 0, count: lon.count)
        let geos = try GeometryContext()
        let a = try #require(try geos.clusterHulls(longitudes: lon, latitudes: lat, labels: labels, ratio: 0.3, crs: .auto).hulls.first)
        let turned = lon.map { wrapped($0 + offset) }
        let b = try #require(try geos.clusterHulls(longitudes: turned, latitudes: lat, labels: labels, ratio: 0.3, crs: .auto).hulls.first)
        try checkRFC7946(b)
        #expect(abs(b.area / a.area - 1) < 1e-6, "\(a.area) \(b.area)")
        #expect(abs(try Geodesic.area(of: b.geographic) / a.area - 1) < 1e-6)
        let (ra, rb) = (try a.continuousRings(), try b.continuousRings())
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let (pl, pφ) = (Double.random(in: 176...184, using: &rng), Double.random(in: -18.5 ... -15.5, using: &rng))
            let p = wrapped(pl)
            #expect(insideContinuous(p, pφ, ra) == insideContinuous(wrapped(p + offset), pφ, rb), "\(p), \(pφ)")
        }
    }

    @Test("a Seoul cluster keeps its shape and area: the local plane against the UTM zone (the previous default)",
          arguments: [1.0, 0.3])
    func seoulUnchanged(ratio: Double) throws {
        let (lon, lat) = cloud(lon: 127.0, lat: 37.55, a: 3, b: 2, n: 800, seed: 3)
        let labels = lon.indices.map { Int32($0 % 2) }
        let geos = try GeometryContext()
        let (local, description) = try geos.clusterHulls(longitudes: lon, latitudes: lat, labels: labels, ratio: ratio,
                                                         crs: .auto, localPlanesEverywhere: true)
        let (utm, crs) = try geos.clusterHulls(longitudes: lon, latitudes: lat, labels: labels, ratio: ratio, crs: .crs("EPSG:32652"))
        #expect(description == GeometryContext.localProjectionsDescription && crs == "EPSG:32652")
        // `.auto` on local data is the data's UTM zone.
        let (zoned, chosen) = try geos.clusterHulls(longitudes: lon, latitudes: lat, labels: labels, ratio: ratio, crs: .auto)
        #expect(chosen == "EPSG:32652" && zoned.map(\.area) == utm.map(\.area))
        #expect(local.count == 2 && utm.count == 2)
        for (l, u) in zip(local, utm) {
            #expect(!l.crossesAntimeridian && l.geographic.type == .polygon)
            #expect(l.crs.contains("+proj=aeqd") && u.crs == "EPSG:32652")
            #expect(abs(l.area / u.area - 1) < 0.001, "\(l.area) \(u.area)")
            #expect(abs(l.centroidLongitude - u.centroidLongitude) < 1e-5 && abs(l.centroidLatitude - u.centroidLatitude) < 1e-5)
            for (p, q) in [(l.west, u.west), (l.south, u.south), (l.east, u.east), (l.north, u.north)] {
                #expect(abs(p - q) < 1e-4, "\(p) \(q)")
            }
            try checkRFC7946(l)
            // The same outline: the vertices of one are (to 1e-9°) vertices of the other, but
            // for a few where the concave hull's longest-edge order differs by rounding.
            let lv = try l.geographic.vertices(), uv = try u.geographic.vertices()
            let key = { (x: Double, y: Double) in "\((x * 1e7).rounded()),\((y * 1e7).rounded())" }
            let uk = Set(uv.x.indices.map { key(uv.x[$0], uv.y[$0]) })
            let shared = lv.x.indices.filter { uk.contains(key(lv.x[$0], lv.y[$0])) }.count
            #expect(Double(shared) >= 0.95 * Double(lv.count), "\(shared) of \(lv.count)")
        }
    }

    @Test("near a pole: a cluster at 85°N, one across ±180° there, and one around the pole itself")
    func polar() throws {
        let geos = try GeometryContext()
        for (centre, crosses) in [(20.0, false), (180.0, true)] {
            let (lon, lat) = cloud(lon: centre, lat: 85, a: 150, b: 100, n: 400, seed: 5)
            let hull = try #require(try geos.clusterHulls(longitudes: lon, latitudes: lat, labels: [Int32](repeating: 0, count: lon.count),
                                                          ratio: 1, crs: .auto).hulls.first)
            #expect(hull.crossesAntimeridian == crosses)
            try checkRFC7946(hull)
            #expect(abs(try Geodesic.area(of: hull.geographic) / hull.area - 1) < 1e-9)
            // The ellipse is π·a·b; its convex hull of 400 random points fills most of it.
            #expect(hull.area > 0.85 * .pi * 150e3 * 100e3 && hull.area < .pi * 150e3 * 100e3, "\(hull.area)")
        }
        // Every longitude, latitudes 87…89.9°: a ring around the north pole.
        var rng = SplitMix64(seed: 9)
        let lon = (0..<500).map { _ in Double.random(in: -180..<180, using: &rng) }
        let lat = (0..<500).map { _ in Double.random(in: 87...89.9, using: &rng) }
        let hull = try #require(try geos.clusterHulls(longitudes: lon, latitudes: lat, labels: [Int32](repeating: 0, count: 500),
                                                      ratio: 1, crs: .auto).hulls.first)
        try checkRFC7946(hull)
        #expect(hull.west == -180 && hull.east == 180 && hull.north == 90 && hull.south > 86.9)
        let rings = try hull.rings()
        #expect(rayCastingInside(x: 10, y: 89.95, rings: rings) && !rayCastingInside(x: 10, y: 86, rings: rings))
        // A cap from the pole to 87°: 2π R² (1 − sin 87°) on a sphere of the ellipsoid's area.
        let radius = 6_371_007.2
        let cap: Double = 2 * Double.pi * radius * radius * (1 - sin(87 * Double.pi / 180))
        #expect(hull.area > 0.9 * cap && hull.area < cap, "\(hull.area) \(cap)")
        #expect(abs(try Geodesic.area(of: hull.geographic) / hull.area - 1) < 1e-6)
    }

    @Test("two distinct points across ±180° give a MultiLineString cut there")
    func line() throws {
        let lon = [179.5, -179.5, 179.5], lat = [-17.0, -17.0, -17.0]
        let hull = try #require(try GeometryContext().clusterHulls(longitudes: lon, latitudes: lat, labels: [0, 0, 0],
                                                                   ratio: 0.3, crs: .auto).hulls.first)
        #expect(hull.geographic.type == .multiLineString && hull.area == 0)
        #expect(abs(hull.west - 179.5) < 1e-9 && abs(hull.east + 179.5) < 1e-9, "\(hull.west) \(hull.east)")
        try checkRFC7946(hull)
        let parts = try hull.rings()
        #expect(parts.count == 2 && Set(parts.flatMap { $0.x }).isSuperset(of: [180, -180]))
    }

    @Test("the centre of a cluster: the spherical mean, order-free; degenerate means fall back to a member")
    func centre() throws {
        let c = Projection.sphericalCentre(longitudes: [179, -179], latitudes: [0, 0], indices: [0, 1])
        #expect(abs(abs(c.longitude) - 180) < 1e-9 && abs(c.latitude) < 1e-9)
        let (lon, lat) = Self.fiji
        let forward = Projection.sphericalCentre(longitudes: lon, latitudes: lat, indices: Array(lon.indices))
        let backward = Projection.sphericalCentre(longitudes: lon, latitudes: lat, indices: lon.indices.reversed())
        #expect(forward == backward)
        let antipodes = Projection.sphericalCentre(longitudes: [10, -170], latitudes: [20, -20], indices: [0, 1])
        #expect(antipodes.longitude == -170 && antipodes.latitude == -20)
    }
}
