import ArgumentParser
import CommandLineSupport

/// Which outline `map` draws around each cluster.
enum HullChoice: String, ExpressibleByArgument, CaseIterable {
    case concave, convex, none
}

/// `geocluster map`: an SVG map of a labelled file.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw the clusters of a labelled file as an SVG map.",
        discussion: """
            Reads the points (INPUT, with lat,lon columns) and their labels (--labels, the output \
            of `cluster`, one row per input row in the same order) and writes an SVG map in Web \
            Mercator: points coloured by cluster (neighbouring clusters never share a colour; \
            noise light grey), each cluster's hull, a pin per cluster sized by its point count \
            (25 to 50 pt, square-root scale) with the count inside — largest first, none covering \
            another (a smaller cluster's pin that would is left out; the legend says how many) — \
            scale bars true where drawn (one per latitude where the scale varies over 10 %), \
            Natural Earth land on maps 12° wide or more, a legend and a title. World-wide data is \
            centred on Greenwich (--center-lon for another), data across ±180° on itself. The map frames the points without lone outliers (or \
            --bbox), counting what it left out (rule: docs/commands.md). Up to 50,000 points every \
            point is drawn; above that a density raster, so the file stays under 1 MB. The file \
            is written whole or not at all.
            With --zoom Z instead of --labels: the map pins of zoom Z (as `geocluster pins` writes \
            them, privacy mask first) at their drawn size, 25–50 pt, on a map at that zoom's scale \
            (1 pt = 1 pixel of 256-pixel tiles), each listing at its displayed position in its pin's \
            colour; --bbox picks the part shown (needed when the data spans more than 4000 pt).
            """
    )

    @Argument(help: "Input CSV or GeoJSON with lat,lon columns (the file that was clustered).")
    var input: String

    @Option(help: "Labels written by `geocluster cluster` (id,label,…; CSV or GeoJSON).")
    var labels: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw the map pins of this zoom level (0–22) instead of --labels' clusters.", valueName: "z"))
    var zoom: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The part shown, minLon,minLat,maxLon,maxLat (degrees). With --labels, points outside it are left out (default: the points' extent without lone outliers); with --zoom, needed when the data spans more than 4000 pt.", valueName: "box"),
            transform: { text in try usage { () throws(DatasetError) in try BoundingBox.parse(text) } })
    var bbox: BoundingBox?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --zoom: the pins' merge threshold in pixels.", valueName: "px"))
    var radius: Double = PinOptions.defaultRadius

    @Option(parsing: .unconditional, help: ArgumentHelp("With --labels: pins for at most the N largest clusters (0: none). A pin that would cover a larger one's is left out anyway.", valueName: "N"))
    var maxPins: Int = MapOptions.defaultMaxPins

    @Flag(help: "With --labels: no pins; points and outlines only.")
    var noPins = false

    @OptionGroup(title: "With --zoom: privacy and locations")
    var source: PinSourceOptions

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    @OptionGroup(title: "Points outlined")
    var outlined: OutlineOptions

    @Option(name: .shortAndLong, help: "Output SVG file.")
    var output: String

    @Option(help: "Cluster outline: concave, convex or none.")
    var hull: HullChoice = .concave

    @Option(parsing: .unconditional, help: "Concave hull ratio in [0, 1] (with --hull concave): smaller follows the points more closely.")
    var ratio: Double = GeometryContext.defaultConcaveRatio

    @Option(help: "CRS the hulls are computed in: auto (an azimuthal equidistant projection centred on each cluster, as `hulls`) or a metric CRS for all (EPSG:5179 for Korea).")
    var crs: String = "auto"

    @Option(name: .customLong("center-lon"), parsing: .unconditional, help: ArgumentHelp("With --labels: the longitude at the middle of the map, degrees (default: Greenwich for data wider than half the world, else centred on the data: across ±180° on the Pacific).", valueName: "degrees"))
    var centerLon: Double?

    @Option(help: "Title of the map (default: the input's file name).")
    var title: String?

    /// The outlines' workers: `--threads` when given, else every core.
    private var outlineThreads: Int { source.threads ?? ThreadsOption.machineDefault }

    func validate() throws {
        if !(ratio >= 0 && ratio <= 1) { throw ValidationError("--ratio must be within 0…1") }
        try inputOptions.validate(input: input)
        try checkOutputName(output, flag: "--output", extensions: ["svg"])
        switch (labels, zoom) {
        case (nil, nil): throw ValidationError("give --labels FILE (clusters) or --zoom Z (map pins)")
        case (.some, .some): throw ValidationError("--labels and --zoom draw different maps; give one")
        case (nil, let z?):
            guard z >= 0 && z < Double(PinOptions.maxZoom + 1) else { throw ValidationError("--zoom \(z) is outside 0–\(PinOptions.maxZoom)") }
            guard radius.isFinite, radius > 0 else { throw ValidationError("--radius must be a number of pixels > 0") }
            try source.requirePrivacyChoice()
            if inputOptions.xColumn != nil || inputOptions.yColumn != nil {
                throw ValidationError("--x-column and --y-column go with --labels; map pins are read from longitude/latitude (--lat-column, --lon-column)")
            }
            if centerLon != nil { throw ValidationError("--center-lon goes with --labels; a --zoom map is framed by --bbox") }
            if noPins || maxPins != MapOptions.defaultMaxPins {
                throw ValidationError("--max-pins and --no-pins go with --labels; a --zoom map is its pins")
            }
        case (.some, nil):
            if let centerLon, !(centerLon >= -180 && centerLon <= 180) { throw ValidationError("--center-lon must be a longitude within -180…180, got \(centerLon)") }
            if centerLon != nil && bbox != nil { throw ValidationError("--center-lon and --bbox both choose the part shown; give one") }
            guard maxPins >= 0 else { throw ValidationError("--max-pins must be 0 or more, got \(maxPins)") }
        }
    }

    func run() throws {
        if let zoom { return try drawPins(zoom: zoom) }
        let progress = StageProgress()
        defer { progress.finish() }
        let outline: ClusterMapRequest.Outline = switch hull {
        case .concave: .concave(ratio: ratio)
        case .convex: .convex
        case .none: .none
        }
        let request = ClusterMapRequest(input: input, read: inputOptions.readOptions, labels: labels!, outlined: outlined.selection,
                                        outline: outline, crs: crs, threads: outlineThreads,
                                        options: MapOptions(maxPins: noPins ? 0 : maxPins, bbox: bbox, centreLongitude: centerLon),
                                        title: title, output: output)
        let map = try reportingErrors(input: input) { try request.draw { progress.stage($0) } }
        progress.finish()
        for warning in map.warnings { note(warning) }
        say("\(map.clusters) clusters, \(map.noise) noise points of \(map.points); map written to \(output) (\(map.bytes / 1024) KiB)", output: output)
    }

    /// `--zoom`: the pins of one zoom at their drawn sizes, on a map at that zoom's scale.
    private func drawPins(zoom: Double) throws {
        ProcessTuning.keepFreedMemoryForPins()
        let request = PinsMapRequest(input: input, source: try source.settings(skipBadRows: inputOptions.skipBadRows, columns: inputOptions.columns), zoom: zoom, bbox: bbox, radius: radius,
                                     title: title, output: output)
        let summary = try reportingPinErrors(input: input) { try request.draw() }
        print(summary.report(output: output))
    }
}
