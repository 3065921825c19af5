// A static k-d tree over points in d dimensions (`FeaturePoints`): tight boxes and cells as
// the sphere tree's (SphereTree.swift), with d axes and a shape of its own (sliding-midpoint
// splits: FeatureTree+Build.swift), and the k-nearest and radius queries of HDBSCAN and
// DBSCAN on it (in squared Euclidean distances).

/// The d-dimensional k-d tree: coordinates permuted into tree order, row-major (`coords[p·w
/// + a]`, w the stored width; `index[p]` the input row, or location, of tree position p);
/// nodes over contiguous position ranges, numbered as `BoruvkaTree` describes (internal nodes
/// in pre-order, `left`/`right` their children and -1 at the leaves, `parent` -1 at the
/// root), each node with its tight box (`box[2w·node + 2a]`, `+ 1`: min and max along axis a)
/// and its cell (the same layout: the root's box cut at the split values above the node).
/// A node of more than `leafSize` distinct points splits at the middle of its box's widest
/// side (see FeatureTree+Build.swift), so a leaf holds 1 to `leafSize` points (or any number
/// of identical ones). Every point outside a node lies on the far side of (or on) one of its
/// cell's faces. The build starts from the points' canonical order, so the tree depends only
/// on the set of points, never on their order or the thread count.
struct FeatureTree: Sendable {
    let count: Int
    /// The points' dimensions, and the width their coordinates are stored in (see
    /// `FeatureWidth`): row p's coordinates are `coords[p·width ..< p·width + dimensions]`,
    /// zeros after them.
    let dimensions: Int
    let width: Int
    let coords: [Double]
    let index: [Int32]
    let start: [Int32]
    let end: [Int32]
    let left: [Int32]
    let right: [Int32]
    let parent: [Int32]
    let box: [Double]
    let cell: [Double]
    let firstLeaf: Int
    /// The most edges from the root to a leaf.
    let depth: Int
    var nodeCount: Int { start.count }

    /// The most points a leaf of distinct points holds.
    static let leafSize = 32

    /// The tree over `points`, whose rows are taken in `order` (a permutation of them: their
    /// canonical order, so that the tree does not depend on the order of the rows).
    init(_ points: FeaturePoints, order: [Int32], leafSize: Int = FeatureTree.leafSize, threads: Int) {
        let w = FeatureWidths.width(for: points.dimensions)
        let nodes = FeatureTreeNodes(points, order: order, width: w, leafSize: leafSize, threads: threads)
        count = points.count
        dimensions = points.dimensions
        width = w
        coords = nodes.coords
        index = nodes.index
        start = nodes.start
        end = nodes.end
        left = nodes.left
        right = nodes.right
        parent = nodes.parent
        box = nodes.box
        cell = nodes.cell
        firstLeaf = nodes.firstLeaf
        depth = nodes.depth
    }

    /// Gives `reader` a raw read-only view of the arrays, of the tree's width.
    func read<Reader: FeatureViewReader>(_ reader: Reader) -> Reader.Output {
        switch width {
        case 3: withView(Width3.self) { reader.read($0) }
        case 4: withView(Width4.self) { reader.read($0) }
        case 5: withView(Width5.self) { reader.read($0) }
        case 6: withView(Width6.self) { reader.read($0) }
        case 8: withView(Width8.self) { reader.read($0) }
        case 12: withView(Width12.self) { reader.read($0) }
        case 16: withView(Width16.self) { reader.read($0) }
        case 32: withView(Width32.self) { reader.read($0) }
        default: withView(Width64.self) { reader.read($0) }
        }
    }

    /// Gives `body` raw read-only views of the arrays, for hot loops (`W.count` the tree's
    /// width: a precondition).
    func withView<W: FeatureWidth, R>(_: W.Type, _ body: (FeatureView<W>) -> R) -> R {
        precondition(W.count == width, "the view's width is the tree's")
        return coords.withUnsafeBufferPointer { c in
        start.withUnsafeBufferPointer { s in
        end.withUnsafeBufferPointer { e in
        left.withUnsafeBufferPointer { l in
        right.withUnsafeBufferPointer { r in
        parent.withUnsafeBufferPointer { up in
        box.withUnsafeBufferPointer { b in
        cell.withUnsafeBufferPointer { cl in
            let dummy = UnsafePointer<Double>(bitPattern: 8)!
            return body(FeatureView<W>(coords: c.baseAddress ?? dummy, start: s.baseAddress!,
                                    end: e.baseAddress!, left: l.baseAddress!, right: r.baseAddress!, up: up.baseAddress!,
                                    box: b.baseAddress!, cell: cl.baseAddress!,
                                    firstLeaf: firstLeaf, nodeCount: nodeCount, count: count, depth: depth))
        }}}}}}}}
    }
}

/// Read-only pointers into a `FeatureTree` of width `W`, valid inside `withView`. A point is
/// the address of its first coordinate.
struct FeatureView<W: FeatureWidth>: @unchecked Sendable {
    let coords: UnsafePointer<Double>
    var d: Int { W.count }
    let start: UnsafePointer<Int32>
    let end: UnsafePointer<Int32>
    let left: UnsafePointer<Int32>
    let right: UnsafePointer<Int32>
    /// Each node's parent (-1 at the root).
    let up: UnsafePointer<Int32>
    let box: UnsafePointer<Double>
    let cell: UnsafePointer<Double>
    let firstLeaf: Int
    let nodeCount: Int
    let count: Int
    let depth: Int

