// What Borůvka's rounds (MinimumSpanningTree+Boruvka.swift, +Search.swift) need of a k-d tree:
// the planar tree of the plane (`TreeView`) and the 3-D tree of unit vectors on the sphere
// (`SphereView`) both give it, so one implementation of the rounds serves both metrics.

/// A k-d tree read through raw pointers, as Borůvka's rounds search it: points in tree order,
/// nodes in heap order over contiguous position ranges (all leaves at one depth), and the
/// geometry of a point against a node, all in squared distances.
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
    /// Every leaf not wholly inside component `c` whose lower bound on the squared weight of
    /// an edge from node `g` (a leaf or a group above it, wholly inside c),
    /// `max(min core in g, min core in leaf, box-to-box distance²)`, is at most `bound`, into
    /// `out`: their number (-1 when there are more than `capacity`) and a lower bound on the
    /// squared weight of every edge from g to a point outside c and the listed leaves.
    func leavesInReach(of g: Int, component c: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                       nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>,
                       into out: UnsafeMutablePointer<Int32>, capacity: Int) -> (count: Int, floor: Double)
}

extension BoruvkaTree {
    /// The leaf holding tree position `p`.
    @inline(__always)
    func leaf(containing p: Int) -> Int { KDTree.leaf(containing: p, end: end, firstLeaf: firstLeaf) }

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
}
