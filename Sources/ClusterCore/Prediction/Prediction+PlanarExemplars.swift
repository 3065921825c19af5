// The exemplars that can be nearest to a site of a k-d node, narrowed from the root down.
//
// For a node's box and a label, let f be the label's candidate nearest the box's centre. Another
// candidate e can be nearest to no point q of the box when |q − e|² > |q − f|² for every q
// there, and |q − e|² − |q − f|² is affine in q: it is enough that it holds at the four
// corners. The test takes it to hold when, at every corner, e's squared distance exceeds f's by
// more than 1e-9 of e's largest corner value: then for every q of the box the two squared
// distances as computed (each within a relative 4·2⁻⁵³ of the exact value) keep that order, so
// the smallest computed value over the kept candidates is the smallest over all exemplars, bit
// for bit. A child's box lies in its parent's, so its candidates are narrowed from the
// parent's: the far labels, whose exemplars sit in a few dense spots, keep one or two of them a
// few levels down, where a test against the box's distance alone keeps a whole spot.

/// Label j's candidates at `xy[labelStart[j] ..< labelStart[j + 1]]`, as (x, y) pairs.
struct ExemplarCandidates {
    var labelStart: [Int]
    var xy: [Double]
}

/// `ExemplarDistances` on the plane: groups of the model's k-d tree (see the file's header).
struct PlanarExemplarDistances: ExemplarDistances {
    let tree: KDTree
    let context: SoftContext
    let points: PointSet
    /// The most sites in a group.
    var groupSize = 64

    func forEachGroup(threads: Int, _ body: (_ positions: Range<Int>, _ candidates: ExemplarCandidates) -> Void) {
        let groups = tree.groups(ofAtMost: groupSize)
        let groupLevel = Self.level(of: groups[0])
        // The candidates of the nodes some levels down, narrowed from the root's one by one
        // level; each subtree from there on a worker of its own.
        var frontier = [(node: 0, candidates: narrowed(allExemplars(), to: 0))]
        var level = 0
        while level < groupLevel && frontier.count < 16 {
            frontier = frontier.flatMap { node, candidates in
                [2 * node + 1, 2 * node + 2].map { ($0, narrowed(candidates, to: $0)) }
            }
            level += 1
        }
        let from = level
        Parallel.forEachChunk(count: frontier.count, grain: 1, threads: threads) { chunk, _ in
            for k in chunk { descend(frontier[k].node, frontier[k].candidates, level: from, to: groupLevel, body) }
        }
    }

    /// Depth of a heap-ordered node (the root's is 0).
    private static func level(of node: Int) -> Int {
        var level = 0
        while (2 << level) - 1 <= node { level += 1 }
        return level
    }

    /// Calls `body` for the groups under `node` (at `level`), narrowing the candidates level by
    /// level down to the groups' level.
    private func descend(_ node: Int, _ candidates: ExemplarCandidates, level: Int, to groupLevel: Int,
                         _ body: (Range<Int>, ExemplarCandidates) -> Void) {
        guard tree.start[node] < tree.end[node] else { return }
        if level == groupLevel {
            body(Int(tree.start[node])..<Int(tree.end[node]), candidates)
            return
        }
        for child in [2 * node + 1, 2 * node + 2] {
            descend(child, narrowed(candidates, to: child), level: level + 1, to: groupLevel, body)
        }
    }

    /// Every exemplar of every label.
    private func allExemplars() -> ExemplarCandidates {
        var all = ExemplarCandidates(labelStart: [0], xy: [])
        for j in 0..<context.model.clusterCount {
            for (x, y) in zip(context.exemplarXs[j], context.exemplarYs[j]) { all.xy.append(x); all.xy.append(y) }
            all.labelStart.append(all.xy.count / 2)
        }
        return all
    }

    /// The candidates among `parent`'s that can be nearest to a point of the node's box (see
    /// the file's header); an empty node keeps them all.
    func narrowed(_ parent: ExemplarCandidates, to node: Int) -> ExemplarCandidates {
        guard tree.start[node] < tree.end[node] else { return parent }
        let box = CornerBox(minX: tree.minX[node], maxX: tree.maxX[node], minY: tree.minY[node], maxY: tree.maxY[node])
        var kept = ExemplarCandidates(labelStart: [0], xy: [])
        kept.labelStart.reserveCapacity(parent.labelStart.count)
        kept.xy.reserveCapacity(parent.xy.count)
        parent.xy.withUnsafeBufferPointer { xy in
            for j in 0..<(parent.labelStart.count - 1) {
                box.keep(xy.baseAddress!, from: parent.labelStart[j], to: parent.labelStart[j + 1], into: &kept.xy)
                kept.labelStart.append(kept.xy.count / 2)
            }
        }
        return kept
    }

    func distances(site i: Int, _ near: ExemplarCandidates, into out: UnsafeMutablePointer<Double>) {
        let x = points.xs[i], y = points.ys[i]
        near.xy.withUnsafeBufferPointer { xy in
            for j in 0..<context.model.clusterCount {
                let from = near.labelStart[j], to = near.labelStart[j + 1]
                let nearest2 = PredictionModel.smallestSquare(xy.baseAddress! + 2 * from, count: to - from, x: x, y: y)
                // The root of the smallest square is the smallest root (the root is monotonic
                // and correctly rounded).
                out[j] = nearest2 == .infinity ? Double.greatestFiniteMagnitude : nearest2.squareRoot()
            }
        }
    }
}

/// A node's box, for the test of the file's header.
private struct CornerBox {
    let minX: Double, maxX: Double, minY: Double, maxY: Double

    @inline(__always)
    private static func square(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let dx = ax - bx, dy = ay - by
        return dx * dx + dy * dy
    }

    /// Appends to `out` the pairs of `xy[from ..< to]` that can be nearest to a point of the box.
    func keep(_ xy: UnsafePointer<Double>, from: Int, to: Int, into out: inout [Double]) {
        if to - from <= 1 {
            for k in (2 * from)..<(2 * to) { out.append(xy[k]) }
            return
        }
        let cx = minX + (maxX - minX) / 2, cy = minY + (maxY - minY) / 2
        var f = from, best = Double.infinity
        for k in from..<to {
            let d = Self.square(xy[2 * k], xy[2 * k + 1], cx, cy)
            if d < best { (best, f) = (d, k) }
        }
        let (fx, fy) = (xy[2 * f], xy[2 * f + 1])
        let f0 = Self.square(minX, minY, fx, fy), f1 = Self.square(maxX, minY, fx, fy)
        let f2 = Self.square(minX, maxY, fx, fy), f3 = Self.square(maxX, maxY, fx, fy)
        for k in from..<to {
            let (ex, ey) = (xy[2 * k], xy[2 * k + 1])
            let e0 = Self.square(minX, minY, ex, ey), e1 = Self.square(maxX, minY, ex, ey)
            let e2 = Self.square(minX, maxY, ex, ey), e3 = Self.square(maxX, maxY, ex, ey)
            let margin = max(max(e0, e1), max(e2, e3)) * 1e-9 + 1e-290
            let farther = e0 > f0 + margin && e1 > f1 + margin && e2 > f2 + margin && e3 > f3 + margin
            if !farther { out.append(ex); out.append(ey) }
        }
    }
}
