import ArgumentParser
import CommandLineSupport

/// A zoom range written `A-B` (or one zoom `A`), within 0–22.
struct ZoomRange: ExpressibleByArgument {
    var zooms: ClosedRange<Int>

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let a = Int(parts[0]), let b = Int(parts[parts.count - 1]),
              0 <= a, a <= b, b <= PinOptions.maxZoom else { return nil }
        zooms = a...b
    }

    /// Parses an option's text, or says how to write it (a usage error).
    static func parse(_ text: String) throws -> ZoomRange {
        guard let range = ZoomRange(argument: text) else {
            throw ValidationError("write zoom levels as A-B with 0 <= A <= B <= \(PinOptions.maxZoom), e.g. 0-18")
        }
        return range
    }
}

/// `geocluster pins`: the map pins of a listing file at one or more zooms, as GeoJSON.
struct PinsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins",
        abstract: "Write the map pins of a listing file at one or more zoom levels as GeoJSON.",
        discussion: """
            Builds a PinIndex (README, "Map pins"): every location is first displaced by the \
            privacy mask, then pins are cut per zoom from one single-linkage hierarchy of the \
            displayed positions, and pins whose 25–50 pt discs would overlap are merged. The output \
            is one GeoJSON FeatureCollection holding the pins of every zoom asked for, each feature \
            a Point at the pin's displayed centroid with a `zoom` property; the other properties \
            are id (a string: 64-bit), kind (cluster, building or listing), count, diameter (pt), \
            expansion_zoom (null for a building or listing), same_location, bbox \
            [minLon,minLat,maxLon,maxLat], median_deposit, median_monthly_rent, categories \
            {name: count}; a listing pin also has listing_id, category, area_m2, deposit and \
            monthly_rent; --leaves adds each pin's listing ids (leaves). With --properties, your \
            own columns: NAME_min, NAME_median, NAME_max (numbers) or NAME_counts (at most 64 \
            distinct texts) on every pin, NAME on a listing pin; --where filters on them. No true coordinate is \
            written. Filters apply at query time: pins over the passing listings, with their own \
            counts and aggregates. A file without the listing attributes (category, area_m2, \
            deposit, monthly_rent) gives null medians and empty categories; a filter on an \
            attribute the file lacks is refused. listing_id and leaves are the file's ids \
            (--id-column, else id or fid, else the 0-based row number).
            """
    )

    @Argument(help: "Listings: CSV with lat,lon columns (or those --lat-column and --lon-column name; optionally id, category, area_m2, deposit, monthly_rent, building_id), or a GeoJSON FeatureCollection of Points with those properties. The attributes are optional; a filter needs its column.")
    var input: String

    @Option(parsing: .unconditional, help: ArgumentHelp("A zoom level 0–22 (fractions floor: 14.6 is zoom 14).", valueName: "z"))
    var zoom: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("A range of zoom levels, e.g. 0-18.", valueName: "a-b"), transform: ZoomRange.parse)
    var zooms: ZoomRange?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only pins whose centroid lies in minLon,minLat,maxLon,maxLat (degrees).", valueName: "box"),
            transform: { text in try usage { () throws(DatasetError) in try BoundingBox.parse(text) } })
    var bbox: BoundingBox?

    @Option(parsing: .unconditional, help: ArgumentHelp("Merge threshold in pixels (256-pixel tiles): groups closer than this at a zoom are one pin.", valueName: "px"))
    var radius: Double = PinOptions.defaultRadius

    @Option(parsing: .unconditional, help: ArgumentHelp("The tile side in pixels that zoom levels count: 256 (Google-style web maps, Naver) or 512 (MapLibre, Mapbox GL: their zoom z is zoom z + 1 at 256; `geocluster serve`'s).", valueName: "px"))
    var tileSize = Int(PinOptions.defaultTileSize)

    @OptionGroup var discs: DiscSizingOption

    @OptionGroup var hierarchy: HierarchyOption

    @Flag(help: "Add each pin's listing ids (property leaves).")
    var leaves = false

    @Option(name: .shortAndLong, help: "Output GeoJSON file (written whole or not at all).")
    var output: String

    @Flag(help: "Drop the listings of an empty or inconsistent building id (counted in a warning) instead of refusing the file.")
    var skipBadRows = false

    @OptionGroup(title: "Input columns")
    var columns: ColumnOptions

    @OptionGroup(title: "Privacy and locations")
    var source: PinSourceOptions

    @OptionGroup(title: "Filters (applied at query time; pins over the listings that pass)")
    var filters: AttributeFilterOptions

    @OptionGroup(title: "Your own columns")
    var ownColumns: PropertyOptions

    func validate() throws {
        try source.requirePrivacyChoice()
        try columns.validate(input: input)
        guard zoom != nil || zooms != nil else { throw ValidationError("give --zoom Z or --zooms A-B (zoom levels 0–22)") }
        if let z = zoom, !(z >= 0 && z < Double(PinOptions.maxZoom + 1)) {
            throw ValidationError("--zoom \(z) is outside 0–\(PinOptions.maxZoom)")
        }
        guard radius.isFinite, radius > 0 else { throw ValidationError("--radius must be a number of pixels > 0") }
        guard tileSize == 256 || tileSize == 512 else { throw ValidationError("--tile-size \(tileSize): give 256 or 512") }
    }

    /// The zoom levels asked for, ascending.
    var levels: [Int] {
        var set = Set(zooms.map { Array($0.zooms) } ?? [])
        if let z = zoom { set.insert(Int(z.rounded(.down))) }
        return set.sorted()
    }

    func run() throws {
        ProcessTuning.keepFreedMemoryForPins()
        var settings = try source.settings(skipBadRows: skipBadRows, columns: columns)
        settings.properties = try ownColumns.selection(privacy: settings.key != nil, positions: settings.columns)
        var request = PinsRequest(input: input, source: settings, radius: radius, minSamples: hierarchy.minSamples,
                                  zooms: levels, bbox: bbox, filter: try ownColumns.filter(adding: filters.filter), leaves: leaves, output: output)
        request.tileSize = Double(tileSize)
        request.discSizing = discs.discSizing
        let progress = StageProgress()
        defer { progress.finish() }
        let summary = try reportingPinErrors(input: input) { try PinsExport.write(request) { progress.stage($0) } }
        progress.finish()
        note("\(summary.report); wrote \(output)")
    }
}
