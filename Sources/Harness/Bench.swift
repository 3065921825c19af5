import ClusterCore
import Datasets
import ClusterMetrics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// Where a benchmark is, for a progress line.
public struct BenchProgress: Sendable {
    /// 1-based number of the cell starting now, and the number of cells.
    public var cell: Int
    public var cells: Int
    public var dataset: String
    /// `implementation method parameters #repeat`.
    public var label: String
    /// Seconds since the benchmark started, and an estimate of those still to come (nil before
    /// the first cell has finished).
    public var elapsed: Double
    public var remaining: Double?

    public init(cell: Int, cells: Int, dataset: String, label: String, elapsed: Double, remaining: Double?) {
        self.cell = cell; self.cells = cells; self.dataset = dataset; self.label = label
        self.elapsed = elapsed; self.remaining = remaining
    }
}

/// Runs a `BenchPlan`: every cell (dataset × implementation × method × parameters × repeat)
/// in a process of its own with a timeout, and one `RunRow` per cell. A crash, a timeout or an
/// error in one cell is that cell's row, never the end of the run.
public enum Bench {
    /// One cell to run.
    struct Cell {
        var dataset: BenchDataset
        var implementation: String
        var method: String
        var parameters: String
        var repeatIndex: Int
        /// geocluster's method, or the peer and its parameters' JSON.
        var geocluster: Method?
        var peer: Peer?
        var peerJSON: String = ""
        /// How a peer's cell measures distance (``peerMetric(_:plan:)``); planar or geodesic.
        var peerMetric: DistanceMetric = .planar

        var folder: String {
            Bench.cellFolder(dataset: dataset.name, implementation: implementation, method: method,
                             parameters: parameters, repeatIndex: repeatIndex)
        }
    }

    /// A cell's folder below the work folder, `cells/DATASET/IMPLEMENTATION-METHOD-PARAMETERS/rK`,
    /// holding its labels.csv, record.json (or a peer's report), stdout.txt and stderr.txt.
    public static func cellFolder(dataset: String, implementation: String, method: String, parameters: String,
                                  repeatIndex: Int) -> String {
        let p = parameters.replacing(" ", with: "_")
        return "cells/\(dataset)/\(implementation)-\(method)-\(p)/r\(repeatIndex)"
    }

    /// The cells of a plan, in the order they run: per dataset, geocluster's methods first (the
    /// peers' rows are compared with its labels), then each peer.
    static func cells(_ plan: BenchPlan) -> [Cell] {
        var out: [Cell] = []
        for d in plan.datasets {
            for m in plan.methods {
                for r in 1...plan.repeats {
                    out.append(Cell(dataset: d, implementation: "geocluster", method: m.name,
                                    parameters: m.parameterText, repeatIndex: r, geocluster: m))
                }
            }
            for peer in plan.peers {
                var specs: [(method: String, parameters: String, json: String)] = []
                if peer == .supercluster {
                    let json = "{" + Peer.superclusterParameters.split(separator: " ").map { pair in
                        let kv = pair.split(separator: "=")
                        return "\"\(kv[0])\":\(kv[1])"
                    }.joined(separator: ",") + "}"
                    specs.append(("supercluster", Peer.superclusterParameters, json))
                } else {
                    var seen = Set<String>()
                    for m in plan.methods {
                        if let s = peer.cell(for: m), seen.insert(s.parameters).inserted { specs.append(s) }
                    }
                }
                for s in specs {
                    for r in 1...plan.repeats {
                        out.append(Cell(dataset: d, implementation: peer.rawValue, method: s.method,
                                        parameters: s.parameters, repeatIndex: r, peer: peer, peerJSON: s.json))
                    }
                }
            }
        }
        return out
    }

