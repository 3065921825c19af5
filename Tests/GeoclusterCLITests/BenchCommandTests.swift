import Foundation
import Pins
import Testing
import TestSupport

/// `geocluster bench` end to end: the report it writes, --resume, timeouts, peers, bad input.
@Suite("geocluster bench")
struct BenchCommandTests {
    /// The rows of a CSV as dictionaries by header name.
    func table(_ text: String) -> [[String: String]] {
        let records = parseCSV(text)
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// `id,lat,lon` rows of three tight blobs ~5 km apart in Seoul (σ about 50 m), no truth.
    static func blobs(_ count: Int, seed: UInt64) -> String {
        var text = "id,lat,lon\n"
        var rng = SplitMix64(seed: seed)
        for i in 0..<count {
            let (cx, cy) = i % 3 == 0 ? (127.00, 37.50) : (i % 3 == 1 ? (127.05, 37.55) : (127.10, 37.52))
            text += "p\(i),\(cy + rng.normal() * 0.0005),\(cx + rng.normal() * 0.0005)\n"
        }
        return text
    }

    @Test("a small run writes the tables, README, maps, tree plots and page; --resume keeps every row")
    func smallRunAndResume() throws {
        try withTemporaryFolder { folder in
            let args = ["bench", "--sizes", "1k", "--repeat", "2", "--out", "out", "--cache", "cache",
                        "--min-cluster-size", "15,30"]
            let r = try folder.run(args)
            #expect(r.status == 0, "\(r)")
            let entries = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")))
            #expect(entries == ["runs.csv", "summary.csv", "README.md", "index.html", "maps", "trees", "cells"], "\(entries)")
            let runs = table(try folder.read("out/runs.csv"))
            #expect(runs.count == 8, "2 hdbscan settings + dbscan + grid, 2 repeats each")
            #expect(runs.allSatisfy { $0["status"] == "ok" && $0["dataset"] == "seoul-1k" && $0["points"] == "1000" })
            #expect(runs.allSatisfy { !($0["ari_noise_as_cluster"] ?? "").isEmpty && !($0["partition_hash"] ?? "").isEmpty })
            // geocluster's result does not depend on the repeat.
            for pair in stride(from: 0, to: 8, by: 2) { #expect(runs[pair]["partition_hash"] == runs[pair + 1]["partition_hash"]) }
            #expect(runs.filter { $0["method"] == "hdbscan" }.allSatisfy { !($0["mst_weight"] ?? "").isEmpty && !($0["mst_s"] ?? "").isEmpty })
            let summary = table(try folder.read("out/summary.csv"))
            #expect(summary.count == 4)
            #expect(summary.filter { $0["best_in_sweep"] == "1" }.count == 1, "one best hdbscan setting")
            let maps = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/maps"))
            #expect(maps.count == 3, "one map per method: \(maps)")
            let trees = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/trees"))
            #expect(trees.count == 2, "one tree per hdbscan setting: \(trees)")
            let page = try folder.read("out/index.html")
            #expect(page.contains("seoul-1k") && page.components(separatedBy: "<svg").count - 1 >= 5 + 2)
            #expect(!page.contains("http://") && !page.contains("https://"))
            #expect(try folder.read("out/README.md").contains("| `fit_s` | s | lower |"))
            #expect(r.stdout.contains("seoul-1k") && r.stdout.contains("hdbscan"), "the summary is printed: \(r)")

            let before = try folder.read("out/runs.csv")
            let again = try folder.run(args + ["--resume"])
            #expect(again.status == 0, "\(again)")
            #expect(try folder.read("out/runs.csv") == before, "every cell was kept, with its measured times")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out/maps")).count == 3)
        }
    }

    @Test("--pins-zooms adds the map-pin comparison per zoom: PinIndex, supercluster, grid and pysupercluster rows in pins.csv, each from its own process; PinIndex discs never overlap")
    func pinsComparison() throws {
        let key = PinsKey.generate().hexEncoded()
        try withTemporaryFolder { folder in
            let r = try folder.run(["bench", "--sizes", "2k", "--repeat", "1", "--methods", "grid", "--pins-zooms", "11-14",
                                    "--out", "out", "--cache", "cache", "--peer-script", CLI.packageRoot + "/scripts/peers/peer_cell.py"],
                                   environment: ["GEOCLUSTER_PINS_KEY": key])
            #expect(r.status == 0, "\(r)")
            let rows = table(try folder.read("out/pins.csv"))
            #expect(rows.count == 16, "4 zooms × 4 implementations")
            #expect(rows.map { $0["implementation"]! } == ["pinindex", "supercluster", "grid", "pysupercluster"].flatMap { Array(repeating: $0, count: 4) })
            let ours = rows.filter { $0["implementation"] != "pysupercluster" }
            for row in ours {
                #expect(row["dataset"] == "seoul-2k" && (11...14).contains(Int(row["zoom"]!)!) && row["status"] == "ok")
                let ari = try #require(Double(row["ari"]!))
                #expect(ari >= -1 && ari <= 1)
                let vsSupercluster = try #require(Double(row["ari_vs_supercluster"]!))
                #expect(vsSupercluster >= -1 && vsSupercluster <= 1)
                if row["implementation"] == "supercluster" { #expect(row["ari_vs_supercluster"] == "1.0000") }
                #expect(Double(row["pins_per_viewport"]!)! > 0 && Int(row["pins"]!)! > 0)
                // Its own process's peak memory: a Swift process reading 2k listings, far below a GB.
                let peak = try #require(Double(row["peak_mb"]!))
                #expect(peak > 1 && peak < 1000)
            }
            #expect(rows.filter { $0["implementation"] == "pinindex" }.allSatisfy { $0["overlap_rate"] == "0.0000" && !$0["query_p99_ms"]!.isEmpty })
            // supercluster's default radius (20 px at 256-px tiles) leaves 25-50 pt discs overlapping somewhere.
            #expect(rows.filter { $0["implementation"] == "supercluster" }.contains { Double($0["overlap_rate"]!)! > 0 })
            #expect(rows.filter { $0["implementation"] == "grid" }.allSatisfy { $0["query_p50_ms"]!.isEmpty })
            // pysupercluster: the same pins as the Swift baseline (same counts, grouping, overlap),
            // with its own build, query times and memory; or a row saying how to install it.
            let baseline = rows.filter { $0["implementation"] == "supercluster" }
            for (py, swift) in zip(rows.filter { $0["implementation"] == "pysupercluster" }, baseline) {
                if py["status"] == "ok" {
                    #expect(py["zoom"] == swift["zoom"] && py["pins"] == swift["pins"] && py["ari"] == swift["ari"]
                            && py["ari_vs_supercluster"] == "1.0000"
                            && py["overlap_rate"] == swift["overlap_rate"] && py["pins_per_viewport"] == swift["pins_per_viewport"], "\(py) vs \(swift)")
                    #expect(!py["build_s"]!.isEmpty && !py["query_p99_ms"]!.isEmpty && !py["peak_mb"]!.isEmpty && !py["version"]!.isEmpty)
                } else {
                    #expect(py["status"] == "unavailable" && py["error"]!.contains("pip install"), "\(py)")
                }
            }
            #expect(r.stdout.contains("pins/viewport") && r.stdout.contains("pysupercluster"))
            let cells = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/cells/seoul-2k/pins"))
            #expect(Set(cells) == ["viewports.csv", "displayed.csv", "pinindex", "supercluster", "grid", "pysupercluster"], "\(cells)")
        }
    }

    @Test("--pins-zooms without pysupercluster installed: its rows say unavailable with the pip command, the others are measured")
    func pinsComparisonWithoutPysupercluster() throws {
        let key = PinsKey.generate().hexEncoded()
        try withTemporaryFolder { folder in
            // A module of that name that fails to import, first on Python's path.
            try FileManager.default.createDirectory(atPath: folder.path("fake"), withIntermediateDirectories: true)
            _ = try folder.write("raise ImportError('simulated: not installed')\n", to: "fake/pysupercluster.py")
            let r = try folder.run(["bench", "--sizes", "1k", "--repeat", "1", "--methods", "grid", "--pins-zooms", "12-13",
                                    "--out", "out", "--cache", "cache", "--peer-script", CLI.packageRoot + "/scripts/peers/peer_cell.py"],
                                   environment: ["PYTHONPATH": folder.path("fake"), "GEOCLUSTER_PINS_KEY": key])
            #expect(r.status == 0, "\(r)")
            let rows = table(try folder.read("out/pins.csv"))
            let py = rows.filter { $0["implementation"] == "pysupercluster" }
            #expect(py.count == 2)
            #expect(py.allSatisfy { $0["status"] == "unavailable" && $0["error"]!.contains("pip install --no-build-isolation pysupercluster-problematy") && $0["pins"]!.isEmpty }, "\(py)")
            #expect(rows.filter { $0["implementation"] != "pysupercluster" }.allSatisfy { $0["status"] == "ok" })
            #expect(r.stdout.contains("pysupercluster  unavailable: "), "\(r.stdout)")
        }
    }

    @Test("a cell over --timeout is a row that says so, and the run still writes its report")
    func timeouts() throws {
        try withTemporaryFolder { folder in
            let r = try folder.run("bench", "--sizes", "1k", "--repeat", "1", "--methods", "hdbscan,grid", "--timeout", "0.001",
                                   "--out", "out", "--cache", "cache")
            #expect(r.status == 0, "\(r)")
            let runs = table(try folder.read("out/runs.csv"))
            #expect(runs.count == 2)
            #expect(runs.allSatisfy { $0["status"] == "timeout" && ($0["error"] ?? "").contains("timeout") }, "\(runs)")
            #expect(table(try folder.read("out/summary.csv")).allSatisfy { $0["status"] == "timeout" })
            #expect(try folder.read("out/index.html").contains("timeout"))
        }
    }

    @Test("--input with a truth column of text is scored (the --noise-label text as noise), the same ARI as integer truth")
    func textTruth() throws {
        try withTemporaryFolder { folder in
            #expect(try folder.run("generate", "--count", "1500", "--seed", "4", "-o", "ints.csv").status == 0)
            let rows = parseCSV(try folder.read("ints.csv"))
            let t = try #require(rows[0].firstIndex(of: "truth"))
            let text = rows.enumerated().map { i, r in
                i == 0 ? r : r.enumerated().map { j, f in j == t ? (f == "-1" ? "none" : "area-\(f)") : f }
            }
            _ = try folder.write(text.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n", to: "text.csv")
            let common = ["--methods", "hdbscan,dbscan", "--repeat", "1", "--cache", "cache"]
            let a = try folder.run(["bench", "--input", "ints.csv", "--out", "a"] + common)
            let b = try folder.run(["bench", "--input", "text.csv", "--noise-label", "none", "--out", "b"] + common)
            #expect(a.status == 0 && b.status == 0, "\(a)\n\(b)")
            let ra = table(try folder.read("a/runs.csv")), rb = table(try folder.read("b/runs.csv"))
            #expect(ra.count == 2 && ra.count == rb.count)
            for (x, y) in zip(ra, rb) {
                let (p, q) = (x["ari_noise_as_cluster"] ?? "", y["ari_noise_as_cluster"] ?? "")
                #expect(y["has_truth"] == "1" && p == q && !p.isEmpty, "\(p) \(q)")
            }
            #expect(!b.stderr.contains("has no truth column"), "\(b)")
        }
    }

    @Test("a method that finds no cluster with any setting gets a line naming the settings to change")
    func emptyHint() throws {
        try withTemporaryFolder { folder in
            // 400 towns 1 km apart: nothing within DBSCAN's default 100 m.
            let lines = (0..<400).map { i in "\(i),\(37.3 + Double(i / 20) * 0.009),\(126.8 + Double(i % 20) * 0.0113)" }
            _ = try folder.write((["id,lat,lon"] + lines).joined(separator: "\n") + "\n", to: "towns.csv")
            let r = try folder.run("bench", "--input", "towns.csv", "--methods", "dbscan", "--repeat", "1", "--out", "o", "--cache", "cache")
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr.contains("bench: dbscan found no cluster in towns with any setting tried; its defaults suit a city's listings"), "\(r)")
            #expect(r.stderr.contains("pass --eps (metres) and --min-samples"), "\(r)")
        }
    }

    @Test("peers run in the same bench: a row each, ok with their ARI against geocluster, or saying they are not installed")
    func peers() throws {
        try withTemporaryFolder { folder in
            let r = try folder.run("bench", "--sizes", "1k", "--repeat", "1", "--methods", "hdbscan,dbscan",
                                   "--peers", "hdbscan,sklearn_dbscan", "--out", "out", "--cache", "cache",
                                   "--peer-script", CLI.packageRoot + "/scripts/peers/peer_cell.py")
            #expect(r.status == 0, "\(r)")
            let summary = table(try folder.read("out/summary.csv"))
            #expect(summary.map { $0["implementation"]! } == ["geocluster", "geocluster", "hdbscan", "sklearn_dbscan"])
            for peer in summary.dropFirst(2) {
                if peer["status"] == "ok" {
                    #expect(!(peer["ari_vs_geocluster"] ?? "").isEmpty && !(peer["speed_ratio_vs_geocluster"] ?? "").isEmpty, "\(peer)")
                    #expect((Double(peer["ari_vs_geocluster"]!) ?? 0) > 0.9, "\(peer)")
                } else {
                    #expect(peer["status"] == "unavailable" && (peer["error"] ?? "").contains("pip install"), "\(peer)")
                }
            }
            // sklearn's DBSCAN is exactly geocluster's DBSCAN.
            if summary[3]["status"] == "ok" { #expect(summary[3]["ari_vs_geocluster"] == "1" || summary[3]["ari_vs_geocluster"] == "1.0") }
        }
    }

    @Test("--features without --methods runs HDBSCAN alone, its cells and tree plot in the features' space")
    func features() throws {
        try withTemporaryFolder { folder in
            let r = try folder.run("bench", "--sizes", "1k", "--repeat", "1", "--features", "x,y,deposit",
                                   "--out", "out", "--cache", "cache")
            #expect(r.status == 0, "\(r)")
            let summary = table(try folder.read("out/summary.csv"))
            #expect(summary.map { $0["method"]! } == ["hdbscan"] && summary[0]["status"] == "ok", "\(summary)")
            // The cell clustered what `cluster --features` clusters.
            let cell = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/cells/seoul-1k"))
                .first { $0.hasPrefix("geocluster-hdbscan") }
            let labels = try folder.read("out/cells/seoul-1k/\(try #require(cell))/r1/labels.csv")
            let direct = try folder.run("cluster", "cache/seoul-1k-seed1.csv", "--features", "x,y,deposit", "--min-cluster-size", "30",
                                        "--min-samples", "15", "-o", "direct.csv")
            #expect(direct.status == 0, "\(direct)")
            #expect(labels == (try folder.read("direct.csv")))
            let tree = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("out/trees")).first)
            let svg = try folder.read("out/trees/" + tree)
            #expect(svg.contains("λ = 1 / distance") && !svg.contains("(1/m)"))
        }
    }

    @Test("a user's file without truth gets empty score cells and a note; filters apply to generated scenarios")
    func ownFileAndFilters() throws {
        try withTemporaryFolder { folder in
            _ = try folder.write(Self.blobs(300, seed: 7), to: "mine.csv")
            // A sweep of two settings: without truth the best is the one with the highest
            // relative validity.
            var r = try folder.run("bench", "--input", "mine.csv", "--repeat", "1", "--methods", "hdbscan",
                                   "--min-cluster-size", "20,150", "--min-samples", "5", "--out", "out")
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr.contains("mine.csv has no truth column"), "\(r)")
            let runs = table(try folder.read("out/runs.csv"))
            #expect(runs.count == 2 && runs[0]["dataset"] == "mine" && runs[0]["has_truth"] == "0")
            #expect(runs[0]["status"] == "ok" && runs[0]["clusters"] == "3", "\(runs)")
            #expect(runs[0]["ari_noise_as_cluster"] == "" && runs[0]["noise_recall"] == "")
            let validity = try #require(Double(runs[0]["relative_validity"] ?? ""), "\(runs)")
            #expect(validity > 0.5 && validity <= 1, "three well-separated blobs: \(validity)")
            let summary = table(try folder.read("out/summary.csv"))
            let best = summary.filter { $0["best_in_sweep"] == "1" }
            #expect(best.count == 1 && best[0]["parameters"]?.contains("min_cluster_size=20") == true, "\(summary)")
            #expect(r.stdout.contains(/min_cluster_size=20 .* rv 0\.\d{3}\*/), "\(r)")

            r = try folder.run("bench", "--sizes", "2k", "--repeat", "1", "--methods", "grid", "--category", "apartment",
                               "--out", "filtered", "--cache", "cache")
            #expect(r.status == 0, "\(r)")
            let filtered = table(try folder.read("filtered/runs.csv"))
            #expect(filtered.count == 1 && filtered[0]["dataset"] == "seoul-2k-filtered", "\(filtered)")
            let kept = Int(filtered[0]["points"] ?? "") ?? 0
            #expect(kept > 500 && kept < 2000, "only the apartments are kept: \(kept)")
            let cached = try FileManager.default.contentsOfDirectory(atPath: folder.path("cache"))
            #expect(cached.count == 1 && cached[0].hasPrefix("seoul-2k-seed1-filter"), "\(cached)")

            r = try folder.run("bench", "--input", "mine.csv", "--category", "apartment", "--out", "refused")
            #expect(r.status == 64, "\(r)")
            #expect(r.stderr.contains("filter the generated scenarios only"), "\(r)")
        }
    }

