import ClusterCore
import Datasets
import Foundation
import Harness
import Testing
import TestSupport

/// A temporary folder's path, the folder removed afterwards.
func withFolder(_ body: (String) throws -> Void) throws {
    try withTemporaryFolder { try body($0.path) }
}

@Suite("Bench: cells that crash, hang or fail become rows")
struct BenchTests {
    @Test("a generated dataset names its scenario (filtered ones their own); a user's file none")
    func datasetScenario() throws {
        try withFolder { folder in
            let plain = try BenchDataset.scenario(.seoul, count: 200, seed: 3, cache: folder)
            #expect((plain.name, plain.scenario) == ("seoul-200", "seoul"))
            let filtered = try BenchDataset.scenario(.seoul, count: 200, seed: 3, cache: folder,
                                                     filter: ListingFilter(), filterKey: "k")
            #expect((filtered.name, filtered.scenario) == ("seoul-200-filtered", "seoul-filtered"))
            #expect(try BenchDataset.file(plain.path).scenario == "")
        }
    }

    @Test("a crashing, a hanging and a failing cell each become a row with its error, and the run goes on")
    func failingCells() throws {
        try withFolder { folder in
            try "x,y\n0,0\n1,1\n".write(toFile: folder + "/d.csv", atomically: true, encoding: .utf8)
            // A stand-in for geocluster's cell process: crashes for hdbscan, hangs for dbscan,
            // exits 0 without a record for grid (arguments: bench-cell FILE --method NAME …).
            let fake = folder + "/fake-geocluster"
            try """
                #!/bin/sh
                case "$4" in
                  hdbscan) echo "about to crash" >&2; kill -SEGV $$ ;;
                  dbscan) sleep 30 ;;
                  *) exit 0 ;;
                esac
                """.write(toFile: fake, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
            let plan = BenchPlan(
                datasets: [BenchDataset(name: "d", path: folder + "/d.csv", hash: "h", scenario: "seoul")],
                methods: [.hdbscan(HDBSCANParameters(minClusterSize: 2)), .dbscan(DBSCANParameters(eps: 1)),
                          .grid(GridParameters(cellSize: 1))],
                peers: [], repeats: 1, threads: 1, timeout: 0.5, executable: fake, peerScript: "none",
                work: folder + "/work", version: "v", commit: "c", binary: "b", machine: "m")
            var seen: [Int] = []
            let rows = try Bench.run(plan) { seen.append($0.cell) }
            #expect(seen == [1, 2, 3])
            #expect(rows.map(\.status) == [.crashed, .timeout, .error])
            #expect(rows.allSatisfy { $0.scenario == "seoul" }, "every row names its dataset's scenario")
            #expect(rows[0].error.contains("signal 11") && rows[0].error.contains("about to crash"), "\(rows[0].error)")
            #expect(rows[1].error.contains("timeout"), "\(rows[1].error)")
            #expect(rows[2].error.contains("no record"), "\(rows[2].error)")
            #expect(rows.allSatisfy { $0.machine == "m" && $0.binary == "b" && $0.commit == "c" })
            let summary = Summary.make(rows)
            #expect(summary.map(\.status) == [.crashed, .timeout, .error])
            #expect(summary.allSatisfy { $0.okRepeats == 0 && $0.fitSeconds == nil })
        }
    }

    @Test("--resume keeps rows of the same dataset contents, cell and binary, and reruns the rest")
    func resume() throws {
        try withFolder { folder in
            try "x,y\n0,0\n".write(toFile: folder + "/d.csv", atomically: true, encoding: .utf8)
            let fake = folder + "/fake"
            try "#!/bin/sh\nexit 7\n".write(toFile: fake, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
            let method = Method.grid(GridParameters(cellSize: 5))
            var kept = RunRow(dataset: "d", points: 1, datasetHash: "h", hasTruth: false, implementation: "geocluster",
                              method: "grid", parameters: method.parameterText, repeatIndex: 1, status: .ok,
                              fitSeconds: 0.123)
            kept.binary = "b"
            var otherBinary = kept
            otherBinary.repeatIndex = 2
            otherBinary.binary = "old"
            let plan = BenchPlan(datasets: [BenchDataset(name: "d", path: folder + "/d.csv", hash: "h")], methods: [method],
                                 peers: [], repeats: 3, threads: 1, timeout: 5, executable: fake, peerScript: "none",
                                 work: folder + "/w", previous: [kept, otherBinary], version: "v", commit: "c",
                                 binary: "b", machine: "m")
            var ran: [String] = []
            let rows = try Bench.run(plan) { ran.append($0.label) }
            #expect(rows.count == 3)
            #expect(rows[0] == kept, "the kept row comes back unchanged")
            #expect(rows[1].status == .error && rows[1].error.contains("exit 7"), "another binary's row is rerun")
            #expect(rows[2].status == .error)
        }
    }

    @Test("the peers' cells follow geocluster's sweep: HDBSCAN peers take min_samples in scikit-learn's convention")
    func peerCells() {
        let sk = Method.hdbscan(HDBSCANParameters(minClusterSize: 15, minSamples: 5))
        let hd = Method.hdbscan(HDBSCANParameters(minClusterSize: 15, minSamples: 4, minSamplesConvention: .hdbscan))
        let leaf = Method.hdbscan(HDBSCANParameters(minClusterSize: 15, selection: SelectionOptions(method: .leaf)))
        #expect(Peer.sklearn.cell(for: sk)?.json == "{\"min_cluster_size\":15,\"min_samples\":5}")
        #expect(Peer.hdbscan.cell(for: hd)?.json == "{\"min_cluster_size\":15,\"min_samples\":5}")
        #expect(Peer.sklearn.cell(for: leaf) == nil, "options the peers cannot take are not silently dropped")
        #expect(Peer.sklearnDBSCAN.cell(for: .dbscan(DBSCANParameters(eps: 100, minSamples: 10)))?.json
                == "{\"eps\":100,\"min_samples\":10}")
        #expect(Peer.sklearn.cell(for: .dbscan(DBSCANParameters(eps: 100))) == nil)
        #expect(Peer.quitefastmst.cell(for: hd)?.json == "{\"min_samples\":5}", "quitefastmst needs min_samples only")
        #expect(Peer.quitefastmst.cell(for: leaf)?.method == "hdbscan", "the MST does not depend on the selection")
        #expect(Peer.quitefastmst.cell(for: .dbscan(DBSCANParameters(eps: 100))) == nil)
        #expect(Peer.quitefastmst.fitScope == .mst && Peer.sklearn.fitScope == .clustering)
    }

    @Test("peers are handed the cell's metric: lon/lat on world-wide data (geodesic), x,y on planar data; an MST-only row reads no labels")
    func peerMetric() throws {
        try withFolder { folder in
            try "id,lat,lon\n0,-17,179.9\n1,48.8,2.3\n2,-33.4,-70.6\n3,35.7,139.7\n"
                .write(toFile: folder + "/world.csv", atomically: true, encoding: .utf8)
            try "x,y\n0,0\n1,1\n2,2\n".write(toFile: folder + "/plane.csv", atomically: true, encoding: .utf8)
            // A stand-in for python3 running peer_cell.py: records its arguments and reports an
            // MST-only fit in the metric it was given, without a labels file.
            let fake = folder + "/fake-python", failing = folder + "/fake-geocluster"
            try """
                #!/bin/sh
                echo "$@" >> \(folder)/arguments.txt
                while [ $# -gt 0 ]; do
                  case "$1" in --report) report=$2 ;; --metric) metric=$2 ;; esac
                  shift
                done
                printf '{"status":"ok","error":null,"version":"9","metric":"%s","fit_scope":"mst","points":4,"fit_seconds":0.25,"mst_weight":7}' "$metric" > "$report"
                """.write(toFile: fake, atomically: true, encoding: .utf8)
            try "#!/bin/sh\nexit 7\n".write(toFile: failing, atomically: true, encoding: .utf8)
            for path in [fake, failing] { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
            let plan = BenchPlan(
                datasets: [BenchDataset(name: "world", path: folder + "/world.csv", hash: "w"),
                           BenchDataset(name: "plane", path: folder + "/plane.csv", hash: "p")],
                methods: [.hdbscan(HDBSCANParameters(minClusterSize: 2))], peers: [.quitefastmst], repeats: 1, threads: 1,
                timeout: 20, executable: failing, python: fake, peerScript: "peer_cell.py",
                work: folder + "/work", version: "v", commit: "c", binary: "b", machine: "m")
            let peers = try Bench.run(plan).filter { $0.implementation == "quitefastmst" }
            #expect(peers.map(\.dataset) == ["world", "plane"])
            #expect(peers.map(\.metric) == ["geodesic", "planar"])
            #expect(peers.allSatisfy { $0.status == .ok && $0.fitScope == .mst && $0.fitSeconds == 0.25 && $0.ariVsGeocluster == nil },
                    "\(peers)")
            let lines = try String(contentsOfFile: folder + "/arguments.txt", encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.hasSuffix("--metric geodesic") == true && lines.first?.contains("world.csv") == true)
            #expect(lines.last?.hasSuffix("--metric planar") == true, "\(lines)")
        }
    }
}

@Suite("Fingerprints, methods and summaries")
struct RecordTests {
    @Test("the partition hash ignores numbering and sees every change of grouping or noise")
    func partitionHash() {
        let a: [Int32] = [0, 0, 1, -1, 2, 1]
        #expect(Fingerprint.partition(a) == Fingerprint.partition([5, 5, 3, -1, 9, 3]))
        #expect(Fingerprint.partition(a) != Fingerprint.partition([0, 0, 1, 2, 2, 1]))
        #expect(Fingerprint.partition(a) != Fingerprint.partition([0, 0, 1, -1, -1, 1]))
        #expect(Fingerprint.partition(a) != Fingerprint.partition([0, 1, 1, -1, 2, 1]))
        #expect(Fingerprint.partition(a).count == 16)
    }

