import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `geocluster check` runs: cases for each lane. The built-in `default` suite, or a JSON
/// file of the same shape (docs/gate.md):
///
/// ```json
/// {
///   "quality": [{"scenario": "seoul", "size": "10k", "method": "hdbscan",
///                "parameters": "min_cluster_size=30 min_samples=15"},
///               {"file": "listings.csv", "method": "dbscan", "parameters": "eps=100 min_samples=10"}],
///   "counts": [{"scenario": "seoul", "size": "10k", "method": "hdbscan",
///               "parameters": "min_cluster_size=30 min_samples=15"}],
///   "wall": [{"scenario": "seoul", "size": "100k", "method": "hdbscan",
///             "parameters": "min_cluster_size=30 min_samples=15"}],
///   "repeats": 15
/// }
/// ```
/// A file path is relative to the suite file's folder; a scenario's seed defaults to 1; a case
/// may set `"metric"` (`auto`, `planar`, `geodesic`).
public struct CheckSuite: Sendable, Codable, Equatable {
    /// One dataset and method: a generated scenario (`scenario`, `size`, `seed`) or a file.
    public struct Case: Sendable, Codable, Equatable {
        public var scenario: String?
        public var size: String?
        public var seed: UInt64?
        public var file: String?
        /// `hdbscan`, `dbscan` or `grid`, and its parameters in `bench`'s canonical text
        /// (`name=value` pairs; see `Method.init(name:parameterText:)`).
        public var method: String
        public var parameters: String
        /// `auto` (the default: the same rule as `cluster`), `planar` or `geodesic`.
        public var metric: String?

        public init(scenario: String? = nil, size: String? = nil, seed: UInt64? = nil, file: String? = nil,
                    method: String, parameters: String, metric: String? = nil) {
            self.scenario = scenario; self.size = size; self.seed = seed; self.file = file
            self.method = method; self.parameters = parameters; self.metric = metric
        }
    }

    /// Exact results compared with the baseline: partition hash, MST weight, counts, scores.
    public var quality: [Case]
    /// Instruction and allocation counts per stage under callgrind (one thread, small data).
    public var counts: [Case]
    /// Wall time: against the calibration workload in the same process, and A/B with
    /// `--against`.
    public var wall: [Case]
    /// Interleaved repeats of each timed case (default 15).
    public var repeats: Int?

    public init(quality: [Case], counts: [Case], wall: [Case], repeats: Int? = nil) {
        self.quality = quality; self.counts = counts; self.wall = wall; self.repeats = repeats
    }

    /// The built-in suite: every scenario at 10k and 100k points with each method at the
    /// `bench` defaults (quality; `world` is clustered on the sphere); the `seoul` scenario at
    /// 10k for the counts, with HDBSCAN on `world` at 10k (the great-circle core), and HDBSCAN
    /// on `seoul` at 100k for wall time.
    public static let `default`: CheckSuite = {
        let methods: [(String, String)] = [
            ("hdbscan", "min_cluster_size=30 min_samples=15"),
            ("dbscan", "eps=100 min_samples=10"),
            ("grid", "cell_size=250 merge=true min_points=10"),
        ]
        var quality: [Case] = []
        for scenario in Scenario.allCases {
            for size in ["10k", "100k"] {
                for (m, p) in methods {
                    quality.append(Case(scenario: scenario.rawValue, size: size, method: m, parameters: p))
                }
            }
        }
        let counts = methods.map { Case(scenario: "seoul", size: "10k", method: $0.0, parameters: $0.1) }
            + [Case(scenario: "world", size: "10k", method: methods[0].0, parameters: methods[0].1)]
        let wall = [Case(scenario: "seoul", size: "100k", method: methods[0].0, parameters: methods[0].1)]
        return CheckSuite(quality: quality, counts: counts, wall: wall, repeats: 15)
    }()

