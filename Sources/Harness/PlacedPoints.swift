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
    ///   `locate` turns a PROJ failure on the rows themselves into an error naming the file's
    ///   line (nil: not one of them).
    init(_ coordinates: TableCoordinates, crs: String, metric: DistanceMetric, path: String,
         locate: (GeoError, String?) -> DatasetError?) throws(HarnessError) {
        do {
            try self.init(coordinates, crs: crs, metric: metric)
        } catch let failure as RowsNotProjected {
            if let located = locate(failure.error, failure.crs) { throw .dataset(located) }
            throw .geo(path: path, failure.error)
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
            self = try PlacedPoints.automatic(lon, lat)
            return
        }
        let projection = try Projection(target: target, fittingLongitudes: lon, latitudes: lat)
        let p: (x: [Double], y: [Double])
        do {
            p = try projection.forward(lon: lon, lat: lat)
        } catch {
            throw RowsNotProjected(error: error, crs: projection.crs)
        }
        let scale = lon.isEmpty ? nil : try projection.scaleFactor(fittingLongitudes: lon, latitudes: lat)
        self.init(xs: p.x, ys: p.y, metric: .planar, projectedCRS: projection.crs, scaleFactor: scale)
    }

    private init(xs: [Double], ys: [Double], metric: DistanceMetric, reason: String? = nil, projectedCRS: String? = nil,
                 scaleFactor: Double? = nil, degreesLikeExtent: PlanarExtent? = nil) {
        self.xs = xs; self.ys = ys; self.metric = metric; self.reason = reason
        self.projectedCRS = projectedCRS; self.scaleFactor = scaleFactor; self.degreesLikeExtent = degreesLikeExtent
    }

    /// `--metric auto`: the points in the data's UTM zone if it keeps ground distances within
    /// 1 % over the whole data and projects every point, else on the sphere, with the reason.
    private static func automatic(_ lon: [Double], _ lat: [Double]) throws(GeoError) -> PlacedPoints {
        let projection = try Projection(target: .auto, fittingLongitudes: lon, latitudes: lat)
        let worst = try projection.worstScale(fittingLongitudes: lon, latitudes: lat,
                                              stoppingBeyond: GroundScale.tolerance)
        let zone = "the data's UTM zone (\(projection.crs))"
        let at = "(\((worst.longitude * 100).rounded() / 100), \((worst.latitude * 100).rounded() / 100))"
        let why: String
        if !worst.scale.isFinite {
            why = "\(zone) cannot project every point (PROJ fails at \(at))"
        } else if !worst.isGround {
            // The search stopped at the first probe beyond 1 %: the note names the worst one.
            let full = (try? projection.worstScale(fittingLongitudes: lon, latitudes: lat)) ?? worst
            let place = "(\((full.longitude * 100).rounded() / 100), \((full.latitude * 100).rounded() / 100))"
            why = full.scale.isFinite
                ? "\(zone) would stretch distances by more than 1 % (up to \(HarnessError.times(full.scale)), at \(place))"
                : "\(zone) cannot project every point (PROJ fails at \(place))"
        } else if let p = try? projection.forward(lon: lon, lat: lat) {
            return PlacedPoints(xs: p.x, ys: p.y, metric: .planar,
                                reason: "\(zone) keeps ground distances within 1 % over the data (at worst \(HarnessError.times(worst.scale)))",
                                projectedCRS: projection.crs, scaleFactor: worst.scale)
        } else {
            why = "\(zone) cannot project every point"
        }
        return PlacedPoints(xs: lon, ys: lat, metric: .geodesic, reason: "\(why), so distances are great-circle metres")
    }
}

/// `--metric geodesic` given for planar x,y input.
private struct NeedsLongitudeLatitude: Error {}

/// PROJ failed on the rows' own coordinates (its index names a row).
private struct RowsNotProjected: Error {
    let error: GeoError
    let crs: String
}
