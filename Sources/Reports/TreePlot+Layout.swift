import ClusterCore
#if canImport(Glibc)
import Glibc  // log1p (FoundationEssentials does not re-export it)
#elseif canImport(Darwin)
import Darwin
#endif

/// The scale-independent facts the tree plot needs from a condensed tree: each cluster's
/// children in drawing order, its width in size units, and its "events" — the distinct λ at
/// which points or child clusters leave it, with how many points leave there.
///
/// Clusters are indexed `k = id - pointCount` (0 is the root), as in `CondensedTree`.
struct TreeShape {
    let pointCount: Int
    let clusterCount: Int
    /// Children of each cluster (as indices), widest first; equal sizes by ascending id, so
    /// the layout depends only on the tree.
    let children: [[Int]]
    /// Parent index of each cluster (-1 for the root).
    let parent: [Int]
    /// Width of each cluster at its birth, in size units (`unit(size)`).
    let birthUnits: [Double]
    /// Events of cluster k: `eventLambda[eventStart[k]..<eventStart[k + 1]]`, ascending and
    /// distinct, each with the number of points leaving at it (`eventDrop`).
    let eventStart: [Int]
    let eventLambda: [Double]
    let eventDrop: [Int]
    let logWidth: Bool

    /// - Complexity: O(r log r) for r rows (sorting each cluster's rows by λ).
    init(_ tree: CondensedTree, logWidth: Bool) {
        let n = tree.pointCount, c = tree.clusterCount
        pointCount = n
        clusterCount = c
        self.logWidth = logWidth
        parent = (0..<c).map { $0 == 0 ? -1 : Int(tree.clusterParent[$0]) - n }
        let sizes = tree.clusterSize
        children = tree.clusterChildren().map { ids in
            ids.map { Int($0) - n }.sorted { (sizes[$0], -$0) > (sizes[$1], -$1) }
        }
        birthUnits = sizes.map { Self.unit(Int($0), logWidth: logWidth) }

        // Rows grouped by parent (a counting sort), then each group sorted by λ and runs of
        // equal λ merged into one event.
        let rows = tree.parent.count
        var start = [Int](repeating: 0, count: c + 1)
        for p in tree.parent { start[Int(p) - n + 1] += 1 }
        for k in 0..<c { start[k + 1] += start[k] }
        var order = [Int32](repeating: 0, count: rows)
        var fill = start
        for r in 0..<rows {
            let k = Int(tree.parent[r]) - n
            order[fill[k]] = Int32(r)
            fill[k] += 1
        }
        var eStart = [Int](repeating: 0, count: c + 1)
        var eLambda: [Double] = [], eDrop: [Int] = []
        eLambda.reserveCapacity(rows); eDrop.reserveCapacity(rows)
        let lambda = tree.lambda, childSize = tree.childSize
        for k in 0..<c {
            order[start[k]..<start[k + 1]].sort { lambda[Int($0)] < lambda[Int($1)] }
            for i in start[k]..<start[k + 1] {
                let r = Int(order[i])
                if eLambda.count > eStart[k], eLambda[eLambda.count - 1] == lambda[r] {
                    eDrop[eDrop.count - 1] += Int(childSize[r])
                } else {
                    eLambda.append(lambda[r]); eDrop.append(Int(childSize[r]))
                }
            }
            eStart[k + 1] = eLambda.count
        }
        eventStart = eStart
        eventLambda = eLambda
        eventDrop = eDrop
    }

    /// Width units of `size` points: the size itself, or ln(1 + size) for log width (so that
    /// a single remaining point still has a width; the hdbscan library uses ln(size)).
    static func unit(_ size: Int, logWidth: Bool) -> Double {
        logWidth ? log1p(Double(size)) : Double(size)
    }
}

