// Sample weights: how much each input row counts. One array of `Double` by row everywhere
// (library, command line, C API, Python); each method checks what it can use.
//
// - DBSCAN (scikit-learn's meaning): a point is core when the weights of the points within eps
//   of it, its own included, add up to at least minSamples. Any finite weight, negative too
//   (a negative weight keeps its neighbours from being core).
// - HDBSCAN (fast_hdbscan's meaning: a row of weight w is w identical rows): the core distance
//   is the distance at which the weights of the nearest points, the point's own included, first
//   add up to the neighbour count; cluster sizes, minClusterSize and the stabilities count
//   weight. Weights must be whole numbers of at least 1, so that every result is that of the
//   data with each row repeated w times.

enum SampleWeights {
    /// Checks that there is one finite weight per row.
    static func check(_ weights: [Double], rows: Int) throws(ClusterCoreError) {
        guard weights.count == rows else {
            throw .invalidParameter(name: "sampleWeight", value: "\(weights.count) weights",
                                    requirement: "must give one weight per point (\(rows))")
        }
        if let row = weights.firstIndex(where: { !$0.isFinite }) {
            throw .invalidParameter(name: "sampleWeight", value: "\(weights[row]) (row \(row))", requirement: "must be finite")
        }
    }

    /// The weights as counts of points for HDBSCAN: whole numbers of at least 1 whose sum fits
    /// a 32-bit count.
    static func counts(_ weights: [Double], rows: Int) throws(ClusterCoreError) -> [Int32] {
        try check(weights, rows: rows)
        if let row = weights.firstIndex(where: { !($0 >= 1 && $0.rounded() == $0) }) {
            throw .invalidParameter(
                name: "sampleWeight", value: "\(weights[row]) (row \(row))",
                requirement: "HDBSCAN counts a row of weight w as w identical points: give whole numbers of at least 1")
        }
        let total = weights.reduce(0, +)
        guard total <= Double(Int32.max) else {
            throw .invalidParameter(name: "sampleWeight", value: "a total of \(total)",
                                    requirement: "must add up to at most \(Int32.max)")
        }
        return weights.map { Int32($0) }
    }
}
