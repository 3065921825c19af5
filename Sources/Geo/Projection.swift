import CGeoLibraries

/// Transforms longitude/latitude (EPSG:4326, degrees) to a metric projected CRS (metres) and
/// back, whole arrays at a time.
///
/// Axis order is fixed by this API, whatever the CRS definitions say: inputs are always
/// (longitude, latitude) and outputs always (x = easting, y = northing). EPSG:4326 itself is
/// defined latitude-first and some projected CRSs (EPSG:5179) northing-first; the
/// transformation is normalised with `proj_normalize_for_visualization`, so none of that
/// leaks out.
///
/// ```swift
/// let projection = try Projection(target: .auto, fittingLongitudes: lon, latitudes: lat)
/// print(projection.crs)                     // "EPSG:32652" for Seoul
/// let (x, y) = try projection.forward(lon: lon, lat: lat)
/// ```
///
/// Thread safety: each instance owns its own `PJ_CONTEXT` (PROJ's per-thread state), so
/// separate instances are independent and may be used on different threads at the same
/// time. One instance must not be used from two threads at once, because PROJ mutates the
/// context (error number, caches) during every call. The type is therefore deliberately not
/// `Sendable`: there is no lock inside. Create one instance per task or thread instead.
///
/// The accuracy is PROJ's: for transverse Mercator CRSs (UTM, EPSG:5179) a forward-then-
/// inverse round trip returns the input to well within 1e-9 degrees.
public final class Projection {
    /// The source CRS of every forward transform: WGS 84 longitude/latitude in degrees.
    public static let geographicCRS = "EPSG:4326"

    /// The resolved target CRS as `AUTHORITY:CODE` (e.g. `"EPSG:32652"`) when PROJ knows an
    /// identifier for it, otherwise the definition string as given.
    public let crs: String

    /// PROJ's human-readable name of the target CRS, e.g. `"WGS 84 / UTM zone 52N"`.
    public let crsName: String

    private let context: ProjContext
    /// EPSG:4326 -> target, normalised to (lon, lat) -> (easting, northing).
    private let transformation: ProjObject

    /// Creates a projection from EPSG:4326 to `crs`.
    ///
    /// - Parameter crs: anything `proj_create` accepts that denotes a projected CRS with
    ///   metre axes: `"EPSG:5179"`, `"EPSG:32652"`, a PROJ string with `+type=crs`, WKT or
    ///   PROJJSON. Use ``init(target:fittingLongitudes:latitudes:)`` for `auto`.
    /// - Throws: `GeoError.unknownCRS` when PROJ cannot parse or find it,
    ///   `GeoError.notMetricCRS` when it is not a projected CRS in metres,
    ///   `GeoError.proj` when PROJ cannot build the transformation.
    public init(crs: String) throws(GeoError) {
        let context = try ProjContext()
        let target = try Self.metricCRS(crs, in: context)

        // proj_create_crs_to_crs: NULL on failure, reason in the context errno / log.
        // It may return several candidate operations; proj_trans then picks, per point,
        // the best one whose area of use contains it, as cs2cs does.
        guard let raw = PROJ.proj_create_crs_to_crs(context.pointer, Self.geographicCRS, crs, nil) else {
            throw .proj(operation: "proj_create_crs_to_crs(\(Self.geographicCRS), \(crs))",
                        message: context.failureMessage())
        }
        let authorityOrder = ProjObject(owning: raw, context: context)
        // proj_normalize_for_visualization: a new object (NULL on failure) whose input and
        // output are in GIS order, longitude/easting first, regardless of the CRS axis order.
        guard let normalized = PROJ.proj_normalize_for_visualization(context.pointer, authorityOrder.pointer) else {
            throw .proj(operation: "proj_normalize_for_visualization", message: context.failureMessage())
        }
        self.context = context
        self.transformation = ProjObject(owning: normalized, context: context)
        self.crs = Self.identifier(of: target) ?? crs
        // proj_get_name: NULL if the object has no name.
        self.crsName = PROJ.proj_get_name(target.pointer).map { String(cString: $0) } ?? crs
    }

