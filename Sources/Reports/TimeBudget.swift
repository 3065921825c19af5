// "What fits in a time budget": for each implementation and method, the largest number of
// points it clusters within 1 s, 10 s and 60 s of fit time. Measured answers come first; the
// fitted power law only speaks beyond the measured sizes, and says so.
//
// A series is one implementation and method on the sizes of one generated scenario; a user's
// input file is a series of its own, never fitted (sizes of unrelated data are no scaling law).
// Definition, for one series with measured sizes n₁ < … < n_k (the rows `ScalingPlot.series`
// picks, one per dataset), median fit times t_i, fit t = a·n^b (when k ≥ 2 distinct sizes) and
// a budget B seconds:
//   1. Some measured size fits (t_i ≤ B) and a larger one was measured: the answer is
//      "≥ m (measured)", m the largest n_i with t_i ≤ B. Sizes between two measurements are
//      not interpolated: the next larger size took longer than B, and the page says only what
//      was seen.
//   2. The largest measured size fits: with a fit whose b > 0 and whose n* = (B/a)^(1/b)
//      exceeds n_k, "~n* (extrapolated)"; n* more than 100 × n_k is shown as "> 100·n_k", as
//      memory and cache effects make a longer extrapolation meaningless. Otherwise "≥ n_k
//      (measured)".
//   3. No measured size fits: with a fit whose b > 0 and n* < n₁, "~n* (extrapolated)" (the
//      same 100× limit, downwards); otherwise "< n₁ (measured)".
// Only rows with a fit time count: a timed-out or failed cell has no median to compare.
import Harness

/// The largest size a method clusters within a time budget, and how that was found.
public enum BudgetEstimate: Sendable, Equatable {
    /// Measured: the largest measured size whose median fit time is within the budget (the
    /// true limit is at least this).
    case atLeast(Int)
    /// Measured: even the smallest measured size took longer than the budget.
    case below(Int)
    /// From the fitted power law beyond the measured sizes: the size in points, and the
    /// measured size it extends (the largest measured size when extrapolating upwards, the
    /// smallest when downwards).
    case extrapolated(Double, from: Int)

    /// How far from the measured sizes an extrapolation is shown as a number.
    public static let extrapolationLimit = 100.0

    /// `≥ 100k (measured)`, `< 10k (measured)`, `~3.2M (extrapolated)`, or `> 100M
    /// (extrapolated)` beyond the limit.
    public var text: String {
        switch self {
        case .atLeast(let n): return "≥ " + ReportFormat.compactCount(Double(n)) + " (measured)"
        case .below(let n): return "< " + ReportFormat.compactCount(Double(n)) + " (measured)"
        case .extrapolated(let n, let from):
            let limit = Self.extrapolationLimit
            if n > Double(from) * limit {
                return "> " + ReportFormat.compactCount(Double(from) * limit) + " (extrapolated)"
            }
            if n < Double(from) / limit {
                return "< " + ReportFormat.compactCount(Double(from) / limit) + " (extrapolated)"
            }
            return "~" + ReportFormat.compactCount(n) + " (extrapolated)"
        }
    }

    /// Whether the answer came from the fit rather than a measurement.
    public var isExtrapolated: Bool {
        if case .extrapolated = self { return true }
        return false
    }
}

/// One row of the time-budget table.
public struct TimeBudgetRow: Sendable, Equatable {
    public var key: ImplementationMethod
    /// The scenario the series spans, or the input file's dataset name (`ScalingSeries.data`).
    public var data: String
    /// The measured sizes, ascending.
    public var sizes: [Int]
    /// One estimate per budget, in the order of the budgets asked for.
    public var estimates: [BudgetEstimate]
    /// The fit the extrapolations used (nil with fewer than two sizes).
    public var fit: PowerLawFit?
}

/// The time-budget table (see the definition at the top of TimeBudget.swift).
public enum TimeBudget {
    /// The budgets the report shows, seconds of fit time.
    public static let budgets: [Double] = [1, 10, 60]

    /// The estimate for one budget from one series' measurements.
    /// - Parameter seconds: budget, seconds of fit time.
    /// - Complexity: O(k) for k measured sizes.
    public static func estimate(_ series: ScalingSeries, seconds budget: Double) -> BudgetEstimate? {
        guard let smallest = series.points.map(\.points).min(), let largest = series.points.map(\.points).max() else { return nil }
        let within = series.points.filter { $0.fitSeconds.median <= budget }.map(\.points).max()
        let projected = series.fit?.size(forSeconds: budget)
        if let m = within {
            if m < largest { return .atLeast(m) }
            if let n = projected, n > Double(largest) { return .extrapolated(n, from: largest) }
            return .atLeast(largest)
        }
        if let n = projected, n < Double(smallest) { return .extrapolated(n, from: smallest) }
        return .below(smallest)
    }

    /// One row per series of `ScalingPlot.series` (implementation and method × scenario or
    /// input file), in its order.
    /// - Complexity: O(n log n) for n rows.
    public static func table(_ rows: [SummaryRow], budgets: [Double] = TimeBudget.budgets) -> [TimeBudgetRow] {
        ScalingPlot.series(rows).map { s in
            TimeBudgetRow(key: s.key, data: s.data, sizes: s.points.map(\.points),
                          estimates: budgets.compactMap { estimate(s, seconds: $0) }, fit: s.fit)
        }
    }
}
