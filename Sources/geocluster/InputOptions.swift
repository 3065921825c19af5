import ArgumentParser
import Datasets
import Geo
import Harness

/// A field separator given on the command line.
struct Delimiter: ExpressibleByArgument {
    let byte: UInt8

    init?(argument: String) {
        switch argument.lowercased() {
        case ",", "comma": byte = UInt8(ascii: ",")
        case ";", "semicolon": byte = UInt8(ascii: ";")
        case "\t", "\\t", "tab": byte = UInt8(ascii: "\t")
        default: return nil
        }
    }
}

/// A text encoding given on the command line (`--encoding`), with its usual other names.
struct EncodingName: ExpressibleByArgument {
    let encoding: TextEncoding

    init?(argument: String) {
        switch argument.lowercased() {
        case "utf-8", "utf8": encoding = .utf8
        case "latin1", "latin-1", "iso-8859-1", "iso8859-1": encoding = .latin1
        // EUC-KR is a subset of CP949 (Unified Hangul Code), so its files read the same.
        case "cp949", "uhc", "euc-kr", "euckr": encoding = .cp949
        default: return nil
        }
    }
}

/// The columns of a geographic input, its separator, encoding and decimal mark:
/// `--lat-column`, `--lon-column`, `--id-column`, `--delimiter`, `--encoding`,
/// `--decimal-comma`. Part of `InputOptions` (the clustering commands) and on their
/// own in the map-pin commands (`pins`, `nearby`, `privacy`; `map --zoom` through `map`'s
/// `InputOptions`), so every command reads a user's file with the same options.
struct ColumnOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Latitude column (default: lat, latitude or 위도).", valueName: "name"))
    var latColumn: String?

    @Option(help: ArgumentHelp("Longitude column (default: lon, lng, long, longitude or 경도).", valueName: "name"))
    var lonColumn: String?

    @Option(help: ArgumentHelp("Id column or GeoJSON property (default: id, then fid; without one, rows are named by their 0-based row number).", valueName: "name"))
    var idColumn: String?

    @Option(help: ArgumentHelp("CSV field separator: comma, semicolon or tab (default: detected from the header line).", valueName: "sep"))
    var delimiter: Delimiter?

    @Option(help: ArgumentHelp("Input encoding: utf-8, latin1 (ISO-8859-1) or cp949 (Korean, also EUC-KR); converted to UTF-8 before reading (default: utf-8; a file that is not UTF-8 is refused, naming the encoding it looks like).", valueName: "name"))
    var encoding: EncodingName?

    @Flag(help: "Numbers have a decimal comma (37,5), as semicolon-separated spreadsheet exports write them; the separator must then be a semicolon or tab.")
    var decimalComma = false

    /// The names as Datasets' reader options (no x,y columns).
    var readOptions: ReadOptions {
        ReadOptions(latitude: latColumn, longitude: lonColumn, id: idColumn, delimiter: delimiter?.byte,
                    encoding: encoding?.encoding ?? .utf8, decimalComma: decimalComma)
    }

    func validate() throws {
        if decimalComma && delimiter?.byte == UInt8(ascii: ",") {
            throw ValidationError("--decimal-comma cannot be used with --delimiter comma: a decimal comma could not be told from a separator; use a semicolon- or tab-separated file (--delimiter semicolon or tab)")
        }
    }

    /// Refuses the options a GeoJSON input does not use (its coordinates are the geometry's,
    /// its fields are not separated).
    func validate(input: String) throws {
        guard (try? InputFile.isGeoJSON(input)) == true else { return }
        var given: [String] = []
        if latColumn != nil { given.append("--lat-column") }
        if lonColumn != nil { given.append("--lon-column") }
        if delimiter != nil { given.append("--delimiter") }
        if !given.isEmpty {
            throw ValidationError("\(given.joined(separator: ", ")) \(given.count == 1 ? "is" : "are") not used for GeoJSON input \(input) (longitude/latitude are the geometry's); drop \(given.count == 1 ? "it" : "them")")
        }
    }
}

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
    guard file.skippedRows > 0 else { return }
    let first = file.firstSkipped.map { "; the first: \($0)" } ?? ""
    let what = (try? InputFile.isGeoJSON(file.path)) == true ? "feature" : "row"
    note("warning: \(file.path): skipped \(file.skippedRows) malformed \(what)\(file.skippedRows == 1 ? "" : "s") (--skip-bad-rows)\(first)")
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
    if let scale = record.scaleFactor, abs(scale - 1) > HarnessError.groundScaleTolerance, let crs = record.projectedCRS {
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
