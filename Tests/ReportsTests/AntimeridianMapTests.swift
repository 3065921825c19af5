import Datasets
import Foundation
import Geo
@testable import Reports
import Testing
import TestSupport
import func TestSupport.svgText
import Pins

/// Points around Fiji, Samoa and Tonga (177°E…171°W, on both sides of ±180°): `clusters`
/// blobs and some noise, and the same points turned by `turn` degrees of longitude.
func pacificPoints(_ n: Int, clusters: Int = 5, seed: UInt64 = 9, turn: Double = 0) -> (lon: [Double], lat: [Double], labels: [Int32]) {
    var rng = Datasets.SplitMix64(seed: seed)
    // Centres east of 177°E (up to 171°W = 189°E), some straddling the line.
    var centres = (0..<clusters).map { _ in (rng.nextDouble(in: 177.5, 188.5), rng.nextDouble(in: -21, -13.5)) }
    centres[0] = (180.02, -17.8)
    var lon = [Double](), lat = [Double](), labels = [Int32]()
    for _ in 0..<n {
        let noise = rng.nextDouble() < 0.1
        let c = rng.nextInt(below: clusters)
        let (x, y) = noise ? (rng.nextDouble(in: 177, 189), rng.nextDouble(in: -22, -13))
            : (centres[c].0 + 0.08 * rng.nextNormal(), centres[c].1 + 0.06 * rng.nextNormal())
        lon.append(LongitudeWindow.normalized(x + turn)); lat.append(y); labels.append(noise ? -1 : Int32(c))
    }
    return (lon, lat, labels)
}

