#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc  // log, exp, pow, sin, cos (FoundationEssentials does not re-export them)
#endif

// Information-theoretic scores, each written as scikit-learn 1.9 writes it (the same
// formulas in the same order of operations where it matters), so values agree to ~1e-15.

extension ContingencyTable {
    /// Shannon entropy (natural log) of a labeling with the given cluster sizes, as
    /// scikit-learn's `_entropy`: 1 for no points, 0 for one cluster.
    /// - Complexity: O(k) for k sizes.
    public static func entropy(sizes: [Int]) -> Double {
        let total = sizes.reduce(0, +)
        if total == 0 { return 1 }
        if sizes.count == 1 { return 0 }
        let sum = Double(total), logSum = log(sum)
        var h = 0.0
        for s in sizes { let p = Double(s); h += p / sum * (log(p) - logSum) }
        return -h
    }

    /// Entropy of the truth labeling.
    public var truthEntropy: Double { Self.entropy(sizes: rowSums) }
    /// Entropy of the predicted labeling.
    public var predictedEntropy: Double { Self.entropy(sizes: columnSums) }

    /// Mutual information (natural log) between the two labelings, scikit-learn's
    /// `mutual_info_score`: 0 when either side has a single label (or there are no points,
    /// where scikit-learn raises); terms smaller than machine epsilon are dropped and the sum
    /// is clipped at 0, as there.
    /// - Complexity: O(R + C + cells).
    public func mutualInformation() -> Double {
        if rowCount <= 1 || columnCount <= 1 || count == 0 { return 0 }
        let n = Double(count), logN = log(n)
        var mi = 0.0
        for r in 0..<rowCount {
            let a = rowSums[r]
            for k in rowStart[r]..<rowStart[r + 1] {
                let nij = Double(counts[k])
                let outer = Double(a * columnSums[Int(columns[k])])
                let p = nij / n
                // −log(a·b) + log(Σ a) + log(Σ b), both sums being n.
                let term = p * (log(nij) - logN) + p * (-log(outer) + logN + logN)
                if abs(term) >= Double.ulpOfOne { mi += term }
            }
        }
        return max(mi, 0)
    }

    /// The expected mutual information of two random labelings with these class and cluster
    /// sizes (hypergeometric model; Vinh, Epps & Bailey 2010), as scikit-learn's
    /// `expected_mutual_information`.
    ///
    /// scikit-learn sums, for every pair (class i, cluster j) and every n_ij from
    /// max(1, a_i + b_j − n) to min(a_i, b_j), `n_ij/n · log(n·n_ij / (a_i b_j)) · P(n_ij)`, with
    /// P the hypergeometric probability from log-factorials: O(R·C·n) in the worst case. Here
    /// the sum is the same but organised to cost far less:
    /// - a term depends on (a_i, b_j) only, so pairs of *distinct sizes* are summed once and
    ///   weighted by how many pairs share them (at most √(2n) distinct sizes per side);
    /// - for each pair the walk starts at the mode of P (from a table of `lgamma(k + 1)`, the
    ///   one place log-factorials are needed) and steps both ways by the ratio of consecutive
    ///   probabilities, `P(k+1)/P(k) = (a−k)(b−k) / ((k+1)(n−a−b+k+1))`, until P falls below
    ///   e⁻⁴⁰ of its value at the mode; P is log-concave, so every term left out is smaller
    ///   still and together they change the sum by less than 1e-16 of it.
    /// - Complexity: O(n + R log R + C log C + Σ over distinct-size pairs of the terms walked),
    ///   about 20 terms per pair when a·b ≪ n; O(n) memory for the table.
    public func expectedMutualInformation() -> Double {
        Self.expectedMutualInformation(rowSums: rowSums, columnSums: columnSums, count: count)
    }

