import ClusterCore
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// The lanes of `geocluster check`.
public enum CheckLane: String, Sendable, Codable, CaseIterable {
    /// Exact results: partition hash, MST weight, clusters, noise, scores.
    case quality
    /// Instructions and allocations per stage under callgrind (deterministic).
    case counts
    /// Wall time against a calibration workload in the same process (and A/B with `--against`).
    case wall
}

/// What one `geocluster check` run needs.
public struct CheckOptions: Sendable {
    public var suite: CheckSuite
    /// `default` or the suite file's name, recorded in the baseline.
    public var suiteName: String
    public var lanes: Set<CheckLane>
    /// Folder generated scenarios are cached in.
    public var cache: String
    /// This geocluster's executable: the counts lane runs it under callgrind, and the A/B lane
    /// runs it beside `against`.
    public var executable: String
    /// The other binary of an A/B comparison (the base; this one is the head).
    public var against: String?
    /// Worker threads of the quality lane (results are identical for any value; the timed and
    /// counted lanes use one thread).
    public var threads: Int
    /// A scratch folder for the cells' files.
    public var work: String
    public var version: String
    public var commit: String
    public var machine: String

    public init(suite: CheckSuite, suiteName: String, lanes: Set<CheckLane>, cache: String, executable: String,
                against: String?, threads: Int, work: String, version: String, commit: String, machine: String) {
        self.suite = suite; self.suiteName = suiteName; self.lanes = lanes; self.cache = cache
        self.executable = executable; self.against = against; self.threads = threads; self.work = work
        self.version = version; self.commit = commit; self.machine = machine
    }
}

/// One A/B case: the fit times of this binary (head) and the other (base), interleaved.
public struct ABResult: Sendable, Codable, Equatable {
    public var name: String
    public var headSeconds: [Double]
    public var baseSeconds: [Double]
    /// Whether both binaries put the same points together (partition hashes equal).
    public var samePartition: Bool

    public init(name: String, headSeconds: [Double], baseSeconds: [Double], samePartition: Bool) {
        self.name = name; self.headSeconds = headSeconds; self.baseSeconds = baseSeconds; self.samePartition = samePartition
    }
}

/// What a check run measured: the results in the baseline's shape, the A/B comparisons, and
/// what could not be measured.
public struct CheckMeasurement: Sendable {
    public var results: CheckBaseline
    public var ab: [ABResult] = []
    /// Lanes skipped and why (valgrind missing, …), for the verdict's warnings.
    public var warnings: [String] = []

    public init(results: CheckBaseline, ab: [ABResult] = [], warnings: [String] = []) {
        self.results = results; self.ab = ab; self.warnings = warnings
    }
}

/// Measures a suite: the quality lane in this process, the counts lane under callgrind, the
/// wall lane interleaved with a calibration workload in this process, and A/B cells against
/// another binary.
public enum Check {
    public static func measure(_ options: CheckOptions, progress: (String) -> Void = { _ in }) throws(HarnessError) -> CheckMeasurement {
        var m = CheckMeasurement(results: CheckBaseline(geoclusterVersion: options.version, commit: options.commit,
                                                        machine: options.machine, suite: options.suiteName))
        if options.lanes.contains(.quality) {
            for (k, c) in options.suite.quality.enumerated() {
                progress("quality \(k + 1)/\(options.suite.quality.count): \(c.name)")
                m.results.quality.append(try quality(c, options: options))
            }
        }
        if options.lanes.contains(.counts), !options.suite.counts.isEmpty {
            if let valgrind = executableOnPath("valgrind") {
                let binary = try strippedCopy(of: options.executable, into: options.work)
                for (k, c) in options.suite.counts.enumerated() {
                    progress("counts \(k + 1)/\(options.suite.counts.count): \(c.name) under callgrind")
                    m.results.counts += try Callgrind.count(c, binary: binary, valgrind: valgrind, options: options)
                }
            } else {
                m.warnings.append("counts lane skipped: valgrind is not installed (Debian: apt-get install valgrind; `make test` installs it)")
            }
        }
        let repeats = options.suite.repeats ?? 15
        for (k, c) in options.suite.wall.enumerated() {
            if options.lanes.contains(.wall) {
                progress("wall \(k + 1)/\(options.suite.wall.count): \(c.name), \(repeats) interleaved repeats")
                m.results.wall.append(try wall(c, repeats: repeats, options: options))
            }
            // A/B whatever the lanes: asking for it is asking for it.
            if let against = options.against {
                progress("A/B \(k + 1)/\(options.suite.wall.count): \(c.name) against \(against), \(repeats) interleaved pairs")
                m.ab.append(try ab(c, against: against, repeats: repeats, options: options))
            }
        }
        return m
    }

    /// Runs a quality case in this process.
    static func quality(_ c: CheckSuite.Case, options: CheckOptions) throws(HarnessError) -> QualityResult {
        let dataset = try c.dataset(cache: options.cache)
        let record = try Harness.run(try c.runInput(dataset), method: try c.resolvedMethod(),
                                     threads: options.threads, clock: StageClock())
        let truth = try? LabelFile.read(path: dataset.path, columns: ["truth"], option: "truth").labels
        var outcome = RunOutcome()
        outcome.score(labels: record.labels, truth: truth)
        return QualityResult(name: c.name, datasetHash: dataset.hash, points: record.labels.count,
                             clusters: record.clusterCount, noise: record.noiseCount,
                             partitionHash: outcome.partitionHash ?? "", mstWeight: record.mstWeight,
                             ari: outcome.ari, ami: outcome.ami)
    }

