import ClusterCore
import Datasets
import Geo
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One dataset of a benchmark: a generated scenario or a user's file.
public struct BenchDataset: Sendable, Equatable {
    /// `seoul-10k` for a scenario, the file's name without extension for a user's file.
    public var name: String
    public var path: String
    /// SHA-256 of the file's bytes (16 hex digits).
    public var hash: String
    /// The generated scenario the dataset is one size of (`seoul`, `seoul-filtered`), empty for
    /// a user's file: sizes of one scenario share a model, so only they are fitted together.
    public var scenario: String

    public init(name: String, path: String, hash: String, scenario: String = "") {
        self.name = name; self.path = path; self.hash = hash; self.scenario = scenario
    }

    /// A generated scenario of `count` listings, written once into `cache` (as
    /// `SCENARIO-SIZE-seedS.csv`) and reused while it exists. Generation is deterministic, so
    /// a cached file is the file that would be generated.
    /// - Throws: `HarnessError` when the cache folder cannot be written.
    /// - Parameters:
    ///   - filter: listings to keep, with `filterKey` naming it (the filter's options as typed,
    ///     and a `--within` file's hash): a filtered scenario is cached under its own name,
    ///     `NAME-filtered` with the key's hash in the file name.
    public static func scenario(_ scenario: Scenario, count: Int, seed: UInt64, cache: String,
                                filter: ListingFilter? = nil, filterKey: String = "") throws(HarnessError) -> BenchDataset {
        var name = "\(scenario.rawValue)-\(BenchSizes.label(count))"
        var file = "\(name)-seed\(seed)"
        var family = scenario.rawValue
        if filter != nil {
            name += "-filtered"
            family += "-filtered"
            file += "-filter" + Fingerprint.text(filterKey).prefix(8)
        }
        let path = cache + "/\(file).csv"
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            } catch {
                throw .bench("\(cache): cannot create the dataset cache folder (\(error)); choose another with --cache")
            }
            do {
                _ = try GeneratedListings.write(model: ScenarioModel(scenario: scenario, count: count, seed: seed),
                                                to: path, format: .csv, filter: filter)
            } catch {
                throw .dataset(error)
            }
        }
        return BenchDataset(name: name, path: path, hash: try Fingerprint.file(path), scenario: family)
    }

    /// A user's file, named after the file.
    /// - Parameter plain: where its bytes are read (`InputFile.plainPath`), when not at `path`.
    public static func file(_ path: String, reading plain: String? = nil) throws(HarnessError) -> BenchDataset {
        var name = path == InputFile.standardInput ? "stdin" : String(path.split(separator: "/").last ?? Substring(path))
        if name.lowercased().hasSuffix(".gz") { name.removeLast(3) }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return BenchDataset(name: name, path: plain ?? path, hash: try Fingerprint.file(plain ?? path))
    }
}

/// Sizes written as `10k`, `100k`, `1M`, `2.5M` or plain numbers.
public enum BenchSizes {
    /// Parses one size. - Returns: nil when the text is not a positive size.
    public static func parse(_ text: String) -> Int? {
        var t = text.trimmingWhitespace()
        var scale = 1.0
        if t.hasSuffix("k") || t.hasSuffix("K") { scale = 1e3; t.removeLast() }
        else if t.hasSuffix("M") || t.hasSuffix("m") { scale = 1e6; t.removeLast() }
        guard let v = Double(t), v > 0, v.isFinite else { return nil }
        let n = (v * scale).rounded()
        guard n == v * scale, n >= 1, n <= 1e9 else { return nil }
        return Int(n)
    }

    /// `10k`, `1M`, `2.5M`, `1500`: the shortest of these forms that is exact.
    public static func label(_ n: Int) -> String {
        if n >= 1_000_000 && n % 100_000 == 0 {
            return n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(Double(n) / 1e6)M"
        }
        if n >= 1_000 && n % 1_000 == 0 { return "\(n / 1_000)k" }
        return "\(n)"
    }
}

/// The peers `bench` can run beside geocluster (scripts/peers/peer_cell.py), and which of
/// geocluster's methods each one corresponds to.
public enum Peer: String, Sendable, CaseIterable {
    case sklearn, hdbscan, fastHDBSCAN = "fast_hdbscan", hdbscanRS = "hdbscan_rs"
    case sklearnDBSCAN = "sklearn_dbscan", supercluster
    /// quitefastmst's exact mutual-reachability MST: no labels, timed against geocluster's
    /// index, core distances and MST stages (``FitScope/mst``).
    case quitefastmst

    /// The peers that measure great-circle distance, run on geodesic cells; the others are
    /// skipped there (peer_cell.py says so in the row).
    public static let geodesic: [Peer] = [.sklearn, .sklearnDBSCAN, .quitefastmst, .supercluster]

    /// What the peer's `fit_seconds` covers.
    public var fitScope: FitScope { self == .quitefastmst ? .mst : .clustering }

