import Foundation
import Testing
import TestSupport

/// Listings in three places 4 km apart, each place with cheap and dear flats (deposits around
/// 1,000 and 30,000): by position alone three clusters, by position and deposit six.
private func listings(perGroup: Int = 80, seed: UInt64 = 3) -> (text: String, rows: [[Double]]) {
    var g = SplitMix64(seed: seed)
    var text = "id,x,y,deposit,floor\n", rows: [[Double]] = []
    let places = [(0.0, 0.0), (4000.0, 0.0), (0.0, 4000.0)]
    for (p, place) in places.enumerated() {
        for price in [1000.0, 30000.0] {
            for i in 0..<perGroup {
                let row = [place.0 + 150 * g.normal(), place.1 + 150 * g.normal(), price * (1 + 0.05 * g.normal()),
                           Double(1 + (i + p) % 12)]
                rows.append(row)
                text += "r\(rows.count),\(row.map { "\($0)" }.joined(separator: ","))\n"
            }
        }
    }
    return (text, rows)
}

/// The columns' centres and spreads as `--scale` computes them (population standard
/// deviation; quartiles interpolated linearly), the position's two axes sharing one spread.
private func scaled(_ rows: [[Double]], robust: Bool) -> [[Double]] {
    let columns = (0..<rows[0].count).map { c in rows.map { $0[c] } }
    func quantile(_ v: [Double], _ q: Double) -> Double {
        let s = v.sorted(), p = q * Double(s.count - 1), lo = Int(p.rounded(.down)), hi = Int(p.rounded(.up))
        return s[lo] + (s[hi] - s[lo]) * (p - p.rounded(.down))
    }
    let stats = columns.map { v -> (Double, Double) in
        if robust { return (quantile(v, 0.5), quantile(v, 0.75) - quantile(v, 0.25)) }
        let mean = v.reduce(0, +) / Double(v.count)
        return (mean, (v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count)).squareRoot())
    }
    let shared = robust ? (stats[0].1 + stats[1].1) / 2 : ((stats[0].1 * stats[0].1 + stats[1].1 * stats[1].1) / 2).squareRoot()
    return rows.map { row in row.indices.map { c in (row[c] - stats[c].0) / (c < 2 ? shared : stats[c].1) } }
}

@Suite("geocluster cluster --features: listings by position and their own columns")
struct FeatureColumnsTests {
    @Test("position and deposit split each place in two; --scale equals the columns scaled by hand")
    func scaledFeatures() throws {
        try withTemporaryFolder { folder throws in
            let (text, rows) = listings()
            try folder.write(text, to: "L.csv")
            let options = ["--min-cluster-size", "30", "--min-samples", "5"]
            _ = try folder.run(["cluster", "L.csv", "-o", "P.csv"] + options)
            #expect(Set(try Labels(csv: folder.read("P.csv")).labels.filter { $0 >= 0 }).count == 3)
            for robust in [false, true] {
                let scale = robust ? "robust" : "standard"
                let r = try folder.run(["cluster", "L.csv", "--features", "x,y,deposit", "--scale", scale, "-o", "F.csv"] + options)
                try #require(r.status == 0, "\(r)")
                let byFeatures = try Labels(csv: folder.read("F.csv")).labels
                #expect(Set(byFeatures.filter { $0 >= 0 }).count == 6, "\(scale)")
                // Each cluster holds one price group of one place.
                for label in Set(byFeatures) where label >= 0 {
                    let members = byFeatures.indices.filter { byFeatures[$0] == label }
                    #expect(Set(members.map { $0 / 80 }).count == 1, "\(scale): cluster \(label) mixes groups")
                }
                let byHand = scaled(rows.map { Array($0[0..<3]) }, robust: robust)
                try folder.write("id,a,b,c\n" + byHand.enumerated().map { i, v in "r\(i + 1),\(v[0]),\(v[1]),\(v[2])" }
                    .joined(separator: "\n") + "\n", to: "S.csv")
                // The by-hand file still needs a position: a,b are it.
                let h = try folder.run(["cluster", "S.csv", "--x-column", "a", "--y-column", "b", "--features", "a,b,c",
                                        "--scale", "none", "-o", "H.csv"] + options)
                try #require(h.status == 0, "\(h)")
                #expect(try Labels(csv: folder.read("H.csv")).labels == byFeatures, "\(scale)")
            }
        }
    }

