import ArgumentParser
import CommandLineSupport

/// `geocluster privacy`: how many locations each displayed point could be, against an attacker
/// who knows every building's true position.
struct PrivacyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Report the anonymity of the pins' displayed positions: for each location, how many locations an attacker who knows every building must choose among.",
        discussion: """
            Masks the listing file as `pins` would (the same key, offsets, mask file, location \
            column and --min-anonymity), then for every location counts k: the locations whose \
            true position lies in the ring of admissible offsets around its displayed point \
            (min offset to max offset, or the ring --min-anonymity gives the point), and the \
            most of them within 30 m of one of them (the spot an attacker would name). Prints the \
            median k, the share alone in their ring, the share not anonymous at K (fewer than K, \
            or a spot holding more than 1/K), the attacker's expected success within 30 m and \
            the displacement the mask costs; writes one line per location (displayed position, \
            k, largest spot, ring radius, listings) as CSV, GeoJSON Points, or an HTML page with the \
            distribution of k and a map, by the output's extension. No true coordinate is \
            written. The mask file is read, never written. docs/pins.md, "Privacy model".
            """
    )

    @Argument(help: "Listings: CSV or GeoJSON, as for `pins`.")
    var input: String

    @Option(name: .shortAndLong, help: "Report file: .csv, .geojson or .html (written whole or not at all).")
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The report's K: the share of locations not anonymous at it is the headline (default: --min-anonymity's K, else 5).", valueName: "K"))
    var target: Int?

    @Flag(help: "Drop the listings of an empty or inconsistent building id (counted in a warning) instead of refusing the file.")
    var skipBadRows = false

    @OptionGroup(title: "Input columns")
    var columns: ColumnOptions

    @OptionGroup(title: "Privacy and locations (as for `pins`)")
    var source: PinSourceOptions

    func validate() throws {
        guard source.keyOptions.isGiven, !source.noPrivacy else {
            throw ValidationError("give --key-file FILE (the key the pins are published with, or set \(PinsKeyFile.environmentVariable)): the report measures the privacy mask")
        }
        try columns.validate(input: input)
        if let target, target < 2 { throw ValidationError("--target \(target) must be at least 2 locations") }
        let lower = output.lowercased()
        guard [".csv", ".geojson", ".json", ".html", ".htm"].contains(where: lower.hasSuffix) else {
            throw ValidationError("--output \(output): name a .csv, .geojson or .html file (the format follows the extension)")
        }
    }

    func run() throws {
        let request = PrivacyRequest(input: input, source: try source.settings(skipBadRows: skipBadRows, columns: columns, publishing: false),
                                     target: target ?? source.minAnonymity, output: output, threads: source.buildThreads)
        let progress = StageProgress()
        defer { progress.finish() }
        progress.stage("auditing the displayed positions of \(input)")
        let summary = try reportingPinErrors(input: input) { try request.run { progress.stage($0) } }
        progress.finish()
        note("\(summary); wrote \(output)")
    }
}
