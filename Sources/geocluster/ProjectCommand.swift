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
        let request = ProjectRequest(input: input, read: inputOptions.readOptions, crs: crs, output: output)
        let projected = try reportingErrors(input: input) { try request.run() }
        note("projected \(projected.rows) points to \(projected.crs) (\(projected.crsName)); wrote \(output)")
    }
}