/// Where every drawn cluster goes, for one scale (px per size unit): which clusters are
/// drawn (a branch whose birth width is below the minimum visible width is collapsed, with
/// everything under it), each one's slot (the horizontal room its subtree takes) and the
/// centre of its column.
struct TreeLayout {
    /// px per size unit.
    let scale: Double
    let visible: [Bool]
    /// Slot left edge and width (px) and column centre (px) of each visible cluster.
    let left: [Double]
    let slot: [Double]
    let centre: [Double]
    /// Number of visible clusters.
    let visibleCount: Int

    /// Finds the largest scale at which the whole tree, with `gap` px between sibling slots,
    /// fits in `width` px, and places the clusters in `[x0, x0 + width]`.
    /// - Complexity: O(c · 60) for c clusters (a bisection on the scale).
    init(_ shape: TreeShape, x0: Double, width: Double, minimumVisible: Double, gap: Double) {
        let rootUnits = max(shape.birthUnits[0], 1e-9)
        var lo = 0.0, hi = width / rootUnits
        if Self.fit(shape, scale: hi, minimumVisible: minimumVisible, gap: gap).slot[0] > width {
            // Slot width grows with the scale (wider columns, more of them visible), so the
            // largest scale that fits is found by bisection.
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if Self.fit(shape, scale: mid, minimumVisible: minimumVisible, gap: gap).slot[0] <= width {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            hi = lo
        }
        scale = hi
        let f = Self.fit(shape, scale: hi, minimumVisible: minimumVisible, gap: gap)
        visible = f.visible
        slot = f.slot
        visibleCount = f.visible.reduce(0) { $0 + ($1 ? 1 : 0) }

        // Slots top-down (parents have smaller indices than their children): each cluster's
        // visible children side by side, the group centred in its slot.
        let c = shape.clusterCount
        var left = [Double](repeating: 0, count: c)
        left[0] = x0 + (width - f.slot[0]) / 2
        for k in 0..<c where f.visible[k] {
            var x = left[k] + (f.slot[k] - f.group[k]) / 2
            for ch in shape.children[k] where f.visible[ch] {
                left[ch] = x
                x += f.slot[ch] + gap
            }
        }
        // Centres bottom-up: a parent sits at its drawn children's centre of mass (weighted
        // by width), kept inside its own slot. The hdbscan library puts it midway between its
        // outer children; with the mass rule a large cluster that sheds small ones stays
        // above its large child, so a chain of such splits reads as one column, not a diagonal.
        var centre = [Double](repeating: 0, count: c)
        for k in stride(from: c - 1, through: 0, by: -1) where f.visible[k] {
            let kids = shape.children[k].filter { f.visible[$0] }
            let half = hi * shape.birthUnits[k] / 2
            if !kids.isEmpty {
                let mass = kids.reduce(0.0) { $0 + shape.birthUnits[$1] }
                let mid = kids.reduce(0.0) { $0 + centre[$1] * shape.birthUnits[$1] } / mass
                centre[k] = min(max(mid, left[k] + half), left[k] + f.slot[k] - half)
            } else {
                centre[k] = left[k] + f.slot[k] / 2
            }
        }
        self.left = left
        self.centre = centre
    }

    /// Visibility, slot widths and children's group widths at one scale.
    private static func fit(
        _ shape: TreeShape, scale: Double, minimumVisible: Double, gap: Double
    ) -> (visible: [Bool], slot: [Double], group: [Double]) {
        let c = shape.clusterCount
        var visible = [Bool](repeating: false, count: c)
        visible[0] = true
        for k in 1..<max(c, 1) {
            visible[k] = visible[shape.parent[k]] && scale * shape.birthUnits[k] >= minimumVisible
        }
        var slot = [Double](repeating: 0, count: c), group = [Double](repeating: 0, count: c)
        for k in stride(from: c - 1, through: 0, by: -1) where visible[k] {
            var g = 0.0, count = 0
            for ch in shape.children[k] where visible[ch] { g += slot[ch]; count += 1 }
            if count > 1 { g += gap * Double(count - 1) }
            group[k] = g
            slot[k] = max(scale * shape.birthUnits[k], g)
        }
        return (visible, slot, group)
    }
}