    /// Squared distance between two coordinate vectors of `W.count` values, summed in axis
    /// order: the one expression every distance of the d-dimensional pipeline is computed
    /// with (the padding's zeros add nothing to it).
    @inline(__always) static func distance2(_ p: UnsafePointer<Double>, _ q: UnsafePointer<Double>) -> Double {
        var s = 0.0
        for a in 0..<W.count {
            let t = p[a] - q[a]
            s += t * t
        }
        return s
    }

    /// Squared distance between tree positions p and q.
    @inline(__always) func distance2(_ p: Int, _ q: Int) -> Double {
        FeatureView.distance2(coords + p * d, coords + q * d)
    }
}

extension FeatureView: BoruvkaTree {
    @inline(__always) func point(_ p: Int) -> UnsafePointer<Double> { coords + p * d }

    @inline(__always) func children(of node: Int) -> (left: Int, right: Int) { (Int(left[node]), Int(right[node])) }
    @inline(__always) func parent(of node: Int) -> Int { Int(up[node]) }
    @inline(__always) func sibling(of node: Int) -> Int {
        let p = Int(up[node]), l = Int(left[p])
        return l == node ? Int(right[p]) : l
    }

    /// The highest nodes of at most 64 points, in position order.
    func groups() -> [Int32] {
        var out = [Int32](), pending = [Int32(0)]
        while let node = pending.popLast().map(Int.init) {
            if node >= firstLeaf || end[node] - start[node] <= 64 { out.append(Int32(node)); continue }
            pending.append(right[node]); pending.append(left[node])
        }
        return out
    }

    @inline(__always) func distance2(_ q: Int, _ at: UnsafePointer<Double>) -> Double {
        FeatureView.distance2(coords + q * d, at)
    }

    @inline(__always) func boxDistance2(_ node: Int, _ at: UnsafePointer<Double>) -> Double {
        let b = box + 2 * d * node
        var s = 0.0
        for a in 0..<d {
            let t = Swift.max(Swift.max(b[2 * a] - at[a], at[a] - b[2 * a + 1]), 0)
            s += t * t
        }
        return s
    }

    @inline(__always) func boxBoxDistance2(_ a: Int, _ b: Int) -> Double {
        let p = box + 2 * d * a, q = box + 2 * d * b
        var s = 0.0
        for i in 0..<d {
            let t = Swift.max(Swift.max(q[2 * i] - p[2 * i + 1], p[2 * i] - q[2 * i + 1]), 0)
            s += t * t
        }
        return s
    }

    /// The distance to the nearest face of the node's cell: every point outside the node is
    /// at least this far away.
    @inline(__always) func insideClearance2(_ node: Int, _ at: UnsafePointer<Double>) -> Double {
        let c = cell + 2 * d * node
        var m = Double.infinity
        for a in 0..<d { m = Swift.min(m, Swift.min(at[a] - c[2 * a], c[2 * a + 1] - at[a])) }
        return m > 0 ? m * m : 0
    }

    /// The gap between g's box and `node`'s cell: g's box lies inside the cell, and every
    /// point outside the node beyond one of the cell's faces.
    @inline(__always) func gap(of g: Int, inside node: Int) -> Double {
        let gb = box + 2 * d * g, cb = cell + 2 * d * node
        var m = Double.infinity
        for a in 0..<d { m = Swift.min(m, Swift.min(gb[2 * a] - cb[2 * a], cb[2 * a + 1] - gb[2 * a + 1])) }
        return m
    }
}

/// A width the d-dimensional code is compiled for. Points are stored with their coordinates
/// padded with zeros to the next width (`FeatureWidths.width(for:)`): a zero adds nothing to a
/// squared distance, box or cell, so results are those of the d coordinates, while every loop
/// over the axes has a length the compiler knows.
protocol FeatureWidth: Sendable {
    static var count: Int { get }
}

enum Width3: FeatureWidth { static var count: Int { 3 } }
enum Width4: FeatureWidth { static var count: Int { 4 } }
enum Width5: FeatureWidth { static var count: Int { 5 } }
enum Width6: FeatureWidth { static var count: Int { 6 } }
enum Width8: FeatureWidth { static var count: Int { 8 } }
enum Width12: FeatureWidth { static var count: Int { 12 } }
enum Width16: FeatureWidth { static var count: Int { 16 } }
enum Width32: FeatureWidth { static var count: Int { 32 } }
enum Width64: FeatureWidth { static var count: Int { 64 } }

enum FeatureWidths {
    /// The width points of d dimensions are stored in.
    static func width(for d: Int) -> Int { [3, 4, 5, 6, 8, 12, 16, 32, 64].first { $0 >= d } ?? 64 }
}

/// Work done on a tree's view of whatever width (`FeatureTree.read`).
protocol FeatureViewReader {
    associatedtype Output
    func read<W: FeatureWidth>(_ view: FeatureView<W>) -> Output
}
