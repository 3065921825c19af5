/// Every external score of a predicted labeling against the truth, under one noise mode.
public struct ClusteringScores: Sendable, Equatable, Codable {
    /// What label -1 meant.
    public var noise: NoiseMode
    /// Points scored (after `.excluded` dropped its points).
    public var count: Int
    /// Points left out by `.excluded` (0 otherwise).
    public var excludedCount: Int
    /// Distinct labels on each side after the noise mode (noise counts as a label in
    /// `.asCluster`, each noise point as one in `.singletons`).
    public var truthLabelCount: Int
    public var predictedLabelCount: Int
    public var adjustedRandIndex: Double
    public var adjustedMutualInformation: Double
    public var normalizedMutualInformation: Double
    public var homogeneity: Double
    public var completeness: Double
    public var vMeasure: Double
    public var fowlkesMallows: Double

    /// Scores `predicted` against `truth`.
    /// - Throws: `MetricsError.mismatchedLengths` when the arrays differ in length.
    /// - Complexity: that of building the table plus `expectedMutualInformation()`: linear in
    ///   the points plus the table's non-zero cells, so a million labels score in well under a
    ///   second (measured: docs/performance.md).
    public init(truth: [Int32], predicted: [Int32], noise: NoiseMode = .asCluster) throws(MetricsError) {
        self.init(table: try ContingencyTable(truth: truth, predicted: predicted, noise: noise), noise: noise)
    }

    /// Scores from a table built with `noise`.
    public init(table t: ContingencyTable, noise: NoiseMode) {
        self.noise = noise
        count = t.count
        excludedCount = t.excludedCount
        truthLabelCount = t.rowCount
        predictedLabelCount = t.columnCount
        adjustedRandIndex = t.adjustedRandIndex()
        adjustedMutualInformation = t.adjustedMutualInformation()
        normalizedMutualInformation = t.normalizedMutualInformation()
        (homogeneity, completeness, vMeasure) = t.homogeneityCompletenessVMeasure()
        fowlkesMallows = t.fowlkesMallows()
    }

    /// The scores by their short names, in a fixed order (for tables and JSON).
    public var named: [(name: String, value: Double)] {
        [("ARI", adjustedRandIndex), ("AMI", adjustedMutualInformation), ("NMI", normalizedMutualInformation),
         ("homogeneity", homogeneity), ("completeness", completeness), ("V-measure", vMeasure),
         ("Fowlkes-Mallows", fowlkesMallows)]
    }
}
