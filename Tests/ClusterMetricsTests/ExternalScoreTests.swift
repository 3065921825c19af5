import Foundation
import Testing
@testable import ClusterMetrics
import TestSupport

/// The textbook formulas, written the slow and obvious way (dense tables, explicit pairs,
/// scikit-learn's full triple loop for the expected mutual information).
enum SlowReference {
    /// Dense table of dense-id labelings.
    static func table(_ t: [Int], _ p: [Int]) -> [[Int]] {
        let r = (t.max() ?? -1) + 1, c = (p.max() ?? -1) + 1
        var m = [[Int]](repeating: [Int](repeating: 0, count: c), count: r)
        for i in t.indices { m[t[i]][p[i]] += 1 }
        return m
    }

    /// Dense ids in ascending label order.
    static func dense(_ labels: [Int32]) -> [Int] {
        let values = Array(Set(labels)).sorted()
        let id = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($1, $0) })
        return labels.map { id[$0]! }
    }

    /// ARI from explicitly enumerated pairs (Hubert & Arabie's formula with index, expected
    /// and maximum index over pairs).
    static func ari(_ t: [Int], _ p: [Int]) -> Double {
        let n = t.count
        var both = 0.0, inT = 0.0, inP = 0.0
        for i in 0..<n { for j in (i + 1)..<max(n, i + 1) {
            let a = t[i] == t[j], b = p[i] == p[j]
            if a && b { both += 1 }
            if a { inT += 1 }
            if b { inP += 1 }
        }}
        let pairs = Double(n * (n - 1) / 2)
        let expected = inT * inP / pairs, maximum = (inT + inP) / 2
        if maximum == expected { return 1 }
        return (both - expected) / (maximum - expected)
    }

    static func entropy(_ sizes: [Int]) -> Double {
        let n = Double(sizes.reduce(0, +))
        return -sizes.filter { $0 > 0 }.reduce(0.0) { $0 + Double($1) / n * log(Double($1) / n) }
    }

    static func mi(_ m: [[Int]]) -> Double {
        let n = Double(m.joined().reduce(0, +))
        let a = m.map { $0.reduce(0, +) }, b = (0..<(m.first?.count ?? 0)).map { j in m.reduce(0) { $0 + $1[j] } }
        var s = 0.0
        for i in m.indices { for j in m[i].indices where m[i][j] > 0 {
            let nij = Double(m[i][j])
            s += nij / n * log(n * nij / (Double(a[i]) * Double(b[j])))
        }}
        return s
    }

    /// scikit-learn's `expected_mutual_information`, every term.
    static func emi(_ m: [[Int]]) -> Double {
        let n = m.joined().reduce(0, +)
        let a = m.map { $0.reduce(0, +) }, b = (0..<(m.first?.count ?? 0)).map { j in m.reduce(0) { $0 + $1[j] } }
        func lf(_ k: Int) -> Double { lgamma(Double(k + 1)) }
        var emi = 0.0
        for ai in a { for bj in b {
            let lo = max(1, ai + bj - n), hi = min(ai, bj)
            if lo > hi { continue }
            for nij in lo...hi {
                let t = Double(nij) / Double(n) * log(Double(n) * Double(nij) / (Double(ai) * Double(bj)))
                let g = lf(ai) + lf(bj) + lf(n - ai) + lf(n - bj) - lf(nij) - lf(n) - lf(ai - nij) - lf(bj - nij) - lf(n - ai - bj + nij)
                emi += t * exp(g)
            }
        }}
        return emi
    }

    static func fmi(_ m: [[Int]]) -> Double {
        let n = m.joined().reduce(0, +)
        let a = m.map { $0.reduce(0, +) }, b = (0..<(m.first?.count ?? 0)).map { j in m.reduce(0) { $0 + $1[j] } }
        let tk = m.joined().reduce(0) { $0 + $1 * $1 } - n
        let pk = b.reduce(0) { $0 + $1 * $1 } - n, qk = a.reduce(0) { $0 + $1 * $1 } - n
        return tk == 0 ? 0 : Double(tk) / (Double(pk) * Double(qk)).squareRoot()
    }
}

