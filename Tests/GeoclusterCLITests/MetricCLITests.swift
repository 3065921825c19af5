import Foundation
import Testing
import TestSupport

/// `--metric` end to end: the default on world-wide data is the sphere, with scikit-learn's
/// haversine partition; the planar local case stays planar; misuse is refused.
@Suite("--metric auto|planar|geodesic end to end")
struct MetricCLITests {
    /// The Fiji fixture (points on both sides of ±180°) as a user's CSV, and its scikit-learn
    /// haversine labels.
    static func fiji() throws -> (csv: String, labels: [Int], unstable: Set<Int>) {
        let url = TestPaths.fixtures("haversine").appendingPathComponent("fiji_antimeridian.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let points = json["points"] as! [[Double]]
        let hdbscan = json["hdbscan"] as! [String: Any]
        var csv = "id,lon,lat\n"
        for (i, p) in points.enumerated() { csv += "\(i),\(p[0]),\(p[1])\n" }
        return (csv, (hdbscan["labels"] as! [Int]), Set(hdbscan["unstable_points"] as! [Int]))
    }

    static func labels(_ csv: String) -> [Int] {
        csv.split(separator: "\n").dropFirst().map { Int($0.split(separator: ",")[1])! }
    }

    @Test("world-wide data clusters with the defaults on the sphere, as scikit-learn's haversine does, and says so")
    func defaultOnTheSphere() throws {
        let fiji = try Self.fiji()
        try withTemporaryFolder { folder in
            try folder.write(fiji.csv, to: "fiji.csv")
            let r = try folder.run("cluster", "fiji.csv", "--min-cluster-size", "10", "--min-samples", "5",
                                   "-o", "l.csv", "--timings")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("so distances are great-circle metres (--metric geodesic"), "\(r)")
            #expect(r.stderr.contains(#/metric\s+geodesic: /#), "\(r)")
            let ours = Self.labels(try folder.read("l.csv"))
            var pairs: [Int: Int] = [:], back: [Int: Int] = [:]
            for i in ours.indices where !fiji.unstable.contains(i) {
                #expect((ours[i] < 0) == (fiji.labels[i] < 0), "row \(i)")
                guard ours[i] >= 0 else { continue }
                #expect(pairs[ours[i], default: fiji.labels[i]] == fiji.labels[i])
                #expect(back[fiji.labels[i], default: ours[i]] == ours[i])
                pairs[ours[i]] = fiji.labels[i]; back[fiji.labels[i]] = ours[i]
            }
            #expect(pairs.count >= 3)
        }
    }

    @Test("local data stays planar in its UTM zone; --metric geodesic on it gives nearly the same clusters")
    func localStaysPlanar() throws {
        try withTemporaryFolder { folder in
            _ = try folder.run("generate", "--count", "3000", "--seed", "4", "-o", "s.csv")
            let planar = try folder.run("cluster", "s.csv", "--coordinates", "lonlat", "-o", "p.csv", "--timings")
            try #require(planar.status == 0, "\(planar)")
            #expect(planar.stderr.contains(#/metric\s+planar: the data's UTM zone \(EPSG:32652\) keeps ground distances within 1 %/#), "\(planar)")
            #expect(!planar.stderr.contains("great-circle"))
            let sphere = try folder.run("cluster", "s.csv", "--coordinates", "lonlat", "--metric", "geodesic", "-o", "g.csv")
            try #require(sphere.status == 0, "\(sphere)")
            let p = Self.labels(try folder.read("p.csv")), g = Self.labels(try folder.read("g.csv"))
            let agree = zip(p, g).filter { ($0 < 0) == ($1 < 0) }.count
            #expect(Double(agree) / Double(p.count) > 0.98, "noise agrees on \(agree) of \(p.count)")
        }
    }

    @Test("misuse: geodesic on x,y (exit 1), geodesic with a --crs (exit 64), an unknown metric (exit 64); nothing written")
    func misuse() throws {
        try withTemporaryFolder { folder in
            _ = try folder.run("generate", "--count", "500", "--seed", "4", "-o", "s.csv")
            let xy = try folder.run("cluster", "s.csv", "--metric", "geodesic", "-o", "o.csv")
            #expect(xy.status == 1 && xy.stderr.contains("--metric = geodesic is invalid: needs longitude/latitude input"), "\(xy)")
            let crs = try folder.run("cluster", "s.csv", "--coordinates", "lonlat", "--metric", "geodesic",
                                     "--crs", "EPSG:5179", "-o", "o.csv")
            #expect(crs.status == 64 && crs.stderr.contains("drop --crs EPSG:5179"), "\(crs)")
            let unknown = try folder.run("cluster", "s.csv", "--metric", "manhattan", "-o", "o.csv")
            #expect(unknown.status == 64, "\(unknown)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("o.csv")))
            let far = try folder.run("cluster", "s.csv", "--coordinates", "lonlat", "--metric", "geodesic",
                                     "--algorithm", "dbscan", "--eps", "21000000", "-o", "o.csv")
            #expect(far.status != 0 && far.stderr.contains("half the Earth's circumference"), "\(far)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("o.csv")))
        }
    }

    @Test("bench runs the world scenario on the sphere, every method, with --metric passed to its cells")
    func benchWorld() throws {
        try withTemporaryFolder { folder in
            let r = try folder.run("bench", "--scenarios", "world", "--sizes", "2000", "--repeat", "1",
                                   "--out", "rep", "--cache", "cache", "--threads", "1")
            try #require(r.status == 0, "\(r)")
            let runs = try folder.read("rep/runs.csv")
            let rows = runs.split(separator: "\n").dropFirst()
            #expect(rows.count == 3, "\(runs)")
            #expect(rows.allSatisfy { $0.contains(",ok,") }, "\(runs)")
        }
    }
}
