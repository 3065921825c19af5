import ArgumentParser
import CommandLineSupport

/// `geocluster pins-cell`: one implementation of `bench --pins-zooms` in a process of its own
/// (`PinsCell` says what it measures and writes). Not for users: hidden from help.
struct PinsCellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins-cell",
        abstract: "Run one implementation of the map-pin comparison (used by `geocluster bench --pins-zooms`).",
        shouldDisplay: false
    )

    @Argument var input: String
    @Option var implementation: String
    @Option(parsing: .unconditional, transform: ZoomRange.parse) var zooms: ZoomRange
    @Option var viewports: String
    @OptionGroup var keyOptions: PinKeyOptions
    @Option var pins: String
    @Option var labels: String
    @Option var report: String
    @OptionGroup var discs: DiscSizingOption

    func validate() throws {
        if implementation == "pinindex" && !keyOptions.isGiven {
            throw ValidationError("give --key-file FILE (or set \(PinsKeyFile.environmentVariable)): the PinIndex cell masks the listings")
        }
    }

    func run() throws {
        ProcessTuning.keepFreedMemoryForPins()
        let key = implementation == "pinindex" ? try keyOptions.key() : nil
        var request = PinsCellRequest(input: input, implementation: implementation, zooms: zooms.zooms, viewports: viewports,
                                      key: key, pins: pins, labels: labels, report: report, version: Geocluster.version)
        request.discSizing = discs.discSizing
        let written: PinsCellReport
        do { written = try PinsCell.run(request) } catch { throw fail("\(error)") }
        if written.status != "ok" { throw ExitCode(1) }
    }
}
