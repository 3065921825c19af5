import Foundation
import Testing
import TestSupport

/// The Python that runs the peers here: `$GEOCLUSTER_PEERS_PYTHON` (a venv's python, put first
/// on the cells' PATH), else `python3`; nil when it cannot import scikit-learn and quitefastmst.
private let peersPython: String? = {
    let python = ProcessInfo.processInfo.environment["GEOCLUSTER_PEERS_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, "-c", "import sklearn, quitefastmst"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? python : nil
}()

/// The cells' environment: `python`'s folder first on PATH when it is a path (a venv's python).
private func peersEnvironment(_ python: String) -> [String: String] {
    guard python.contains("/") else { return [:] }
    let folder = URL(fileURLWithPath: python).deletingLastPathComponent().path
    return ["PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
}

/// `bench --peers` on world-wide data: the peers get lon/lat and measure great-circle metres
/// (scikit-learn's haversine HDBSCAN and DBSCAN, quitefastmst's MST on 3-D unit vectors), and
/// their partitions and MST weights are compared with geocluster's on the sphere. Skipped
/// without a Python that has scikit-learn and quitefastmst (scripts/peers/install.sh).
@Suite("bench --peers on the sphere", .enabled(if: peersPython != nil, "needs python3 with scikit-learn and quitefastmst (or GEOCLUSTER_PEERS_PYTHON)"))
struct GeodesicPeersCLITests {
    /// The metros fixture (twelve metropolitan areas on six continents, sphere noise) as `id,lon,lat`.
    static func metros() throws -> String {
        let url = TestPaths.fixtures("haversine").appendingPathComponent("metros.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var csv = "id,lon,lat\n"
        for (i, p) in (json["points"] as! [[Double]]).enumerated() { csv += "\(i),\(p[0]),\(p[1])\n" }
        return csv
    }

    func table(_ text: String) -> [[String: String]] {
        let records = parseCSV(text)
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    @Test("scikit-learn's haversine partitions and MST, quitefastmst's MST against geocluster's MST stages, planar-only peers skipped")
    func worldPeers() throws {
        let python = try #require(peersPython)
        let environment = peersEnvironment(python)
        try withTemporaryFolder { folder in
            try folder.write(try Self.metros(), to: "metros.csv")
            let r = try folder.run(["bench", "--input", "metros.csv", "--methods", "hdbscan,dbscan", "--min-cluster-size", "10",
                                    "--min-samples", "5", "--eps", "100000", "--repeat", "1", "--threads", "1",
                                    "--peers", "sklearn,sklearn_dbscan,quitefastmst,fast_hdbscan", "--out", "rep",
                                    "--peer-script", CLI.packageRoot + "/scripts/peers/peer_cell.py"],
                                   environment: environment)
            try #require(r.status == 0, "\(r)")
            let rows = table(try folder.read("rep/summary.csv"))
            func row(_ implementation: String, _ method: String = "hdbscan") throws -> [String: String] {
                try #require(rows.first { $0["implementation"] == implementation && $0["method"] == method }, "\(rows)")
            }
            #expect(rows.filter { $0["status"] == "ok" }.allSatisfy { $0["metric"] == "geodesic" }, "\(rows)")
            let sklearn = try row("sklearn"), dbscan = try row("sklearn_dbscan", "dbscan"), mst = try row("quitefastmst")
            #expect(sklearn["status"] == "ok" && sklearn["mst_equals_geocluster"] == "1", "\(sklearn)")
            // Two points of this fixture change noise status with the row order (ties): ARI just under 1 at worst.
            #expect(Double(sklearn["ari_vs_geocluster"] ?? "") ?? 0 > 0.98, "\(sklearn)")
            #expect(dbscan["status"] == "ok" && Double(dbscan["ari_vs_geocluster"] ?? "") ?? 0 > 0.99, "\(dbscan)")
            #expect(mst["status"] == "ok" && mst["fit_scope"] == "mst" && mst["mst_equals_geocluster"] == "1", "\(mst)")
            #expect(mst["clusters"] == "" && mst["ari_vs_geocluster"] == "" && !(mst["speed_ratio_vs_geocluster"] ?? "").isEmpty, "\(mst)")
            let geocluster = try row("geocluster")
            #expect(!(geocluster["mst_stages_s_median"] ?? "").isEmpty && geocluster["fit_scope"] == "clustering", "\(geocluster)")
            let fast = try row("fast_hdbscan")
            #expect(fast["status"] == "skipped" && (fast["error"] ?? "").contains("great-circle"), "\(fast)")
        }
    }
}

/// `bench --features` with peers: every cell clusters the same scaled columns — geocluster's
/// by `cluster --features`, the peers' by peer_cell.py's own scaling — so their MSTs weigh the
/// same and their partitions agree; supercluster, which groups map positions, is skipped.
@Suite("bench --features with peers", .enabled(if: peersPython != nil, "needs python3 with scikit-learn and quitefastmst (or GEOCLUSTER_PEERS_PYTHON)"))
struct FeaturePeersCLITests {
    /// Three groups of listings alike in place and price (x, y in metres, price in 10,000s of
    /// won) and 60 scattered ones, with the groups as truth.
    static func listings() -> String {
        var g = SplitMix64(seed: 44)
        let centres: [(Double, Double, Double)] = [(0, 0, 500), (900, 0, 2_000), (0, 900, 1_000)]
        var csv = "id,x,y,price,truth\n"
        for i in 0..<960 {
            let c = i < 900 ? i % 3 : -1
            let (x, y, price) = c >= 0
                ? (centres[c].0 + 60 * g.normal(), centres[c].1 + 60 * g.normal(), centres[c].2 + 80 * g.normal())
                : (-300 + 1_500 * g.uniform(), -300 + 1_500 * g.uniform(), 3_000 * g.uniform())
            csv += "\(i),\(950_000 + x),\(1_950_000 + y),\(price),\(c)\n"
        }
        return csv
    }

    @Test("position and a column, standard and robust scales: the peers' MSTs weigh geocluster's, partitions agree",
          arguments: ["standard", "robust"])
    func featurePeers(scale: String) throws {
        let python = try #require(peersPython)
        let environment = peersEnvironment(python)
        try withTemporaryFolder { folder in
            try folder.write(Self.listings(), to: "listings.csv")
            let r = try folder.run(["bench", "--input", "listings.csv", "--features", "x,y,price", "--scale", scale,
                                    "--methods", "hdbscan,dbscan", "--min-cluster-size", "20", "--min-samples", "5",
                                    "--eps", "0.2", "--repeat", "1", "--threads", "1",
                                    "--peers", "sklearn,sklearn_dbscan,quitefastmst,supercluster", "--out", "rep",
                                    "--peer-script", CLI.packageRoot + "/scripts/peers/peer_cell.py"],
                                   environment: environment)
            try #require(r.status == 0, "\(r)")
            let rows = GeodesicPeersCLITests().table(try folder.read("rep/summary.csv"))
            func row(_ implementation: String, _ method: String = "hdbscan") throws -> [String: String] {
                try #require(rows.first { $0["implementation"] == implementation && $0["method"] == method }, "\(rows)")
            }
            let geocluster = try row("geocluster")
            #expect(geocluster["status"] == "ok" && Double(geocluster["ari_noise_as_cluster"] ?? "") ?? 0 > 0.9, "\(geocluster)")
            let sklearn = try row("sklearn"), mst = try row("quitefastmst"), dbscan = try row("sklearn_dbscan", "dbscan")
            #expect(sklearn["mst_equals_geocluster"] == "1" && Double(sklearn["ari_vs_geocluster"] ?? "") ?? 0 > 0.98, "\(sklearn)")
            #expect(mst["status"] == "ok" && mst["mst_equals_geocluster"] == "1", "\(mst)")
            #expect(Double(dbscan["ari_vs_geocluster"] ?? "") ?? 0 > 0.99, "\(dbscan)")
            let supercluster = try row("supercluster", "supercluster")
            #expect(supercluster["status"] == "skipped" || supercluster["status"] == "unavailable", "\(supercluster)")
            // The tree plot is the features' clustering, not the position's.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("rep/trees")).count == 1)
        }
    }
}
