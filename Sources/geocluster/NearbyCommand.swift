import ArgumentParser
import CommandLineSupport

/// A distance written `5km`, `800m` or `5000` (metres).
struct Distance: ExpressibleByArgument {
    var metres: Double

    /// How `--help` shows the default: as a user would write it.
    var defaultValueDescription: String {
        metres >= 1000 && metres.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(metres / 1000))km" : "\(Int(metres))m"
    }

    init(metres: Double) { self.metres = metres }

    init?(argument: String) {
        let t = argument.trimmingWhitespace().lowercased()
        let (number, scale): (Substring, Double) = t.hasSuffix("km") ? (t.dropLast(2), 1000)
            : t.hasSuffix("m") ? (t.dropLast(1), 1) : (Substring(t), 1)
        guard let v = Double(number.trimmingWhitespace()), v.isFinite else { return nil }
        metres = v * scale
    }
}

/// `geocluster nearby`: the listings near a point, by distance rounded to 100 m.
struct NearbyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby",
        abstract: "List the listings near a point, nearest first, distances rounded to 100 m.",
        discussion: """
            Distances are measured to each listing's displayed (privacy-masked) position and \
            rounded to the nearest 100 m, so repeated queries from different points cannot \
            triangulate a listing; ties are ordered by listing id. Writes CSV \
            (id,distance_m,lat,lon,category,area_m2,deposit,monthly_rent; lat,lon displayed) to \
            standard output, or to --output (CSV, or GeoJSON Points when it ends in .geojson or \
            .json). The count within the radius goes to standard error.
            """
    )

    @Argument(help: "Listings: CSV or GeoJSON, as for `pins`.")
    var input: String

    @Option(parsing: .unconditional, help: "Latitude of the query point, degrees.")
    var lat: Double

    @Option(parsing: .unconditional, help: "Longitude of the query point, degrees.")
    var lon: Double

    @Option(parsing: .unconditional, help: ArgumentHelp("Search radius: 5km, 800m or metres (at most 1000km).", valueName: "distance"))
    var radius = Distance(metres: 5000)

    @Option(parsing: .unconditional, help: "At most this many listings, nearest first.")
    var limit: Int = 100

    @Option(name: .shortAndLong, help: "Output file (CSV, or GeoJSON by extension); default: standard output.")
    var output: String?

    @Flag(help: "Drop the listings of an empty or inconsistent building id (counted in a warning) instead of refusing the file.")
    var skipBadRows = false

    @OptionGroup(title: "Input columns")
    var columns: ColumnOptions

    @OptionGroup(title: "Privacy and locations")
    var source: PinSourceOptions

    @OptionGroup(title: "Filters")
    var filters: AttributeFilterOptions

    @OptionGroup(title: "Your own columns")
    var ownColumns: PropertyOptions

    func validate() throws {
        try source.requirePrivacyChoice()
        try columns.validate(input: input)
        guard lat.isFinite, abs(lat) <= 85 else { throw ValidationError("--lat must be within ±85° (Web Mercator's limit)") }
        guard lon.isFinite, abs(lon) <= 180 else { throw ValidationError("--lon must be within ±180°") }
        guard radius.metres > 0, radius.metres <= 1_000_000 else {
            throw ValidationError("--radius must be above 0 and at most 1000km")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        ProcessTuning.keepFreedMemoryForPins()
        var settings = try source.settings(skipBadRows: skipBadRows, columns: columns)
        settings.properties = try ownColumns.selection(privacy: settings.key != nil, positions: settings.columns)
        let request = NearbyRequest(input: input, source: settings, longitude: lon, latitude: lat,
                                    radius: radius.metres, limit: limit, filter: try ownColumns.filter(adding: filters.filter), output: output)
        let result = try reportingPinErrors(input: input) { try PinsNearby.run(request) }
        if let text = result.text { print(text, terminator: "") }
        note("\(result.total) listings within \(Int(radius.metres)) m; \(result.listed) listed" + (output.map { "; wrote \($0)" } ?? ""))
    }
}
