// What Borůvka's rounds (MinimumSpanningTree+Boruvka.swift, +Search.swift) need of a k-d tree:
// the planar tree of the plane (`TreeView`), the 3-D tree of unit vectors on the sphere
// (`SphereView`) and the d-dimensional tree (`FeatureView`) all give it, so one implementation
// of the rounds serves every space.

/// A k-d tree read through raw pointers, as Borůvka's rounds search it: points in tree order,
/// nodes over contiguous position ranges, internal nodes before leaves (`firstLeaf`), each
/// internal node before its children and the leaves in position order, and the geometry of a
/// point against a node, all in squared distances. The navigation defaults to heap order
/// (node i's children 2i + 1 and 2i + 2, all leaves at one depth); a tree of another shape
/// gives its own.
protocol BoruvkaTree: Sendable {
    /// A point's coordinates, read once per search.
    associatedtype Point
    var start: UnsafePointer<Int32> { get }
    var end: UnsafePointer<Int32> { get }
    var firstLeaf: Int { get }
    var nodeCount: Int { get }
    /// The number of points.
    var count: Int { get }

    /// The coordinates of tree position p.
    func point(_ p: Int) -> Point
    /// Squared distance from tree position q to `at`, the very expression every weight of the
    /// MST is computed with.
    func distance2(_ q: Int, _ at: Point) -> Double
    /// Squared distance from `at` to `node`'s box (0 inside): no point of the node is nearer.
    func boxDistance2(_ node: Int, _ at: Point) -> Double
    /// For `at` inside `node`: a squared distance no point outside the node is nearer than.
    func insideClearance2(_ node: Int, _ at: Point) -> Double
    /// Squared distance between the boxes of nodes a and b (0 when they meet).
    func boxBoxDistance2(_ a: Int, _ b: Int) -> Double
    /// For node g inside `node` (or equal to it): a distance from g's box that every point
    /// outside `node` lies at least at (not squared; at most 0 when there is none).
    func gap(of g: Int, inside node: Int) -> Double

    /// The two children of internal node `node`.
    func children(of node: Int) -> (left: Int, right: Int)
    /// The parent of `node` (not the root, 0).
    func parent(of node: Int) -> Int
    /// The other child of `node`'s parent (`node` not the root).
    func sibling(of node: Int) -> Int
    /// The most edges on a path from the root to a leaf.
    var depth: Int { get }
    /// Nodes of about 64 points that together hold every leaf once, in position order:
    /// Borůvka's units of work.
    func groups() -> [Int32]
}

extension BoruvkaTree {
    @inline(__always) func children(of node: Int) -> (left: Int, right: Int) { KDTree.children(of: node) }
    @inline(__always) func parent(of node: Int) -> Int { KDTree.parent(of: node) }
    @inline(__always) func sibling(of node: Int) -> Int { KDTree.sibling(of: node) }
    var depth: Int { KDTree.depth(ofNodeCount: nodeCount) }

    /// In heap order, the nodes three levels above the leaves (the root of a smaller tree).
    func groups() -> [Int32] {
        let first = Swift.max(0, (firstLeaf + 1) / 8 - 1)
        let count = first == 0 ? 1 : first + 1
        return (0..<count).map { Int32(first + $0) }
    }

    /// The leaves under `node`: a contiguous run of node indices.
    @inline(__always) func leaves(under node: Int) -> ClosedRange<Int> {
        var lo = node, hi = node
        while lo < firstLeaf { lo = children(of: lo).left }
        while hi < firstLeaf { hi = children(of: hi).right }
        return lo...hi
    }
}

extension BoruvkaTree {
    /// The leaf holding tree position `p`.
    @inline(__always)
    func leaf(containing p: Int) -> Int {
        var node = 0
        while node < firstLeaf {
            let (l, r) = children(of: node)
            node = p < Int(end[l]) ? l : r
        }
        return node
    }