    @Test("without truth, DBSCAN and grid sweeps are ranked by DBCV on a seeded subsample of at most 5,000 points")
    func dbcvRanksDBSCANAndGrid() throws {
        try withTemporaryFolder { folder in
            // 6,000 points, so the score is on a subsample.
            _ = try folder.write(Self.blobs(6000, seed: 11), to: "mine.csv")
            // eps 3 m and 4 m cells break the blobs into crumbs and noise; eps 60 m and 300 m
            // cells find the three blobs.
            let r = try folder.run("bench", "--input", "mine.csv", "--repeat", "1", "--methods", "dbscan,grid",
                                   "--eps", "3,60", "--min-samples", "5", "--cell-size", "4,300", "--min-points", "5",
                                   "--out", "out")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("DBSCAN and grid settings by DBCV on at most 5000 points (db)"), "\(r)")
            let runs = table(try folder.read("out/runs.csv"))
            #expect(runs.count == 4 && runs.allSatisfy { $0["status"] == "ok" && $0["relative_validity"] == "" }, "\(runs)")
            let summary = table(try folder.read("out/summary.csv"))
            for (method, good, bad) in [("dbscan", "eps=60", "eps=3"), ("grid", "cell_size=300", "cell_size=4")] {
                let rows = summary.filter { $0["method"] == method }
                let goodRow = try #require(rows.first { $0["parameters"]?.contains(good) == true }, "\(summary)")
                let badRow = try #require(rows.first { $0["parameters"]?.contains(bad) == true }, "\(summary)")
                let goodScore = try #require(Double(goodRow["dbcv"] ?? ""), "\(goodRow)")
                let badScore = try #require(Double(badRow["dbcv"] ?? ""), "\(badRow)")
                #expect(goodScore > 0.5 && goodScore <= 1 && badScore < goodScore, "\(method): \(goodScore) vs \(badScore)")
                #expect(goodRow["best_in_sweep"] == "1" && badRow["best_in_sweep"] == "0", "\(method): \(rows)")
                #expect(r.stdout.contains(try Regex("\(method) .*\(good) .* db 0\\.\\d{3}\\*")), "\(r)")
            }
            #expect(runs.first { $0["method"] == "dbscan" }?["dbcv"] == summary.first { $0["method"] == "dbscan" }?["dbcv"])
        }
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        var fragments: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badCases: [BadCase] = [
        .init(arguments: ["--input", "missing.csv"], status: 1, fragments: ["--input missing.csv", "no such readable file"]),
        .init(arguments: ["--min-cluster-size", "10,x"], status: 64, fragments: ["--min-cluster-size", "'x' is not a whole number"]),
        .init(arguments: ["--min-cluster-size", "1"], status: 64, fragments: ["--min-cluster-size 1 is invalid: must be at least 2"]),
        .init(arguments: ["--eps", "0"], status: 64, fragments: ["--eps 0.0 is invalid"]),
        .init(arguments: ["--sizes", "10k,big"], status: 64, fragments: ["--sizes", "'big'"]),
        .init(arguments: ["--peers", "sklearn,kmeans"], status: 64, fragments: ["--peers", "'kmeans' is not a peer"]),
        .init(arguments: ["--scenarios", "atlantis"], status: 64, fragments: ["--scenarios", "'atlantis'"]),
        .init(arguments: ["--out", "blocker/out"], status: 1, fragments: ["--out blocker/out", "cannot create"]),
        .init(arguments: ["--features", "x,y,nosuch"], status: 1, fragments: ["seoul-1k", "'nosuch' (--features)"]),
        .init(arguments: ["--features", "lat,deposit"], status: 64, fragments: ["--features lat", "planar x,y"]),
        .init(arguments: ["--features", "x,y,deposit", "--methods", "grid"], status: 64, fragments: ["--features is for hdbscan and dbscan"]),
        .init(arguments: ["--scale", "robust"], status: 64, fragments: ["--scale goes with --features"]),
        .init(arguments: ["--features", "x,y,deposit", "--resume"], status: 64, fragments: ["--resume"]),
    ]

    @Test("bad input exits with a message naming the flag or file, and writes no report", arguments: badCases)
    func badInput(_ c: BadCase) throws {
        try withTemporaryFolder { folder in
            _ = try folder.write("not a folder", to: "blocker")
            let r = try folder.run(["bench", "--sizes", "1k", "--repeat", "1", "--cache", "cache"] + c.arguments)
            #expect(r.status == c.status, "\(r)")
            for f in c.fragments { #expect(r.stderr.contains(f), "missing \"\(f)\" in \(r.stderr)") }
            let entries = try folder.contents()
            #expect(!entries.contains("reports") && !entries.contains("out"), "\(entries)")
        }
    }
}