    /// The default supercluster parameters: 40-pixel radius on 512-pixel tiles, cut at zoom 14
    /// (a last merge radius of about 150 m at Seoul's latitude; see scripts/peers/README.md).
    public static let superclusterParameters = "extent=512 max_zoom=16 radius=40 zoom=14"

    /// The peer's cell for one of geocluster's methods: the method name, the parameters in
    /// geocluster's canonical text, and the JSON the peer script takes; nil when the peer does
    /// not implement `method` (another algorithm) or cannot take its options (only
    /// min_cluster_size and min_samples map to the HDBSCAN peers).
    public func cell(for method: Method) -> (method: String, parameters: String, json: String)? {
        switch (self, method) {
        case (.sklearn, let .hdbscan(p)), (.hdbscan, let .hdbscan(p)), (.fastHDBSCAN, let .hdbscan(p)), (.hdbscanRS, let .hdbscan(p)):
            let s = p.selection
            guard s.method == .excessOfMass, s.epsilon == 0, !s.allowSingleCluster, s.maxClusterSize == nil else { return nil }
            // The peers take min_samples in scikit-learn's convention (the point counts itself):
            // the neighbour count.
            return ("hdbscan", method.parameterText, "{\"min_cluster_size\":\(p.minClusterSize),\"min_samples\":\(p.neighbourCount)}")
        case (.quitefastmst, let .hdbscan(p)):
            return ("hdbscan", method.parameterText, "{\"min_samples\":\(p.neighbourCount)}")
        case (.sklearnDBSCAN, let .dbscan(p)):
            return ("dbscan", method.parameterText, "{\"eps\":\(Method.number(p.eps)),\"min_samples\":\(p.minSamples)}")
        default:
            return nil
        }
    }
}

/// What a row's `fitSeconds` covers: the whole clustering (index to labels), or only the
/// mutual-reachability MST (a peer that builds nothing else), which is compared with
/// geocluster's index, core distances and MST stages rather than its whole fit.
public enum FitScope: String, Sendable, Codable, CaseIterable {
    case clustering, mst

    /// geocluster's stages an MST-only fit is compared with.
    public static let mstStages = [HDBSCANStage.index, .coreDistances, .mst].map(\.rawValue)
}

/// Everything one `bench` run needs: what to run, where, and how.
public struct BenchPlan: Sendable {
    public var datasets: [BenchDataset]
    /// geocluster's methods with their parameters (the sweep's cross product).
    public var methods: [Method]
    public var peers: [Peer]
    public var repeats: Int
    public var threads: Int
    /// Seconds a cell may run before it is killed and recorded as `timeout`.
    public var timeout: Double
    /// The geocluster executable that runs each cell (`geocluster bench-cell`).
    public var executable: String
    /// `python3` and scripts/peers/peer_cell.py, for the peers.
    public var python: String
    public var peerScript: String
    /// Points above which scikit-learn's quadratic HDBSCAN is skipped (docs/commands.md, bench).
    public var sklearnMaxPoints: Int
    /// How geocluster's cells measure distance, and the CRS they project to.
    public var metric: DistanceMetric
    public var crs: String
    /// The text that means noise in a truth column of text labels (`TextLabels`); nil: none.
    public var noiseLabel: String?
    /// Columns every cell clusters by (empty: the position) and their scale; the peers read
    /// the same columns and scale them the same way (scripts/peers/peer_cell.py).
    public var features: [String] = []
    public var featureScale: FeatureScale = .standard
    /// How a cell reads and measures `path`: the plan's CRS, metric and features.
    public func runInput(_ path: String) -> RunInput {
        var input = RunInput(path: path, crs: crs, metric: metric)
        input.options.features = features
        input.featureScale = featureScale
        return input
    }
    /// The arguments that give a cell the features (none without them).
    var featureArguments: [String] {
        features.isEmpty ? [] : ["--features", features.joined(separator: ","), "--scale", featureScale.rawValue]
    }
    /// The folder the cells write into (`cells/` below it).
    public var work: String
    /// Rows of an earlier run to keep (`--resume`), and the folder holding their cells.
    public var previous: [RunRow]
    public var previousWork: String?
    /// geocluster's version, git commit, executable hash and the machine fingerprint, written
    /// into every row.
    public var version: String
    public var commit: String
    public var binary: String
    public var machine: String

    public init(datasets: [BenchDataset], methods: [Method], peers: [Peer], repeats: Int, threads: Int,
                timeout: Double, executable: String, python: String = "python3", peerScript: String,
                sklearnMaxPoints: Int = 150_000, metric: DistanceMetric = .auto, crs: String = "auto", work: String, previous: [RunRow] = [], previousWork: String? = nil,
                version: String, commit: String, binary: String, machine: String) {
        self.datasets = datasets; self.methods = methods; self.peers = peers; self.repeats = repeats
        self.threads = threads; self.timeout = timeout; self.executable = executable; self.python = python
        self.peerScript = peerScript; self.sklearnMaxPoints = sklearnMaxPoints; self.work = work
        self.metric = metric; self.crs = crs
        self.previous = previous; self.previousWork = previousWork; self.version = version
        self.commit = commit; self.binary = binary; self.machine = machine
    }
}
