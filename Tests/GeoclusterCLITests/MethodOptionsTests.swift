import Foundation
import Testing
import TestSupport

/// `--algorithm` and the method options: one validation (the core's), messages that name the
/// flag the user typed, and options of another algorithm refused rather than ignored.
@Suite("cluster: method options")
struct MethodOptionsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var fragments: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [Case] = [
        // Values the core refuses, reported under the flag that was typed.
        .init(arguments: ["--min-cluster-size", "1"], fragments: ["--min-cluster-size 1 is invalid: must be at least 2"]),
        .init(arguments: ["--min-samples", "0"], fragments: ["--min-samples 0 is invalid: must be at least 1"]),
        .init(arguments: ["--epsilon", "-3"], fragments: ["--epsilon -3.0 is invalid"]),
        .init(arguments: ["--max-cluster-size", "0"], fragments: ["--max-cluster-size 0 is invalid"]),
        .init(arguments: ["--algorithm", "dbscan", "--eps", "0"], fragments: ["--eps 0.0 is invalid: must be a finite distance > 0"]),
        .init(arguments: ["--algorithm", "dbscan", "--eps", "50", "--min-samples", "0"], fragments: ["--min-samples 0 is invalid"]),
        .init(arguments: ["--algorithm", "grid", "--cell-size", "100", "--min-points", "0"], fragments: ["--min-points 0 is invalid"]),
        // Required options.
        .init(arguments: ["--algorithm", "dbscan"], fragments: ["--algorithm dbscan needs --eps METRES"]),
        .init(arguments: ["--algorithm", "grid"], fragments: ["--algorithm grid needs --cell-size METRES"]),
        // Options the chosen algorithm does not use: refused, never silently ignored.
        .init(arguments: ["--eps", "100"], fragments: ["--eps is not used by --algorithm hdbscan", "--epsilon"]),
        .init(arguments: ["--algorithm", "dbscan", "--eps", "100", "--min-cluster-size", "500", "--selection", "leaf"],
              fragments: ["--min-cluster-size, --selection are not used by --algorithm dbscan"]),
        .init(arguments: ["--algorithm", "dbscan", "--eps", "100", "--min-samples-convention", "hdbscan"],
              fragments: ["--min-samples-convention is not used by --algorithm dbscan"]),
        .init(arguments: ["--algorithm", "dbscan", "--eps", "100", "--ties", "one-at-a-time"],
              fragments: ["--ties is not used by --algorithm dbscan"]),
        .init(arguments: ["--ties", "sklearn"], fragments: ["--ties", "all-at-once", "one-at-a-time"]),
        .init(arguments: ["--algorithm", "grid", "--cell-size", "100", "--min-samples", "3"],
              fragments: ["--min-samples is not used by --algorithm grid", "--min-points"]),
        .init(arguments: ["--algorithm", "grid", "--cell-size", "100", "--allow-single-cluster"],
              fragments: ["--allow-single-cluster is not used by --algorithm grid"]),
        .init(arguments: ["--cell-size", "100", "--grid-merge"], fragments: ["--cell-size, --grid-merge are not used by --algorithm hdbscan"]),
        .init(arguments: ["--algorithm", "dbscan", "--eps", "100", "--mst", "m.csv"], fragments: ["--condensed-tree, --mst and --save-model are HDBSCAN outputs"]),
    ]

    @Test("bad or foreign method options exit 64 naming the flag, and write nothing", arguments: usageCases)
    func usage(_ c: Case) throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.write("x,y\n0,0\n1,0\n0,1\n1,1\n5,5\n", to: "in.csv")
            let r = try folder.run(["cluster", "in.csv", "-o", "out.csv"] + c.arguments)
            #expect(r.status == 64, "\(r)")
            for f in c.fragments { #expect(r.stderr.contains(f), "missing \"\(f)\" in \(r.stderr)") }
            #expect(try folder.contents() == ["in.csv"])
        }
    }

    @Test("--ties one-at-a-time on GeoNames' German places: fewer points noise than all at once, and the same partition for reversed rows")
    func ties() throws {
        try withTemporaryFolder { folder throws in
            let rows = try String(contentsOf: TestPaths.fixtures("geonames").appendingPathComponent("de-cities1000.csv"), encoding: .utf8)
                .split(separator: "\n")
            _ = try folder.write(rows.joined(separator: "\n") + "\n", to: "de.csv")
            _ = try folder.write(([rows[0]] + rows.dropFirst().reversed()).joined(separator: "\n") + "\n", to: "reversed.csv")
            var labels: [String: [String: String]] = [:]
            for (input, ties, out) in [("de.csv", "all-at-once", "a.csv"), ("de.csv", "one-at-a-time", "o.csv"), ("reversed.csv", "one-at-a-time", "r.csv")] {
                let r = try folder.run("cluster", input, "--id-column", "geonameid", "--min-cluster-size", "5", "--ties", ties, "-o", out)
                try #require(r.status == 0, "\(r)")
                labels[out] = Dictionary(uniqueKeysWithValues: parseCSV(try folder.read(out)).dropFirst().map { ($0[0], $0[1]) })
            }
            let noise = labels.mapValues { $0.values.filter { $0 == "-1" }.count }
            #expect(noise["o.csv"]! < noise["a.csv"]!, "\(noise)")
            // The same noise and a one-to-one renaming of the clusters.
            let pairs = Set(labels["o.csv"]!.map { "\($0.value) \(labels["r.csv"]![$0.key]!)" })
            #expect(pairs.count == Set(labels["o.csv"]!.values).count && pairs.count == Set(labels["r.csv"]!.values).count)
            #expect(pairs.allSatisfy { !$0.hasPrefix("-1 ") || $0 == "-1 -1" })
        }
    }

    @Test("the defaults are the documented ones: DBSCAN min_samples 5, grid min_points 2")
    func defaults() throws {
        try withTemporaryFolder { folder throws in
            // Four points within 1 m and one far away: with min_samples 5 none is core (all
            // noise); with 4 they form a cluster. Grid: two points in one cell make a cluster
            // with the default min_points 2.
            _ = try folder.write("x,y\n0,0\n0.5,0\n0,0.5\n0.5,0.5\n100,100\n", to: "in.csv")
            var r = try folder.run("cluster", "in.csv", "--algorithm", "dbscan", "--eps", "1", "-o", "d.csv")
            #expect(r.status == 0, "\(r)")
            #expect(try folder.read("d.csv") == "id,label,is_core\n0,-1,0\n1,-1,0\n2,-1,0\n3,-1,0\n4,-1,0\n")
            r = try folder.run("cluster", "in.csv", "--algorithm", "dbscan", "--eps", "1", "--min-samples", "4", "-o", "d.csv")
            #expect(try folder.read("d.csv") == "id,label,is_core\n0,0,1\n1,0,1\n2,0,1\n3,0,1\n4,-1,0\n")
            r = try folder.run("cluster", "in.csv", "--algorithm", "grid", "--cell-size", "10", "-o", "g.csv")
            #expect(r.status == 0, "\(r)")
            #expect(try folder.read("g.csv") == "id,label\n0,0\n1,0\n2,0\n3,0\n4,-1\n")
        }
    }
}

