import Datasets
import Foundation
import Geo
import Pins
@testable import Reports
import Testing
import TestSupport
import func TestSupport.svgText

/// Points around `places` (degrees), `count` each within about half a degree, one label per place.
private func around(_ places: [(lon: Double, lat: Double)], count: Int = 30, seed: UInt64 = 4)
    -> (lon: [Double], lat: [Double], labels: [Int32]) {
    var rng = Datasets.SplitMix64(seed: seed)
    var lon = [Double](), lat = [Double](), labels = [Int32]()
    for (k, c) in places.enumerated() {
        for _ in 0..<count {
            lon.append(remainder(c.lon + 0.3 * rng.nextNormal(), 360)); lat.append(c.lat + 0.3 * rng.nextNormal())
            labels.append(Int32(k))
        }
    }
    return (lon, lat, labels)
}

private func render(_ p: (lon: [Double], lat: [Double], labels: [Int32]), options: MapOptions = MapOptions()) -> String {
    ClusterMap.render(MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels, title: "t"), options: options)
}

/// The scale bars of a map: each one's label and its length in pt (the bar is a path
/// `Mx y V… H x2 V…`, its label the text after it).
private func scaleBars(_ svg: String) -> [(label: String, length: Double)] {
    let pattern = ##"<path d="M([-0-9.]+) [-0-9.]+V[-0-9.]+H([-0-9.]+)V[-0-9.]+" fill="none" stroke="#222222" stroke-width="1.5"/>\s*<text[^>]*class="scale-bar">([^<]*)<"##
    let regex = try! NSRegularExpression(pattern: pattern)
    return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { m in
        func group(_ i: Int) -> String { String(svg[Range(m.range(at: i), in: svg)!]) }
        return (group(3), Double(group(2))! - Double(group(1))!)
    }
}

/// Europe (Lisbon to Murmansk), the Pacific across ±180°, the world and a city.
private let europe: [(lon: Double, lat: Double)] = [(-9.1, 38.7), (2.35, 48.9), (13.4, 52.5), (30.3, 59.9), (33.1, 68.97), (23.7, 37.98)]
private let pacific: [(lon: Double, lat: Double)] = [(178.4, -18.1), (-175.2, -21.1), (-171.8, -13.8), (166.9, -0.5)]
private let world: [(lon: Double, lat: Double)] = [(-74, 40.7), (-46.6, -23.5), (-0.1, 51.5), (31.2, 30), (28, -26.2),
                                                   (77.2, 28.6), (139.7, 35.7), (151.2, -33.9), (-122.4, 37.8), (178.4, -18.1)]

@Suite("Basemap, centre longitude and scale bars")
struct BasemapTests {
    @Test("the land layer decodes to Natural Earth's 110m land: 129 rings, 3,941 vertices, 19,709.6 deg² in all, within the map's latitudes")
    func landDecodes() {
        let rings = LandLayer.rings
        #expect(rings.count == 129)
        #expect(rings.reduce(0) { $0 + $1.count } == 3941)
        var area = 0.0
        for ring in rings {
            #expect(ring.x.allSatisfy { abs($0) <= 180 } && ring.y.allSatisfy { abs($0) <= 85.06 })
            for i in ring.x.indices {
                let j = (i + 1) % ring.count
                area += (ring.x[i] * ring.y[j] - ring.x[j] * ring.y[i]) / 2
            }
        }
        // Exteriors count positive, the Caspian (a hole, clockwise) negative.
        #expect(abs(area - 19_709.58) < 0.05, "\(area)")
        // The decoder against hand-made text: 0→A, 1→C, −1→B, 16→gB, −17460→njiB.
        let ring = LandLayer.decode("AC|gBnjiBCB")
        #expect(ring.count == 2 && ring[0].x == [0] && ring[0].y == [0.01])
        #expect(ring[1].x == [0.16, 0.17] && ring[1].y == [-174.6, -174.61])
    }

    @Test("land under maps wide enough for 1:110m (Europe, the Pacific, the world), none under a city, and the legend says which")
    func landWhereTrue() {
        for places in [europe, pacific, world] {
            let svg = render(around(places))
            #expect(svg.contains("class=\"land\"") && svgText(svg).contains("Land: Natural Earth 1:110m"))
        }
        let city = syntheticPoints(2000, clusters: 4)
        let svg = render(city)
        #expect(!svg.contains("class=\"land\"") && svgText(svg).contains("No basemap: 1:110m too coarse here"))
    }

    @Test("the land is drawn in the map's window: across ±180° the Pacific map has Fiji's land on both sides of the line, on screen")
    func landAcrossTheAntimeridian() throws {
        let svg = render(around(pacific))
        let d = try #require(svg.components(separatedBy: "class=\"land\"").first?.components(separatedBy: "d=\"").last?.prefix { $0 != "\"" })
        let xs = d.split(whereSeparator: { "MLZ ".contains($0) }).compactMap { Double($0) }.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let line = try #require(svg.components(separatedBy: "class=\"antimeridian\"").first?.components(separatedBy: "d=\"M").last)
        let x180 = try #require(Double(line.prefix { $0 != " " }))
        #expect(xs.contains { $0 < x180 && $0 > x180 - 20 } && xs.contains { $0 > x180 && $0 < x180 + 20 })
    }

    @Test("one bar on a city map; three on Europe's, each labelled with its latitude and true there (lengths as 1/cos)")
    func scaleBarsTrue() throws {
        #expect(scaleBars(render(syntheticPoints(2000, clusters: 4))).count == 1)
        let bars = scaleBars(render(around(europe)))
        #expect(bars.count == 3, "\(bars)")
        let parsed = try bars.map { bar -> (metres: String, latitude: Double, length: Double) in
            let parts = bar.label.components(separatedBy: " at ")
            let degrees = try #require(Double(parts[1].dropLast(2)))
            return (parts[0], parts[1].hasSuffix("°S") ? -degrees : degrees, bar.length)
        }
        #expect(Set(parsed.map(\.metres)).count == 1)
        #expect(parsed[0].latitude > parsed[1].latitude && parsed[1].latitude > parsed[2].latitude)
        for (a, b) in [(0, 1), (1, 2), (0, 2)] {
            let expected = cos(parsed[b].latitude * .pi / 180) / cos(parsed[a].latitude * .pi / 180)
            // Lengths are written to 0.01 pt.
            #expect(abs(parsed[a].length / parsed[b].length - expected) < 0.002, "\(parsed)")
        }
        #expect(scaleBars(render(around(world))).isEmpty)
    }

    @Test("the window: Greenwich for world-wide data, the Pacific for data across ±180°, and any centre asked for")
    func windows() {
        let w = around(world), p = around(pacific)
        #expect(MapPoints(longitudes: w.lon, latitudes: w.lat, labels: w.labels, options: MapOptions()).window == .standard)
        #expect(MapPoints(longitudes: p.lon, latitudes: p.lat, labels: p.labels, options: MapOptions()).window != .standard)
        let centred = MapPoints(longitudes: w.lon, latitudes: w.lat, labels: w.labels, options: MapOptions(centreLongitude: 150))
        #expect(centred.window.west == -30)
        let e = around(europe)
        #expect(MapPoints(longitudes: e.lon, latitudes: e.lat, labels: e.labels, options: MapOptions()).window == .standard)
    }
}