    /// Times a wall case: `repeats` fits of the case's points on one thread, each between two
    /// runs of the calibration workload; each sample is the fit's time over the mean of the
    /// calibration runs on either side. A machine that is slower, or busier, slows both alike.
    static func wall(_ c: CheckSuite.Case, repeats: Int, options: CheckOptions) throws(HarnessError) -> WallResult {
        let dataset = try c.dataset(cache: options.cache)
        let method = try c.resolvedMethod()
        let prepared = try Harness.prepare(try c.runInput(dataset), clock: StageClock())
        var calibration = Calibration()
        _ = calibration.run()  // warm-up: first-touch page faults and caches
        var before = calibration.run()
        var fits: [Double] = [], calibrations: [Double] = [before], ratios: [Double] = []
        for r in 0...repeats {  // the first fit is a warm-up too
            let start = Calibration.threadSeconds()
            _ = try Harness.cluster(prepared.points, prepared: prepared, path: dataset.path, method: method,
                                    threads: 1, clock: StageClock())
            let fit = Calibration.threadSeconds() - start
            let after = calibration.run()
            calibrations.append(after)
            if r > 0 {
                fits.append(fit)
                ratios.append(fit / ((before + after) / 2))
            }
            before = after
        }
        return WallResult(name: c.name, ratios: ratios, fitSeconds: Spread(fits)?.median ?? 0,
                          calibrationSeconds: Spread(calibrations)?.median ?? 0)
    }

    /// Runs a wall case's cell with this binary and with `against`, alternating which goes first
    /// in each pair, and compares the fit times the cells report.
    static func ab(_ c: CheckSuite.Case, against: String, repeats: Int, options: CheckOptions) throws(HarnessError) -> ABResult {
        let dataset = try c.dataset(cache: options.cache)
        let folder = options.work + "/ab"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let base = Bench.resolve(against)
        guard FileManager.default.isExecutableFile(atPath: base) else {
            throw .bench("--against \(against): not an executable file; give the path of the other geocluster binary")
        }
        func cell(_ executable: String, _ tag: String) throws(HarnessError) -> (seconds: Double, partition: String) {
            let labels = "\(folder)/\(tag)-labels.csv", record = "\(folder)/\(tag)-record.json"
            let outcome = CellProcess.run(
                executable: executable,
                arguments: ["bench-cell"] + c.cellArguments(dataset) + [
                            "--threads", "1", "--labels", labels, "--record", record],
                timeout: 600, stdoutPath: "\(folder)/\(tag)-stdout.txt", stderrPath: "\(folder)/\(tag)-stderr.txt")
            guard outcome.exit == .exited(0) else {
                throw .bench("\(executable) bench-cell on \(c.name): \(outcome.exit) \(outcome.stderrTail)")
            }
            let r = try CellRecord.read(path: record)
            let l = try? LabelFile.read(path: labels, columns: ["label"], option: "labels").labels
            return (r.fitSeconds, l.map(Fingerprint.partition) ?? "")
        }
        // One warm-up of each (page cache, CPU frequency), not recorded.
        _ = try cell(options.executable, "head"); _ = try cell(base, "base")
        var head: [Double] = [], baseTimes: [Double] = [], same = true
        for r in 0..<repeats {
            let order = r % 2 == 0 ? [true, false] : [false, true]
            var partitions: [String] = []
            for isHead in order {
                let x = try cell(isHead ? options.executable : base, isHead ? "head" : "base")
                if isHead { head.append(x.seconds) } else { baseTimes.append(x.seconds) }
                partitions.append(x.partition)
            }
            if partitions[0] != partitions[1] { same = false }
        }
        return ABResult(name: c.name, headSeconds: head, baseSeconds: baseTimes, samePartition: same)
    }

    /// A copy of `executable` without its debug sections, in `folder`: valgrind 3.19 cannot read
    /// the DWARF of a binary with the Swift runtime linked in (it gives up), and needs only
    /// the symbols, which the copy keeps.
    static func strippedCopy(of executable: String, into folder: String) throws(HarnessError) -> String {
        let out = folder + "/geocluster-nodebug"
        for (tool, arguments) in [("strip", ["--strip-debug", "-o", out, executable]),
                                  ("objcopy", ["--strip-debug", executable, out])] {
            guard let path = executableOnPath(tool) else { continue }
            let r = CellProcess.run(executable: path, arguments: arguments, timeout: 120,
                                    stdoutPath: folder + "/strip-stdout.txt", stderrPath: folder + "/strip-stderr.txt")
            if r.exit == .exited(0) { return out }
            throw .bench("\(tool) --strip-debug \(executable) failed: \(r.stderrTail)")
        }
        throw .bench("the counts lane needs `strip` or `objcopy` (Debian: binutils) to give valgrind a binary it can read")
    }

    static func executableOnPath(_ name: String) -> String? {
        let path = Bench.resolve(name)
        return path.contains("/") && FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
