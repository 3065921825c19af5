import ArgumentParser
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
import Harness
import Reports

extension CheckReportFormat: ExpressibleByArgument {}

/// `geocluster check`: the regression gate. Compares a suite's exact results, per-stage
/// instruction and allocation counts and calibrated wall times with a committed baseline
/// (and, with --against, times this binary against another one, interleaved).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Regression gate: did a change move any cluster, or make clustering slower?",
        discussion: """
            Lanes: quality (partition hash, MST weight, clusters, noise, ARI/AMI: equal, or within \
            1e-9 relative on weights and scores), counts (instructions and heap allocations per stage \
            under valgrind's callgrind, one thread: 1 % or 200,000 instructions), wall (fit time over \
            a calibration workload run interleaved in the same process, CPU time of one thread: a change counts when the \
            median moved 20 % and a Mann-Whitney test gives p < 0.01). --against BIN adds an A/B lane: \
            this binary and BIN run the wall cases alternately (10 % and p < 0.01), and must give the \
            same partitions. Tolerances are in the baseline file.
            Exit status: 0 pass; 2 regression or changed result; 3 improvement, or cases added or \
            removed (refresh the baseline on purpose); 1 error (bad input, unreadable baseline); 64 usage.
            """
    )

    @Option(help: ArgumentHelp("The baseline to compare with (or to write with --update-baseline).", valueName: "file"))
    var baseline = "reports/baseline.json"

    @Option(help: ArgumentHelp("`default` (every scenario at 10k and 100k, each method), or a JSON suite file (README: The regression gate).", valueName: "default|file"))
    var suite = "default"

    @Option(help: ArgumentHelp("Lanes to run, comma-separated: quality, counts, wall.", valueName: "list"),
            transform: listOption("--lanes", "a lane (quality, counts, wall)") { CheckLane(rawValue: $0) })
    var lanes: [CheckLane] = CheckLane.allCases

    @Option(help: ArgumentHelp("Another geocluster binary (the base) to time this one against, interleaved.", valueName: "binary"))
    var against: String?

    @Flag(help: "Measure and write the baseline (keeping its tolerances), print what changed, exit 0.")
    var updateBaseline = false

    @Option(help: "Verdict format: text, markdown, json or junit.")
    var format: CheckReportFormat = .text

    @Option(help: ArgumentHelp("Write the verdict to this file (the headline and what to do still go to standard output).", valueName: "file"))
    var report: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Interleaved repeats of each timed case (default: the suite's, 15).", valueName: "n"))
    var repeats: Int?

    @Option(help: "Folder generated scenarios are cached in.")
    var cache = "datasets/cache"

    @Option(help: "Worker threads of the quality lane (its results are the same for any value).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        if let r = repeats, r < 3 { throw ValidationError("--repeat \(r): the timed lanes need at least 3 repeats") }
        if threads < 1 { throw ValidationError("--threads \(threads): at least 1") }
        if updateBaseline && against != nil {
            throw ValidationError("--update-baseline and --against: a baseline records this binary alone; run them separately")
        }
    }

    func run() throws {
        let fm = FileManager.default
        let lanes = Set(self.lanes)
        do {
            var theSuite = suite == "default" ? CheckSuite.default : try CheckSuite.read(path: suite)
            if let r = repeats { theSuite.repeats = r }
            let suiteName = suite == "default" ? "default" : String(suite.split(separator: "/").last ?? "")
            let old: CheckBaseline?
            if !updateBaseline {
                old = try CheckBaseline.read(path: baseline)
            } else if fm.fileExists(atPath: baseline) {
                do {
                    old = try CheckBaseline.read(path: baseline)
                } catch {
                    note("check: warning: replacing \(baseline), which is not a readable baseline (\(error))")
                    old = nil
                }
            } else {
                old = nil
            }

            let work = fm.temporaryDirectory.path + "/geocluster-check-\(getpid())"
            try? fm.removeItem(atPath: work)
            do {
                try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
            } catch {
                throw HarnessError.bench("\(work): cannot create the check's scratch folder (\(error))")
            }
            defer { try? fm.removeItem(atPath: work) }
            let executable = BenchCommand.executablePath()
            let options = CheckOptions(
                suite: theSuite, suiteName: suiteName, lanes: lanes, cache: cache, executable: executable,
                against: against, threads: threads, work: work, version: Geocluster.version,
                commit: BenchCommand.gitCommit(near: executable), machine: Machine.fingerprint())
            let measurement = try Check.measure(options) { note("check: " + $0) }

            if updateBaseline {
                var fresh = measurement.results
                if let old {
                    fresh.tolerances = old.tolerances
                    // Per-row tolerance overrides survive; lanes not run keep their old rows.
                    for k in fresh.counts.indices {
                        if let o = old.counts.first(where: { $0.name == fresh.counts[k].name && $0.stage == fresh.counts[k].stage }) {
                            fresh.counts[k].instructionsRelative = o.instructionsRelative
                            fresh.counts[k].instructionsAbsolute = o.instructionsAbsolute
                        }
                    }
                    if !lanes.contains(.quality) { fresh.quality = old.quality }
                    if !lanes.contains(.counts) { fresh.counts = old.counts }
                    if !lanes.contains(.wall) { fresh.wall = old.wall }
                }
                try AtomicFile.write(fresh.json(), to: baseline)
                if let old {
                    let diff = CheckVerdict.compare(baseline: old, current: measurement, lanes: lanes)
                    let moved = diff.rows.filter { $0.status != .pass && $0.status != .skipped }
                    print("check: wrote \(baseline); against the previous baseline: \(diff.tally)")
                    for r in moved {
                        print("  \(r.status.rawValue): \(r.lane) \(r.name) \(r.metric): \(r.baseline) -> \(r.current) (\(r.change))")
                    }
                } else {
                    print("check: wrote \(baseline) (\(fresh.quality.count) quality cases, \(fresh.counts.count) stage counts, \(fresh.wall.count) timed cases); commit it")
                }
                for w in measurement.warnings { note("check: warning: \(w)") }
                return
            }

            let verdict = CheckVerdict.compare(baseline: old!, current: measurement, lanes: lanes)
            let rendered = CheckReport.render(verdict, format: format)
            if let report {
                try AtomicFile.write(rendered, to: report)
                print(CheckReport.headline(verdict))
                for w in verdict.warnings { print("warning: \(w)") }
                for line in CheckReport.actions(verdict) { print("  " + line) }
                print("verdict: \(report)")
            } else {
                print(rendered, terminator: "")
            }
            if verdict.exitCode != 0 { throw ExitCode(verdict.exitCode) }
        } catch let e as HarnessError {
            throw fail(e)
        } catch let e as DatasetError {
            throw fail(e)
        }
    }
}
