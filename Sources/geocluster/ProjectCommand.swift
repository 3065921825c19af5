import ArgumentParser
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Geo

/// `geocluster project`: adds projected x,y columns to a CSV of lat,lon points.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Project lat,lon columns to a metric CRS and write the rows back with x,y added.",
        discussion: """
            Reads INPUT (CSV with a header; lat/latitude and lon/lng/longitude columns in degrees), \
            projects every row with PROJ, and writes all input columns followed by x,y (metres, \
            easting and northing) to OUTPUT. Existing x,y columns are replaced. With --crs auto the \
            UTM zone of the points' centroid is used; the CRS chosen is printed on standard error.
            """
    )

    @Argument(help: "Input CSV file with lat,lon columns.")
    var input: String

    @Option(help: "Target CRS: auto (the UTM zone of the data) or a local metric CRS PROJ knows (EPSG:5179 for Korea).")
    var crs: String = "auto"

    @Option(name: .shortAndLong, help: "Output CSV file (written whole or not at all).")
    var output: String

    func run() throws {
        try reportingErrors(input: input) {
            let table = try CSV.read(path: input)
            let coords = try table.coordinates(prefer: .lonlat)
            let projection = try Projection(target: Projection.Target(crs),
                                            fittingLongitudes: coords.xOrLongitude, latitudes: coords.yOrLatitude)
            let (x, y) = try projection.forward(lon: coords.xOrLongitude, lat: coords.yOrLatitude)
            // Metres with millimetre precision: enough for any listing, short enough to read.
            try table.write(to: output, replacing: [("x", x), ("y", y)], decimals: 3)
            note("projected \(table.rows.count) points to \(projection.crs) (\(projection.crsName)); wrote \(output)")
        }
    }
}