    @Test("four features are clustered in four dimensions; DBSCAN too; GeoJSON reads the same features as CSV")
    func fourDimensionsAndGeoJSON() throws {
        try withTemporaryFolder { folder throws in
            let (text, rows) = listings()
            try folder.write(text, to: "L.csv")
            let args = ["--features", "x,y,deposit,floor", "--min-cluster-size", "30", "--min-samples", "5"]
            let r = try folder.run(["cluster", "L.csv", "-o", "F.csv"] + args)
            try #require(r.status == 0, "\(r)")
            let csvLabels = try Labels(csv: folder.read("F.csv")).labels
            #expect(Set(csvLabels.filter { $0 >= 0 }).count >= 6)
            let features = rows.enumerated().map { i, v in
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"id":"r\#(i + 1)","x":\#(v[0]),"y":\#(v[1]),"deposit":\#(v[2]),"floor":"\#(Int(v[3]))"}}"#
            }
            try folder.write(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", to: "L.geojson")
            let j = try folder.run(["cluster", "L.geojson", "--coordinates", "xy", "-o", "G.csv"] + args)
            try #require(j.status == 0, "\(j)")
            #expect(try Labels(csv: folder.read("G.csv")).labels == csvLabels)
            let d = try folder.run(["cluster", "L.csv", "--features", "x,y,deposit,floor", "--algorithm", "dbscan",
                                    "--eps", "0.5", "--min-samples", "5", "-o", "D.csv"])
            try #require(d.status == 0, "\(d)")
            #expect(d.stderr.contains("clusters"))
            // A filter on a feature column keeps its rows and clusters them by it.
            let w = try folder.run(["cluster", "L.csv", "--where", "deposit=..5000", "-o", "W.csv"] + args)
            try #require(w.status == 0, "\(w)")
            #expect(parseCSV(try folder.read("W.csv")).count - 1 == 240)
        }
    }

    @Test("bad features are refused naming what to fix, with no output written")
    func refusals() throws {
        try withTemporaryFolder { folder throws in
            var (text, _) = listings(perGroup: 10)
            try folder.write(text, to: "L.csv")
            let cases: [([String], String)] = [
                (["--features", "x,y,price"], "'price' (--features)"),
                (["--features", "x,y,,deposit"], "--features"),
                (["--scale", "robust"], "--scale goes with --features"),
                (["--features", "x,y,deposit", "--algorithm", "grid", "--cell-size", "100"], "grid"),
                (["--features", "x,y,deposit", "--save-model", "M.gcm"], "--save-model"),
                (["--features", (0..<65).map { _ in "x" }.joined(separator: ",")], "at most 64"),
                (["--features", "x,x,deposit"], "given twice"),
            ]
            for (args, message) in cases {
                let r = try folder.run(["cluster", "L.csv", "-o", "O.csv"] + args)
                #expect(r.status != 0 && !r.crashed, "\(args)")
                #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: folder.path("O.csv")), "\(args)")
            }
            text += "r99,1,2,cheap,3\n"
            try folder.write(text, to: "B.csv")
            let bad = try folder.run(["cluster", "B.csv", "--features", "x,y,deposit", "-o", "O.csv"])
            #expect(bad.status != 0 && bad.stderr.contains("B.csv") && bad.stderr.contains("deposit")
                    && bad.stderr.contains("B.csv:62"), "\(bad.stderr)")
            try folder.write("id,lat,lon,deposit\n1,37.5,127.0,100\n2,37.6,127.1,200\n", to: "W.csv")
            let sphere = try folder.run(["cluster", "W.csv", "--metric", "geodesic", "--features", "lat,lon,deposit", "-o", "O.csv"])
            #expect(sphere.status != 0 && sphere.stderr.contains("--features") && sphere.stderr.contains("--metric"), "\(sphere.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("O.csv")))
        }
    }
}
