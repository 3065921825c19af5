// Scores from counting pairs of points: the adjusted Rand index and Fowlkes–Mallows, in
// scikit-learn's formulation (its pair confusion matrix counts ordered pairs).

extension ContingencyTable {
    /// Σ n_ij², Σ a_i², Σ b_j² (a: row sums, b: column sums).
    var squareSums: (cells: Int, rows: Int, columns: Int) {
        (counts.reduce(0) { $0 + $1 * $1 }, rowSums.reduce(0) { $0 + $1 * $1 },
         columnSums.reduce(0) { $0 + $1 * $1 })
    }

    /// scikit-learn's pair confusion matrix: ordered pairs of distinct points that are
    /// together in neither labeling (`tn`), only in the prediction (`fp`), only in the truth
    /// (`fn`), in both (`tp`). The four add up to n(n − 1).
    public var pairConfusion: (tn: Int, fp: Int, fn: Int, tp: Int) {
        let (cells, rows, cols) = squareSums
        let tp = cells - count, fp = cols - cells, fn = rows - cells
        return (count * count - fp - fn - cells, fp, fn, tp)
    }

    /// The adjusted Rand index (Hubert & Arabie 1985): 1 for identical partitions, about 0
    /// for independent ones, down to -0.5. As scikit-learn: 1 when no pair is split
    /// differently (`fn == fp == 0`, including fewer than two points), else
    /// `2 (tp·tn − fn·fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn))`, evaluated exactly in
    /// 128-bit integers and rounded once per operand, as Python's integers are.
    /// - Complexity: O(R + C + cells).
    public func adjustedRandIndex() -> Double {
        let (tn, fp, fn, tp) = pairConfusion
        if fn == 0 && fp == 0 { return 1 }
        let (a, b, c, d) = (Int128(tn), Int128(fp), Int128(fn), Int128(tp))
        let numerator = d * a - c * b
        let denominator = (d + c) * (c + a) + (d + b) * (b + a)
        return 2.0 * Double(numerator) / Double(denominator)
    }

    /// The Fowlkes–Mallows index, the geometric mean of pairwise precision and recall:
    /// `sqrt(tk/pk) · sqrt(tk/qk)` with tk = Σn_ij² − n, pk = Σb_j² − n, qk = Σa_i² − n; 0 when
    /// no pair is together in both labelings (scikit-learn's convention, including n < 2).
    /// - Complexity: O(R + C + cells).
    public func fowlkesMallows() -> Double {
        let (cells, rows, cols) = squareSums
        let tk = cells - count, pk = cols - count, qk = rows - count
        if tk == 0 { return 0 }
        return (Double(tk) / Double(pk)).squareRoot() * (Double(tk) / Double(qk)).squareRoot()
    }
}
