/// The one error type of ClusterCore. Every message says what was wrong and what to do.
public enum ClusterCoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two coordinate arrays have different lengths.
    case mismatchedCoordinateCounts(xs: Int, ys: Int)
    /// A coordinate is NaN or infinite; `row` is 0-based in input order.
    case nonFiniteCoordinate(row: Int)
    /// A parameter is outside its valid range.
    case invalidParameter(name: String, value: String, requirement: String)
    /// There are fewer points than the algorithm needs.
    case tooFewPoints(count: Int, required: Int, reason: String)

    public var description: String {
        switch self {
        case let .mismatchedCoordinateCounts(xs, ys):
            return "x has \(xs) values but y has \(ys); give one x and one y per point"
        case let .nonFiniteCoordinate(row):
            return "row \(row): coordinate is NaN or infinite; remove or fix that row"
        case let .invalidParameter(name, value, requirement):
            return "\(name) = \(value) is invalid: \(requirement)"
        case let .tooFewPoints(count, required, reason):
            return "\(count) point(s) given but at least \(required) needed: \(reason)"
        }
    }
}
