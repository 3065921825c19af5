import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a geocluster benchmark cell's process reports to the parent (JSON), beside the labels
/// file it writes: the stage times and fingerprints that only the process itself can measure.
public struct CellRecord: Codable, Sendable, Equatable {
    /// Points clustered (after filters).
    public var points: Int
    /// Wall seconds per stage name, reading and writing included.
    public var stages: [String: Double]
    /// The clustering stages alone (index to labels).
    public var fitSeconds: Double
    /// The process's peak resident memory (VmHWM) at the end, MB.
    public var peakMegabytes: Double?
    public var clusters: Int
    public var noise: Int
    /// HDBSCAN's MST total weight (metres).
    public var mstWeight: Double?
    /// The stages' names in the order they ran (a stage that ran twice is listed twice); nil in
    /// records of binaries older than `geocluster check`.
    public var stageOrder: [String]?
    /// How the run measured distance, `planar` or `geodesic`; nil in older records.
    public var metric: String?

    public init(points: Int, stages: [String: Double], fitSeconds: Double, peakMegabytes: Double?,
                clusters: Int, noise: Int, mstWeight: Double?, stageOrder: [String]? = nil, metric: String? = nil) {
        self.points = points; self.stages = stages; self.fitSeconds = fitSeconds
        self.peakMegabytes = peakMegabytes; self.clusters = clusters; self.noise = noise; self.mstWeight = mstWeight
        self.stageOrder = stageOrder; self.metric = metric
    }

    /// The record of a finished run.
    public init(_ record: RunRecord, clock: StageClock) {
        self.init(points: record.file.count, stages: clock.secondsByStage, fitSeconds: clock.fitSeconds,
                  peakMegabytes: StageClock.peakResidentMegabytes(), clusters: record.clusterCount,
                  noise: record.noiseCount, mstWeight: record.mstWeight, stageOrder: clock.stages.map(\.name),
                  metric: record.metric.rawValue)
    }

    /// JSON with sorted keys, so the same record gives the same bytes.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A record holds only numbers and strings: encoding cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes a record file.
    /// - Throws: `HarnessError.bench` when the file is missing or not a record.
    public static func read(path: String) throws(HarnessError) -> CellRecord {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .bench("\(path): the cell wrote no record")
        }
        do {
            return try JSONDecoder().decode(CellRecord.self, from: data)
        } catch {
            throw .bench("\(path): not a cell record (\(error))")
        }
    }
}

/// One benchmark cell as its own process runs it (`geocluster bench-cell`, started by
/// `Bench.run` and `geocluster check`): the method run on the file, its labels and its record
/// written for the parent to read.
public struct BenchCellRequest {
    public var input: String
    public var method: Method
    public var threads: Int
    public var metric: DistanceMetric
    public var crs: String
    /// Where the labels and the record (`CellRecord` as JSON) go.
    public var labels: String, record: String
    /// Columns to cluster by (empty: the position) and their scale.
    public var features: [String] = []
    public var featureScale: FeatureScale = .standard

    /// A cell of `method` with `parameterText` (`Method.parameterText`'s form).
    /// - Throws: `HarnessError` for an unknown method or parameters it does not take.
    public init(input: String, method: String, parameterText: String, threads: Int, metric: DistanceMetric, crs: String,
                labels: String, record: String) throws(HarnessError) {
        self.input = input
        self.method = try Method(name: method, parameterText: parameterText)
        self.threads = threads; self.metric = metric; self.crs = crs; self.labels = labels; self.record = record
    }

    /// Runs the cell, each stage timed by `clock`, and writes its labels and record.
    /// - Throws: `HarnessError` (the run), `DatasetError` (writing).
    public func run(clock: StageClock) throws {
        var input = RunInput(path: input, crs: crs, metric: metric)
        input.options.features = features
        input.featureScale = featureScale
        let result = try Harness.run(input, method: method, threads: threads, clock: clock)
        try clock.run(RunStage.writing) { () throws(DatasetError) in try result.writeLabels(to: labels, threads: threads) }
        try AtomicFile.write(CellRecord(result, clock: clock).json() + "\n", to: record)
    }
}
