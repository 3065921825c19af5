// The columns a row is clustered by besides (or instead of) its position: `--features`.

/// The features of a file's kept rows, by the names `ReadOptions.features` gave: each is the
/// row's x (longitude) or y (latitude), or a numeric column of its own, read and checked as
/// numbers are (a bad field names its file, line and column).
public struct FeatureColumns: Sendable, Equatable {
    /// Where one feature comes from.
    public enum Source: Sendable, Equatable {
        /// The row's coordinate: 0 for x or longitude, 1 for y or latitude.
        case coordinate(Int)
        /// The i-th of the columns read for features (`values`).
        case column(Int)
    }

    /// The features' names as given, and where each comes from.
    public var names: [String]
    public var sources: [Source]
    /// The values of the column features, row after row (`columnCount` a row).
    public var values: [Double] = []

    /// The number of features that are columns of their own.
    public var columnCount: Int { sources.filter { if case .column = $0 { true } else { false } }.count }

    /// Value `i` (of the columns of their own) of kept row `row`.
    public func value(row: Int, _ i: Int) -> Double { values[row * columnCount + i] }

    /// Appends row `row` of `other` (the same features).
    mutating func append(row: Int, of other: FeatureColumns) {
        let k = other.columnCount
        values.append(contentsOf: other.values[row * k ..< (row + 1) * k])
    }
}
