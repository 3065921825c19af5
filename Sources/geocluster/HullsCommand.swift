import ArgumentParser
import CommandLineSupport

/// `geocluster hulls`: the outline, area and centre of every cluster of a labelled file.
struct HullsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hulls",
        abstract: "Outline each cluster with a concave hull (GEOS) and report its size, area and centre.",
        discussion: """
            Reads the points (INPUT, as for `cluster`) and their labels (--labels, the output of \
            `cluster`, one row per input row in the same order), computes each cluster's concave \
            hull in a plane (by default the data's UTM zone when it keeps distances within 1 % over the whole data, else an \
            azimuthal equidistant projection centred on each cluster; --metric and --crs choose otherwise), and writes a GeoJSON FeatureCollection of the hulls \
            in longitude/latitude (WGS 84), one feature per line, exterior rings counterclockwise as \
            RFC 7946 requires, positions to 7 decimals, a hull across ±180° cut there into a MultiPolygon with a bbox whose west > east \
            (properties: label, points, outlined_points, \
            area_m2, centroid_lon, centroid_lat). Areas are geodesic (on the WGS 84 ellipsoid), \
            whatever --crs is. --min-probability P outlines only the points that belong to their \
            cluster with at least that probability (HDBSCAN labels), --core-only only the core \
            points (DBSCAN's is_core; for HDBSCAN, probability 1), so a few stray members do not \
            stretch a compact cluster's outline. Filters keep the rows `cluster` kept with the same \
            filters. \
            A table of the largest clusters goes to standard output. Noise (-1) is left out; a \
            cluster whose points are collinear or coincident gets a LineString or Point of area 0.
            """
    )

    @Argument(help: "Input CSV or GeoJSON with latitude/longitude (the file that was clustered).")
    var input: String

    @Option(help: "Labels written by `geocluster cluster` (id,label,…; CSV or GeoJSON).")
    var labels: String

    @Option(help: "CRS the hulls are computed in: auto (see --metric) or a metric CRS for all (EPSG:5179 for Korea). Areas are geodesic either way.")
    var crs: String = "auto"

    @Option(help: ArgumentHelp("The planes the hulls are computed in, as `cluster --metric` measures: auto (the data's UTM zone when it keeps distances within 1 % over the whole data, else a plane per cluster), geodesic (an azimuthal equidistant plane at each cluster's spherical centroid, whatever the data), planar (one plane for all: --crs, or the data's UTM zone).", valueName: "auto|planar|geodesic"))
    var metric: DistanceMetric = .auto

    @OptionGroup(title: "Points outlined")
    var outlined: OutlineOptions

    @Option(parsing: .unconditional, help: "Concave hull ratio in [0, 1]: 1 is the convex hull, smaller follows the points more closely.")
    var ratio: Double = GeometryContext.defaultConcaveRatio

    @Option(parsing: .unconditional, help: "How many of the largest clusters to list on standard output.")
    var top: Int = 10

    @Option(parsing: .unconditional, help: "Worker threads, 1...\(ThreadsOption.range.upperBound) (the output is the same for any number).")
    var threads: Int = ThreadsOption.machineDefault

    @Option(name: .shortAndLong, help: "Output GeoJSON file (.geojson or .json; - for standard output).")
    var output: String

    @OptionGroup(title: "Filters (the same as `cluster` was given)")
    var filters: FilterOptions

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    func validate() throws {
        if !(ratio >= 0 && ratio <= 1) { throw ValidationError("--ratio must be within 0…1") }
        if top < 0 { throw ValidationError("--top must be at least 0") }
        try ThreadsOption.validate(threads)
        try inputOptions.validate(input: input)
        try checkOutputName(output, flag: "--output", extensions: ["geojson", "json"])
        if metric == .geodesic && crs.lowercased() != "auto" {
            throw ValidationError("--metric geodesic outlines each cluster in a plane of its own; drop --crs \(crs) (or give --metric planar)")
        }
    }

    func run() throws {
        let progress = StageProgress()
        defer { progress.finish() }
        let request = HullsRequest(input: input, read: inputOptions.readOptions, filter: try filters.makeFilter(), labels: labels,
                                   outlined: outlined.selection, ratio: ratio, crs: crs, metric: metric, threads: threads, output: output)
        let outcome = try reportingErrors(input: input) { try request.run { progress.stage($0) } }
        progress.finish()
        for warning in outcome.warnings { note(warning) }
        let clustered = outcome.points - outcome.noise
        let outlinedNote = outcome.outlinedPoints.map { " (outlining \($0) of \(clustered) clustered points)" } ?? ""
        say("\(outcome.rows.count) clusters, \(outcome.noise) noise points of \(outcome.points)\(outlinedNote); hulls computed in \(outcome.crs), "
            + "written in longitude/latitude (WGS 84) to \(output); areas geodesic", output: output)
        guard top > 0 && !outcome.rows.isEmpty else { return }
        say("label  points   area (m²)   centre (lat, lon)", output: output)
        for r in outcome.rows.sorted(by: { ($0.points, -$0.label) > ($1.points, -$1.label) }).prefix(top) {
            say(cFormat("%5d  %6d  %10.0f   %.5f, %.5f", r.label, r.points, r.area, r.centroidLatitude, r.centroidLongitude), output: output)
        }
    }
}