    /// Creates a projection for `target`, resolving `.auto` to the UTM zone of the data.
    ///
    /// - Parameters:
    ///   - target: a CRS, or `.auto` for the UTM zone of the centroid of the points.
    ///   - lon: longitudes in degrees, used only when `target` is `.auto`.
    ///   - lat: latitudes in degrees, used only when `target` is `.auto`.
    /// - Throws: the errors of ``resolve(_:longitudes:latitudes:)`` and ``init(crs:)``.
    /// - Complexity: O(n) for `.auto`, O(1) otherwise, plus PROJ's setup (a database lookup).
    public convenience init(
        target: Target, fittingLongitudes lon: [Double], latitudes lat: [Double]
    ) throws(GeoError) {
        try self.init(crs: Self.resolve(target, longitudes: lon, latitudes: lat))
    }

    // MARK: - Transforms

    /// Projects longitude/latitude arrays to easting/northing in the target CRS.
    ///
    /// - Parameters:
    ///   - lon: longitudes in degrees, each in [-180, 180].
    ///   - lat: latitudes in degrees, each in [-90, 90]; same count as `lon`.
    /// - Returns: `x` (easting) and `y` (northing) in metres, one pair per input point.
    ///   Empty input gives empty output.
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate`, `.latitudeOutOfRange`,
    ///   `.longitudeOutOfRange` (each naming the first offending index) before any
    ///   transform; `.transformFailed` naming the first point PROJ could not project.
    /// - Complexity: O(n), one `proj_trans_generic` call over both arrays.
    public func forward(lon: [Double], lat: [Double]) throws(GeoError) -> (x: [Double], y: [Double]) {
        try Validation.lonLat(lon, lat)
        return try transform(lon, lat, direction: PJ_FWD)
    }

    /// Unprojects easting/northing arrays back to longitude/latitude.
    ///
    /// - Parameters:
    ///   - x: eastings in metres.
    ///   - y: northings in metres; same count as `x`.
    /// - Returns: `lon` and `lat` in degrees, one pair per input point.
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate`, or `.transformFailed` naming
    ///   the first point PROJ could not unproject.
    /// - Complexity: O(n), one `proj_trans_generic` call over both arrays.
    public func inverse(x: [Double], y: [Double]) throws(GeoError) -> (lon: [Double], lat: [Double]) {
        try Validation.sameCount(x, "x", y, "y")
        try Validation.finite(x, y)
        return try transform(x, y, direction: PJ_INV)
    }

    /// Projects one point (degrees in, metres out); the single-point form of the array
    /// `forward(lon:lat:)`, with the same validation and errors (index 0).
    public func forward(lon: Double, lat: Double) throws(GeoError) -> (x: Double, y: Double) {
        let (x, y) = try forward(lon: [lon], lat: [lat])
        return (x[0], y[0])
    }

    /// Unprojects one point (metres in, degrees out); the single-point form of the array
    /// `inverse(x:y:)`, with the same validation and errors (index 0).
    public func inverse(x: Double, y: Double) throws(GeoError) -> (lon: Double, lat: Double) {
        let (lon, lat) = try inverse(x: [x], y: [y])
        return (lon[0], lat[0])
    }

    /// Runs `proj_trans_generic` in place over copies of `a` and `b`.
    private func transform(
        _ a: [Double], _ b: [Double], direction: PJ_DIRECTION
    ) throws(GeoError) -> ([Double], [Double]) {
        var (u, v) = (a, b)
        let n = u.count
        guard n > 0 else { return ([], []) }
        let P = transformation.pointer
        // The errno is sticky across calls; clear it so a failure reported below is ours.
        _ = PROJ.proj_errno_reset(P)
        context.messages.clear()
        let stride = MemoryLayout<Double>.stride
        // proj_trans_generic returns the number of points it visited (n here), not the
        // number that succeeded: a point that fails comes back as HUGE_VAL and sets
        // proj_errno. So success is judged from the outputs, below. z and t are NULL with
        // length 0, which PROJ treats as constant 0 height and "no epoch".
        let visited = u.withUnsafeMutableBufferPointer { ub in
            v.withUnsafeMutableBufferPointer { vb in
                PROJ.proj_trans_generic(
                    P, direction,
                    ub.baseAddress, stride, n,
                    vb.baseAddress, stride, n,
                    nil, 0, 0,
                    nil, 0, 0)
            }
        }
        var failure = (0..<n).first { !u[$0].isFinite || !v[$0].isFinite }
        if failure == nil, visited < n { failure = visited }  // defensive: PROJ visits all n
        if let bad = failure {
            let code = PROJ.proj_errno(P)
            throw .transformFailed(index: bad, code: code, message: context.failureMessage())
        }
        return (u, v)
    }

