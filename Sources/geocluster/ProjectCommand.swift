import ArgumentParser
import CommandLineSupport

/// `geocluster project`: adds projected x,y columns to a CSV of lat,lon points.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Project lat,lon columns to a metric CRS and write the rows back with x,y added.",
        discussion: """
            Reads INPUT (CSV with a header and latitude/longitude columns in degrees, or GeoJSON \
            Points), projects every row with PROJ, and writes all input columns followed by x,y \
            (metres, easting and northing) to OUTPUT: CSV for .csv or - with the input's separator \
            (comma, semicolon or tab), tab-separated for .tsv, GeoJSON Points with x,y properties \
            for .geojson or .json. Existing x,y columns are replaced. With --crs auto the UTM zone \
            of the points' centroid is used; the CRS chosen is printed on standard error.
            """
    )

    @Argument(help: "Input CSV with latitude/longitude columns, or GeoJSON Points.")
    var input: String

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    @Option(help: "Target CRS: auto (the UTM zone of the data) or a local metric CRS PROJ knows (EPSG:5179 for Korea).")
    var crs: String = "auto"

    @Option(name: .shortAndLong, help: "Output: .csv, .tsv or - (CSV with the input's separator), .geojson or .json (GeoJSON); written whole or not at all.")
    var output: String

    func validate() throws {
        try inputOptions.validate(input: input)
        if inputOptions.skipBadRows {
            throw ValidationError("--skip-bad-rows is not used by project, which writes every row of \(input) with its coordinates; fix or drop the bad rows (geocluster filter --skip-bad-rows writes the good ones)")
        }
        try checkOutputName(output, flag: "--output", extensions: ["csv", "tsv", "geojson", "json"])
    }

    func run() throws {
        try reportingErrors(input: input) {
            let options = inputOptions.readOptions
            var table = try InputFile.isGeoJSON(input)
                ? try GeoJSON.readTable(path: input, encoding: options.encoding)
                : try CSV.read(path: input, delimiter: options.delimiter, encoding: options.encoding, decimalComma: options.decimalComma)
            if output.lowercased().hasSuffix(".tsv") { table.delimiter = UInt8(ascii: "\t") }
            let coords = try table.coordinates(prefer: .lonlat, options: options)
            let projection = try Projection(target: Projection.Target(crs),
                                            fittingLongitudes: coords.xOrLongitude, latitudes: coords.yOrLatitude)
            let x: [Double], y: [Double]
            do {
                (x, y) = try projection.forward(lon: coords.xOrLongitude, lat: coords.yOrLatitude)
            } catch let error as GeoError {
                throw table.locating(error, coordinates: coords, crs: projection.crs) ?? error
            }
            // Metres with millimetre precision: enough for any listing, short enough to read.
            if GeoJSON.isGeoJSONPath(output) {
                try GeoJSON.write(table, to: output, replacing: [("x", x), ("y", y)], decimals: 3, options: options)
            } else {
                try table.write(to: output, replacing: [("x", x), ("y", y)], decimals: 3)
            }
            note("projected \(table.rows.count) points to \(projection.crs) (\(projection.crsName)); wrote \(output)")
        }
    }
}
