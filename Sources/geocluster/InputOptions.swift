import ArgumentParser
import CommandLineSupport

/// How the commands that read points find their columns: the names users' files give them,
/// the separator, and what a malformed row does (`cluster`, `tree`, `hulls`, `map`, `project`,
/// `filter`, and `score` for the filtered truth file).
struct InputOptions: ParsableArguments {
    @OptionGroup
    var columns: ColumnOptions

    @Option(help: ArgumentHelp("Planar easting column, metres (default: x).", valueName: "name"))
    var xColumn: String?

    @Option(help: ArgumentHelp("Planar northing column, metres (default: y).", valueName: "name"))
    var yColumn: String?

    @Flag(help: "Skip a malformed CSV row (bad number, coordinate out of range, wrong field count) or GeoJSON feature (missing or non-Point geometry, bad coordinates) with a counted warning instead of stopping.")
    var skipBadRows = false

    var latColumn: String? { columns.latColumn }
    var lonColumn: String? { columns.lonColumn }
    var idColumn: String? { columns.idColumn }
    var delimiter: Delimiter? { columns.delimiter }

    var readOptions: ReadOptions {
        var options = columns.readOptions
        options.x = xColumn; options.y = yColumn; options.skipBadRows = skipBadRows
        return options
    }

    /// Reads the points of `input` as these options say, after checking that `output` can be
    /// written (so a bad destination fails before the work), and reports skipped rows.
    func readPoints(_ input: String, prefer: CoordinateKind? = nil, filter: ListingFilter? = nil,
                    output: String) throws(DatasetError) -> PointFile {
        try AtomicFile.checkDestination(output)
        let file = try PointFile.read(path: input, prefer: prefer, filter: filter, options: readOptions)
        reportSkipped(file)
        return file
    }

    /// Refuses the options a GeoJSON input does not use (see `ColumnOptions.validate(input:)`).
    func validate(input: String) throws {
        try columns.validate(input: input)
    }
}

/// Says on standard error what the reader skipped in `file` (with `--skip-bad-rows`).
func reportSkipped(_ file: PointFile) {
    if let warning = file.skippedWarning { note(warning) }
}

/// Where a command's own report goes: standard output, unless its output file is standard
/// output (`-o -`), whose bytes it would interleave with.
func say(_ text: String, output: String) {
    if output == AtomicFile.standardOutput { note(text) } else { print(text) }
}

/// Refuses an output name whose extension is not one of `extensions` (the format is the
/// extension's). `-` (standard output) and names without an extension (/dev/null, a FIFO) are
/// accepted: they get the command's first format.
func checkOutputName(_ path: String, flag: String, extensions: [String]) throws {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard path != AtomicFile.standardOutput, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
    let ext = name[name.index(after: dot)...].lowercased()
    guard !extensions.contains(ext) else { return }
    let list = extensions.map { ".\($0)" }
    let names = list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " or " + list.last!
    throw ValidationError("\(flag) \(path): this command writes \(names), and the extension decides the format; name the file so (or - for standard output)")
}

/// Warns about coordinates that are probably not what the run took them for: x,y that look
/// like degrees, or a CRS that is not metric at ground scale for the data.
func warnAboutCoordinates(_ record: RunRecord, _ options: InputOptions) {
    let input = record.file.path
    if let e = record.degreesLikeExtent {
        note("warning: \(input): the x,y values look like longitude/latitude in degrees (x \(e.minX)…\(e.maxX), "
             + "y \(e.minY)…\(e.maxY)), but x,y are clustered as metres; if they are degrees, use "
             + "--lon-column \(options.xColumn ?? "x") --lat-column \(options.yColumn ?? "y") to project them")
    }
    if let scale = record.scaleFactor, !GroundScale.isGround(scale), let crs = record.projectedCRS {
        note("warning: --crs \(crs) stretches distances by up to \(cFormat("%.2f", scale))× over the data; "
             + "use a local metric CRS, or --metric geodesic (great-circle metres), for distances in ground metres")
    }
    if record.metric == .geodesic, let reason = record.metricReason, reason != "--metric geodesic" {
        note("note: \(input): \(reason) (--metric geodesic; --metric planar --crs … to project instead)")
    }
}

/// Runs `body`, which projects the longitudes and latitudes of `file`'s rows to `crs` (as
/// `--crs` gives it), and names the file line of a point PROJ could not transform
/// (`DatasetError.projectionFailed`) instead of its index.
func locatingProjectionFailures<R>(in file: PointFile, crs: String, _ body: () throws -> R) throws -> R {
    do {
        return try body()
    } catch let error as GeoError {
        let c = file.coordinates
        let name = try? Projection.resolve(Projection.Target(crs), longitudes: c.xOrLongitude, latitudes: c.yOrLatitude)
        throw file.locating(error, crs: name, clustering: false) ?? error
    }
}
