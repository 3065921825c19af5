import ArgumentParser
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
import CSystemTuning
import Datasets
import Geo
import Metrics

/// The `geocluster` command: one subcommand per job, one file per subcommand.
@main
struct Geocluster: ParsableCommand {
    static let version = "0.1.0"

    /// Entry point: sets up the allocator, then parses and runs the command.
    static func main() {
        // In a process `tuneMemory(forInput:)` started again: the user's environment back first.
        _ = geocluster_restore_environment()
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
        // `geocluster cluster …` parsed with the cluster command as the root: ArgumentParser
        // then skips building the cluster command's arguments twice more while scanning the
        // root's (a 20-point run 8.0 -> 5.8 ms in one sitting, 6.4 -> 5.75 ms in another:
        // medians of 40 interleaved runs). Anything it does not accept — help, a usage mistake, a failed
        // validation — goes through the full command tree below instead, which parses again
        // and reports exactly as before.
        let arguments = Array(CommandLine.arguments.dropFirst())
        // (A help request parses into ArgumentParser's own help command, hence the cast.)
        if arguments.first == ClusterCommand.configuration.commandName,
           let command = (try? ClusterCommand.parseAsRoot(Array(arguments.dropFirst()))) as? ClusterCommand {
            do {
                try command.run()
                return
            } catch {
                exit(withError: error)
            }
        }
        main(nil)
    }

    /// For the commands that build a map-pin index (`pins`, `pins-cell`, `nearby`, `map --zoom`):
    /// lets freed arrays stay in the heap for the build's next step to reuse (see
    /// `geocluster_keep_freed_memory`). The build makes and drops many arrays of a few MB (per
    /// location, per zoom, per row column); with the fixed 1 MiB threshold each came back from
    /// the kernel page by page: `geocluster pins` on 1M seoul listings took 122,867 page faults.
    /// The pins budget (300 MB at 1M listings) leaves room for what the heap keeps.
    static func keepFreedMemoryForPins() {
        _ = geocluster_keep_freed_memory()
    }

    /// For an input file small enough that peak memory is no concern (under 16 MiB, about
    /// 400,000 rows of x,y), lets freed arrays stay in the heap for the next stage to reuse
    /// (see `geocluster_keep_freed_memory`). At 100k points this saves about 2,300 of 6,500
    /// page faults, each about 2 µs on these machines: process time −2 ms (median of 25,
    /// interleaved). Larger inputs keep the fixed 1 MiB threshold set in `main()`.
    static func keepFreedMemoryIfSmall(input path: String) {
        if MemoryTier(input: path) == .small { _ = geocluster_keep_freed_memory() }
    }

    /// How `cluster` and `bench-cell` use memory, by the size of the input file:
    /// - under 16 MiB (about 200,000 listings with every column): freed arrays stay in the heap
    ///   (`keepFreedMemoryIfSmall`);
    /// - from 16 MiB: the process starts again with transparent huge pages for glibc's memory
    ///   (see `geocluster_restart_with_huge_pages`; on a kernel in `madvise` mode only, and not
    ///   with `GEOCLUSTER_HUGE_PAGES=0`): a large run allocates and touches gigabytes of fresh
    ///   arrays over its stages (at 10M seoul listings 588,000 page faults, 2.6 s of system
    ///   time), one fault per 4 KiB, where a 2 MiB page takes one;
    /// - from 256 MiB (about 3M listings with every column, 7M of x,y alone): besides, every
    ///   array comes from the heap and freed ones stay there (`geocluster_reuse_freed_memory`),
    ///   so later stages reuse pages instead of having the kernel zero fresh ones (at 10M seoul
    ///   listings the zeroing alone was 1.6 s of CPU). The heap's fragmentation raises the peak
    ///   by about 30 %: at 10M seoul listings 663 → 842 MB (huge pages alone → both), well
    ///   under the 1.2 GB budget; at 1M distinct points it would be 126 → 158 MB, over that
    ///   size's 150 MB budget, hence the threshold. At 10M distinct points 1.15 → 1.32 GB for
    ///   17.7 → 14.1 s: `GEOCLUSTER_REUSE_FREED_MEMORY=0` keeps the leaner behaviour.
    ///
    /// Measured with `scripts/bench/process_times.py` and `/usr/bin/time` (release, same
    /// files, runs interleaved): process minus reading on seoul 1M (`generate --count 1000000
    /// --seed 1`) 0.534 → 0.462 s with huge pages (median of 9), peak 119 → 129 MB; seoul 10M
    /// (`--count 10000000 --seed 3`) whole process about 8.1 s with huge pages alone → 6.0 s
    /// with both, peak 663 → 842 MB. Output is the same in every mode.
    static func tuneMemory(forInput path: String) {
        guard let tier = MemoryTier(input: path) else { return }
        switch tier {
        case .small: keepFreedMemoryIfSmall(input: path)
        case .large: geocluster_restart_with_huge_pages(CommandLine.unsafeArgv)
        case .veryLarge:
            geocluster_restart_with_huge_pages(CommandLine.unsafeArgv)
            if MemoryTier.reusesFreedMemory { _ = geocluster_reuse_freed_memory() }
        }
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
        subcommands: [ClusterCommand.self, BenchCommand.self, BenchCellCommand.self, CheckCommand.self, ProjectCommand.self, HullsCommand.self, GenerateCommand.self, ScoreCommand.self, TreeCommand.self, MapCommand.self, FilterCommand.self, PinsCommand.self, PinsCellCommand.self, NearbyCommand.self]
    )
}

