#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClusterCore
import Dispatch

/// Called at the start and at the end of every timed stage. It does nothing measurable; its
/// symbol is what `valgrind --tool=callgrind --dump-before=geocluster_stage_mark` splits a
/// run's instruction and allocation counts at, so `geocluster check` can count each stage.
@_silgen_name("geocluster_stage_mark") @inline(never)
public func geoclusterStageMark() {
    stageMarks &+= 1
}
nonisolated(unsafe) private var stageMarks = 0

/// The stages of a run outside the clustering core.
public enum RunStage: String, ClusteringStage {
    case reading
    case projecting
    case writing
    /// A saved model read and its index rebuilt (`geocluster predict`).
    case loadingModel = "loading model"
    /// New points placed against a saved model (`geocluster predict`).
    case predicting
}

/// Times each stage of a run with a monotonic clock. ClusterCore never reads a clock; every
/// run passes one of these as its `StageObserver`, so `cluster`, `bench` and `check` time the
/// same stages the same way.
public final class StageClock: StageObserver {
    /// Each stage's name and wall time in seconds, in the order they ran.
    public private(set) var stages: [(name: String, seconds: Double)] = []

    /// Told each stage's name as it starts (a command's progress line); nil: nobody.
    public var starting: ((String) -> Void)?

    public init() {}

    public func run<S: ClusteringStage, T, E: Error>(_ stage: S, _ body: () throws(E) -> T) throws(E) -> T {
        geoclusterStageMark()
        starting?(stage.rawValue)
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        stages.append((stage.rawValue, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        geoclusterStageMark()
        return value
    }

    /// The stages as a dictionary (a stage that ran twice counts its total).
    public var secondsByStage: [String: Double] {
        stages.reduce(into: [:]) { $0[$1.name, default: 0] += $1.seconds }
    }

    /// The clustering alone: every stage but reading, projecting and writing.
    public var fitSeconds: Double {
        let outside = Set(RunStage.allCases.map(\.rawValue))
        return stages.reduce(0) { outside.contains($1.name) ? $0 : $0 + $1.seconds }
    }

    /// A monotonic clock in seconds (the origin is arbitrary): what every timing in Harness,
    /// the pins cell and pins-bench reads.
    @inline(__always)
    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The process's peak resident memory (VmHWM) in MB (2^20 bytes), where /proc reports it
    /// (Linux); nil elsewhere.
    public static func peakResidentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Double(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        else { return nil }
        return kb / 1024
    }
}
