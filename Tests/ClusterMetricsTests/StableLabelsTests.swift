import Testing
import ClusterMetrics
import TestSupport

@Suite("Stable labels across refits")
struct StableLabelsTests {
    /// Random labels of n points in k clusters (some noise), and a rank per point.
    static func random(_ n: Int, _ k: Int, seed: UInt64) -> [Int32] {
        var g = SplitMix64(seed: seed)
        return (0..<n).map { _ in Int32(Int(g.next() % UInt64(k + 1))) - 1 }
    }

    @Test("renamed clusters get yesterday's labels back, all kept", arguments: [1, 2, 3] as [UInt64])
    func renamed(seed: UInt64) throws {
        let yesterday = Self.random(500, 12, seed: seed)
        let rename: [Int32] = (0..<12).map { Int32((7 * $0 + 3) % 12) }
        let today = yesterday.map { $0 < 0 ? $0 : rename[Int($0)] }
        let r = try StableLabels.match(labels: today, previous: yesterday, order: Array(0..<500),
                                   previousLabels: Set(yesterday.filter { $0 >= 0 }))
        #expect(today.map { $0 < 0 ? $0 : r.stable[Int($0)] } == yesterday)
        #expect(r.changes.allSatisfy { $0.kind == .kept })
        #expect(r.nextLabel == 12)
    }

    @Test("a split keeps the label on its larger part, a merge takes the label it shares most with; new and vanished are reported")
    func splitMergeAppearVanish() throws {
        // Yesterday: A (label 5) 10 points, B (label 8) 4 points, C (label 2) 3 points.
        // Today: A split into 6 + 4 (today's 0 and 1), B and C merged (today's 2), 3 new points
        // (today's 3); yesterday's 9 had points that are gone.
        let previous: [Int32?] = Array(repeating: 5, count: 10) + Array(repeating: 8, count: 4) + Array(repeating: 2, count: 3) + [nil, nil, nil]
        let today: [Int32] = Array(repeating: 1, count: 4) + Array(repeating: 0, count: 6) + Array(repeating: 2, count: 7) + [3, 3, 3]
        let r = try StableLabels.match(labels: today, previous: previous, order: Array(0..<20), previousLabels: [5, 8, 2, 9],
                                   nextLabel: 20)
        #expect(r.stable == [5, 20, 8, 21])
        #expect(r.nextLabel == 22)
        let byLabel = Dictionary(uniqueKeysWithValues: r.changes.compactMap { c in c.label.map { ($0, c) } })
        #expect(byLabel[5]?.kind == .kept && byLabel[5]?.size == 6)
        #expect(byLabel[20]?.kind == .split && byLabel[20]?.previousLabels == [5])
        #expect(byLabel[8]?.kind == .merged && byLabel[8]?.previousLabels == [2, 8] && byLabel[8]?.shared == 7)
        #expect(byLabel[21]?.kind == .appeared && byLabel[21]?.previousLabels == [])
        #expect(r.changes.filter { $0.kind == .vanished }.map(\.previousLabels) == [[2], [9]])
        #expect(r.changes.first { $0.previousLabels == [2] && $0.kind == .vanished }?.shared == 3)
    }

    @Test("the result does not depend on the order of the rows or on today's numbering", arguments: [4, 5, 6] as [UInt64])
    func orderFree(seed: UInt64) throws {
        let n = 400
        let yesterday = Self.random(n, 9, seed: seed)
        var today = Self.random(n, 11, seed: seed + 100)
        // Today shares structure with yesterday for half the points.
        for i in 0..<(n / 2) where yesterday[i] >= 0 { today[i] = yesterday[i] }
        let rank = (0..<n).map { ($0 * 37) % n }
        let base = try StableLabels.match(labels: today, previous: yesterday.map { $0 }, order: rank,
                                      previousLabels: Set(yesterday.filter { $0 >= 0 }))
        let stableToday = today.map { $0 < 0 ? $0 : base.stable[Int($0)] }
        var g = SplitMix64(seed: seed)
        var permutation = Array(0..<n)
        for i in stride(from: n - 1, to: 0, by: -1) { permutation.swapAt(i, Int(g.next() % UInt64(i + 1))) }
        let rename: [Int32] = (0..<11).map { Int32((5 * $0 + 2) % 11) }
        let shuffled = permutation.map { today[$0] < 0 ? today[$0] : rename[Int(today[$0])] }
        let other = try StableLabels.match(labels: shuffled, previous: permutation.map { yesterday[$0] },
                                       order: permutation.map { rank[$0] }, previousLabels: Set(yesterday.filter { $0 >= 0 }))
        #expect(permutation.map { stableToday[$0] } == shuffled.map { $0 < 0 ? $0 : other.stable[Int($0)] })
        #expect(Set(base.stable).count == base.stable.count, "no two clusters share a label")
        let fresh = base.stable.filter { !Set(yesterday).contains($0) }
        #expect(fresh.allSatisfy { $0 >= 9 })
    }

    @Test("fresh labels that would pass Int32.max are refused, not wrapped; the last one that fits is given")
    func labelsExhausted() throws {
        // Two clusters today, neither shares a point with yesterday's cluster 2147483645.
        let today: [Int32] = [0, 0, 1, 1]
        let previous: [Int32?] = [nil, nil, nil, nil]
        #expect(throws: MetricsError.labelsExhausted(start: Int(Int32.max) - 1, needed: 2)) {
            try StableLabels.match(labels: today, previous: previous, order: [0, 1, 2, 3], previousLabels: [Int32.max - 2])
        }
        let fits = try StableLabels.match(labels: today, previous: previous, order: [0, 1, 2, 3], previousLabels: [Int32.max - 3])
        #expect(fits.stable == [Int32.max - 2, Int32.max - 1] && fits.nextLabel == Int32.max)
        #expect(throws: MetricsError.self) {
            try StableLabels.match(labels: today, previous: previous, order: [0, 1, 2, 3], previousLabels: [], nextLabel: Int32.max)
        }
    }
}
