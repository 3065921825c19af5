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
    /// A benchmark cell or its setup failed in a way no other case covers.
    case bench(String)

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
        case let .bench(message):
            return message
        }
    }
}