    /// Reads a suite file and checks every case (scenario and size, or a file; the method and
    /// its parameters).
    /// - Throws: `HarnessError.bench` naming the file and the case.
    public static func read(path: String) throws(HarnessError) -> CheckSuite {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .bench("\(path): cannot read the suite file; check the --suite path (or use --suite default)")
        }
        let suite: CheckSuite
        do {
            suite = try JSONDecoder().decode(CheckSuite.self, from: data)
        } catch {
            throw .bench("\(path): not a check suite (\(error)); see README: The regression gate")
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var resolved = suite
        for lane in [\CheckSuite.quality, \.counts, \.wall] {
            for k in resolved[keyPath: lane].indices {
                var c = resolved[keyPath: lane][k]
                if let f = c.file, !f.hasPrefix("/") { c.file = folder + "/" + f }
                try c.validate(in: path)
                resolved[keyPath: lane][k] = c
            }
        }
        if let r = resolved.repeats, r < 3 {
            throw .bench("\(path): repeats is \(r); the timed lanes need at least 3 (15 is the default)")
        }
        return resolved
    }
}

extension CheckSuite.Case {
    /// `seoul-10k hdbscan min_cluster_size=30 min_samples=15`: the key of the case's rows in the
    /// baseline and the verdict.
    /// A metric other than `auto` is part of the name: `world-10k hdbscan … metric=planar`.
    public var name: String {
        let m = metric.map { $0 == DistanceMetric.auto.rawValue ? "" : " metric=\($0)" } ?? ""
        return "\(datasetName) \(method) \(parameters)\(m)"
    }

    /// How distances are measured (`auto` unless the case says).
    public func resolvedMetric() throws(HarnessError) -> DistanceMetric {
        guard let text = metric else { return .auto }
        guard let m = DistanceMetric(rawValue: text) else {
            throw .bench("\(name): metric must be one of \(DistanceMetric.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return m
    }

    /// The case's input for a run in this process.
    func runInput(_ dataset: BenchDataset) throws(HarnessError) -> RunInput {
        RunInput(path: dataset.path, metric: try resolvedMetric())
    }

    /// The flags that hand the case to `geocluster bench-cell`.
    func cellArguments(_ dataset: BenchDataset) -> [String] {
        [dataset.path, "--method", method, "--parameters", parameters] + (metric.map { ["--metric", $0] } ?? [])
    }

    /// `seoul-10k` (`seoul-10k-seed2` for another seed) or the file's name.
    public var datasetName: String {
        if let file { return String(file.split(separator: "/").last ?? Substring(file)) }
        let seedText = (seed ?? 1) == 1 ? "" : "-seed\(seed!)"
        return "\(scenario ?? "?")-\(size ?? "?")\(seedText)"
    }

    /// The method with its parameters.
    public func resolvedMethod() throws(HarnessError) -> Method {
        do {
            return try Method(name: method, parameterText: parameters)
        } catch {
            throw .bench("\(name): \(error)")
        }
    }

    /// The dataset: the scenario generated into `cache` (once), or the file.
    public func dataset(cache: String) throws(HarnessError) -> BenchDataset {
        if let file { return try BenchDataset.file(file) }
        guard let s = scenario.flatMap(Scenario.init(rawValue:)), let n = size.flatMap(BenchSizes.parse) else {
            throw .bench("\(name): needs a scenario and a size, or a file")
        }
        return try BenchDataset.scenario(s, count: n, seed: seed ?? 1, cache: cache)
    }

    func validate(in path: String) throws(HarnessError) {
        if file == nil {
            guard let s = scenario, Scenario(rawValue: s) != nil else {
                throw .bench("\(path): case \(name): scenario must be one of \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")), or give a file")
            }
            guard let z = size, BenchSizes.parse(z) != nil else {
                throw .bench("\(path): case \(name): size must be like 10k, 100k or 1M")
            }
        } else if scenario != nil || size != nil {
            throw .bench("\(path): case \(name): give a file or a scenario and size, not both")
        }
        _ = try resolvedMethod()
        _ = try resolvedMetric()
    }
}
