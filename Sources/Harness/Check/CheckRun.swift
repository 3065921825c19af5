import Datasets
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

/// What `geocluster check` is asked to do: which suite, against which baseline, which lanes,
/// and whether to compare with the baseline or write a new one.
public struct CheckRequest: Sendable {
    /// The baseline file to compare with (or to write with `updateBaseline`).
    public var baseline: String
    /// `default` (every scenario at 10k and 100k, each method) or a JSON suite file.
    public var suite: String
    public var lanes: Set<CheckLane>
    /// Another geocluster binary to time this one against, interleaved.
    public var against: String?
    /// Measure and write the baseline (keeping its tolerances) instead of comparing.
    public var updateBaseline: Bool
    /// Interleaved repeats of each timed case (nil: the suite's).
    public var repeats: Int?
    /// Folder generated scenarios are cached in.
    public var cache: String
    /// Worker threads of the quality lane.
    public var threads: Int
    public var version: String
    /// This geocluster's executable (what the counts and A/B lanes run).
    public var executable: String
    /// Seconds to wait before measuring a moved wall lane again, so that a slow spell (a shared
    /// machine recovering from minutes of full load) can pass.
    public var wallPause: Double

    public init(baseline: String, suite: String, lanes: Set<CheckLane>, against: String?, updateBaseline: Bool,
                repeats: Int?, cache: String, threads: Int, version: String,
                executable: String = GeoclusterExecutable.path(), wallPause: Double = 30) {
        self.baseline = baseline; self.suite = suite; self.lanes = lanes; self.against = against
        self.updateBaseline = updateBaseline; self.repeats = repeats; self.cache = cache; self.threads = threads
        self.version = version; self.executable = executable; self.wallPause = wallPause
    }
}

/// How a check run ended: a verdict against the baseline, or a new baseline written.
public enum CheckOutcome: Sendable {
    case verdict(CheckVerdict)
    case updated(CheckBaselineUpdate)
}

/// A baseline written by `--update-baseline`, and what changed against the one it replaced.
public struct CheckBaselineUpdate: Sendable {
    /// The file written, and what it holds.
    public var path: String
    public var written: CheckBaseline
    /// The comparison with the previous baseline; nil when there was none (or it was unreadable).
    public var changes: CheckVerdict?
    /// Lanes that could not be measured, and why.
    public var warnings: [String]

    public init(path: String, written: CheckBaseline, changes: CheckVerdict?, warnings: [String]) {
        self.path = path; self.written = written; self.changes = changes; self.warnings = warnings
    }
}

extension Check {
    /// How many times the wall lane is measured, at most, before a move beyond tolerance stands.
    public static let wallMeasurements = 3

