import Foundation
import Testing
import TestSupport

@Suite("geocluster hulls")
struct HullsCommandTests {
    /// Two 5 × 5 grids of points 0.0001° apart (about 11 m north–south, 9 m east–west at
    /// 37.5° N) and one noise point, with their labels.
    static func write(in folder: TemporaryFolder) throws {
        var points = "id,lat,lon\n", labels = "id,label,probability,outlier_score\n"
        var id = 0
        for (label, lat0, lon0) in [(0, 37.5, 127.0), (1, 37.51, 127.02)] {
            for i in 0..<5 {
                for j in 0..<5 {
                    points += "p\(id),\(lat0 + Double(i) * 0.0001),\(lon0 + Double(j) * 0.0001)\n"
                    labels += "p\(id),\(label),1,0\n"
                    id += 1
                }
            }
        }
        points += "noise,37.55,127.05\n"
        labels += "noise,-1,0,1\n"
        try folder.write(points, to: "IN.csv")
        try folder.write(labels, to: "L.csv")
    }

    @Test("writes one hull per cluster with its size, area and centre, and lists them")
    func hulls() throws {
        try withTemporaryFolder { folder throws in
            try Self.write(in: folder)
            let r = try folder.run("hulls", "IN.csv", "--labels", "L.csv", "--crs", "EPSG:5179", "--ratio", "1",
                                   "-o", "H.geojson")
            try #require(r.status == 0, "\(r)")
            let text = try folder.read("H.geojson")
            // Areas with one decimal, centres with six.
            #expect(text.contains(/"area_m2":\d+\.\d,"centroid_lon":\d+\.\d{6},"centroid_lat":\d+\.\d{6}\}/))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let features = try #require(json["features"] as? [[String: Any]])
            try #require(features.count == 2)
            let properties = features.compactMap { $0["properties"] as? [String: Any] }
            #expect(properties.map { $0["label"] as? Int } == [0, 1])
            #expect(properties.map { $0["points"] as? Int } == [25, 25])
            for (p, (lat, lon)) in zip(properties, [(37.5002, 127.0002), (37.5102, 127.0202)]) {
                // The convex hull of the grid: 0.0004° by 0.0004°, about 44.4 m by 35.3 m.
                let area = try #require(p["area_m2"] as? Double)
                #expect(abs(area - 44.4 * 35.3) < 0.03 * 44.4 * 35.3, "area \(area)")
                #expect(abs(try #require(p["centroid_lat"] as? Double) - lat) < 2e-6)
                #expect(abs(try #require(p["centroid_lon"] as? Double) - lon) < 2e-6)
            }
            #expect(r.stdout.contains("2 clusters, 1 noise points of 51"))
            #expect(r.stdout.contains(/\n    0      25        \d{4}   37\.50020, 127\.00020\n/), "\(r.stdout)")
        }
    }

