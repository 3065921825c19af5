// What a pin says of its listings' own columns (MapLibre's `clusterProperties`, Tippecanoe's
// `--accumulate-attribute`): for numbers the smallest, the median and the largest value; for
// texts of a few kinds (a brand, a category of the user's) the listings per text.

/// A pin's summary of one of the caller's own columns, over its listings (those passing the
/// filter, in a filtered query).
public enum PropertySummary: Sendable, Hashable {
    /// Over the listings that have a value: the smallest, the median (the mean of the middle
    /// two for an even number) and the largest.
    case numbers(min: Double, median: Double, max: Double)
    /// Listings per text, for a column of at most `PropertySummaries.maximumTexts` distinct
    /// texts; texts no listing of the pin has are left out.
    case counts([String: Int])
    /// No listing of the pin has a number there, or the column has too many distinct texts to
    /// count (names, addresses).
    case none
}

/// The index's means to summarise its own columns over any pin: for each column of numbers the
/// order statistics of any range of rows (`RangeQuantiles`); for each column of few texts the
/// same structure over the texts' codes, whose occurrences in a range it counts.
struct PropertySummaries: Sendable {
    /// A column of more distinct texts than this gets no counts (`PropertySummary.none`).
    static let maximumTexts = 64

    enum Column: Sendable {
        case numbers(RangeQuantiles)
        /// The codes' structure, and the texts by code.
        case texts(RangeQuantiles, [String])
        case many
    }

    let columns: [Column]

    /// - Complexity: O(n log σ) a column, for n rows and σ distinct values.
    init(_ properties: ListingProperties) {
        columns = properties.columns.map { column in
            switch column {
            case .numbers(let v): return .numbers(RangeQuantiles(v))
            case let .texts(codes, values):
                guard values.count <= Self.maximumTexts else { return .many }
                return .texts(RangeQuantiles(codes.map { $0 == ListingProperties.missing ? .nan : Double($0) }), values)
            }
        }
    }

    /// The summaries of the rows `range` (a node's), one per column.
    /// - Complexity: O(log σ) a column of numbers, O(σ log σ) a column of texts.
    func summaries(_ range: Range<Int>) -> [PropertySummary] {
        columns.map { column in
            switch column {
            case .numbers(let q):
                guard let (lo, median, hi) = q.minMedianMax(range) else { return .none }
                return .numbers(min: lo, median: median, max: hi)
            case let .texts(q, texts):
                var counts: [String: Int] = [:]
                for rank in q.values.indices {
                    let n = q.occurrences(ofRank: rank, in: range)
                    if n > 0 { counts[texts[Int(q.values[rank])]] = n }
                }
                return .counts(counts)
            case .many:
                return .none
            }
        }
    }

    /// The summaries of the rows `rows` (a filtered pin's passing rows), one per column, from
    /// the rows' own values.
    /// - Complexity: O(rows) a column.
    func summaries(rows: [Int], of properties: ListingProperties) -> [PropertySummary] {
        zip(columns, properties.columns).map { summary, column in
            switch (summary, column) {
            case (.numbers, .numbers(let v)):
                var values = rows.map { v[$0] }.filter { !$0.isNaN }
                guard let lo = values.min(), let hi = values.max() else { return .none }
                let median = values.withUnsafeMutableBufferPointer { medianInPlace($0, count: $0.count) }!
                return .numbers(min: lo, median: median, max: hi)
            case let (.texts(_, texts), .texts(codes, _)):
                var counts: [String: Int] = [:]
                for r in rows where codes[r] != ListingProperties.missing { counts[texts[Int(codes[r])], default: 0] += 1 }
                return .counts(counts)
            default:
                return .none
            }
        }
    }
}