    /// Runs every cell of `plan` and returns one row per cell, in run order.
    /// - Parameter progress: called before each cell starts.
    /// - Throws: `HarnessError` only for what stops the whole run (the work folder cannot be
    ///   written); everything that goes wrong inside a cell is its row.
    public static func run(_ plan: BenchPlan, progress: (BenchProgress) -> Void = { _ in }) throws(HarnessError) -> [RunRow] {
        let all = cells(plan)
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var truthCache: [String: [Int32]?] = [:]
        var geoclusterLabels: [String: [Int32]] = [:]  // dataset hash + method + parameters
        var validity: [String: Double?] = [:]  // the same keys
        var peerMetrics: [String: DistanceMetric] = [:]  // dataset hash
        var rows: [RunRow] = []
        var ranSeconds = 0.0, ranCells = 0

        for (k, planned) in all.enumerated() {
            let cell = withPeerMetric(planned, plan: plan, decided: &peerMetrics)
            let remainingCells = all.count - k
            progress(BenchProgress(cell: k + 1, cells: all.count, dataset: cell.dataset.name,
                                   label: "\(cell.implementation) \(cell.method) \(cell.parameters) #\(cell.repeatIndex)",
                                   elapsed: elapsed(),
                                   remaining: ranCells == 0 ? nil : ranSeconds / Double(ranCells) * Double(remainingCells)))
            let truth: [Int32]?
            if let cached = truthCache[cell.dataset.hash] {
                truth = cached
            } else {
                truth = try? LabelFile.read(path: cell.dataset.path, columns: ["truth"], option: "truth",
                                            text: TextLabels(noise: plan.noiseLabel)).labels
                truthCache[cell.dataset.hash] = truth
            }
            let key = cell.dataset.hash + "|" + cell.method + "|" + cell.parameters
            let folder = plan.work + "/" + cell.folder

            // --resume: a row of the same dataset contents, cell and binary is kept as it was.
            if let old = plan.previous.first(where: { isSameCell($0, cell, binary: plan.binary) }) {
                if let from = plan.previousWork { copyCell(from: from + "/" + cell.folder, to: folder) }
                if cell.geocluster != nil, old.status == .ok, geoclusterLabels[key] == nil,
                   let labels = try? LabelFile.read(path: folder + "/labels.csv", columns: ["label"], option: "labels").labels {
                    geoclusterLabels[key] = labels
                }
                // The row keeps the version, commit and machine of the run that made it.
                rows.append(old)
                continue
            }

            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .bench("\(plan.work): cannot write the benchmark's cells (\(error)); choose another --out")
            }
            let cellStart = elapsed()
            var row = run(cell, plan: plan, folder: folder)
            ranSeconds += elapsed() - cellStart
            ranCells += 1
            row.geoclusterVersion = plan.version; row.commit = plan.commit; row.binary = plan.binary
            row.machine = plan.machine
            row.hasTruth = truth != nil

            if row.status == .ok && row.fitScope == .clustering {
                let labelsPath = folder + "/labels.csv"
                do {
                    let labels = try LabelFile.read(path: labelsPath, columns: ["label"], option: "labels").labels
                    score(&row, labels: labels, truth: truth)
                    if truth == nil && cell.geocluster != nil && cell.method == "hdbscan" {
                        if validity[key] == nil {
                            validity[key] = relativeValidity(plan.runInput(cell.dataset.path),
                                                             parameters: cell.parameters, labels: labels, threads: plan.threads)
                        }
                        row.relativeValidity = validity[key] ?? nil
                    } else if truth == nil && cell.geocluster != nil && (cell.method == "dbscan" || cell.method == "grid")
                                && plan.features.isEmpty {
                        // DBCV is measured in map coordinates: not the space features cluster in.
                        if validity[key] == nil {
                            validity[key] = sampledDBCV(RunInput(path: cell.dataset.path, crs: plan.crs, metric: plan.metric),
                                                        labels: labels)
                        }
                        row.dbcv = validity[key] ?? nil
                    }
                    if cell.geocluster != nil {
                        if geoclusterLabels[key] == nil { geoclusterLabels[key] = labels }
                    } else if let reference = geoclusterLabels[key], reference.count == labels.count,
                              let s = try? ClusteringScores(truth: reference, predicted: labels, noise: .asCluster) {
                        row.ariVsGeocluster = s.adjustedRandIndex
                    }
                } catch {
                    row.status = .error
                    row.error = "labels unreadable: \(error)"
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Whether an earlier row is the result of this cell: same dataset contents, implementation,
    /// method, parameters and repeat, and for geocluster's cells the same executable.
    static func isSameCell(_ row: RunRow, _ cell: Cell, binary: String) -> Bool {
        row.datasetHash == cell.dataset.hash && row.implementation == cell.implementation
            && row.method == cell.method && row.parameters == cell.parameters && row.repeatIndex == cell.repeatIndex
            && (cell.geocluster == nil || row.binary == binary)
    }

    static func copyCell(from: String, to: String) {
        let fm = FileManager.default
        guard fm.fileExists(atPath: from), !fm.fileExists(atPath: to) else { return }
        let parent = to.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        try? fm.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try? fm.copyItem(atPath: from, toPath: to)
    }

    /// `cell` with its peer's metric set (decided once per dataset, kept in `decided`); a
    /// geocluster cell as it is.
    static func withPeerMetric(_ cell: Cell, plan: BenchPlan, decided: inout [String: DistanceMetric]) -> Cell {
        guard cell.peer != nil else { return cell }
        var out = cell
        if let known = decided[cell.dataset.hash] {
            out.peerMetric = known
        } else {
            out.peerMetric = peerMetric(cell.dataset, plan: plan)
            decided[cell.dataset.hash] = out.peerMetric
        }
        return out
    }

    /// How the peers measure distance on `dataset`: as geocluster's cells do. `--metric planar`
    /// or `geodesic` as given; `auto` by the rule of ``DistanceMetric``, decided on the file's
    /// points as a cell would (planar when they cannot be read: the cells then fail alike).
    static func peerMetric(_ dataset: BenchDataset, plan: BenchPlan) -> DistanceMetric {
        // Features are measured in their own space, as geocluster's cells measure them.
        if !plan.features.isEmpty { return .planar }
        guard plan.metric == .auto else { return plan.metric }
        let input = RunInput(path: dataset.path, crs: plan.crs, metric: .auto)
        return (try? Harness.prepare(input, clock: StageClock()))?.metric ?? .planar
    }

    /// Runs one cell's process and reads what it reported.
    static func run(_ cell: Cell, plan: BenchPlan, folder: String) -> RunRow {
        var row = RunRow(dataset: cell.dataset.name, points: 0, datasetHash: cell.dataset.hash, hasTruth: false,
                         implementation: cell.implementation, method: cell.method, parameters: cell.parameters,
                         repeatIndex: cell.repeatIndex, status: .ok)
        row.scenario = cell.dataset.scenario
        row.fitScope = cell.peer?.fitScope ?? .clustering
        let executable: String, arguments: [String]
        let labels = folder + "/labels.csv", record = folder + "/record.json"
        if let m = cell.geocluster {
            executable = plan.executable
            arguments = ["bench-cell", cell.dataset.path, "--method", m.name, "--parameters", m.parameterText,
                         "--threads", "\(plan.threads)", "--labels", labels, "--record", record,
                         "--metric", plan.metric.rawValue, "--crs", plan.crs] + plan.featureArguments
            row.implementationVersion = plan.version
        } else {
            executable = plan.python
            arguments = [plan.peerScript, "--peer", cell.implementation, "--input", cell.dataset.path,
                         "--params", cell.peerJSON, "--labels", labels, "--report", record,
                         "--threads", "\(plan.threads)", "--sklearn-max-n", "\(plan.sklearnMaxPoints)",
                         "--metric", cell.peerMetric.rawValue] + plan.featureArguments
            row.metric = cell.peerMetric.rawValue
        }
        let outcome = CellProcess.run(executable: resolve(executable), arguments: arguments, timeout: plan.timeout,
                                      stdoutPath: folder + "/stdout.txt", stderrPath: folder + "/stderr.txt")
        row.processSeconds = outcome.seconds
        let lastLine = outcome.stderrTail.split(separator: "\n").last.map(String.init) ?? ""
        switch outcome.exit {
        case .timedOut:
            row.status = .timeout
            row.error = "killed after the \(Method.number(plan.timeout)) s timeout"
            row.processSeconds = nil
            return row
        case let .signalled(signal):
            row.status = .crashed
            row.error = "ended by signal \(signal)" + (signal == 9 ? " (SIGKILL: out of memory?)" : "")
                + (lastLine.isEmpty ? "" : ": \(lastLine)")
            return row
        case let .notStarted(reason):
            row.status = cell.peer == nil ? .error : .unavailable
            row.error = "could not start: \(reason)"
            return row
        case let .exited(code):
            if cell.geocluster != nil {
                guard code == 0 else {
                    row.status = .error
                    row.error = "exit \(code): \(lastLine)"
                    return row
                }
                do {
                    let r = try CellRecord.read(path: record)
                    row.points = r.points
                    row.stages = r.stages
                    row.fitSeconds = r.fitSeconds
                    row.peakMegabytes = r.peakMegabytes
                    row.clusters = r.clusters
                    row.noiseFraction = r.points > 0 ? Double(r.noise) / Double(r.points) : nil
                    row.mstWeight = r.mstWeight
                    row.metric = r.metric ?? ""
                } catch {
                    row.status = .error
                    row.error = error.description
                }
                return row
            }
            return readPeerReport(record, exitCode: code, lastLine: lastLine, into: row)
        }
    }

    /// The JSON report scripts/peers/peer_cell.py writes.
    struct PeerReport: Decodable {
        var status: String
        var error: String?
        var version: String?
        var metric: String?
        var fit_scope: String?
        var points: Int?
        var read_seconds: Double?
        var fit_seconds: Double?
        var peak_mb: Double?
        var mst_weight: Double?
        var clusters: Int?
        var noise: Int?
    }

    static func readPeerReport(_ path: String, exitCode: Int32, lastLine: String, into row: RunRow) -> RunRow {
        var row = row
        guard let data = FileManager.default.contents(atPath: path),
              let report = try? JSONDecoder().decode(PeerReport.self, from: data) else {
            row.status = .error
            row.error = "exit \(exitCode) without a report" + (lastLine.isEmpty ? "" : ": \(lastLine)")
            return row
        }
        row.status = RunStatus(rawValue: report.status) ?? .error
        row.error = report.error ?? ""
        row.implementationVersion = report.version ?? ""
        if let m = report.metric { row.metric = m }
        if let scope = report.fit_scope.flatMap(FitScope.init(rawValue:)) { row.fitScope = scope }
        row.points = report.points ?? 0
        if let r = report.read_seconds { row.stages["reading"] = r }
        row.fitSeconds = report.fit_seconds
        row.peakMegabytes = report.peak_mb
        row.mstWeight = report.mst_weight
        row.clusters = report.clusters
        if let noise = report.noise, let n = report.points, n > 0 { row.noiseFraction = Double(noise) / Double(n) }
        if row.status == .ok && exitCode != 0 { row.status = .error; row.error = "exit \(exitCode): \(lastLine)" }
        return row
    }

    /// Partition hash and scores against truth (`RunOutcome.score`), and the point count when
    /// the cell did not report one.
    static func score(_ row: inout RunRow, labels: [Int32], truth: [Int32]?) {
        row.outcome.score(labels: labels, truth: truth)
        if row.points == 0 { row.points = labels.count }
    }

    /// The relative validity of HDBSCAN `labels` of the points at `path`: HDBSCAN is fitted
    /// again in this process for its MST (the cell does not keep it, so that the cell's memory
    /// is what `cluster` uses); the labels depend only on the points and parameters, so the MST
    /// is the benchmarked run's. Nil when the fit fails or the labels do not match it.
    static func relativeValidity(_ input: RunInput, parameters: String, labels: [Int32], threads: Int) -> Double? {
        guard let method = try? Method(name: "hdbscan", parameterText: parameters),
              let record = try? Harness.run(input, method: method, threads: threads, keeping: [.mst],
                                            clock: StageClock()),
              let mst = record.hdbscan?.mst, record.labels == labels else { return nil }
        return try? DBCV.relativeValidity(labels: labels, from: mst.a, to: mst.b, weight: mst.weight)
    }

    /// At most this many points go into the DBCV of a DBSCAN or grid setting without truth
    /// (``sampledDBCV(_:labels:)``).
    public static let dbcvSampleLimit = 5_000
    /// The seed of the generator (``SplitMix64``) that picks that subsample.
    public static let dbcvSampleSeed: UInt64 = 17

    /// The DBCV index (``DBCV/validityIndex(xs:ys:labels:)``) of `labels` of the points at
    /// `path`, in the planar coordinates the run clustered (read and projected again here), on
    /// a deterministic subsample when there are more than ``dbcvSampleLimit`` points: that
    /// many rows drawn without replacement by a partial Fisher–Yates shuffle with
    /// `SplitMix64(seed: dbcvSampleSeed)`, taken in file order, so every setting of a dataset
    /// is scored on the same points. A cluster with fewer than 2 sampled points counts as
    /// noise in the sample (DBCV needs 2). DBCV is quadratic in a cluster's size: on a whole
    /// large dataset it takes far too long for a benchmark, on the sample well under a second
    /// (docs/performance.md).
    /// Nil when the points cannot be read again, the labels do not match them, or the index is
    /// not defined (one cluster: NaN).
    /// On the sphere (no planar coordinates) there is none.
    static func sampledDBCV(_ input: RunInput, labels: [Int32]) -> Double? {
        guard let prepared = try? Harness.prepare(input, clock: StageClock()),
              case let .plane(points) = prepared.points, points.count == labels.count else { return nil }
        let rows = dbcvSample(count: labels.count)
        let xs = rows.map { points.xs[$0] }, ys = rows.map { points.ys[$0] }
        var sampled = rows.map { labels[$0] }
        var sizes: [Int32: Int] = [:]
        for l in sampled where l >= 0 { sizes[l, default: 0] += 1 }
        for i in sampled.indices where sampled[i] >= 0 && sizes[sampled[i]]! < 2 { sampled[i] = -1 }
        guard let v = try? DBCV.validityIndex(xs: xs, ys: ys, labels: sampled), v.isFinite else { return nil }
        return v
    }

    /// The rows of ``sampledDBCV(_:labels:)``'s subsample of `count` points, ascending.
    public static func dbcvSample(count: Int) -> [Int] {
        guard count > dbcvSampleLimit else { return Array(0..<count) }
        var rows = Array(0..<count)
        var generator = SplitMix64(seed: dbcvSampleSeed)
        for i in 0..<dbcvSampleLimit { rows.swapAt(i, i + generator.nextInt(below: count - i)) }
        return rows[..<dbcvSampleLimit].sorted()
    }

    /// An executable given by name is looked up on PATH (posix_spawn does not search).
    public static func resolve(_ name: String) -> String {
        if name.contains("/") { return name }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return name
    }
}
