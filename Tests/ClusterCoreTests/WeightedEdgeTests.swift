import Testing
@testable import ClusterCore
import TestSupport

@Suite("Edges sorted by (weight, a, b)")
struct WeightedEdgeTests {
    /// Edges with tied weights, weights equal in their top 32 varying bits but not below,
    /// zeros and one weight for all; ends in any order.
    static func edges(_ count: Int, kind: String, seed: UInt64) -> [WeightedEdge] {
        var g = SplitMix64(seed: seed)
        let distinct = max(1, count / 10)
        let weights: [Double] = (0..<distinct).map { _ in
            switch kind {
            // Exponents vary, so the radix passes see only the top bits: these differ below them.
            case "near": 1 + Double(Int(g.uniform() * 4)) * 250 + Double(Int(g.uniform() * 8)) * 1e-12
            case "one": 3.5
            default: Double(Int(g.uniform() * 1000)) / 7
            }
        }
        return (0..<count).map { _ in
            let x = Int32(g.uniform() * 5000), y = Int32(g.uniform() * 5000)
            let w = kind == "zeros" && g.uniform() < 0.3 ? 0 : weights[Int(g.uniform() * Double(distinct))]
            return WeightedEdge(weight: w, a: min(x, y), b: max(x, y))
        }
    }

    @Test("orders like a comparison sort", arguments: [0, 1, 2, 5000], ["ties", "near", "one", "zeros"])
    func matchesComparisonSort(count: Int, kind: String) {
        Self.expectSorted(count: count, kind: kind)
    }

    @Test("orders like a comparison sort in 16-bit digits (2^20 edges and more)", arguments: ["ties", "near"])
    func matchesComparisonSortLarge(kind: String) {
        Self.expectSorted(count: (1 << 20) + 3, kind: kind)
    }

    @Test("edges already in weight order, ties in any order of their ends (a Kruskal's output)",
          arguments: [5000, (1 << 20) + 3], ["ties", "near", "one", "zeros"])
    func inWeightOrder(count: Int, kind: String) {
        Self.expectSorted(count: count, kind: kind) { edges in
            // Stable by weight alone, so tied edges keep their random order of ends.
            edges = edges.enumerated().sorted { ($0.element.weight, $0.offset) < ($1.element.weight, $1.offset) }
                .map(\.element)
        }
    }

    static func expectSorted(count: Int, kind: String, arranging: (inout [WeightedEdge]) -> Void = { _ in }) {
        var edges = Self.edges(count, kind: kind, seed: UInt64(count) &+ UInt64(kind.count))
        arranging(&edges)
        let expected = edges.sorted { $0.precedes($1) }
        WeightedEdge.sort(&edges)
        let differing = edges.indices.first {
            (edges[$0].weight, edges[$0].a, edges[$0].b) != (expected[$0].weight, expected[$0].a, expected[$0].b)
        }
        #expect(differing == nil, "\(kind), \(count) edges: first out of place at \(differing ?? -1)")
    }
}