@Suite("cluster: GeoJSON output")
struct ClusterGeoJSONTests {
    @Test("-o FILE.geojson writes one Point feature per row with the label columns as properties; without lat/lon it fails and writes nothing")
    func geojson() throws {
        try withTemporaryFolder { folder in
            _ = try folder.write("id,lat,lon\na,37.5,127.0\nb,37.5001,127.0\nc,37.5,127.0001\nd,37.6,127.2\n", to: "in.csv")
            var r = try folder.run("cluster", "in.csv", "--algorithm", "dbscan", "--eps", "50", "--min-samples", "3", "-o", "out.geojson")
            #expect(r.status == 0, "\(r)")
            let json = try JSONSerialization.jsonObject(with: folder.data("out.geojson")) as? [String: Any]
            let features = json?["features"] as? [[String: Any]] ?? []
            #expect(json?["type"] as? String == "FeatureCollection")
            #expect(features.count == 4)
            let props = features.map { $0["properties"] as? [String: Any] ?? [:] }
            #expect(props.map { $0["id"] as? String } == ["a", "b", "c", "d"])
            #expect(props.map { $0["label"] as? Int } == [0, 0, 0, -1])
            #expect(props.map { $0["is_core"] as? Int } == [1, 1, 1, 0])
            let first = (features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double]
            #expect(first == [127.0, 37.5], "longitude first (RFC 7946)")

            _ = try folder.write("x,y\n0,0\n1,1\n", to: "xy.csv")
            r = try folder.run("cluster", "xy.csv", "--min-cluster-size", "2", "-o", "xy.geojson")
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("GeoJSON output needs longitude/latitude"), "\(r)")
            #expect(!(try folder.contents()).contains("xy.geojson"))
        }
    }
}