    /// Runs the check `request` describes: measures the suite's lanes (cells in a scratch
    /// folder, removed afterwards), then compares with the baseline or writes a new one.
    /// - Parameter progress: receives the run's console lines, including the warning that an
    ///   unreadable baseline is being replaced.
    /// - Throws: `HarnessError` for an unreadable suite or baseline, or one that cannot be written.
    public static func run(_ request: CheckRequest, progress: (String) -> Void = { _ in }) throws(HarnessError) -> CheckOutcome {
        var suite = request.suite == "default" ? CheckSuite.default : try CheckSuite.read(path: request.suite)
        if let r = request.repeats { suite.repeats = r }
        let suiteName = request.suite == "default" ? "default" : String(request.suite.split(separator: "/").last ?? "")
        let old = try CheckBaseline.previous(at: request.baseline, updating: request.updateBaseline, progress: progress)
        func measured(_ lanes: Set<CheckLane>, against: String?) throws(HarnessError) -> CheckMeasurement {
            try withScratchFolder { (work) throws(HarnessError) in
                let options = CheckOptions(
                    suite: suite, suiteName: suiteName, lanes: lanes, cache: request.cache, executable: request.executable,
                    against: against, threads: request.threads, work: work, version: request.version,
                    commit: GeoclusterExecutable.gitCommit(near: request.executable), machine: Machine.fingerprint())
                return try measure(options, progress: progress)
            }
        }
        var measurement = try measured(request.lanes, against: request.against)
        guard request.updateBaseline else {
            // Comparing needs a baseline: `previous` has thrown when there is none.
            var verdict = CheckVerdict.compare(baseline: old!, current: measurement, lanes: request.lanes)
            // A wall-lane change must reproduce: the calibration absorbs a uniformly slower
            // machine but not a slow spell, which slows the fit more than the calibration, so a
            // move is measured again after a pause, up to `wallMeasurements` times in all; the
            // verdict is the first measurement within tolerance, or the last.
            var earlier: [String] = []
            while verdict.wallMoved && earlier.count + 1 < wallMeasurements {
                earlier.append(verdict.wallChanges)
                progress("wall: measurement \(earlier.count) moved beyond tolerance; measuring it again in \(Int(request.wallPause)) s to confirm")
                pause(seconds: request.wallPause)
                measurement.results.wall = try measured([.wall], against: nil).results.wall
                verdict = CheckVerdict.compare(baseline: old!, current: measurement, lanes: request.lanes)
            }
            if !earlier.isEmpty {
                verdict.warnings.append("the wall lane was measured \(earlier.count + 1) times: the earlier measurements gave "
                    + earlier.joined(separator: ", ") + "; the verdict is the last's")
            }
            return .verdict(verdict)
        }
        let fresh = CheckBaseline.merged(measurement.results, keeping: old, lanes: request.lanes)
        do {
            try AtomicFile.write(fresh.json(), to: request.baseline)
        } catch {
            throw .dataset(error)
        }
        let changes = old.map { CheckVerdict.compare(baseline: $0, current: measurement, lanes: request.lanes) }
        return .updated(CheckBaselineUpdate(path: request.baseline, written: fresh, changes: changes, warnings: measurement.warnings))
    }

    /// Sleeps `seconds` (a slow spell of the machine passing).
    static func pause(seconds: Double) {
        guard seconds > 0 else { return }
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&wanted, &left) != 0 && errno == EINTR { wanted = left }
    }

    /// Runs `body` with a new scratch folder in the temporary folder, removed afterwards.
    static func withScratchFolder<R>(_ body: (String) throws(HarnessError) -> R) throws(HarnessError) -> R {
        let fm = FileManager.default
        let work = fm.temporaryDirectory.path + "/geocluster-check-\(getpid())"
        try? fm.removeItem(atPath: work)
        do {
            try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw .bench("\(work): cannot create the check's scratch folder (\(error))")
        }
        defer { try? fm.removeItem(atPath: work) }
        return try body(work)
    }
}

extension CheckBaseline {
    /// The baseline a check starts from. Comparing needs one (a missing or unreadable file
    /// throws); updating replaces it, keeping what `merged` keeps when it can be read, and
    /// otherwise says so through `progress` and starts afresh.
    public static func previous(at path: String, updating: Bool,
                                progress: (String) -> Void = { _ in }) throws(HarnessError) -> CheckBaseline? {
        guard updating else { return try read(path: path) }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try read(path: path)
        } catch {
            progress("warning: replacing \(path), which is not a readable baseline (\(error))")
            return nil
        }
    }

    /// `measured` as the new baseline, keeping from the `old` one what a refresh must not lose:
    /// its tolerances, the per-row instruction tolerances set by hand, and the rows of the
    /// lanes not run this time.
    public static func merged(_ measured: CheckBaseline, keeping old: CheckBaseline?, lanes: Set<CheckLane>) -> CheckBaseline {
        guard let old else { return measured }
        var fresh = measured
        fresh.tolerances = old.tolerances
        for k in fresh.counts.indices {
            if let o = old.counts.first(where: { $0.name == fresh.counts[k].name && $0.stage == fresh.counts[k].stage }) {
                fresh.counts[k].instructionsRelative = o.instructionsRelative
                fresh.counts[k].instructionsAbsolute = o.instructionsAbsolute
            }
        }
        if !lanes.contains(.quality) { fresh.quality = old.quality }
        if !lanes.contains(.counts) { fresh.counts = old.counts }
        if !lanes.contains(.wall) { fresh.wall = old.wall }
        return fresh
    }
}
