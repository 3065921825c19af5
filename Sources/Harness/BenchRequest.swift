import Datasets
import Pins
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `geocluster bench` is asked to do, as values: which datasets, which sweep, how each
/// cell runs and where the report goes. The command fills it from its flags; `datasets(note:)`
/// and `plan(datasets:work:previous:)` turn it into the `BenchPlan` that `Bench.run` runs.
public struct BenchRequest {
    /// The scenarios benchmarked when none is named and no file is given.
    public static let defaultScenarios: [Scenario] = [.seoul]

    /// Users' CSV or GeoJSON files, benchmarked before the scenarios.
    public var inputs: [String]
    /// Generated scenarios; nil means `defaultScenarios`, or none when `inputs` are given.
    public var scenarios: [Scenario]?
    /// Listings per generated scenario.
    public var sizes: [Int]
    public var seed: UInt64
    /// Folder generated scenarios are cached in.
    public var cache: String
    /// Listings kept of every generated scenario (nil: all of them).
    public var filter: ListingFilter?
    /// geocluster's methods with their parameters (the sweep's cross product).
    public var methods: [Method]
    public var peers: [Peer]
    public var repeats: Int
    public var threads: Int
    /// Seconds a cell may run before it is killed and recorded as `timeout`.
    public var timeout: Double
    /// Keep the rows of OUT/runs.csv that still apply and run only the other cells.
    public var resume: Bool
    /// Folder the report is written to.
    public var out: String
    /// The map pins compared on every dataset (`PinsComparison`); nil: none.
    public var pins: PinsComparison.Request?
    /// Points above which scikit-learn's quadratic HDBSCAN is skipped.
    public var sklearnMaxPoints: Int
    /// scripts/peers/peer_cell.py; nil: found near the working folder or the executable.
    public var peerScript: String?
    /// How the cells measure distance and the CRS they project to (`--metric`, `--crs`).
    public var metric: DistanceMetric = .auto
    public var crs = "auto"
    /// The text that means noise in a truth column of text labels (`TextLabels`); nil: none.
    public var noiseLabel: String?
    /// Columns every cell clusters by (`--features`; empty: the position) and their scale.
    public var features: [String] = []
    public var featureScale: FeatureScale = .standard
    /// The geocluster executable every cell runs.
    public var executable: String
    /// geocluster's version and the command line, for the records and the report's page.
    public var version: String
    public var commandLine: String

    public init(inputs: [String] = [], scenarios: [Scenario]? = nil, sizes: [Int] = [10_000, 100_000], seed: UInt64 = 1,
                cache: String = "datasets/cache", filter: ListingFilter? = nil, methods: [Method], peers: [Peer] = [],
                repeats: Int = 3, threads: Int = 1, timeout: Double = 600, resume: Bool = false, out: String = "reports",
                sklearnMaxPoints: Int = 150_000, pins: PinsComparison.Request? = nil, peerScript: String? = nil,
                version: String, commandLine: String,
                executable: String = GeoclusterExecutable.path()) {
        self.inputs = inputs; self.scenarios = scenarios; self.sizes = sizes; self.seed = seed; self.cache = cache
        self.filter = filter; self.methods = methods; self.peers = peers; self.repeats = repeats; self.threads = threads
        self.timeout = timeout; self.resume = resume; self.out = out; self.sklearnMaxPoints = sklearnMaxPoints
        self.pins = pins
        self.peerScript = peerScript; self.version = version; self.commandLine = commandLine; self.executable = executable
    }

    /// The scenarios generated: those named, else the defaults unless files are given.
    public var scenariosToGenerate: [Scenario] { scenarios ?? (inputs.isEmpty ? Self.defaultScenarios : []) }

    /// The datasets in the order they run: the users' files, then every scenario at every size
    /// (generated into the cache once, filtered when a filter is set).
    /// - Parameter note: receives one line per scenario dataset, for the console.
    /// - Throws: `HarnessError` for a file that cannot be read or a cache that cannot be written.
    public func datasets(note: (String) -> Void) throws(HarnessError) -> [BenchDataset] {
        var out: [BenchDataset] = []
        for path in inputs {
            guard path == InputFile.standardInput || FileManager.default.isReadableFile(atPath: path) else {
                throw .bench("--input \(path): no such readable file; check the path")
            }
            // The cells run in processes of their own: a pipe or gzip file is given to them as
            // its plain copy.
            let plain: String
            do { plain = try InputFile.plainPath(path) } catch { throw .bench("--input \(error)") }
            out.append(try BenchDataset.file(path, reading: plain))
        }
        let key = filter?.cacheKey ?? ""
        for s in scenariosToGenerate {
            for n in sizes {
                note("bench: dataset \(s.rawValue)-\(BenchSizes.label(n)) (seed \(seed)\(filter == nil ? "" : ", filtered: " + key))")
                out.append(try BenchDataset.scenario(s, count: n, seed: seed, cache: cache, filter: filter, filterKey: key))
            }
        }
        return out
    }

