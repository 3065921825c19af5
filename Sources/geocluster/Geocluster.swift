import ArgumentParser
import Foundation
import CAllocator

/// The `geocluster` command: one subcommand per job, one file per subcommand.
@main
struct Geocluster: ParsableCommand {
    static let version = "0.1.0"

    /// Entry point: sets up the allocator, then parses and runs the command.
    static func main() {
        // glibc raises its mmap threshold each time a large block is freed, after which big
        // arrays come from the heap and their pages stay resident when freed. A fixed
        // threshold keeps every array of 1 MiB or more in its own mapping, returned to the
        // system when freed, so the process's peak memory is the largest stage's working set
        // rather than the sum of all stages (measured at 1M points: 150 MB before, see README).
        // The price is a page fault for every 4 KiB a new array touches: a 1 GiB threshold
        // halved the system time at 1M points (0.23 -> 0.11 s) but left the peak at the mercy
        // of heap fragmentation (136 to 155 MB between runs differing only in small
        // allocations), too close to the 150 MB budget.
        _ = geocluster_fix_mmap_threshold(1 << 20)
        main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "geocluster",
        abstract: "Cluster geographic points (real-estate listings first) and measure how well and how fast each method does it.",
        discussion: """
            Input is CSV with a header row: planar x,y columns (metres) or lat,lon columns \
            (degrees, WGS 84; also latitude/longitude/lng), projected with PROJ.
            Errors name the file, line and column and exit with status 1; usage mistakes exit with 64.
            """,
        version: version,
        subcommands: [ClusterCommand.self, ProjectCommand.self, HullsCommand.self, GenerateCommand.self, ScoreCommand.self]
    )
}

/// Prints `message` as the command's error and exits with status 1 (a runtime failure, as
/// opposed to a usage mistake, which ArgumentParser reports with status 64).
func fail(_ message: CustomStringConvertible) -> ExitCode {
    FileHandle.standardError.write(Data("geocluster: error: \(message)\n".utf8))
    return ExitCode(1)
}

/// Writes a line to standard error.
func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
