import Datasets
@testable import Reports
import Testing

@Suite("Cluster boxes")
struct ClusterBoxesTests {
    /// Boxes of every size (points to a third of the extent), margins from 0 to a quarter of it:
    /// the neighbours found are exactly the pairs a check of every pair finds.
    @Test("neighbours equal a check of every pair", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func neighboursAreEveryClosePair(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var x = [Double](), y = [Double](), labels = [Int32]()
        let clusters = 50 + rng.nextInt(below: 400)
        for c in 0..<clusters {
            let (cx, cy) = (rng.nextDouble(in: -1e6, 1e6), rng.nextDouble(in: -1e6, 1e6))
            let spread = rng.nextLogUniform(1, 3e5)
            for _ in 0..<(1 + rng.nextInt(below: 6)) {
                x.append(cx + spread * rng.nextNormal()); y.append(cy + spread * rng.nextNormal()); labels.append(Int32(c))
            }
        }
        let boxes = ClusterBoxes(labels: labels, x: x, y: y)
        for margin in [0, 1e3, 6e4, 5e5] {
            let found = boxes.neighbours(margin: margin)
            for a in 0..<boxes.labels.count {
                let expected = (0..<boxes.labels.count).filter { b in
                    b != a && boxes.minX[b] - boxes.maxX[a] <= margin && boxes.minX[a] - boxes.maxX[b] <= margin
                        && boxes.minY[b] - boxes.maxY[a] <= margin && boxes.minY[a] - boxes.maxY[b] <= margin
                }
                let got = found[a].map(Int.init).sorted()
                #expect(got == expected && found.degree(a) == expected.count, "margin \(margin), cluster \(a)")
                if got != expected { return }
            }
        }
    }
}