    @Test("a method's parameter text reads back as the same method")
    func parameterRoundTrip() throws {
        let methods: [Method] = [
            .hdbscan(HDBSCANParameters(minClusterSize: 30, minSamples: 15)),
            .hdbscan(HDBSCANParameters(minClusterSize: 5, minSamples: 3, minSamplesConvention: .hdbscan,
                                       selection: SelectionOptions(method: .leaf, epsilon: 12.5, allowSingleCluster: true,
                                                                   maxClusterSize: 400), ties: .oneAtATime)),
            .dbscan(DBSCANParameters(eps: 100, minSamples: 10)), .dbscan(DBSCANParameters(eps: 0.25, minSamples: 1)),
            .grid(GridParameters(cellSize: 250, minPoints: 10, mergeAdjacent: true)),
        ]
        for m in methods {
            let back = try Method(name: m.name, parameterText: m.parameterText)
            #expect(back.parameterText == m.parameterText)
        }
        #expect(methods[0].parameterText == "min_cluster_size=30 min_samples=15")
        #expect(methods[1].parameterText.hasSuffix(" ties=one-at-a-time"))
        #expect(throws: HarnessError.self) { try Method(name: "hdbscan", parameterText: "ties=sklearn") }
        #expect(throws: HarnessError.self) { try Method(name: "hdbscan", parameterText: "min_cluster_size=x") }
        #expect(throws: HarnessError.self) { try Method(name: "grid", parameterText: "cell_size=5 eps=3") }
        #expect(throws: HarnessError.self) { try Method(name: "kmeans", parameterText: "") }
    }

