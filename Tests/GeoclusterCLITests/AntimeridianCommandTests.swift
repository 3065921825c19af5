import Foundation
import Testing
import TestSupport

/// `filter --bbox` and `hulls` on data on both sides of ±180° (around Fiji and Tonga).
@Suite("the antimeridian on the command line")
struct AntimeridianCommandTests {
    /// Three clusters of 60 points: one across ±180° at 17° S, one at 175° E, one at 175° W;
    /// and 20 points elsewhere on the globe.
    static func write(in folder: TemporaryFolder) throws -> [(id: String, lon: Double, lat: Double)] {
        var rng = SplitMix64(seed: 180)
        var rows: [(String, Double, Double)] = []
        var labels = "id,label\n"
        for (label, lon0) in [(0, 180.0), (1, 175.0), (2, -175.0)] {
            for k in 0..<60 {
                var lon = lon0 + Double.random(in: -1.5...1.5, using: &rng)
                if lon > 180 { lon -= 360 }
                rows.append(("c\(label)_\(k)", lon, -17 + Double.random(in: -1...1, using: &rng)))
                labels += "c\(label)_\(k),\(label)\n"
            }
        }
        for k in 0..<20 {
            rows.append(("far\(k)", Double.random(in: -160...160, using: &rng), Double.random(in: -80...80, using: &rng)))
            labels += "far\(k),-1\n"
        }
        try folder.write("id,lat,lon\n" + rows.map { "\($0.0),\($0.2),\($0.1)" }.joined(separator: "\n") + "\n", to: "fiji.csv")
        try folder.write(labels, to: "L.csv")
        return rows.map { (id: $0.0, lon: $0.1, lat: $0.2) }
    }

    @Test("filter --bbox 170,-25,-170,-10 keeps the rows on both sides of ±180°, and only those")
    func filterAcross() throws {
        try withTemporaryFolder { folder throws in
            let rows = try Self.write(in: folder)
            let r = try folder.run("filter", "fiji.csv", "--bbox", "170,-25,-170,-10", "-o", "kept.csv")
            try #require(r.status == 0, "\(r)")
            let kept = parseCSV(try folder.read("kept.csv")).dropFirst().map { $0[0] }
            let expected = rows.filter { ($0.lon >= 170 || $0.lon <= -170) && $0.lat >= -25 && $0.lat <= -10 }.map(\.id)
            #expect(kept == expected && expected.count >= 180, "\(kept.count) of \(expected.count)")
            let inverted = try folder.run("filter", "fiji.csv", "--bbox", "170,-10,-170,-25", "-o", "bad.csv")
            #expect(inverted.status == 64 && inverted.stderr.contains("minLat -10.0 is greater than maxLat -25.0"), "\(inverted)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("bad.csv")))
        }
    }

    @Test("hulls: the cluster across ±180° is a MultiPolygon meeting there, with bbox west > east; all valid RFC 7946")
    func hullsAcross() throws {
        try withTemporaryFolder { folder throws in
            _ = try Self.write(in: folder)
            let r = try folder.run("hulls", "fiji.csv", "--labels", "L.csv", "-o", "H.geojson")
            try #require(r.status == 0, "\(r)")
            let text = try folder.read("H.geojson")
            try UserDataTests.checkRFC7946(text)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let features = try #require(json["features"] as? [[String: Any]])
            try #require(features.count == 3)
            let types = features.map { ($0["geometry"] as? [String: Any])?["type"] as? String }
            #expect(types == ["MultiPolygon", "Polygon", "Polygon"])
            let boxes = features.map { $0["bbox"] as? [Double] ?? [] }
            #expect(boxes[0][0] > boxes[0][2] && boxes[1][0] < boxes[1][2] && boxes[2][0] < boxes[2][2], "\(boxes)")
        }
    }
}
