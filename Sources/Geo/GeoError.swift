/// Every error the Geo module throws: one type, so callers can `catch let error as GeoError`
/// and switch over what went wrong.
///
/// Indices are zero-based positions in the arrays the caller passed in. Each `description`
/// says what happened and what to do about it, so the CLI can print it unchanged.
///
/// `Equatable` compares every associated value, including messages that come from PROJ or
/// GEOS; tests that do not want to depend on a library's wording should match the case with
/// `if case` instead.
public enum GeoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// PROJ does not know the CRS `name` (neither an authority code like `EPSG:5179`, nor a
    /// PROJ string, WKT or PROJJSON). `detail` is PROJ's own explanation.
    case unknownCRS(String, detail: String)

    /// `name` is a CRS PROJ knows, but not one with metre easting/northing axes (for example a
    /// geographic CRS in degrees, or a projected CRS in feet), so distances in it are not metres.
    case notMetricCRS(String, detail: String)

    /// Two arrays that describe the same points have different lengths.
    case countMismatch(first: String, firstCount: Int, second: String, secondCount: Int)

    /// The coordinate at `index` is NaN or infinite.
    case nonFiniteCoordinate(index: Int)

    /// The latitude at `index` is outside [-90, 90] degrees.
    case latitudeOutOfRange(index: Int, value: Double)

    /// The longitude at `index` is outside [-180, 180] degrees.
    case longitudeOutOfRange(index: Int, value: Double)

    /// PROJ could not transform the point at `index` (the first one that failed).
    /// `code` is `proj_errno`, `message` is `proj_context_errno_string` for it.
    case transformFailed(index: Int, code: Int32, message: String)

    /// PROJ failed outside a per-point transform, e.g. while setting up a context or a
    /// coordinate operation between two CRSs it knows.
    case proj(operation: String, message: String)

    /// `operation` needs at least one point and got none.
    case emptyInput(operation: String)

    /// A numeric parameter is outside its allowed range, e.g. a concave hull ratio of 1.5.
    case invalidParameter(name: String, value: Double, expected: String)

    /// `operation` needs a geometry of another type (`expected`), e.g. the rings of a LineString.
    case unsupportedGeometry(operation: String, type: GeometryType, expected: String)

    /// The PROJ or GEOS library (`library`) could not be loaded; `message` names the files tried
    /// and how to install it. Both are loaded when first needed (see Sources/CGeoLibraries).
    case libraryUnavailable(library: String, message: String)

    /// GEOS reported an error (a NULL result, or predicate result 2) during `operation`;
    /// `message` is the text GEOS passed to the context's error handler.
    case geos(operation: String, message: String)

    public var description: String {
        switch self {
        case let .unknownCRS(name, detail):
            return "unknown CRS \"\(name)\" (\(detail)); use an authority code PROJ knows, "
                + "such as EPSG:5179 (Korea), or \"auto\" for the data's UTM zone"
        case let .notMetricCRS(name, detail):
            return "CRS \"\(name)\" is not a projected CRS in metres (\(detail)); choose one "
                + "with metre easting/northing axes, such as a UTM zone, or \"auto\""
        case let .countMismatch(first, firstCount, second, secondCount):
            return "\(first) has \(firstCount) values but \(second) has \(secondCount); "
                + "pass one \(first) and one \(second) per point"
        case let .nonFiniteCoordinate(index):
            return "coordinate at index \(index) is NaN or infinite; drop or repair that point"
        case let .latitudeOutOfRange(index, value):
            return "latitude \(value) at index \(index) is outside [-90, 90] degrees; "
                + "check that latitude and longitude are not swapped"
        case let .longitudeOutOfRange(index, value):
            return "longitude \(value) at index \(index) is outside [-180, 180] degrees; "
                + "check that latitude and longitude are not swapped"
        case let .transformFailed(index, code, message):
            return "PROJ could not transform the point at index \(index): \(message) "
                + "(error \(code)); check that the point lies in the target CRS's area of use"
        case let .proj(operation, message):
            return "PROJ failed during \(operation): \(message); check the PROJ installation "
                + "(proj.db) and the CRS definitions"
        case let .emptyInput(operation):
            return "\(operation) needs at least one point; pass a non-empty point set"
        case let .invalidParameter(name, value, expected):
            return "\(name) is \(value) but must be \(expected)"
        case let .unsupportedGeometry(operation, type, expected):
            return "\(operation) needs \(expected) but got a \(type); convert the geometry first"
        case let .libraryUnavailable(_, message):
            return message
        case let .geos(operation, message):
            return "GEOS failed during \(operation): \(message); check the input geometry"
        }
    }
}
