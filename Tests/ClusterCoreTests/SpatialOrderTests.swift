@testable import ClusterCore
import Testing

@Suite("the Z-order a batch of queries is answered in")
struct SpatialOrderTests {
    /// A seeded generator of doubles in 0..<1.
    struct Uniform {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test("a permutation of the rows; rows at one point keep their order; each quadrant of the box one run of the order")
    func order() {
        var random = Uniform(state: 42)
        var xs: [Double] = [], ys: [Double] = []
        for _ in 0..<5000 { xs.append(100 + 50 * random.next()); ys.append(-20 + 10 * random.next()) }
        for _ in 0..<30 { xs.append(112.5); ys.append(-17.5) }
        xs.append(.nan); ys.append(.nan)
        let order = SpatialOrder.zOrder(xs: xs, ys: ys).map(Int.init)
        #expect(order.sorted() == Array(0..<xs.count))
        let repeated = order.filter { $0 >= 5000 && $0 < 5030 }
        #expect(repeated == Array(5000..<5030))
        #expect(order.first == xs.count - 1, "the NaN row counts as the box's lower corner")
        // Quadrants by the halves of the box's cells on each axis: the curve visits each in
        // one stretch.
        let finite = order.filter { xs[$0].isFinite }
        func half(_ v: [Double]) -> Double {
            let f = v.filter(\.isFinite), low = f.min()!, high = f.max()!
            return low + (high - low) * 32768 / 65535
        }
        let midX = half(xs), midY = half(ys)
        let quadrants = finite.map { (xs[$0] >= midX ? 1 : 0) + (ys[$0] >= midY ? 2 : 0) }
        let changes = zip(quadrants, quadrants.dropFirst()).filter { $0 != $1 }.count
        #expect(changes == 3, "the order leaves a quadrant and comes back: \(changes) changes")
        #expect(quadrants.first == 0 && quadrants.last == 3)
    }

    @Test("empty, one row, and a box of no extent")
    func degenerate() {
        #expect(SpatialOrder.zOrder(xs: [], ys: []).isEmpty)
        #expect(SpatialOrder.zOrder(xs: [1], ys: [2]) == [0])
        #expect(SpatialOrder.zOrder(xs: [5, 5, 5], ys: [7, 7, 7]) == [0, 1, 2])
    }
}
