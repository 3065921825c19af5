import ArgumentParser
import CommandLineSupport

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
            median moved 20 % and a Mann-Whitney test gives p < 0.01, confirmed by a second measurement). --against BIN adds an A/B lane: \
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

    @Option(name: .customLong("repeat"), parsing: .unconditional, help: ArgumentHelp("Interleaved repeats of each timed case (default: the suite's, 15).", valueName: "n"))
    var repeats: Int?

    @Option(help: "Folder generated scenarios are cached in.")
    var cache = "datasets/cache"

    @Option(parsing: .unconditional, help: "Worker threads of the quality lane, 1...\(ThreadsOption.range.upperBound) (its results are the same for any value).")
    var threads: Int = ThreadsOption.machineDefault

    func validate() throws {
        if let r = repeats, r < 3 { throw ValidationError("--repeat \(r): the timed lanes need at least 3 repeats") }
        try ThreadsOption.validate(threads)
        if updateBaseline && against != nil {
            throw ValidationError("--update-baseline and --against: a baseline records this binary alone; run them separately")
        }
    }

    func run() throws {
        try reportingErrors {
            let request = CheckRequest(baseline: baseline, suite: suite, lanes: Set(lanes), against: against,
                                       updateBaseline: updateBaseline, repeats: repeats, cache: cache, threads: threads,
                                       version: Geocluster.version)
            switch try Check.run(request, progress: { note("check: " + $0) }) {
            case let .updated(update):
                print(CheckReport.baselineUpdate(update), terminator: "")
                for w in update.warnings { note("check: warning: \(w)") }
            case let .verdict(verdict):
                print(try CheckReport.deliver(verdict, format: format, to: report), terminator: "")
                if verdict.exitCode != 0 { throw ExitCode(verdict.exitCode) }
            }
        }
    }
}
