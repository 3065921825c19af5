import ArgumentParser
import CommandLineSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `geocluster` command: one subcommand per job, one file per subcommand.
@main
struct Geocluster: ParsableCommand {
    static let version = "0.1.0"

    /// Entry point: the process set up (ProcessTuning.swift says how and why), then the
    /// command parsed and run.
    static func main() {
        ProcessTuning.start()
        if runClusterDirectly(Array(CommandLine.arguments.dropFirst())) { return }
        main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "geocluster",
        abstract: "Cluster geographic points (real-estate listings first) and measure how well and how fast each method does it.",
        discussion: """
            Input is CSV with a header row (comma, semicolon or tab separated) or GeoJSON Points: \
            planar x,y columns (metres) or lat,lon columns (degrees, WGS 84; also latitude/longitude/ \
            lng/위도/경도, or any names given with --lat-column, --lon-column), projected with PROJ. \
            Output formats follow the output's extension; - is standard output.
            Errors name the file, line and column and exit with status 1; usage mistakes exit with 64.
            """,
        version: version,
        subcommands: [ClusterCommand.self, BenchCommand.self, BenchCellCommand.self, CheckCommand.self, ProjectCommand.self, HullsCommand.self, GenerateCommand.self, ScoreCommand.self, TreeCommand.self, MapCommand.self, FilterCommand.self, PinsCommand.self, PinsKeyCommand.self, PinsCellCommand.self, NearbyCommand.self, PrivacyCommand.self, ServeLauncher.self, PredictCommand.self]
    )
}

/// Writes `text` to standard error as it is, without a newline: a line that `\r` updates in
/// place (the benchmark's progress).
func noteInPlace(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

// The command line links only FoundationEssentials, not Foundation: Foundation proper and its
// ICU data add to every run's start-up and made each of ArgumentParser's first
// protocol-conformance lookups scan more records (docs/process.md). These two helpers stand
// in for what the command line used from Foundation.

/// `printf`-style formatting of numbers (C's `vsnprintf`), for `%d`, `%f`, `%e` and friends:
/// what `String(format:)` gave, with the C library's rounding (`FormatNumber.printf`).
func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    FormatNumber.printf(format, arguments)
}

extension String {
    /// The text padded with spaces, or cut, to `width` characters (as Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)`).
    func padded(to width: Int) -> String { ReportFormat.padded(self, to: width) }
}
