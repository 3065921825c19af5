import ArgumentParser
import CommandLineSupport

/// `geocluster bench-cell`: one benchmark cell, run by `geocluster bench` in a process of its
/// own (so its time, memory and any crash are its own). Not for users: hidden from help.
struct BenchCellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-cell",
        abstract: "Run one benchmark cell (used by `geocluster bench`).",
        shouldDisplay: false
    )

    @Argument var input: String
    @Option var method: String
    @Option var parameters: String
    @Option(parsing: .unconditional) var threads: Int = 1
    @Option var labels: String
    @Option var record: String
    @Option var metric: DistanceMetric = .auto
    @Option var crs = "auto"
    @Option var features: String?
    @Option var scale: FeatureScale = .standard

    func validate() throws {
        try ThreadsOption.validate(threads)
    }

    func run() throws {
        try reportingErrors {
            var cell = try BenchCellRequest(input: input, method: method, parameterText: parameters, threads: threads, metric: metric,
                                            crs: crs, labels: labels, record: record)
            cell.features = features.map { $0.split(separator: ",").map(String.init) } ?? []
            cell.featureScale = scale
            ProcessTuning.tuneMemory(forInput: input)
            try cell.run(clock: StageClock())
        }
    }
}