    @Test("summaries: medians over ok repeats, peers' speed ratio and MST agreement, the best of a sweep")
    func summaries() {
        func row(_ impl: String, _ params: String, _ rep: Int, fit: Double?, ari: Double?, mst: Double?,
                 status: RunStatus = .ok) -> RunRow {
            RunRow(dataset: "d", points: 10, datasetHash: "h", hasTruth: true, implementation: impl, method: "hdbscan",
                   parameters: params, repeatIndex: rep, status: status, fitSeconds: fit, mstWeight: mst, ari: ari)
        }
        let rows = [
            row("geocluster", "a", 1, fit: 1.0, ari: 0.5, mst: 100), row("geocluster", "a", 2, fit: 3.0, ari: 0.5, mst: 100),
            row("geocluster", "a", 3, fit: 2.0, ari: 0.5, mst: 100),
            row("geocluster", "b", 1, fit: 5.0, ari: 0.7, mst: 90),
            row("sklearn", "a", 1, fit: 20.0, ari: 0.49, mst: 100 * (1 + 1e-12)),
            row("hdbscan", "a", 1, fit: 8.0, ari: 0.48, mst: 101), row("hdbscan", "a", 2, fit: nil, ari: nil, mst: nil, status: .timeout),
        ]
        let s = Summary.make(rows)
        #expect(s.map(\.implementation) == ["geocluster", "geocluster", "sklearn", "hdbscan"])
        #expect(s[0].fitSeconds == Spread(median: 2, min: 1, max: 3))
        #expect(s[0].bestInSweep == false && s[1].bestInSweep == true)
        #expect(s[2].speedRatio == 10 && s[2].mstMatchesGeocluster == true)
        #expect(s[3].speedRatio == 4 && s[3].mstMatchesGeocluster == false)
        #expect(s[3].status == .timeout && s[3].okRepeats == 1 && s[3].repeats == 2)
    }

