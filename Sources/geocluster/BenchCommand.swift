import ArgumentParser
import ClusterCore
import Datasets
import Geo
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Harness
import Reports

/// A comma-separated list option (`--sizes 10k,100k`), each item parsed by `parse`; an item it
/// refuses is a usage error naming the flag and the item.
func listOption<T>(_ flag: String, _ what: String, _ parse: @escaping (String) -> T?) -> (String) throws -> [T] {
    { text in
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        return try items.map { item in
            guard !item.isEmpty, let v = parse(item) else {
                throw ValidationError("\(flag): '\(item)' is not \(what)")
            }
            return v
        }
    }
}

/// `geocluster bench`: every method on every dataset, each cell in its own process, with
/// tables, maps, tree plots and an HTML page as the result.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the clustering methods (and Python peers) on scenarios or your files: CSV tables, maps, tree plots and an HTML report.",
        discussion: """
            Every cell (dataset × implementation × method × parameters × repeat) runs in a process \
            of its own with a timeout, so a crash, a hang or an out-of-memory becomes a row with its \
            error. Lists sweep: the cross product of --min-cluster-size and --min-samples (hdbscan), \
            --eps and --min-samples (dbscan), --cell-size and --min-points (grid) is run. Defaults: \
            hdbscan min cluster size 30, min samples 15; dbscan eps 100 m, min samples 10; grid \
            250 m cells, min points 10, adjacent dense cells merged.
            Writes OUT/runs.csv (one row per repeat), OUT/summary.csv, OUT/README.md (the columns), \
            OUT/maps/, OUT/trees/, OUT/cells/ and OUT/index.html (with --pins-zooms also OUT/pins.csv, \
            one row per dataset, pin implementation and zoom), built in a temporary folder and \
            moved into place at the end.
            """
    )

    static let defaultScenarios: [Scenario] = [.seoul]

    @Option(help: ArgumentHelp("Generated scenarios, comma-separated: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")) (default seoul; none with --input).", valueName: "list"),
            transform: listOption("--scenarios", "a scenario (\(Scenario.allCases.map(\.rawValue).joined(separator: ", ")))") { Scenario(rawValue: $0) })
    var scenarios: [Scenario]?

    @Option(name: .customLong("input"), help: ArgumentHelp("Your own CSV or GeoJSON file (repeatable); a truth column, if present, is scored against.", valueName: "file"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Scenario sizes, comma-separated: 10k, 100k, 1M, 2.5M or plain numbers.", valueName: "list"),
            transform: listOption("--sizes", "a size such as 10k, 100k or 1M", BenchSizes.parse))
    var sizes: [Int] = [10_000, 100_000]

    @Option(help: ArgumentHelp("Methods, comma-separated: hdbscan, dbscan, grid.", valueName: "list"),
            transform: listOption("--methods", "a method (hdbscan, dbscan, grid)") { Algorithm(rawValue: $0) })
    var methods: [Algorithm] = Algorithm.allCases

    @Option(name: .customLong("repeat"), help: "Repeats of every cell (medians are reported).")
    var repeats: Int = 3

    @Option(help: "Seed of the generated scenarios.")
    var seed: UInt64 = 1

    @Option(help: "Worker threads of each cell (geocluster's and the peers' that take one).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Python peers, comma-separated: \(Peer.allCases.map(\.rawValue).joined(separator: ", ")) (install them with scripts/peers/install.sh).", valueName: "list"),
            transform: listOption("--peers", "a peer (\(Peer.allCases.map(\.rawValue).joined(separator: ", ")))") { Peer(rawValue: $0) })
    var peers: [Peer] = []

    @Option(help: "Seconds a cell may run before it is killed and recorded as a timeout.")
    var timeout: Double = 600

    @Flag(help: "Keep the rows of OUT/runs.csv made from the same dataset contents, parameters and binary; run only the other cells.")
    var resume = false

    @Option(name: .customLong("out"), help: "Folder the report is written to.")
    var out: String = "reports"

    @Option(help: "Folder generated scenarios are cached in.")
    var cache: String = "datasets/cache"

    @Option(help: "scikit-learn's HDBSCAN (quadratic) is skipped above this many points.")
    var sklearnMaxN: Int = 150_000

    @Option(help: "scripts/peers/peer_cell.py (default: found from the working folder or the executable's checkout).")
    var peerScript: String?

    @Option(help: ArgumentHelp("hdbscan: minimum cluster sizes to sweep (default 30).", valueName: "list"),
            transform: listOption("--min-cluster-size", "a whole number", { Int($0) }))
    var minClusterSize: [Int] = [30]

    @Option(help: ArgumentHelp("hdbscan and dbscan: min samples to sweep (default 15 for hdbscan, 10 for dbscan).", valueName: "list"),
            transform: listOption("--min-samples", "a whole number", { Int($0) }))
    var minSamples: [Int]?

    @Option(help: ArgumentHelp("dbscan: radii in metres to sweep (default 100).", valueName: "list"),
            transform: listOption("--eps", "a distance in metres", { Double($0) }))
    var eps: [Double] = [100]

    @Option(help: ArgumentHelp("grid: cell sizes in metres to sweep (default 250).", valueName: "list"),
            transform: listOption("--cell-size", "a distance in metres", { Double($0) }))
    var cellSize: [Double] = [250]

    @Option(help: ArgumentHelp("grid: min points to sweep (default 10).", valueName: "list"),
            transform: listOption("--min-points", "a whole number", { Int($0) }))
    var minPoints: [Int] = [10]

    @Option(help: ArgumentHelp("Also compare map pins at these zooms (e.g. 10-18) on every dataset: PinIndex, the supercluster baseline, a 40-pixel grid and pysupercluster (pip package pysupercluster-problematy), each in its own process; pins per 390×844 viewport, ARI, overlap rate, build and query times, peak memory in OUT/pins.csv.", valueName: "a-b"),
            transform: ZoomRange.parse)
    var pinsZooms: ZoomRange?

    @OptionGroup(title: "Filters (applied to the generated scenarios)")
    var filters: FilterOptions

    /// The filter options as typed (and a --within file's contents), which name a filtered
    /// scenario in the cache.
    func filterKey() -> String {
        let names: Set<String> = ["--category", "--area", "--deposit", "--rent", "--bbox", "--within"]
        var tokens: [String] = []
        let arguments = Array(CommandLine.arguments.dropFirst())
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            let name = String(a.split(separator: "=", maxSplits: 1).first ?? "")
            if names.contains(name) {
                if a.contains("=") { tokens.append(a) } else if i + 1 < arguments.count { tokens.append(a + "=" + arguments[i + 1]); i += 1 }
            }
            i += 1
        }
        if let region = filters.within, let hash = try? Fingerprint.file(region) { tokens.append("region=" + hash) }
        return tokens.sorted().joined(separator: " ")
    }

    /// The sweep: every method's parameter settings, each checked by the core's validation.
    func sweep() throws(ValidationError) -> [Method] {
        var out: [Method] = []
        for algorithm in methods {
            switch algorithm {
            case .hdbscan:
                for mcs in minClusterSize {
                    for ms in minSamples ?? [15] {
                        out.append(.hdbscan(HDBSCANParameters(minClusterSize: mcs, minSamples: ms)))
                    }
                }
            case .dbscan:
                for e in eps {
                    for ms in minSamples ?? [10] { out.append(.dbscan(DBSCANParameters(eps: e, minSamples: ms))) }
                }
            case .grid:
                for c in cellSize {
                    for m in minPoints { out.append(.grid(GridParameters(cellSize: c, minPoints: m, mergeAdjacent: true))) }
                }
            }
        }
        for m in out { try validated { () throws(ClusterCoreError) in try m.validate() } }
        return out
    }

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeat must be at least 1") }
        if threads < 1 { throw ValidationError("--threads must be at least 1") }
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a number of seconds > 0") }
        if inputs.isEmpty && scenarios?.isEmpty == true { throw ValidationError("--scenarios is empty; name a scenario or give --input") }
        if filters.isActive && !inputs.isEmpty {
            throw ValidationError("--category, --area, --deposit, --rent, --bbox and --within filter the generated scenarios only; give --input a file that holds just the rows you want")
        }
        _ = try sweep()
    }

    func run() throws {
        do {
            try runBench()
        } catch let e as HarnessError {
            throw fail(e)
        } catch let e as DatasetError {
            throw fail(e)
        }
    }

    private func runBench() throws {
        let fm = FileManager.default
        var datasets: [BenchDataset] = []
        for path in inputs {
            guard fm.isReadableFile(atPath: path) else {
                throw HarnessError.bench("--input \(path): no such readable file; check the path")
            }
            datasets.append(try BenchDataset.file(path))
        }
        let filter = try filters.makeFilter()
        let key = filter == nil ? "" : filterKey()
        for s in scenarios ?? (inputs.isEmpty ? Self.defaultScenarios : []) {
            for n in sizes {
                note("bench: dataset \(s.rawValue)-\(BenchSizes.label(n)) (seed \(seed)\(filter == nil ? "" : ", filtered: " + key))")
                datasets.append(try BenchDataset.scenario(s, count: n, seed: seed, cache: cache, filter: filter, filterKey: key))
            }
        }

        // The report is built in a temporary folder inside OUT and moved into place at the end,
        // so a failed run leaves OUT as it was.
        let createdOut = !fm.fileExists(atPath: out)
        do {
            try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw HarnessError.bench("--out \(out): cannot create the folder (\(error)); choose a folder you can write")
        }
        let work = out + "/.bench-\(getpid())"
        try? fm.removeItem(atPath: work)
        do {
            try fm.createDirectory(atPath: work, withIntermediateDirectories: false)
        } catch {
            throw HarnessError.bench("--out \(out): cannot write into the folder (\(error)); choose a folder you can write")
        }
        var moved = false
        defer {
            if !moved {
                try? fm.removeItem(atPath: work)
                if createdOut { try? fm.removeItem(atPath: out) }
            }
        }

        let executable = Self.executablePath()
        let script = peerScript ?? Self.findPeerScript(executable: executable)
        if !peers.isEmpty && !fm.fileExists(atPath: script) {
            throw HarnessError.bench("--peers: \(script) not found; run from the geocluster checkout or give --peer-script")
        }
        let previous = resume ? BenchTables.readRuns(path: out + "/runs.csv") : []
        let plan = BenchPlan(
            datasets: datasets, methods: try sweep(), peers: peers, repeats: repeats, threads: threads, timeout: timeout,
            executable: executable, peerScript: script, sklearnMaxPoints: sklearnMaxN, work: work,
            previous: previous, previousWork: resume ? out : nil, version: Geocluster.version,
            commit: Self.gitCommit(near: executable), binary: (try? Fingerprint.file(executable)) ?? "",
            machine: Machine.fingerprint())

        let terminal = isatty(2) == 1
        let rows = try Bench.run(plan) { p in
            guard terminal else { return }
            let left = p.remaining.map { cFormat(", ~%.0f s left", $0) } ?? ""
            let line = "[\(p.cell)/\(p.cells)] \(p.dataset) \(p.label)  \(cFormat("%.0f s", p.elapsed))\(left)"
            // \r and "erase to end of line": one line that updates in place.
            var text = "\r" + String(line.prefix(150)) + "\u{1B}[K"
            text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
        if terminal { note("") }
        for d in datasets where rows.contains(where: { $0.datasetHash == d.hash && $0.status == .ok && !$0.hasTruth }) {
            note("bench: \(d.path) has no truth column of integer labels, so its score cells (ARI, AMI, V-measure, noise precision and recall) are empty; HDBSCAN settings are compared by relative validity (rv), DBSCAN and grid settings by DBCV on at most \(Bench.dbcvSampleLimit) points (db) instead")
        }
        // Map pins per zoom: each implementation in a process of its own, into the work folder.
        var pinRows: [PinsRow] = []
        if let zooms = pinsZooms?.zooms {
            let setup = PinsComparison.Setup(executable: executable, python: plan.python, peerScript: script, timeout: timeout, seed: seed)
            for d in datasets {
                note("bench: map pins at zooms \(zooms.lowerBound)-\(zooms.upperBound) on \(d.name): \(PinsComparison.implementations.joined(separator: ", ")), each in its own process")
                pinRows += try reportingErrors(input: d.path) {
                    try PinsComparison.run(path: d.path, dataset: d.name, zooms: zooms, setup: setup, folder: work + "/cells/\(d.name)/pins")
                }
            }
            try BenchTables.write(pinRows, columns: BenchTables.pinsColumns, to: work + "/pins.csv")
        }
        let summary = Summary.make(rows)
        try BenchTables.write(rows, columns: BenchTables.runColumns, to: work + "/runs.csv")
        try BenchTables.write(summary, columns: BenchTables.summaryColumns, to: work + "/summary.csv")
        try AtomicFile.write(BenchTables.columnsDocument(), to: work + "/README.md")
        let figures = try BenchFigures.draw(summary: summary, rows: rows, datasets: datasets, threads: threads, folder: work)
        let info = ReportInfo(title: "geocluster benchmark", generatedAt: Date.now.formatted(.iso8601),
                              version: Geocluster.version, commit: plan.commit, machine: plan.machine,
                              commandLine: (["geocluster"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
        try AtomicFile.write(HTMLReport.render(summary: summary, figures: figures, info: info), to: work + "/index.html")

        // Into place: each entry replaces the one of the same name in OUT.
        for entry in try fm.contentsOfDirectory(atPath: work) {
            let target = out + "/" + entry
            try? fm.removeItem(atPath: target)
            try fm.moveItem(atPath: work + "/" + entry, toPath: target)
        }
        try? fm.removeItem(atPath: work)
        moved = true

        printSummary(summary)
        if pinsZooms != nil { printPins(pinRows) }
        let failed = rows.filter { $0.status != .ok && $0.status != .skipped && $0.status != .unavailable }.count
        note("bench: \(rows.count) runs (\(failed) failed), \(summary.count) summary rows, \(figures.filter { $0.kind == .map }.count) maps, \(figures.filter { $0.kind == .tree }.count) tree plots; wrote \(out)/index.html, \(out)/runs.csv, \(out)/summary.csv")
    }

    /// The map-pin comparison as a table on standard output.
    private func printPins(_ rows: [PinsRow]) {
        print("\ndataset".padded(to: 18) + "zoom  implementation  pins/viewport  ARI     overlap  build s   query p50 ms  p99 ms   peak MB")
        for r in rows {
            let head = r.dataset.padded(to: 17) + String(r.zoom).padded(to: 6) + r.implementation.padded(to: 16)
            guard r.status == .ok else {
                print(head + r.status.rawValue + ": " + r.error)
                continue
            }
            let ari = r.ari.map { cFormat("%.3f", $0) } ?? "–"
            let q = r.queryP50.map { cFormat("%8.3f", $0 * 1e3) + "      " + cFormat("%7.3f", (r.queryP99 ?? 0) * 1e3) } ?? "       –           –"
            print(head + cFormat("%9.1f", r.pinsPerViewport ?? 0).padded(to: 15) + ari.padded(to: 8)
                  + cFormat("%6.3f", r.overlap ?? 0).padded(to: 9) + cFormat("%7.3f", r.buildSeconds ?? 0).padded(to: 10) + q
                  + cFormat("%9.0f", r.peakMegabytes ?? 0))
        }
    }

    /// The summary as a short table on standard output.
    private func printSummary(_ summary: [SummaryRow]) {
        let width = max(17, (summary.map(\.dataset.count).max() ?? 0) + 2)
        print("dataset".padded(to: width) + "implementation  method        parameters                              fit s (median)  ARI       clusters  status")
        for s in summary {
            let fit = s.fitSeconds.map { cFormat("%10.4f", $0.median) } ?? "         –"
            // * marks the best setting of a sweep (by ARI; without truth by relative validity,
            // "rv", for HDBSCAN and by DBCV on a subsample, "db", for DBSCAN and grid).
            let score = s.ari.map { cFormat("%.3f", $0) } ?? s.relativeValidity.map { cFormat("rv %.3f", $0) }
                ?? s.dbcv.map { cFormat("db %.3f", $0) } ?? "–    "
            let ari = score + (s.bestInSweep ? "*" : "")
            let clusters = s.clusters.map { "\($0)" } ?? "–"
            print(s.dataset.padded(to: width) + s.implementation.padded(to: 16) + s.method.padded(to: 14)
                  + s.parameters.padded(to: 40) + fit + "      " + ari.padded(to: 10) + clusters.padded(to: 10)
                  + s.status.rawValue + (s.error.isEmpty ? "" : ": " + String(s.error.prefix(60))))
        }
    }

    /// This process's executable (what the cells run), resolved through /proc on Linux.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    /// scripts/peers/peer_cell.py in the working folder, else in the checkout the executable was
    /// built in (`.build/…/geocluster`).
    static func findPeerScript(executable: String) -> String {
        let relative = "scripts/peers/peer_cell.py"
        if FileManager.default.fileExists(atPath: relative) { return relative }
        var folder = executable
        for _ in 0..<5 {
            folder = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if folder.isEmpty { break }
            if FileManager.default.fileExists(atPath: folder + "/" + relative) { return folder + "/" + relative }
        }
        return relative
    }

    /// The git commit of the checkout holding `executable` (`unknown` outside one).
    static func gitCommit(near executable: String) -> String {
        let folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let output = FileManager.default.temporaryDirectory.path + "/geocluster-commit-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let r = CellProcess.run(executable: Bench.resolve("git"), arguments: ["-C", folder.isEmpty ? "." : folder, "rev-parse", "--short=12", "HEAD"],
                                timeout: 10, stdoutPath: output, stderrPath: "/dev/null")
        guard r.exit == .exited(0), let text = try? String(contentsOfFile: output, encoding: .utf8) else { return "unknown" }
        let commit = text.trimmingWhitespace(newlines: true)
        return commit.isEmpty ? "unknown" : commit
    }
}