    /// Every leaf not wholly inside component `c` whose lower bound on the squared weight of
    /// an edge from node `g` (a leaf or a group above it, wholly inside c),
    /// `max(min core in g, min core in leaf, box-to-box distance²)`, is at most `bound`, into
    /// `out`: their number (-1 when there are more than `capacity`) and `floor`, a lower bound
    /// on the squared weight of every edge from g to a point outside c and the listed leaves
    /// (the bounds of the nodes the walk set aside, and of everything beyond where its climb
    /// stopped).
    ///
    /// The walk climbs from g as a point's search does: the sibling subtree of each ancestor
    /// is walked top-down, and the climb stops once every point outside the current ancestor
    /// lies beyond the bound (`gap`). Walking from the root instead spent most of its visits
    /// on the way down to the group's own neighbourhood (docs/performance.md).
    /// - Parameter stack: scratch for at least `2 * (depth + 2)` node indices.
    func leavesInReach(of g: Int, component c: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                       nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>,
                       into out: UnsafeMutablePointer<Int32>, capacity: Int) -> (count: Int, floor: Double) {
        let gMin = nodeMinCore2[g]
        if gMin > bound { return (0, gMin) }
        var count = 0, floor = Double.infinity
        var node = g
        while node > 0 {
            let gap = self.gap(of: g, inside: node)
            if gap > 0 && gap * gap > bound { floor = Swift.min(floor, Swift.max(gMin, gap * gap)); break }
            let sibling = sibling(of: node)
            node = parent(of: node)
            if nodeComp[sibling] == c { continue }
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                if nodeComp[t] == c { continue }
                let lb = Swift.max(gMin, nodeMinCore2[t], boxBoxDistance2(g, t))
                if lb > bound { floor = Swift.min(floor, lb); continue }
                if t >= firstLeaf {
                    if count == capacity { return (-1, floor) }
                    out[count] = Int32(t); count += 1
                    continue
                }
                let (l, r) = children(of: t)
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r); sp += 2
            }
        }
        return (count, floor)
    }

    /// Whether a leaf outside component `c` could hold an edge of weight at most `bound` from
    /// node `g` (wholly inside c): `leavesInReach` with room for no leaf, which stops at the
    /// first one (-1) or finds none.
    /// - Parameter stack: scratch for at least `2 * (depth + 2)` node indices.
    func hasCandidate(group g: Int, component c: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                      nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>) -> Bool {
        var unused: Int32 = 0
        return leavesInReach(of: g, component: c, bound: bound, nodeComp: nodeComp, nodeMinCore2: nodeMinCore2,
                             stack: stack, into: &unused, capacity: 0).count != 0
    }

    /// The leaves outside `home` (an ancestor of `leaf`, or the leaf itself) whose boxes lie
    /// within squared distance `reach` of the leaf's box, into `out`; -1 when there are more
    /// than `capacity`. The climb stops once every point outside the current node lies beyond
    /// the reach: the leaf's box lies inside the node's cell, and every point outside the node
    /// beyond one of the cell's faces.
    @inline(__always)
    func leavesNear(_ leaf: Int, outside home: Int, within reach: Double, into out: UnsafeMutablePointer<Int32>,
                    capacity: Int, stack: UnsafeMutablePointer<Int32>) -> Int {
        var count = 0
        var node = home
        while node > 0 {
            let gap = gap(of: leaf, inside: node)
            if gap > 0 && gap * gap > reach { break }
            let sibling = sibling(of: node)
            node = parent(of: node)
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                if boxBoxDistance2(leaf, t) > reach { continue }
                if t >= firstLeaf {
                    if count == capacity { return -1 }
                    out[count] = Int32(t); count += 1
                    continue
                }
                let (l, r) = children(of: t)
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r); sp += 2
            }
        }
        return count
    }

    /// Calls `body(q, d2)` for every tree position q (p itself included) whose squared
    /// distance to p is at most `limit2`, until `body` returns false: DBSCAN's neighbourhoods.
    @inline(__always) func forEach(within limit2: Double, of p: Int, _ body: (Int, Double) -> Bool) {
        let at = point(p)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * (depth + 2)) { stack in
            var sp = 1
            stack[0] = 0
            while sp > 0 {
                sp -= 1
                let node = Int(stack[sp])
                if boxDistance2(node, at) > limit2 { continue }
                if node >= firstLeaf {
                    for q in Int(start[node])..<Int(end[node]) {
                        let d2 = distance2(q, at)
                        if d2 <= limit2 && !body(q, d2) { return }
                    }
                } else {
                    let (l, r) = children(of: node)
                    stack[sp] = Int32(r); stack[sp + 1] = Int32(l); sp += 2
                }
            }
        }
    }
}