/// Prints `message` as the command's error and exits with status 1 (a runtime failure, as
/// opposed to a usage mistake, which ArgumentParser reports with status 64).
func fail(_ message: CustomStringConvertible) -> ExitCode {
    note("geocluster: error: \(message)")
    return ExitCode(1)
}

/// Runs a command's work and turns the errors of the libraries it calls into the command's
/// error message and exit status 1 (``fail(_:)``): a `DatasetError` or `MetricsError` as it is
/// (it names its file or option), a `GeoError` after `input`, the file whose points it
/// concerns. Anything else (the `ExitCode` of an earlier `fail`) passes through unchanged.
func reportingErrors<R>(input: String? = nil, _ body: () throws -> R) throws -> R {
    do {
        return try body()
    } catch let e as DatasetError {
        throw fail(e)
    } catch let e as MetricsError {
        throw fail(e)
    } catch let e as GeoError {
        throw fail(input.map { "\($0): \(e)" } ?? "\(e)")
    }
}

/// Writes a line to standard error (unbuffered: straight to file descriptor 2).
func note(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

// The command line links only FoundationEssentials, not Foundation: Foundation proper and its
// ICU data cost every run about 2 ms of start-up (a Swift program printing one line starts in
// 2.3 ms alone, 3.0 ms with FoundationEssentials, 4.6 ms with Foundation; median of 40 starts)
// and made each of ArgumentParser's first protocol-conformance lookups scan a third more
// records. These two helpers stand in for what the command line used from Foundation.

/// `printf`-style formatting of numbers (C's `vsnprintf`), for `%d`, `%f`, `%e` and friends:
/// what `String(format:)` gave, with the C library's rounding.
func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// The text padded with spaces, or cut, to `width` characters (as Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)`).
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}

/// The input sizes `Geocluster.tuneMemory(forInput:)` tells apart.
enum MemoryTier {
    case small, large, veryLarge

    /// The tier of a regular file; nil for anything else (standard input, a pipe, a missing file).
    init?(input path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        self = size < 16 << 20 ? .small : size < 256 << 20 ? .large : .veryLarge
    }

    /// Whether freed memory stays in the process for reuse (else arrays of 1 MiB or more go
    /// back to the system when freed: see `main()`).
    var keepsFreedMemory: Bool {
        switch self {
        case .small: true
        case .large: false
        case .veryLarge: Self.reusesFreedMemory
        }
    }

    /// Whether very large inputs keep freed memory (unless `GEOCLUSTER_REUSE_FREED_MEMORY=0`).
    static var reusesFreedMemory: Bool { getenv("GEOCLUSTER_REUSE_FREED_MEMORY").map { String(cString: $0) != "0" } ?? true }
}