    /// The plan that runs `datasets` into the folder `work`.
    /// - Parameter previous: rows of an earlier run to keep (`resume`), read from `out`.
    /// - Throws: `HarnessError` when peers are asked for and the peer script is missing.
    public func plan(datasets: [BenchDataset], work: String, previous: [RunRow] = []) throws(HarnessError) -> BenchPlan {
        let script = peerScript ?? GeoclusterExecutable.peerScript(near: executable)
        if !peers.isEmpty && !FileManager.default.fileExists(atPath: script) {
            throw .bench("--peers: \(script) not found; run from the geocluster checkout or give --peer-script")
        }
        var plan = BenchPlan(
            datasets: datasets, methods: methods, peers: peers, repeats: repeats, threads: threads, timeout: timeout,
            executable: executable, peerScript: script, sklearnMaxPoints: sklearnMaxPoints, metric: metric, crs: crs,
            work: work,
            previous: previous, previousWork: resume ? out : nil, version: version,
            commit: GeoclusterExecutable.gitCommit(near: executable), binary: (try? Fingerprint.file(executable)) ?? "",
            machine: Machine.fingerprint())
        plan.noiseLabel = noiseLabel
        plan.features = features
        plan.featureScale = featureScale
        try checkFeatures(plan)
        return plan
    }

    /// With `features`, every dataset is read once as the cells will read it, so that a column
    /// a file lacks or a field that is no number stops the run with the file, line and column
    /// named, before any cell runs (each cell would otherwise fail on its own, as a row).
    private func checkFeatures(_ plan: BenchPlan) throws(HarnessError) {
        guard !features.isEmpty else { return }
        for d in plan.datasets { _ = try Harness.prepare(plan.runInput(d.path), clock: StageClock()) }
    }

    /// One console line per dataset and method whose every setting found no cluster (all
    /// noise), naming the settings to change: the defaults are a city's listings' scale.
    public static func emptyNotes(rows: [RunRow], datasets: [BenchDataset]) -> [String] {
        datasets.flatMap { d in
            let mine = rows.filter { $0.datasetHash == d.hash && $0.status == .ok && $0.implementation == "geocluster" }
            return Dictionary(grouping: mine, by: \.method).sorted { $0.key < $1.key }.compactMap { (method, runs) -> String? in
                guard runs.allSatisfy({ ($0.clusters ?? 1) == 0 }) else { return nil }
                let flags = ["hdbscan": "--min-cluster-size and --min-samples", "dbscan": "--eps (metres) and --min-samples",
                             "grid": "--cell-size (metres) and --min-points"][method] ?? "its settings"
                return "bench: \(method) found no cluster in \(d.name) with any setting tried; its defaults suit a city's listings, so for data on another scale (towns of a country or the world) pass \(flags)"
            }
        }
    }

    /// One console line per user's file whose rows came back without truth, saying which
    /// scores stand in for the missing ones.
    public static func truthNotes(rows: [RunRow], datasets: [BenchDataset]) -> [String] {
        datasets.filter { d in rows.contains { $0.datasetHash == d.hash && $0.status == .ok && !$0.hasTruth } }.map { d in
            "bench: \(d.path) has no truth column, so its score cells (ARI, AMI, V-measure, noise precision and recall) are empty; HDBSCAN settings are compared by relative validity (rv), DBSCAN and grid settings by DBCV on at most \(Bench.dbcvSampleLimit) points (db) instead"
        }
    }
}

extension ListingFilter {
    /// The filter's conditions as options (`--area=10..50 --category=apartment`, sorted), and
    /// a `--within` file's hash: what names a filtered scenario in the cache. Two spellings of
    /// one filter give one key, and an edited region file a new one.
    public var cacheKey: String {
        func number(_ v: Double) -> String { Method.number(v) }
        func range(_ r: ValueRange) -> String { (r.lower.map(number) ?? "") + ".." + (r.upper.map(number) ?? "") }
        var tokens: [String] = []
        if let c = attributes.categories { tokens.append("--category=" + c.categories.map(\.rawValue).joined(separator: ",")) }
        if let r = attributes.area { tokens.append("--area=" + range(r)) }
        if let r = attributes.deposit { tokens.append("--deposit=" + range(r)) }
        if let r = attributes.monthlyRent { tokens.append("--rent=" + range(r)) }
        if let b = bbox {
            tokens.append("--bbox=" + [b.minLongitude, b.minLatitude, b.maxLongitude, b.maxLatitude].map(number).joined(separator: ","))
        }
        if let region {
            tokens.append("--within=" + region.path)
            if let hash = try? Fingerprint.file(region.path) { tokens.append("region=" + hash) }
        }
        return tokens.sorted().joined(separator: " ")
    }
}