@Suite("External scores")
struct ExternalScoreTests {
    @Test("there are fixtures for the required label pairs")
    func coverage() {
        let names = Set(ScoreFixture.all.map(\.name))
        for required in ["random_small", "skewed_sizes", "all_one_cluster", "all_noise", "identical", "permuted",
                         "one_singleton", "both_one_cluster", "all_singletons"] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test("every score equals scikit-learn's within 1e-9, in every noise mode", arguments: ScoreFixture.all)
    func matchesScikitLearn(_ f: ScoreFixture) throws {
        for mode in NoiseMode.allCases {
            let want = try #require(f.scores[mode.rawValue], "no \(mode.rawValue) scores")
            let t = try ContingencyTable(truth: f.truth, predicted: f.predicted, noise: mode)
            let s = ClusteringScores(table: t, noise: mode)
            let label = "\(f.name) \(mode.rawValue)"
            #expect(s.count == want.n, "\(label)")
            #expect(s.truthLabelCount == want.truth_labels && s.predictedLabelCount == want.predicted_labels, "\(label)")
            #expect(close(s.adjustedRandIndex, want.adjusted_rand), "\(label) ARI \(s.adjustedRandIndex) vs \(want.adjusted_rand)")
            #expect(close(s.adjustedMutualInformation, want.adjusted_mutual_info), "\(label) AMI \(s.adjustedMutualInformation) vs \(want.adjusted_mutual_info)")
            #expect(close(s.normalizedMutualInformation, want.normalized_mutual_info), "\(label) NMI")
            #expect(close(s.homogeneity, want.homogeneity), "\(label) homogeneity")
            #expect(close(s.completeness, want.completeness), "\(label) completeness")
            #expect(close(s.vMeasure, want.v_measure), "\(label) V-measure")
            #expect(close(s.fowlkesMallows, want.fowlkes_mallows), "\(label) FMI")
            if let mi = want.mutual_info { #expect(close(t.mutualInformation(), mi), "\(label) MI") }
            #expect(close(t.expectedMutualInformation(), want.expected_mutual_info), "\(label) EMI \(t.expectedMutualInformation()) vs \(want.expected_mutual_info)")
            if want.n > 0 {
                #expect(close(t.truthEntropy, want.entropy_truth) && close(t.predictedEntropy, want.entropy_predicted), "\(label)")
            }
        }
    }

    @Test("the contingency table counts what a dictionary counts, rows and columns in label order")
    func table() throws {
        var g = SplitMix64(seed: 1)
        let t = (0..<3000).map { _ in Int32.random(in: -1...30, using: &g) * 7 }
        let p = (0..<3000).map { _ in Int32.random(in: -1...50, using: &g) * 1_000_003 }  // sparse values: the dictionary path
        let table = try ContingencyTable(truth: t, predicted: p)
        let rows = Array(Set(t)).sorted(), cols = Array(Set(p)).sorted()
        var want: [[Int32]: Int] = [:]
        for i in t.indices { want[[t[i], p[i]], default: 0] += 1 }
        var got: [[Int32]: Int] = [:]
        for r in 0..<table.rowCount {
            var previous: Int32 = -1
            for k in table.rowStart[r]..<table.rowStart[r + 1] {
                #expect(table.columns[k] > previous)
                previous = table.columns[k]
                got[[rows[r], cols[Int(table.columns[k])]]] = table.counts[k]
            }
        }
        #expect(got == want)
        #expect(table.rowSums.reduce(0, +) == 3000 && table.columnSums.reduce(0, +) == 3000)
        #expect(table.rowSums == rows.map { r in t.filter { $0 == r }.count })
    }

    @Test("noise modes: -1 as a label, as singletons, or left out")
    func noiseModes() throws {
        let truth: [Int32] = [0, 0, 1, 1, -1, -1, 2]
        let pred: [Int32] = [5, 5, -1, 6, -1, 7, -1]
        let asCluster = try ContingencyTable(truth: truth, predicted: pred, noise: .asCluster)
        #expect(asCluster.rowCount == 4 && asCluster.columnCount == 4 && asCluster.count == 7)
        let singletons = try ContingencyTable(truth: truth, predicted: pred, noise: .singletons)
        #expect(singletons.rowCount == 3 + 2 && singletons.columnCount == 3 + 3)
        let excluded = try ContingencyTable(truth: truth, predicted: pred, noise: .excluded)
        #expect(excluded.count == 3 && excluded.excludedCount == 4)
        #expect(excluded.rowSums == [2, 1] && excluded.columnSums == [2, 1])
        let none = try ContingencyTable(truth: [-1, -1], predicted: [0, 1], noise: .excluded)
        #expect(none.count == 0)
        let s = ClusteringScores(table: none, noise: .excluded)
        // scikit-learn's values for empty labelings.
        #expect(s.adjustedRandIndex == 1 && s.adjustedMutualInformation == 1 && s.normalizedMutualInformation == 1)
        #expect(s.homogeneity == 1 && s.vMeasure == 1 && s.fowlkesMallows == 0)
    }

    @Test("equal the slow textbook formulas on random labelings", arguments: [5, 40, 300, 1200])
    func slowReference(n: Int) throws {
        var g = SplitMix64(seed: UInt64(n))
        for trial in 0..<6 {
            let k1 = 1 + trial * 3, k2 = 2 + trial * 5
            let t = (0..<n).map { _ in Int32.random(in: 0..<Int32(k1), using: &g) }
            let p = (0..<n).map { i in g.next() % 3 == 0 ? t[i] : Int32.random(in: 0..<Int32(k2), using: &g) }
            let table = try ContingencyTable(truth: t, predicted: p)
            let dt = SlowReference.dense(t), dp = SlowReference.dense(p)
            let m = SlowReference.table(dt, dp)
            #expect(close(table.adjustedRandIndex(), SlowReference.ari(dt, dp), 1e-12), "n \(n) trial \(trial)")
            #expect(close(table.mutualInformation(), SlowReference.mi(m), 1e-12))
            #expect(close(table.expectedMutualInformation(), SlowReference.emi(m), 1e-12),
                    "EMI \(table.expectedMutualInformation()) vs \(SlowReference.emi(m))")
            #expect(close(table.fowlkesMallows(), SlowReference.fmi(m), 1e-12))
            let ht = SlowReference.entropy(table.rowSums), hp = SlowReference.entropy(table.columnSums)
            #expect(close(table.truthEntropy, ht, 1e-12) && close(table.predictedEntropy, hp, 1e-12))
            if table.rowCount > 1 && table.columnCount > 1 {
                let mi = SlowReference.mi(m), emi = SlowReference.emi(m)
                #expect(close(table.adjustedMutualInformation(), (mi - emi) / ((ht + hp) / 2 - emi), 1e-10))
                #expect(close(table.normalizedMutualInformation(), mi / ((ht + hp) / 2), 1e-12))
            }
        }
    }

    @Test("the expected mutual information stays exact with huge and skewed clusters")
    func emiLargeSizes() throws {
        // Two big clusters against many small ones, where scikit-learn's loop has millions of
        // terms and most are negligible: compare with the full sum.
        var t = [Int](), p = [Int]()
        var g = SplitMix64(seed: 7)
        for i in 0..<20_000 {
            t.append(i < 14_000 ? 0 : (i < 19_000 ? 1 : 2 + i % 7))
            p.append(Int(g.next() % 100 < 90 ? UInt64(t[i]) : 3 + g.next() % 40))
        }
        let m = SlowReference.table(SlowReference.dense(t.map(Int32.init)), SlowReference.dense(p.map(Int32.init)))
        let table = try ContingencyTable(truth: t.map(Int32.init), predicted: p.map(Int32.init))
        let want = SlowReference.emi(m)
        #expect(abs(table.expectedMutualInformation() - want) <= 1e-12 * max(1, abs(want)))
    }

    @Test("symmetry, label-name invariance, identical labelings")
    func properties() throws {
        var g = SplitMix64(seed: 3)
        let t = (0..<2000).map { _ in Int32.random(in: -1...12, using: &g) }
        let p = t.map { g.next() % 4 == 0 ? Int32.random(in: -1...15, using: &g) : $0 }
        let a = try ClusteringScores(truth: t, predicted: p), b = try ClusteringScores(truth: p, predicted: t)
        #expect(close(a.adjustedRandIndex, b.adjustedRandIndex, 1e-14))
        #expect(close(a.adjustedMutualInformation, b.adjustedMutualInformation, 1e-12))
        #expect(close(a.vMeasure, b.vMeasure, 1e-14) && close(a.homogeneity, b.completeness, 1e-14))
        let renamed = try ClusteringScores(truth: t, predicted: p.map { $0 == -1 ? -1 : 1000 - 3 * $0 })
        #expect(close(renamed.adjustedMutualInformation, a.adjustedMutualInformation, 1e-12))
        #expect(close(renamed.adjustedRandIndex, a.adjustedRandIndex, 1e-14))
        let same = try ClusteringScores(truth: t, predicted: t, noise: .singletons)
        for (name, v) in same.named { #expect(close(v, 1, 1e-12), "\(name) = \(v)") }
        #expect(throws: MetricsError.self) { try ContingencyTable(truth: [0, 1], predicted: [0]) }
    }

    @Test("a million labels in thousands of clusters: every score, without the quadratic loop")
    func million() throws {
        var g = SplitMix64(seed: 11)
        let n = 1_000_000
        // Pareto-like sizes: a few huge clusters and thousands of small ones; 20 % noise.
        let t = (0..<n).map { _ -> Int32 in
            let u = Double(g.next() >> 11) * 0x1p-53
            return u < 0.2 ? -1 : Int32(min(5000, 1 / (1 - u) * 3))
        }
        let p = t.map { g.next() % 10 < 8 ? $0 : Int32(g.next() % 3000) - 1 }
        let clock = ContinuousClock()
        var s: ClusteringScores?
        let elapsed = try clock.measure { s = try ClusteringScores(truth: t, predicted: p) }
        #expect(s!.predictedLabelCount > 2000)
        #expect(s!.adjustedMutualInformation > 0.5 && s!.adjustedMutualInformation < 1)
        // Generous: debug builds are ~10x slower than release (release: see docs/performance.md, "Per-command figures").
        #expect(elapsed < .seconds(30))
    }
}