    @Test("an MST-only peer's speed ratio is against geocluster's index + core distances + MST, not its whole fit")
    func mstOnlySummary() {
        let stages = ["reading": 9.0, "index": 0.25, "core distances": 0.5, "MST": 0.25, "linkage": 3.0]
        var rows = (1...3).map { rep in
            RunRow(dataset: "d", points: 10, datasetHash: "h", hasTruth: false, implementation: "geocluster", method: "hdbscan",
                   parameters: "a", repeatIndex: rep, status: .ok, stages: stages.mapValues { $0 * Double(rep) },
                   fitSeconds: 4.0 * Double(rep), mstWeight: 50)
        }
        var mst = RunRow(dataset: "d", points: 10, datasetHash: "h", hasTruth: false, implementation: "quitefastmst",
                         method: "hdbscan", parameters: "a", repeatIndex: 1, status: .ok, fitSeconds: 0.5, mstWeight: 50)
        mst.fitScope = .mst
        rows.append(mst)
        let s = Summary.make(rows)
        #expect(s[0].mstStageSeconds == Spread(median: 2, min: 1, max: 3) && s[0].fitScope == .clustering)
        #expect(s[1].fitScope == .mst && s[1].speedRatio == 0.25 && s[1].mstMatchesGeocluster == true)
        #expect(s[1].mstStageSeconds == nil, "the peer times no stages")
    }
}

@Suite("bench's DBCV subsample")
struct DBCVSampleTests {
    @Test("at most 5,000 distinct rows in file order, the same every time; every row of a smaller dataset")
    func subsample() {
        let rows = Bench.dbcvSample(count: 100_000)
        #expect(rows.count == Bench.dbcvSampleLimit && Bench.dbcvSampleLimit == 5_000)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0 < $1 } && rows.first! >= 0 && rows.last! < 100_000)
        #expect(rows == Bench.dbcvSample(count: 100_000))
        // Spread over the file, not its start.
        #expect(rows.last! > 90_000 && rows.filter { $0 < 50_000 }.count > 2_000)
        #expect(Bench.dbcvSample(count: 5_000) == Array(0..<5_000))
        #expect(Bench.dbcvSample(count: 5_001).count == 5_000)
    }
}
