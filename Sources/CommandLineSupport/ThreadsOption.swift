import ArgumentParser
import ClusterCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `--threads` bound every command checks, in one place: 1 to the library's most workers
/// (`Parallel.maximumWorkers`). Beyond it nothing runs faster, and a count such as 10^12 or
/// 2^63 − 1 used to size per-worker state (a hang, or a crash on overflow); it is a usage error
/// (exit 64) naming the flag instead.
public enum ThreadsOption {
    /// The counts `--threads` accepts.
    public static let range = 1...Parallel.maximumWorkers

    /// The default of a command whose `--threads` defaults to the machine: its active
    /// processors, within `range`.
    public static var machineDefault: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), range.upperBound) }

    /// Refuses a `threads` outside `range` with a usage error naming `flag`.
    /// - Throws: `ValidationError` (exit 64).
    public static func validate(_ threads: Int, flag: String = "--threads") throws(ValidationError) {
        guard range.contains(threads) else {
            throw ValidationError("\(flag) must be at least \(range.lowerBound) and at most \(range.upperBound) (worker threads; got \(threads)); the output is the same for any number")
        }
    }
}
