import Foundation
import Testing
import TestSupport

/// Three well-separated Gaussian blobs, rows interleaved (row i is in blob i % 3) so that
/// "input order" and "grouped by cluster" differ.
struct Blobs {
    var ids: [String] = []
    var blob: [Int] = []
    var text: String

    /// Planar points in metres: centres 4 km apart, 60 m spread.
    static func planar(perBlob: Int = 100, seed: UInt64 = 42) -> Blobs {
        let centres = [(0.0, 0.0), (4000.0, 0.0), (0.0, 4000.0)]
        return make(perBlob: perBlob, seed: seed, header: "id,x,y") { g, c in
            let (cx, cy) = centres[c]
            return "\(cx + 60 * g.normal()),\(cy + 60 * g.normal())"
        }
    }

    /// lat,lon points around Seoul: centres about 7 km apart, about 200 m spread.
    static func seoul(perBlob: Int = 100, seed: UInt64 = 7) -> Blobs {
        let centres = [(37.5663, 126.9779), (37.4979, 127.0276), (37.5800, 127.0600)]
        return make(perBlob: perBlob, seed: seed, header: "id,lat,lon") { g, c in
            let (lat, lon) = centres[c]
            return "\(lat + 0.0018 * g.normal()),\(lon + 0.0023 * g.normal())"
        }
    }

    private static func make(perBlob: Int, seed: UInt64, header: String,
                             point: (inout SplitMix64, Int) -> String) -> Blobs {
        var g = SplitMix64(seed: seed)
        var b = Blobs(text: header + "\n")
        for i in 0..<(3 * perBlob) {
            let c = i % 3
            // Ids that are not row numbers, so the test sees they are copied, not counted.
            let id = "pt-\(1000 + 7 * i)"
            b.ids.append(id)
            b.blob.append(c)
            b.text += "\(id),\(point(&g, c))\n"
        }
        return b
    }
}

/// The parsed `id,label,probability,outlier_score` output.
struct Labels {
    var ids: [String] = [], labels: [Int] = [], probabilities: [Double] = [], outlierScores: [Double] = []