    @Test("--metric picks the planes: the data's zone by default, one plane per cluster with geodesic, a named CRS with planar; geodesic with a CRS refused")
    func metricPicksThePlanes() throws {
        try withTemporaryFolder { folder throws in
            try Self.write(in: folder)
            func hulls(_ extra: String...) throws -> (used: String, area: Double) {
                let r = try folder.run(["hulls", "IN.csv", "--labels", "L.csv", "--ratio", "1", "-o", "H.geojson"] + extra)
                try #require(r.status == 0, "\(r)")
                let used = try #require(r.stdout.firstMatch(of: /hulls computed in (.+), written/)).1
                let json = try #require(try JSONSerialization.jsonObject(with: Data(try folder.read("H.geojson").utf8)) as? [String: Any])
                let first = try #require((json["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
                return (String(used), try #require(first["area_m2"] as? Double))
            }
            let auto = try hulls(), geodesic = try hulls("--metric", "geodesic"), planar = try hulls("--metric", "planar", "--crs", "EPSG:5179")
            #expect(auto.used == "EPSG:32652" && geodesic.used == "a local azimuthal equidistant projection per cluster"
                    && planar.used == "EPSG:5179")
            #expect(try hulls("--metric", "planar").used == "EPSG:32652")
            // The same grid outlined in each: areas are geodesic, so they agree.
            #expect(abs(geodesic.area - auto.area) < 1e-3 * auto.area && abs(planar.area - auto.area) < 1e-3 * auto.area)
            let refused = try folder.run("hulls", "IN.csv", "--labels", "L.csv", "--metric", "geodesic", "--crs", "EPSG:5179", "-o", "X.geojson")
            #expect(refused.status == 64 && refused.stderr.contains("drop --crs EPSG:5179"), "\(refused)")
            #expect(!(try folder.contents()).contains("X.geojson"))
            // One plane over Seoul and New York stretches distances: planar warns, auto does not.
            var far = "id,lat,lon\n", farLabels = "id,label,probability,outlier_score\n"
            for (label, lat0, lon0) in [(0, 37.5, 127.0), (1, 40.7, -74.0)] {
                for i in 0..<9 {
                    far += "f\(label)-\(i),\(lat0 + Double(i % 3) * 0.001),\(lon0 + Double(i / 3) * 0.001)\n"
                    farLabels += "f\(label)-\(i),\(label),1,0\n"
                }
            }
            try folder.write(far, to: "far.csv")
            try folder.write(farLabels, to: "farL.csv")
            let stretched = try folder.run("hulls", "far.csv", "--labels", "farL.csv", "--metric", "planar", "-o", "F.geojson")
            #expect(stretched.status == 0 && stretched.stderr.contains("hulls there are outlined in a distorted plane"), "\(stretched)")
            let local = try folder.run("hulls", "far.csv", "--labels", "farL.csv", "-o", "F.geojson")
            #expect(local.status == 0 && !local.stderr.contains("warning"), "\(local)")
        }
    }

    @Test("the hulls of the Seoul listings: one feature per line, exterior rings counterclockwise (RFC 7946 §3.1.6)")
    func seoulHullsFollowRightHandRule() throws {
        try withTemporaryFolder { folder throws in
            try MapCommandTests.clusterSeoul(in: folder)
            let r = try folder.run("hulls", MapCommandTests.seoul, "--labels", "L.csv", "-o", "H.geojson")
            try #require(r.status == 0, "\(r)")
            let text = try folder.read("H.geojson")
            #expect(text.split(separator: "\n").count == 33 + 2, "collection opening, 33 features, closing")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let features = try #require(json["features"] as? [[String: Any]])
            try #require(features.count == 33)
            for feature in features {
                let geometry = try #require(feature["geometry"] as? [String: Any])
                #expect(geometry["type"] as? String == "Polygon")
                let rings = try #require(geometry["coordinates"] as? [[[Double]]])
                // Shoelace with longitude to the right and latitude up: positive is counterclockwise.
                let ring = rings[0]
                var twiceArea = 0.0
                for i in 0..<(ring.count - 1) {
                    twiceArea += (ring[i][0] - ring[0][0]) * (ring[i + 1][1] - ring[0][1])
                        - (ring[i + 1][0] - ring[0][0]) * (ring[i][1] - ring[0][1])
                }
                #expect(twiceArea > 0, "\(feature["properties"] ?? "")")
                #expect(ring.first == ring.last)
            }
        }
    }

    @Test("labels for another file are refused, naming both files")
    func mismatchedLabels() throws {
        try withTemporaryFolder { folder throws in
            try Self.write(in: folder)
            try folder.write("id,label\np0,0\n", to: "SHORT.csv")
            let r = try folder.run("hulls", "IN.csv", "--labels", "SHORT.csv", "-o", "H.geojson")
            #expect(r.status == 1)
            #expect(r.stderr.contains("SHORT.csv: 1 label rows for 51 points in IN.csv"), "\(r.stderr)")
            #expect(try folder.contents() == ["IN.csv", "L.csv", "SHORT.csv"])
        }
    }
}
