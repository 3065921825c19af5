import Foundation
import Testing
import TestSupport

@Suite("geocluster cluster --weight-column: sample weights from the user's column")
struct WeightColumnTests {
    /// Blobs with a weight column (1 to 4), the file with each row repeated by its weight (ids
    /// suffixed), and the weights.
    static func weighted(_ blobs: Blobs, seed: UInt64 = 5) -> (weighted: String, repeated: String, weights: [Int]) {
        var g = SplitMix64(seed: seed)
        var weighted = "id,x,y,units\n", repeated = "id,x,y\n", weights: [Int] = []
        for line in blobs.text.split(separator: "\n").dropFirst() {
            let w = 1 + Int(g.uniform() * 4)
            weights.append(w)
            weighted += "\(line),\(w)\n"
            let fields = line.split(separator: ",")
            for k in 0..<w { repeated += "\(fields[0])#\(k),\(fields[1]),\(fields[2])\n" }
        }
        return (weighted, repeated, weights)
    }

    @Test("HDBSCAN and DBSCAN with --weight-column equal the run on the rows repeated; CSV and GeoJSON read the same weights")
    func equalsRepeatedRows() throws {
        try withTemporaryFolder { folder throws in
            let (weighted, repeated, weights) = Self.weighted(Blobs.planar(perBlob: 60))
            try folder.write(weighted, to: "W.csv")
            try folder.write(repeated, to: "R.csv")
            let hdbscan = ["--min-cluster-size", "100", "--min-samples", "12"]
            let w = try folder.run(["cluster", "W.csv", "-o", "LW.csv", "--weight-column", "units"] + hdbscan)
            try #require(w.status == 0, "\(w)")
            let r = try folder.run(["cluster", "R.csv", "-o", "LR.csv"] + hdbscan)
            try #require(r.status == 0, "\(r)")
            let a = try Labels(csv: folder.read("LW.csv")), b = try Labels(csv: folder.read("LR.csv"))
            let expandedLabels = zip(a.labels, weights).flatMap { Array(repeating: $0.0, count: $0.1) }
            let expandedProbabilities = zip(a.probabilities, weights).flatMap { Array(repeating: $0.0, count: $0.1) }
            #expect(expandedLabels == b.labels)
            #expect(expandedProbabilities == b.probabilities)
            #expect(Set(a.labels).count >= 3)
            // Unweighted, 60 rows a blob are below the minimum size: the weights matter.
            let plain = try folder.run(["cluster", "W.csv", "-o", "LP.csv"] + hdbscan)
            #expect(try Labels(csv: folder.read("LP.csv")).labels != a.labels, "\(plain)")

            let dbscan = ["--algorithm", "dbscan", "--eps", "40", "--min-samples", "9"]
            _ = try folder.run(["cluster", "W.csv", "-o", "DW.csv", "--weight-column", "units"] + dbscan)
            _ = try folder.run(["cluster", "R.csv", "-o", "DR.csv"] + dbscan)
            let dw = parseCSV(try folder.read("DW.csv")).dropFirst(), dr = parseCSV(try folder.read("DR.csv")).dropFirst()
            #expect(zip(dw, weights).flatMap { Array(repeating: [$0.0[1], $0.0[2]], count: $0.1) } == dr.map { [$0[1], $0[2]] })

            // The same rows as GeoJSON, the weight a property (a number or a numeric string).
            var features: [String] = []
            for (i, row) in parseCSV(weighted).dropFirst().enumerated() {
                let units = i % 2 == 0 ? row[3] : "\"\(row[3])\""
                features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"id":"\#(row[0])","x":\#(row[1]),"y":\#(row[2]),"units":\#(units)}}"#)
            }
            try folder.write(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", to: "W.geojson")
            let j = try folder.run(["cluster", "W.geojson", "--coordinates", "xy", "-o", "LJ.csv", "--weight-column", "units"] + hdbscan)
            try #require(j.status == 0, "\(j)")
            #expect(try Labels(csv: folder.read("LJ.csv")).labels == a.labels)
        }
    }

    @Test("DBSCAN on the sphere with --weight-column equals the run on the rows repeated")
    func sphereDBSCAN() throws {
        try withTemporaryFolder { folder throws in
            // Seoul's blobs read as lat,lon (columns renamed), clustered by great-circle distance.
            let (weighted, repeated, weights) = Self.weighted(Blobs.seoul(perBlob: 60))
            try folder.write(weighted.replacingOccurrences(of: "id,x,y,units", with: "id,lat,lon,units"), to: "W.csv")
            try folder.write(repeated.replacingOccurrences(of: "id,x,y\n", with: "id,lat,lon\n"), to: "R.csv")
            let dbscan = ["--algorithm", "dbscan", "--eps", "150", "--min-samples", "12", "--metric", "geodesic"]
            let w = try folder.run(["cluster", "W.csv", "-o", "DW.csv", "--weight-column", "units"] + dbscan)
            try #require(w.status == 0, "\(w)")
            let r = try folder.run(["cluster", "R.csv", "-o", "DR.csv"] + dbscan)
            try #require(r.status == 0, "\(r)")
            let dw = parseCSV(try folder.read("DW.csv")).dropFirst(), dr = parseCSV(try folder.read("DR.csv")).dropFirst()
            #expect(zip(dw, weights).flatMap { Array(repeating: [$0.0[1], $0.0[2]], count: $0.1) } == dr.map { [$0[1], $0[2]] })
            #expect(Set(dw.map { $0[1] }).count >= 3, "clusters found")
        }
    }

    @Test("a bad weight is named by file, line and column, exit 1, nothing written; a missing column and grid are refused")
    func refusals() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,x,y,units\na,0,0,1\nb,1,0,2\nc,2,0,0.5\nd,3,0,1\n", to: "HALF.csv")
            let half = try folder.run("cluster", "HALF.csv", "-o", "L.csv", "--weight-column", "units", "--min-cluster-size", "2")
            #expect(half.status == 1, "\(half)")
            #expect(half.stderr.contains("HALF.csv:4") && half.stderr.contains("units") && half.stderr.contains("whole number"), "\(half)")
            // Weight 0: refused with the way to leave such rows out, which works.
            try folder.write("id,x,y,units\na,0,0,1\nb,1,0,2\nc,2,0,0\nd,3,0,1\ne,4,0,2\n", to: "ZERO.csv")
            let zero = try folder.run("cluster", "ZERO.csv", "-o", "Z.csv", "--weight-column", "units", "--min-cluster-size", "2")
            #expect(zero.status == 1 && zero.stderr.contains("ZERO.csv:4") && zero.stderr.contains("--where units=1.."), "\(zero)")
            let kept = try folder.run("cluster", "ZERO.csv", "-o", "Z.csv", "--weight-column", "units", "--min-cluster-size", "2",
                                      "--where", "units=1..")
            try #require(kept.status == 0, "\(kept)")
            #expect(parseCSV(try folder.read("Z.csv")).dropFirst().map { $0[0] } == ["a", "b", "d", "e"])
            try FileManager.default.removeItem(atPath: folder.path("Z.csv"))
            try FileManager.default.removeItem(atPath: folder.path("ZERO.csv"))
            try folder.write("id,x,y,units\na,0,0,1\nb,1,0,x\n", to: "TEXT.csv")
            let text = try folder.run("cluster", "TEXT.csv", "-o", "L.csv", "--weight-column", "units", "--min-cluster-size", "2")
            #expect(text.status == 1 && text.stderr.contains("TEXT.csv:3") && text.stderr.contains("units"), "\(text)")
            let missing = try folder.run("cluster", "HALF.csv", "-o", "L.csv", "--weight-column", "people", "--min-cluster-size", "2")
            #expect(missing.status == 1 && missing.stderr.contains("people") && missing.stderr.contains("--weight-column"), "\(missing)")
            let grid = try folder.run("cluster", "HALF.csv", "-o", "L.csv", "--weight-column", "units", "--algorithm", "grid", "--cell-size", "10")
            #expect(grid.status == 64 && grid.stderr.contains("grid clustering takes no weights"), "\(grid)")
            let model = try folder.run("cluster", "HALF.csv", "-o", "L.csv", "--weight-column", "units", "--save-model", "M.gcm")
            #expect(model.status == 64 && model.stderr.contains("--save-model"), "\(model)")
            // DBSCAN takes any finite weight, fractional and negative too.
            try folder.write("id,x,y,units\na,0,0,1\nb,1,0,2.5\nc,2,0,-1\nd,50,0,3\n", to: "ANY.csv")
            let any = try folder.run("cluster", "ANY.csv", "-o", "D.csv", "--weight-column", "units", "--algorithm", "dbscan",
                                     "--eps", "1.5", "--min-samples", "3")
            try #require(any.status == 0, "\(any)")
            #expect(parseCSV(try folder.read("D.csv")).dropFirst().map { $0[1] + "/" + $0[2] } == ["0/1", "0/0", "-1/0", "1/1"])
            #expect(try folder.contents() == ["ANY.csv", "D.csv", "HALF.csv", "TEXT.csv"])
        }
    }
}