    init(csv text: String) throws {
        let records = parseCSV(text)
        try #require(records.first == ["id", "label", "probability", "outlier_score"])
        for r in records.dropFirst() {
            try #require(r.count == 4, "row \(r)")
            ids.append(r[0])
            labels.append(try #require(Int(r[1])))
            probabilities.append(try #require(Double(r[2])))
            outlierScores.append(try #require(Double(r[3])))
        }
    }
}

/// Checks that each blob got a single label, the blobs got different labels, and that almost
/// every point is in its blob's cluster.
func expectThreeBlobClusters(_ out: Labels, _ blobs: Blobs, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(out.ids == blobs.ids, "one row per input row, in input order, with the input ids", sourceLocation: sourceLocation)
    guard out.labels.count == blobs.blob.count else { return }
    var labelsOfBlob = [Set<Int>](repeating: [], count: 3)
    var noise = 0
    for (i, l) in out.labels.enumerated() {
        if l < 0 { noise += 1 } else { labelsOfBlob[blobs.blob[i]].insert(l) }
    }
    #expect(labelsOfBlob.allSatisfy { $0.count == 1 }, "each blob one label: \(labelsOfBlob)", sourceLocation: sourceLocation)
    #expect(Set(labelsOfBlob.flatMap { $0 }).count == 3, "three different labels: \(labelsOfBlob)", sourceLocation: sourceLocation)
    #expect(Set(out.labels.filter { $0 >= 0 }) == [0, 1, 2], sourceLocation: sourceLocation)
    #expect(noise <= blobs.blob.count / 20, "at most 5% noise, got \(noise)", sourceLocation: sourceLocation)
    #expect(out.probabilities.allSatisfy { (0...1).contains($0) }, sourceLocation: sourceLocation)
    #expect(out.outlierScores.allSatisfy { (0...1).contains($0) }, sourceLocation: sourceLocation)
    // Noise has probability 0; cluster members a positive one.
    #expect(zip(out.labels, out.probabilities).allSatisfy { $0 < 0 ? $1 == 0 : $1 > 0 }, sourceLocation: sourceLocation)
}

@Suite("geocluster cluster")
struct ClusterCommandTests {
    static let parameters = ["--min-cluster-size", "15", "--min-samples", "5"]

    @Test("x,y blobs: 3 clusters, input ids in input order, and byte-identical output for 1 and 2 threads")
    func planarBlobsAnyThreads() throws {
        let blobs = Blobs.planar()
        try withTemporaryFolder { folder throws in
            try folder.write(blobs.text, to: "IN.csv")
            var outputs = [[Data]]()
            for threads in ["1", "2"] {
                let r = try folder.run(["cluster", "IN.csv"] + Self.parameters + [
                    "--output", "OUT\(threads).csv", "--threads", threads,
                    "--condensed-tree", "TREE\(threads).csv", "--mst", "MST\(threads).csv",
                ])
                try #require(r.status == 0, "\(r)")
                #expect(r.stderr.contains("300 points: 3 clusters"), "\(r)")
                #expect(r.stderr.contains("wrote OUT\(threads).csv"))
                outputs.append([try folder.data("OUT\(threads).csv"), try folder.data("TREE\(threads).csv"), try folder.data("MST\(threads).csv")])
            }
            #expect(outputs[0][0] == outputs[1][0], "labels differ between --threads 1 and 2")
            #expect(outputs[0][1] == outputs[1][1], "condensed trees differ between --threads 1 and 2")
            #expect(outputs[0][2] == outputs[1][2], "MSTs differ between --threads 1 and 2")
            expectThreeBlobClusters(try Labels(csv: folder.read("OUT1.csv")), blobs)
            // Only the outputs asked for, and no temporary files, are left.
            #expect(try folder.contents() == ["IN.csv", "MST1.csv", "MST2.csv", "OUT1.csv", "OUT2.csv", "TREE1.csv", "TREE2.csv"])
        }
    }

    @Test("lat,lon blobs around Seoul cluster in EPSG:5179 as the same points projected by `project` do")
    func seoulLatLon() throws {
        let blobs = Blobs.seoul()
        try withTemporaryFolder { folder throws in
            try folder.write(blobs.text, to: "IN.csv")
            let r = try folder.run(["cluster", "IN.csv", "--crs", "EPSG:5179", "--output", "OUT.csv", "--mst", "MST.csv", "--threads", "1"] + Self.parameters)
            try #require(r.status == 0, "\(r)")
            let labels = try Labels(csv: folder.read("OUT.csv"))
            expectThreeBlobClusters(labels, blobs)

            // The same points projected to EPSG:5179 by `project` and clustered as x,y give
            // the same labels and (to the millimetre rounding of `project`) the same MST;
            // another CRS (UTM 52N, scale ~3e-4 different here) would not give the same MST.
            let p = try folder.run("project", "IN.csv", "--crs", "EPSG:5179", "--output", "XY.csv")
            try #require(p.status == 0, "\(p)")
            let q = try folder.run(["cluster", "XY.csv", "--coordinates", "xy", "--output", "OUTXY.csv", "--mst", "MSTXY.csv", "--threads", "1"] + Self.parameters)
            try #require(q.status == 0, "\(q)")
            #expect(try Labels(csv: folder.read("OUTXY.csv")).labels == labels.labels)
            let weight = { (name: String) throws -> Double in
                try parseCSV(folder.read(name)).dropFirst().reduce(0) { $0 + (Double($1[2]) ?? .nan) }
            }
            let w = try weight("MST.csv"), wxy = try weight("MSTXY.csv")
            #expect(abs(w - wxy) < 0.05, "MST total weight \(w) m (lat,lon in EPSG:5179) vs \(wxy) m (projected x,y)")
        }
    }

    @Test("--condensed-tree and --mst write their CSVs: n-1 MST edges and every point once in the tree")
    func treeAndMST() throws {
        let blobs = Blobs.planar()
        let n = blobs.ids.count
        try withTemporaryFolder { folder throws in
            try folder.write(blobs.text, to: "IN.csv")
            let r = try folder.run(["cluster", "IN.csv", "--output", "OUT.csv", "--condensed-tree", "TREE.csv", "--mst", "MST.csv", "--threads", "1"] + Self.parameters)
            try #require(r.status == 0, "\(r)")

            let mst = parseCSV(try folder.read("MST.csv"))
            #expect(mst.first == ["a", "b", "weight"])
            let edges = mst.dropFirst()
            #expect(edges.count == n - 1)
            var seen = Set<Int>()
            for e in edges {
                guard let a = Int(e[0]), let b = Int(e[1]), let w = Double(e[2]) else {
                    Issue.record("bad MST row \(e)"); break
                }
                #expect((0..<n).contains(a) && (0..<n).contains(b) && a != b && w.isFinite && w >= 0, "MST row \(e)")
                seen.insert(a); seen.insert(b)
            }
            #expect(seen.count == n, "the MST spans every point")

            let tree = parseCSV(try folder.read("TREE.csv"))
            #expect(tree.first == ["parent", "child", "lambda", "child_size"])
            let rows = tree.dropFirst()
            // Every point appears exactly once as a child of size 1; clusters have ids >= n.
            let pointChildren = rows.compactMap { Int($0[1]) }.filter { $0 < n }
            #expect(pointChildren.sorted() == Array(0..<n))
            #expect(rows.allSatisfy { (Int($0[0]) ?? -1) >= n && (Double($0[2]) ?? -1) >= 0 && (Int($0[3]) ?? 0) >= 1 })
            #expect(rows.filter { (Int($0[1]) ?? 0) < n }.allSatisfy { $0[3] == "1" })
        }
    }

    @Test("two points and --min-cluster-size 2: exit 0, both rows written, both noise")
    func twoPoints() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,x,y\na,0,0\nb,1,1\n", to: "IN.csv")
            let r = try folder.run("cluster", "IN.csv", "--min-cluster-size", "2", "--output", "OUT.csv")
            try #require(r.status == 0, "\(r)")
            let out = try Labels(csv: folder.read("OUT.csv"))
            #expect(out.ids == ["a", "b"])
            // Without --allow-single-cluster the root (all points) is never a cluster.
            #expect(out.labels == [-1, -1])
        }
    }

    @Test("--timings prints every stage to standard error")
    func timings() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 30).text, to: "IN.csv")
            let r = try folder.run("cluster", "IN.csv", "--output", "OUT.csv", "--timings", "--threads", "1")
            try #require(r.status == 0, "\(r)")
            let stages = ["reading", "index", "core distances", "MST", "linkage", "condense", "select", "label", "writing", "total"]
            let lines = r.stderr.split(separator: "\n").map(String.init)
            for stage in stages {
                #expect(lines.contains { $0.hasPrefix(stage + " ") && $0.hasSuffix(" s") }, "no timing line for \(stage) in:\n\(r.stderr)")
            }
            #if os(Linux)
            #expect(lines.contains { $0.hasPrefix("peak memory ") && $0.hasSuffix(" MB") }, "no peak memory line in:\n\(r.stderr)")
            #endif
            // Without --timings, none of it.
            let quiet = try folder.run("cluster", "IN.csv", "--output", "OUT.csv", "--threads", "1")
            #expect(quiet.status == 0)
            #expect(!quiet.stderr.contains("core distances"))
        }
    }
}