    // MARK: - CRS checks

    /// Parses `name` and checks that it is a projected CRS whose axes are in metres.
    private static func metricCRS(_ name: String, in context: ProjContext) throws(GeoError) -> ProjObject {
        context.messages.clear()
        // proj_create: NULL when the text is neither a known code nor a valid definition.
        guard let raw = PROJ.proj_create(context.pointer, name) else {
            throw .unknownCRS(name, detail: context.failureMessage())
        }
        let object = ProjObject(owning: raw, context: context)
        // proj_is_crs: 1 for any kind of CRS, 0 otherwise (e.g. "+proj=merc" without
        // "+type=crs" is a coordinate operation).
        guard PROJ.proj_is_crs(object.pointer) != 0 else {
            throw .unknownCRS(name, detail: "it is a coordinate operation, not a CRS; for a PROJ string add +type=crs")
        }
        guard PROJ.proj_get_type(object.pointer) == PJ_TYPE_PROJECTED_CRS else {
            throw .notMetricCRS(name, detail: "it is not a projected CRS")
        }
        // proj_crs_get_coordinate_system: NULL on error.
        guard let rawCS = PROJ.proj_crs_get_coordinate_system(context.pointer, object.pointer) else {
            throw .notMetricCRS(name, detail: "PROJ reports no coordinate system: \(context.failureMessage())")
        }
        let cs = ProjObject(owning: rawCS, context: context)
        // proj_cs_get_axis_count: -1 on error.
        let axes = PROJ.proj_cs_get_axis_count(context.pointer, cs.pointer)
        guard axes >= 2 else {
            throw .notMetricCRS(name, detail: "its coordinate system has \(axes) axes")
        }
        for axis in 0..<axes {
            var factor = 0.0
            var unitName: UnsafePointer<CChar>?
            // proj_cs_get_axis_info: TRUE (1) on success, FALSE (0) on error; the out
            // strings are owned by `cs` and valid while it lives.
            guard PROJ.proj_cs_get_axis_info(context.pointer, cs.pointer, axis,
                                        nil, nil, nil, &factor, &unitName, nil, nil) != 0 else {
                throw .notMetricCRS(name, detail: "PROJ cannot describe axis \(axis): \(context.failureMessage())")
            }
            // A conversion factor of exactly 1 means the axis unit is the metre.
            guard factor == 1 else {
                let unit = unitName.map { String(cString: $0) } ?? "unknown unit"
                throw .notMetricCRS(name, detail: "axis \(axis) is in \(unit)")
            }
        }
        return object
    }

    /// `AUTHORITY:CODE` of a PROJ object, or nil when it carries no identifier.
    private static func identifier(of object: ProjObject) -> String? {
        // proj_get_id_auth_name / proj_get_id_code: NULL when there is no identifier at
        // that index.
        guard let authority = PROJ.proj_get_id_auth_name(object.pointer, 0),
              let code = PROJ.proj_get_id_code(object.pointer, 0) else { return nil }
        return "\(String(cString: authority)):\(String(cString: code))"
    }
}

// Explicitly not Sendable: an instance wraps a PJ_CONTEXT that PROJ mutates on every call
// and there is no lock. Separate instances are independent.
@available(*, unavailable, message: "a Projection must stay on one thread; create one per task")
extension Projection: Sendable {}
