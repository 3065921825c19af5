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
            longitude/latitude (properties: label, points, area_m2, centroid_lon, centroid_lat). \
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
        do {
            let file = try PointFile.read(path: input, prefer: .lonlat)
            let label = try LabelFile.read(path: labels, columns: ["label"], option: "--labels").aligned(to: file)
            let c = file.coordinates
            let projection = try Projection(target: Projection.Target(crs), fittingLongitudes: c.first, latitudes: c.second)
            let (xs, ys) = try projection.forward(lon: c.first, lat: c.second)
            let rows = try GeometryContext().clusterHulls(x: xs, y: ys, labels: label, ratio: ratio, projection: projection)

            var json = "{\"type\":\"FeatureCollection\",\"features\":["
            for (k, r) in rows.enumerated() {
                if k > 0 { json += "," }
                json += "{\"type\":\"Feature\",\"properties\":{\"label\":\(r.label),\"points\":\(r.points),"
                json += "\"area_m2\":\(cFormat("%.1f", r.area)),"
                json += "\"centroid_lon\":\(cFormat("%.6f", r.centroidLongitude)),\"centroid_lat\":\(cFormat("%.6f", r.centroidLatitude))},"
                json += "\"geometry\":\(try r.geographic.geoJSON)}"
            }
            json += "]}\n"
            try AtomicFile.write(json, to: output)

            let noise = label.filter { $0 < 0 }.count
            print("\(rows.count) clusters, \(noise) noise points of \(file.count); hulls in \(projection.crs), written to \(output)")
            if top > 0 && !rows.isEmpty {
                print("label  points   area (m²)   centre (lat, lon)")
                for r in rows.sorted(by: { ($0.points, -$0.label) > ($1.points, -$1.label) }).prefix(top) {
                    print(cFormat("%5d  %6d  %10.0f   %.5f, %.5f", r.label, r.points, r.area, r.centroidLatitude, r.centroidLongitude))
                }
            }
        } catch let e as DatasetError {
            throw fail(e)
        } catch let e as GeoError {
            throw fail("\(input): \(e)")
        }
    }
}
