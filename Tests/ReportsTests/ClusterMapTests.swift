import Datasets
import Foundation
import Geo
@testable import Reports
import Testing
import Pins

/// Synthetic listings around Seoul: `clusters` Gaussian blobs (σ about 150 m) at seeded
/// random centres, and `noiseShare` of the points uniform over the extent.
func syntheticPoints(_ n: Int, clusters: Int, noiseShare: Double = 0.15, seed: UInt64 = 7)
    -> (lon: [Double], lat: [Double], labels: [Int32]) {
    var rng = SplitMix64(seed: seed)
    let centres = (0..<clusters).map { _ in (rng.nextDouble(in: 126.85, 127.15), rng.nextDouble(in: 37.45, 37.65)) }
    var lon = [Double](), lat = [Double](), labels = [Int32]()
    lon.reserveCapacity(n); lat.reserveCapacity(n); labels.reserveCapacity(n)
    for _ in 0..<n {
        if rng.nextDouble() < noiseShare || clusters == 0 {
            lon.append(rng.nextDouble(in: 126.85, 127.15)); lat.append(rng.nextDouble(in: 37.45, 37.65)); labels.append(-1)
        } else {
            let c = rng.nextInt(below: clusters)
            lon.append(centres[c].0 + 0.0017 * rng.nextNormal()); lat.append(centres[c].1 + 0.0013 * rng.nextNormal())
            labels.append(Int32(c))
        }
    }
    return (lon, lat, labels)
}

@Suite("Cluster map")
struct ClusterMapTests {
    @Test("pin diameter: 25 + 25·√((count − min)/(max − min)), 25 when all clusters are the same size")
    func pinDiameter() {
        #expect(ClusterMap.pinDiameter(count: 40, minCount: 40, maxCount: 40) == 25)
        #expect(ClusterMap.pinDiameter(count: 30, minCount: 30, maxCount: 1030) == 25)
        #expect(ClusterMap.pinDiameter(count: 1030, minCount: 30, maxCount: 1030) == 50)
        // A quarter of the way in count is half the way in diameter.
        #expect(ClusterMap.pinDiameter(count: 280, minCount: 30, maxCount: 1030) == 37.5)
        #expect(abs(ClusterMap.pinDiameter(count: 130, minCount: 30, maxCount: 1030) - (25 + 25 * 0.1.squareRoot())) < 1e-12)
    }

    @Test("the pins drawn have those diameters, and each shows its cluster's count")
    func pinsOnTheMap() {
        // Three clusters of 10, 40 and 90 points far apart, one noise point.
        var lon = [Double](), lat = [Double](), labels = [Int32]()
        for (label, size, lon0) in [(Int32(5), 10, 127.0), (7, 40, 127.05), (9, 90, 127.1)] {
            for i in 0..<size {
                lon.append(lon0 + 0.0001 * Double(i % 7)); lat.append(37.5 + 0.0001 * Double(i / 7)); labels.append(label)
            }
        }
        lon.append(127.2); lat.append(37.6); labels.append(-1)
        let svg = ClusterMap.render(MapData(longitudes: lon, latitudes: lat, labels: labels, title: "t"))
        let radii = Set(attributeValues(svg, element: "circle", attribute: "r").compactMap(Double.init))
            .subtracting([6])  // the legend's swatches
        // Diameters 10 → 25, 40 → 25 + 25·√(30/80) ≈ 40.31, 90 → 50; radii written to 0.1 pt.
        #expect(radii == [12.5, ((25 + 25 * (30.0 / 80).squareRoot()) / 2 * 10).rounded() / 10, 25])
        for count in ["10", "40", "90"] { #expect(svg.contains(">\(count)</text>")) }
    }

    @Test("pins and outlines only for the largest clusters past the pin cap")
    func pinCap() {
        let p = syntheticPoints(4000, clusters: 30, noiseShare: 0)
        let square = Coordinates(x: [127.0, 127.001, 127.001, 127.0], y: [37.5, 37.5, 37.501, 37.5])
        let outlines = Dictionary(uniqueKeysWithValues: (0..<30).map { (Int32($0), [square]) })
        let svg = ClusterMap.render(MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels, outlines: outlines,
                                            title: "cap"), options: MapOptions(maxPins: 7))
        #expect(svg.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"2\"").count - 1 == 7)
        #expect(svg.components(separatedBy: "Z\" fill=\"#").count - 1 == 7)
        #expect(svg.contains("Pin for the 7 largest cluster"))
    }

