import ClusterCore
import Datasets
import Geo

/// The one error type of Harness: what went wrong in a run, with the file it concerns.
/// Messages say what to do, as every module's errors do.
public enum HarnessError: Error, Sendable, CustomStringConvertible {
    /// Reading, filtering or writing failed (the error names the file, line and column).
    case dataset(DatasetError)
    /// Projecting the points of `path` failed.
    case geo(path: String, GeoError)
    /// The clustering core refused the points of `path` or the parameters.
    case cluster(path: String, ClusterCoreError)
    /// A distance option (`--eps`, `--cell-size`, `--epsilon`) was given in a CRS that
    /// stretches ground distances by `scale` at the data's centre (Web Mercator: 1/cos φ).
    case notGroundMetres(path: String, crs: String, scale: Double, option: String, value: Double)
    /// A benchmark cell or its setup failed in a way no other case covers.
    case bench(String)
    /// A pins key or mask file is missing, malformed or disagrees with the settings (the
    /// message names the file and never contains the key).
    case privacy(String)
    /// Listings whose location key (building id) is empty, or names places farther apart than
    /// the tolerance (the message names the file, the lines and the key).
    case location(String)
    /// A model file (`cluster --save-model`) is not one, is damaged, or does not fit the
    /// points it is asked about (the message names the file).
    case model(path: String, reason: String)

    public var description: String {
        switch self {
        case let .dataset(e):
            return e.description
        case let .geo(path, e):
            return "\(path): \(e)"
        case let .cluster(path, .nonFiniteCoordinate(row)):
            return "\(path): row \(row + 1) of the points read: a coordinate became non-finite after projection; check that row"
        case let .cluster(path, e):
            return "\(path): \(e)"
        case let .notGroundMetres(path, crs, scale, option, value):
            let ground = (value / scale * 10).rounded() / 10
            let typed = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            return "\(path): --crs \(crs) stretches distances by up to \(HarnessError.times(scale)) over the data, so \(option) \(typed) "
                + "would be \(ground) m on the ground there; use a local metric CRS (EPSG:5179 in Korea), or --metric geodesic to measure great-circle metres"
        case let .bench(message), let .privacy(message), let .location(message):
            return message
        case let .model(path, reason):
            return "\(path): \(reason)"
        }
    }
}

extension HarnessError {
    /// A scale factor as `1.26×`.
    static func times(_ scale: Double) -> String { "\((scale * 100).rounded() / 100)×" }
}