    static func expectedMutualInformation(rowSums: [Int], columnSums: [Int], count n: Int) -> Double {
        if rowSums.count <= 1 || columnSums.count <= 1 || n == 0 { return 0 }
        func distinct(_ sizes: [Int]) -> [(size: Int, times: Int)] {
            var out: [(size: Int, times: Int)] = []
            for s in sizes.sorted() {
                if let last = out.last, last.size == s { out[out.count - 1].times += 1 } else { out.append((s, 1)) }
            }
            return out
        }
        let rows = distinct(rowSums), cols = distinct(columnSums)
        var logFactorial = [Double](repeating: 0, count: n + 1)
        for k in 0...n { logFactorial[k] = lgamma(Double(k + 1)) }
        let largest = min(rows.last!.size, cols.last!.size)
        var logOf = [Double](repeating: 0, count: largest + 1)
        for k in 1...max(largest, 1) where k <= largest { logOf[k] = log(Double(k)) }
        let nd = Double(n), logN = log(nd)
        let negligible = exp(-40.0)  // relative to a pair's largest probability
        return logFactorial.withUnsafeBufferPointer { lf in
        logOf.withUnsafeBufferPointer { logK in
            var emi = 0.0
            for (a, ta) in rows {
                let logA = log(Double(a))
                for (b, tb) in cols {
                    let lo = max(1, a + b - n), hi = min(a, b)
                    if lo > hi { continue }
                    let logB = log(Double(b))
                    let rest = Double(n - a - b)  // n − a − b + k is rest + k
                    @inline(__always) func term(_ k: Int, _ p: Double) -> Double {
                        Double(k) / nd * ((logN + logK[k]) - logA - logB) * p
                    }
                    // P at the mode from log-factorials, grouped as scikit-learn groups them
                    // (gln_a + gln_b + gln_Na + gln_Nb − (gln(nij + 1) + gln(n + 1)) − …).
                    let mode = min(max((a + 1) * (b + 1) / (n + 2), lo), hi)
                    let gln = lf[a] + lf[b] + lf[n - a] + lf[n - b] - (lf[mode] + lf[n])
                        - lf[a - mode] - lf[b - mode] - lf[n - a - b + mode]
                    let top = exp(gln), floor = top * negligible
                    var sum = term(mode, top)
                    // Neighbours by the ratio of consecutive hypergeometric probabilities.
                    var p = top, k = mode
                    while k < hi && p >= floor {
                        p *= Double(a - k) * Double(b - k) / (Double(k + 1) * (rest + Double(k + 1)))
                        k += 1
                        sum += term(k, p)
                    }
                    p = top; k = mode
                    while k > lo && p >= floor {
                        p *= Double(k) * (rest + Double(k)) / (Double(a - k + 1) * Double(b - k + 1))
                        k -= 1
                        sum += term(k, p)
                    }
                    emi += Double(ta) * Double(tb) * sum
                }
            }
            return emi
        }}
    }

    /// Adjusted mutual information with arithmetic normalisation (scikit-learn's default):
    /// `(MI − EMI) / (mean(H_truth, H_pred) − EMI)`, with numerator and denominator kept at
    /// least machine epsilon away from 0 (sign kept). 1 when both sides have one label (or
    /// there are no points); 0 when exactly one side has a single label.
    /// - Complexity: that of `expectedMutualInformation()`.
    public func adjustedMutualInformation() -> Double {
        if (rowCount == 1 && columnCount == 1) || (rowCount == 0 && columnCount == 0) { return 1 }
        if rowCount == 1 || columnCount == 1 { return 0 }
        let mi = mutualInformation()
        let emi = expectedMutualInformation()
        let normalizer = (truthEntropy + predictedEntropy) / 2
        var denominator = normalizer - emi
        denominator = denominator < 0 ? min(denominator, -Double.ulpOfOne) : max(denominator, Double.ulpOfOne)
        var numerator = mi - emi
        numerator = numerator < 0 ? min(numerator, -Double.ulpOfOne) : max(numerator, Double.ulpOfOne)
        return numerator / denominator
    }

    /// Normalised mutual information, arithmetic mean of the entropies (scikit-learn's
    /// default): 1 when both sides have one label (or no points), 0 when MI is 0.
    /// - Complexity: O(R + C + cells).
    public func normalizedMutualInformation() -> Double {
        if (rowCount == 1 && columnCount == 1) || (rowCount == 0 && columnCount == 0) { return 1 }
        let mi = mutualInformation()
        if mi == 0 { return 0 }
        return mi / ((truthEntropy + predictedEntropy) / 2)
    }

    /// Homogeneity (each cluster holds one class), completeness (each class in one cluster)
    /// and their harmonic mean, the V-measure (beta = 1), as scikit-learn's
    /// `homogeneity_completeness_v_measure`: all 1 for no points; a side whose entropy is 0
    /// counts as 1.
    /// - Complexity: O(R + C + cells).
    public func homogeneityCompletenessVMeasure() -> (homogeneity: Double, completeness: Double, vMeasure: Double) {
        if count == 0 { return (1, 1, 1) }
        let hTruth = truthEntropy, hPred = predictedEntropy
        let mi = mutualInformation()
        let homogeneity = hTruth != 0 ? mi / hTruth : 1
        let completeness = hPred != 0 ? mi / hPred : 1
        let v = homogeneity + completeness == 0 ? 0 : 2 * homogeneity * completeness / (homogeneity + completeness)
        return (homogeneity, completeness, v)
    }
}
