import ArgumentParser
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Geo

/// `geocluster hulls`: the outline, area and centre of every cluster of a labelled file.
struct HullsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hulls",
        abstract: "Outline each cluster with a concave hull (GEOS) and report its size, area and centre.",
        discussion: """
            Reads the points (INPUT, as for `cluster`) and their labels (--labels, the output of \
            `cluster`, one row per input row in the same order), computes each cluster's concave \
            hull in the projected plane, and writes a GeoJSON FeatureCollection of the hulls in \
            longitude/latitude, one feature per line, exterior rings counterclockwise as RFC 7946 \
            requires (properties: label, points, area_m2, centroid_lon, centroid_lat). \
            A table of the largest clusters goes to standard output. Noise (-1) is left out; a \
            cluster whose points are collinear or coincident gets a LineString or Point of area 0.
            """
    )

    @Argument(help: "Input CSV with lat,lon columns (the file that was clustered).")
    var input: String

    @Option(help: "Labels CSV written by `geocluster cluster` (id,label,…).")
    var labels: String

    @Option(help: "CRS the hulls are computed in: an EPSG code PROJ knows, or auto (UTM zone of the data).")
    var crs: String = "auto"

    @Option(help: "Concave hull ratio in [0, 1]: 1 is the convex hull, smaller follows the points more closely.")
    var ratio: Double = GeometryContext.defaultConcaveRatio

    @Option(help: "How many of the largest clusters to list on standard output.")
    var top: Int = 10

    @Option(name: .shortAndLong, help: "Output GeoJSON file.")
    var output: String

    func validate() throws {
        if !(ratio >= 0 && ratio <= 1) { throw ValidationError("--ratio must be within 0…1") }
        if top < 0 { throw ValidationError("--top must be at least 0") }
    }

    func run() throws {
        try reportingErrors(input: input) {
            let file = try PointFile.read(path: input, prefer: .lonlat)
            let label = try LabelFile.read(path: labels, columns: ["label"], option: "--labels").aligned(to: file)
            let (rows, projection) = try GeometryContext().clusterHulls(
                longitudes: file.coordinates.xOrLongitude, latitudes: file.coordinates.yOrLatitude, labels: label,
                ratio: ratio, crs: Projection.Target(crs))
            try ClusterHull.writeGeoJSON(rows, to: output)

            let noise = label.filter { $0 < 0 }.count
            print("\(rows.count) clusters, \(noise) noise points of \(file.count); hulls in \(projection.crs), written to \(output)")
            if top > 0 && !rows.isEmpty {
                print("label  points   area (m²)   centre (lat, lon)")
                for r in rows.sorted(by: { ($0.points, -$0.label) > ($1.points, -$1.label) }).prefix(top) {
                    print(cFormat("%5d  %6d  %10.0f   %.5f, %.5f", r.label, r.points, r.area, r.centroidLatitude, r.centroidLongitude))
                }
            }
        }
    }
}