    @Test("a hostile title and subtitle are escaped, and the SVG stays well-formed")
    func hostileText() throws {
        let p = syntheticPoints(500, clusters: 4)
        let evil = "<script>&\"'"
        let svg = ClusterMap.render(MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels,
                                            title: evil, subtitle: "params \(evil)\nscores ]]> --> \u{1}"))
        #expect(!svg.contains("<script>"))
        #expect(svg.contains("&lt;script&gt;&amp;&quot;&#39;"))
        #expect(xmlError(svg) == nil, "\(xmlError(svg) ?? "")")
        #expect(try renderWithRSVG(svg).status == 0)
    }

    @Test("up to the point budget every point is a dot; above it a density raster")
    func budgetSwitch() {
        let p = syntheticPoints(1001, clusters: 5)
        func render(budget: Int) -> String {
            ClusterMap.render(MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels, title: "b"),
                              options: MapOptions(pointBudget: budget))
        }
        let dots = render(budget: 1001), raster = render(budget: 1000)
        #expect(dots.contains("Every point drawn") && dots.contains("h0"))
        #expect(raster.contains("Density: 3 pt cells") && !raster.contains("h0M"))
    }

    @Test("1,000,000 points give an SVG under 1 MB (the budget's promise; the issue's limit is 20 MB) that rsvg renders")
    func millionPoints() throws {
        let p = syntheticPoints(1_000_000, clusters: 400)
        let start = ContinuousClock.now
        let svg = ClusterMap.render(MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels, title: "1M"))
        let renderTime = ContinuousClock.now - start
        #expect(svg.utf8.count < 1_000_000, "\(svg.utf8.count) bytes")
        #expect(xmlError(svg) == nil)
        let rsvgStart = ContinuousClock.now
        let rendered = try renderWithRSVG(svg)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(rendered.pngBytes > 10_000)
        print("1M points: SVG \(svg.utf8.count) bytes, rendered in \(renderTime), rsvg \(ContinuousClock.now - rsvgStart)")
    }

    @Test("the scale bar is a round length, true on the ground at the map's centre latitude")
    func scaleBar() {
        #expect(ClusterMap.scaleBarMetres(metresPerPoint: 7.3, maxLength: 130) == 500)  // 949 m fits
        #expect(ClusterMap.scaleBarMetres(metresPerPoint: 10, maxLength: 130) == 1000)
        #expect(ClusterMap.scaleBarMetres(metresPerPoint: 16, maxLength: 130) == 2000)  // 2080 m fits
        #expect(ClusterMap.scaleBarMetres(metresPerPoint: 0.004, maxLength: 130) == 0.5)
        // The layout's metres per pt, checked against the haversine distance of two points
        // 0.01° of longitude apart at the centre latitude (60° N: Mercator doubles lengths).
        let lon = [10.0, 10.4], lat = [59.9, 60.1]
        let (x, y) = WebMercator.project(longitudes: lon, latitudes: lat)
        let layout = MapLayout(x: x, y: y, subtitle: "", width: 1000, minimumHeight: 0)
        let centreLatitude = WebMercator.latitude(northing: (y[0] + y[1]) / 2)
        let a = layout.point(longitude: 10.1, latitude: centreLatitude), b = layout.point(longitude: 10.11, latitude: centreLatitude)
        let phi = centreLatitude * .pi / 180, dLambda = 0.01 * .pi / 180
        let h = cos(phi) * cos(phi) * pow(sin(dLambda / 2), 2)
        let ground = 2 * 6_378_137 * asin(h.squareRoot())
        #expect(abs(ground / (b.x - a.x) / layout.groundMetresPerPoint - 1) < 1e-6)
        #expect(abs(b.y - a.y) < 1e-9)
    }

    @Test("the same input gives the same SVG; outlines are drawn closed or open as given")
    func deterministicWithOutlines() {
        let p = syntheticPoints(3000, clusters: 6)
        let ring = Coordinates(x: [127.0, 127.01, 127.01, 127.0], y: [37.5, 37.5, 37.51, 37.5])
        let line = Coordinates(x: [127.02, 127.03], y: [37.52, 37.53])
        let data = MapData(longitudes: p.lon, latitudes: p.lat, labels: p.labels,
                           outlines: [0: [ring], 1: [line]], title: "d", subtitle: "s")
        let svg = ClusterMap.render(data)
        #expect(svg == ClusterMap.render(data))
        let paths = attributeValues(svg, element: "path", attribute: "d").filter { $0.hasPrefix("M") && $0.contains("L") }
        #expect(paths.count == 2)
        #expect(paths.filter { $0.hasSuffix("Z") }.count == 1)
    }
}