@Suite("Cluster map across the antimeridian")
struct AntimeridianMapTests {
    static func render(_ p: (lon: [Double], lat: [Double], labels: [Int32]), outlines: [Int32: [Coordinates]] = [:],
                       options: MapOptions = MapOptions()) -> String {
        ClusterMap.render(MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels, outlines: outlines, title: "pacific"),
                          options: options)
    }

    /// The x coordinates of every `M`/`L` vertex of the paths whose `d` starts with `M` and
    /// holds an `L` (outlines).
    static func outlineXs(_ svg: String) -> [[Double]] {
        // The land layer's rings are not outlines.
        attributeValues(svg.replacing(#/<path [^>]*class="land"\/>/#, with: ""), element: "path", attribute: "d").filter { $0.hasPrefix("M") && $0.contains("L") && !$0.contains("V") }
            .map { d in
                d.split(whereSeparator: { $0 == "M" || $0 == "L" }).compactMap { Double($0.split(separator: " ")[0]) }
            }
    }

    @Test("a Pacific map is drawn in one piece near 180°, as the same data at 0° is")
    func pacificInOnePiece() throws {
        let pacific = pacificPoints(4000), atZero = pacificPoints(4000, turn: -180)
        #expect(pacific.lon.contains { $0 > 179 } && pacific.lon.contains { $0 < -179 })
        let a = Self.render(pacific), b = Self.render(atZero)
        // The same frame, scale and pins: the map did not stretch over the world.
        #expect(attributeValues(a, element: "svg", attribute: "viewBox") == attributeValues(b, element: "svg", attribute: "viewBox"))
        #expect(scaleBarText(a) != nil && scaleBarText(a) == scaleBarText(b))
        let (pa, pb) = (pinCircles(a), pinCircles(b))
        #expect(pa.count >= 3 && pa.count == pb.count)
        for (p, q) in zip(pa, pb) {
            #expect(abs(p.x - q.x) < 0.15 && abs(p.y - q.y) < 0.15 && p.r == q.r, "\(p) \(q)")
        }
        #expect(!svgText(a).contains("points left out"))
        // The line is drawn where it runs, between the points west and east of it; not at 0°.
        #expect(svgText(a).contains("180°") && !svgText(b).contains("180°"))
        let line = try #require(a.firstMatch(of: #/<path d="M([0-9.]+) [^"]*"[^>]*class="antimeridian"/#))
        let lineX = try #require(Double(line.1))
        // Cluster 0's centre is 0.02° east of the line, the data runs 3° west and 9° east of it.
        let xs = pinCircles(a).map(\.x)
        #expect(xs.contains { $0 > lineX && $0 < lineX + 5 }, "\(lineX) \(xs)")
        let box = try #require(a.firstMatch(of: #/<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"/#))
        let (left, width) = (try #require(Double(box.1)), try #require(Double(box.2)))
        #expect((lineX - left) / width > 0.1 && (lineX - left) / width < 0.4, "\(lineX) \(left) \(width)")
    }

    @Test("the outlier rule works in the window's longitudes; a far point is left out and counted")
    func outliersInTheWindow() throws {
        let p = pacificPoints(3000)
        let far = (lon: p.lon + [20.0], lat: p.lat + [-20.0], labels: p.labels + [-1])
        let (a, b) = (Self.render(p), Self.render(far))
        #expect(svgText(b).contains("1 of 3,001 points left out: lone outliers far from the rest."))
        #expect(attributeValues(a, element: "svg", attribute: "viewBox") == attributeValues(b, element: "svg", attribute: "viewBox"))
        #expect(scaleBarText(a) == scaleBarText(b))
    }

    @Test("outline rings across the line are unwrapped: no edge runs round the world")
    func outlinesUnwrapped() throws {
        let p = pacificPoints(2000), q = pacificPoints(2000, turn: -180)
        // A ring around the blob on the line, given with longitudes in −180…180 as GEOS gives them.
        let ringLons = [179.8, -179.8, -179.8, 179.8, 179.8], ringLats = [-18.0, -18.0, -17.6, -17.6, -18.0]
        let a = Self.render(p, outlines: [0: [Coordinates(x: ringLons, y: ringLats)]])
        let b = Self.render(q, outlines: [0: [Coordinates(x: ringLons.map { LongitudeWindow.normalized($0 - 180) }, y: ringLats)]])
        let (xa, xb) = (Self.outlineXs(a), Self.outlineXs(b))
        #expect(xa.count == 1 && xb.count == 1)
        let span = (xa[0].max() ?? 0) - (xa[0].min() ?? 0)
        #expect(span > 1 && span < 100, "outline spans \(span) pt")
        #expect(zip(xa[0], xb[0]).allSatisfy { abs($0 - $1) < 0.15 })
    }

    @Test("a box across the antimeridian (west > east) frames that window and leaves out the rest")
    func crossingBox() throws {
        let p = pacificPoints(3000), q = pacificPoints(3000, turn: -180)
        let box = BoundingBox(minLongitude: 179, minLatitude: -20, maxLongitude: -175, maxLatitude: -15)
        let turned = BoundingBox(minLongitude: -1, minLatitude: -20, maxLongitude: 5, maxLatitude: -15)
        let (a, b) = (Self.render(p, options: MapOptions(bbox: box)), Self.render(q, options: MapOptions(bbox: turned)))
        let outside = zip(p.lon, p.lat).filter { !box.contains(longitude: $0.0, latitude: $0.1) }.count
        #expect(outside > 0 && outside < 3000)
        #expect(svgText(a).contains("\(ClusterMap.grouped(outside)) of 3,000 points left out: outside the box shown."), "\(svgText(a))")
        #expect(attributeValues(a, element: "svg", attribute: "viewBox") == attributeValues(b, element: "svg", attribute: "viewBox"))
        #expect(scaleBarText(a) == scaleBarText(b))
        #expect(pinCircles(a).count == pinCircles(b).count)
    }

    @Test("a map spanning more than 60° of latitude says the scale varies instead of drawing a bar")
    func worldMapScale() throws {
        // One cluster per continent (and Fiji), a few points each.
        let places: [(Double, Double)] = [(-74, 40.7), (-46.6, -23.5), (-0.1, 51.5), (31.2, 30), (28, -26.2), (77.2, 28.6),
                                          (139.7, 35.7), (151.2, -33.9), (-122.4, 37.8), (178.4, -18.1), (-149.9, 61.2)]
        var rng = Datasets.SplitMix64(seed: 2)
        var lon = [Double](), lat = [Double](), labels = [Int32]()
        for (k, c) in places.enumerated() {
            for _ in 0..<40 { lon.append(c.0 + 0.5 * rng.nextNormal()); lat.append(c.1 + 0.5 * rng.nextNormal()); labels.append(Int32(k)) }
        }
        let svg = Self.render((lon, lat, labels))
        #expect(scaleBarText(svg) == nil)
        #expect(svgText(svg).contains("Web Mercator: the scale varies with latitude, so no scale bar"), "\(svgText(svg))")
        #expect(pinCircles(svg).count >= 8)
        // A city keeps its bar.
        let city = syntheticPoints(2000, clusters: 4)
        let citySVG = ClusterMap.render(MapData(longitudes: city.lon, latitudes: city.lat, labels: city.labels, title: "c"))
        #expect(scaleBarText(citySVG) != nil && !svgText(citySVG).contains("scale varies"))
    }

    @Test("cluster pins sit at the spherical centroid: the mean unit vector, checked by brute force")
    func sphericalCentroid() {
        var rng = Datasets.SplitMix64(seed: 4)
        for _ in 0..<50 {
            let lon0 = rng.nextDouble(in: -180, 180), lat0 = rng.nextDouble(in: -70, 70)
            let lons = (0..<20).map { _ in LongitudeWindow.normalized(lon0 + 3 * rng.nextNormal()) }
            let lats = (0..<20).map { _ in lat0 + 3 * rng.nextNormal() }
            let s = ClusterSummary(labels: [Int32](repeating: 0, count: 20), longitudes: lons, latitudes: lats)
            var v = (0.0, 0.0, 0.0)
            for (l, p) in zip(lons, lats) {
                let (a, b) = (l * .pi / 180, p * .pi / 180)
                v.0 += cos(b) * cos(a); v.1 += cos(b) * sin(a); v.2 += sin(b)
            }
            let lon = atan2(v.1, v.0) * 180 / .pi, lat = atan2(v.2, hypot(v.0, v.1)) * 180 / .pi
            #expect(abs(LongitudeWindow.east(from: lon, to: s.meanLongitude[0])) < 1e-9 && abs(s.meanLatitude[0] - lat) < 1e-9)
            // Near the data, whichever side of ±180° it lies on.
            #expect(abs(LongitudeWindow.east(from: lon0, to: s.meanLongitude[0])) < 5)
        }
    }

    @Test("map pins at a zoom: Fiji's pins on both sides of the line are framed together")
    func pinsFrameAcrossTheLine() throws {
        let p = pacificPoints(1500)
        var listings = PinListings()
        for i in p.lon.indices { listings.append(id: Int64(i), longitude: p.lon[i], latitude: p.lat[i]) }
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .disabled))
        let pins = try index.pins(zoom: 7)
        #expect(pins.contains { $0.longitude > 0 } && pins.contains { $0.longitude < 0 })
        let frame = PinsMap.frame(extents: pins.map(\.bbox), zoom: 7, bbox: nil, window: LongitudeWindow(containing: p.lon))
        #expect(frame.minLongitude > frame.maxLongitude)
        let size = frame.size
        #expect(size.width > 0 && size.width < PinsMap.maxSide, "\(size)")
        // Every pin lies inside the frame, in its window.
        let w = frame.window
        #expect(pins.allSatisfy { w.unwrap($0.longitude) >= frame.minLongitude && w.unwrap($0.longitude) <= w.unwrap(frame.maxLongitude) })
        // A crossing --bbox is that window.
        let boxFrame = PinsMap.frame(extents: pins.map(\.bbox), zoom: 7, bbox: BoundingBox(minLongitude: 178, minLatitude: -20, maxLongitude: -178, maxLatitude: -15))
        #expect(abs(boxFrame.size.width - 4 * 256 * 128 / 360) < 1e-6)
    }
}
