import ClusterCore
import Datasets
import Geo

/// A run's coordinates after the metric is chosen: projected x,y in metres (planar) or
/// longitude/latitude in degrees (geodesic), with what was decided and why.
struct PlacedPoints {
    var xs: [Double]
    var ys: [Double]
    var metric: DistanceMetric
    var reason: String?
    var projectedCRS: String?
    var scaleFactor: Double?
    var degreesLikeExtent: PlanarExtent?

    /// Places `coordinates` as `metric` says (see ``DistanceMetric``).
    /// - Throws: `.geo` when a planar projection fails; `.cluster` for `--metric geodesic` on
    ///   x,y input.
    init(_ coordinates: TableCoordinates, crs: String, metric: DistanceMetric, path: String) throws(HarnessError) {
        do {
            try self.init(coordinates, crs: crs, metric: metric)
        } catch let error as GeoError {
            throw .geo(path: path, error)
        } catch {
            throw .cluster(path: path, .invalidParameter(
                name: "--metric", value: "geodesic",
                requirement: "needs longitude/latitude input; these points are planar x,y (give --coordinates lonlat when the file has both)"))
        }
    }

    /// What the `path` init does, with a `GeoError` or `NeedsLongitudeLatitude`.
    private init(_ coordinates: TableCoordinates, crs: String, metric: DistanceMetric) throws {
        let lon = coordinates.xOrLongitude, lat = coordinates.yOrLatitude
        guard coordinates.kind == .lonlat else {
            if metric == .geodesic { throw NeedsLongitudeLatitude() }
            let extent = PlanarExtent(x: lon, y: lat)
            self.init(xs: lon, ys: lat, metric: .planar, degreesLikeExtent: extent.looksLikeDegrees ? extent : nil)
            return
        }
        let target = Projection.Target(crs)
        if metric == .geodesic || (metric == .auto && target == .auto && lon.isEmpty == false) {
            if metric == .geodesic {
                self.init(xs: lon, ys: lat, metric: .geodesic, reason: "--metric geodesic")
                return
            }
            if let planar = try? PlacedPoints.localPlane(lon, lat) {
                self = planar
                return
            }
            self.init(xs: lon, ys: lat, metric: .geodesic, reason: try PlacedPoints.whyNotPlanar(lon, lat))
            return
        }
        let projection = try Projection(target: target, fittingLongitudes: lon, latitudes: lat)
        let scale = lon.isEmpty ? nil : try projection.scaleFactor(fittingLongitudes: lon, latitudes: lat)
        let p = try projection.forward(lon: lon, lat: lat)
        self.init(xs: p.x, ys: p.y, metric: .planar, projectedCRS: projection.crs, scaleFactor: scale)
    }

    private init(xs: [Double], ys: [Double], metric: DistanceMetric, reason: String? = nil, projectedCRS: String? = nil,
                 scaleFactor: Double? = nil, degreesLikeExtent: PlanarExtent? = nil) {
        self.xs = xs; self.ys = ys; self.metric = metric; self.reason = reason
        self.projectedCRS = projectedCRS; self.scaleFactor = scaleFactor; self.degreesLikeExtent = degreesLikeExtent
    }

    /// The points in the automatic local projection, if it keeps ground distances within
    /// 1 % over the whole data and projects every point.
    private static func localPlane(_ lon: [Double], _ lat: [Double]) throws(GeoError) -> PlacedPoints? {
        let projection = try Projection(target: .auto, fittingLongitudes: lon, latitudes: lat)
        let worst = try projection.worstScale(fittingLongitudes: lon, latitudes: lat)
        guard worst.isGround(within: HarnessError.groundScaleTolerance) else { return nil }
        let p = try projection.forward(lon: lon, lat: lat)
        return PlacedPoints(xs: p.x, ys: p.y, metric: .planar,
                            reason: "\(projection.crs) keeps ground distances within 1 % over the data (at worst \(HarnessError.times(worst.scale)))",
                            projectedCRS: projection.crs, scaleFactor: worst.scale)
    }

    /// Why the automatic local projection was not used, for the note on standard error.
    private static func whyNotPlanar(_ lon: [Double], _ lat: [Double]) throws(GeoError) -> String {
        let projection = try Projection(target: .auto, fittingLongitudes: lon, latitudes: lat)
        let worst = try projection.worstScale(fittingLongitudes: lon, latitudes: lat)
        let at = "(\((worst.longitude * 100).rounded() / 100), \((worst.latitude * 100).rounded() / 100))"
        guard worst.scale.isFinite else {
            return "the data's UTM zone (\(projection.crs)) cannot project every point (PROJ fails at \(at)), so distances are great-circle metres"
        }
        return "the data's UTM zone (\(projection.crs)) would stretch distances \(HarnessError.times(worst.scale)) at \(at), so distances are great-circle metres"
    }
}

/// `--metric geodesic` given for planar x,y input.
private struct NeedsLongitudeLatitude: Error {}
