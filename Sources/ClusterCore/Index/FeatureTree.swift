// A static k-d tree over points in d dimensions (`FeaturePoints`): the sphere tree's layout
// and rules (SphereTree.swift) with d axes, and the k-nearest and radius queries of HDBSCAN
// and DBSCAN on them (in squared Euclidean distances).

/// The d-dimensional k-d tree: coordinates permuted into tree order, row-major (`coords[p·w
/// + a]`, w the stored width; `index[p]` the input row, or location, of tree position p);
/// nodes in heap order over contiguous position ranges, all leaves at one depth with at most
/// `leafSize` points, each split at the middle position along the axis its points spread
/// widest; each node with its tight box (`box[2w·node + 2a]`, `+ 1`: min and max along axis a)
/// and its cell (the same layout: the root's box cut at the split values above the node).
/// Every point outside a node lies on the far side of (or on) one of its cell's faces. The
/// build starts from the points' canonical order, so the tree depends only on the set of
/// points, never on their order or the thread count.
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
    let box: [Double]
    let cell: [Double]
    let firstLeaf: Int
    var nodeCount: Int { start.count }

    /// The leaf size of the tree.
    static let leafSize = 16

    /// The tree over `points`, whose rows are taken in `order` (a permutation of them: their
    /// canonical order, so that the tree does not depend on the order of the rows).
    init(_ points: FeaturePoints, order: [Int32], leafSize: Int = FeatureTree.leafSize, threads: Int) {
        let n = points.count, d = FeatureWidths.width(for: points.dimensions)
        var leaves = 1
        while leaves * leafSize < n { leaves *= 2 }
        let nodeCount = 2 * leaves - 1
        firstLeaf = leaves - 1
        count = n
        dimensions = points.dimensions
        width = d
        var entries = order
        var start = [Int32](repeating: 0, count: nodeCount), end = start
        var cell = [Double](repeating: 0, count: 2 * d * nodeCount)
        let rootCell = FeatureTree.bounds(points)
        points.values.withUnsafeBufferPointer { values in
        entries.withUnsafeMutableBufferPointer { e in
        start.withUnsafeMutableBufferPointer { s in
        end.withUnsafeMutableBufferPointer { t in
        cell.withUnsafeMutableBufferPointer { c in
            let builder = FeatureBuilder(values: values.baseAddress, d: points.dimensions, w: d, entries: e.baseAddress, start: s.baseAddress!,
                                         end: t.baseAddress!, cell: c.baseAddress!, nodeCount: nodeCount)
            builder.build(node: 0, lo: 0, hi: n, cell: rootCell, parallelDepth: threads > 1 ? 1 : 0, threads: threads)
        }}}}}
        self.cell = cell
        index = entries
        let given = points.dimensions
        coords = [Double].filled(count: n * d, threads: threads) {
            $0 % d < given ? points.values[Int(entries[$0 / d]) * given + $0 % d] : 0
        }
        self.start = start
        self.end = end
        box = FeatureTree.boxes(coords: coords, d: d, start: start, end: end, firstLeaf: firstLeaf)
    }

    /// The points' bounding box (the root's cell): min and max of each axis, 0 on the
    /// padding's.
    private static func bounds(_ points: FeaturePoints) -> [Double] {
        let d = points.dimensions
        var b = [Double](repeating: 0, count: 2 * FeatureWidths.width(for: d))
        guard points.count > 0 else { return b }
        for a in 0..<d { b[2 * a] = .infinity; b[2 * a + 1] = -.infinity }
        for row in 0..<points.count {
            for a in 0..<d { b[2 * a] = min(b[2 * a], points[row, a]); b[2 * a + 1] = max(b[2 * a + 1], points[row, a]) }
        }
        return b
    }

    /// Tight boxes: leaves from their points, internal nodes from their children.
    private static func boxes(coords: [Double], d: Int, start: [Int32], end: [Int32], firstLeaf: Int) -> [Double] {
        let nodeCount = start.count, w = 2 * d
        var box = [Double](repeating: 0, count: w * nodeCount)
        for node in 0..<nodeCount { for a in 0..<d { box[w * node + 2 * a] = .infinity; box[w * node + 2 * a + 1] = -.infinity } }
        for leaf in firstLeaf..<nodeCount {
            for p in Int(start[leaf])..<Int(end[leaf]) {
                for a in 0..<d {
                    box[w * leaf + 2 * a] = min(box[w * leaf + 2 * a], coords[p * d + a])
                    box[w * leaf + 2 * a + 1] = max(box[w * leaf + 2 * a + 1], coords[p * d + a])
                }
            }
        }
        for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
            let (l, r) = KDTree.children(of: node)
            for a in 0..<d {
                box[w * node + 2 * a] = min(box[w * l + 2 * a], box[w * r + 2 * a])
                box[w * node + 2 * a + 1] = max(box[w * l + 2 * a + 1], box[w * r + 2 * a + 1])
            }
        }
        return box
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
        box.withUnsafeBufferPointer { b in
        cell.withUnsafeBufferPointer { cl in
            let dummy = UnsafePointer<Double>(bitPattern: 8)!
            return body(FeatureView<W>(coords: c.baseAddress ?? dummy, start: s.baseAddress!,
                                    end: e.baseAddress!, box: b.baseAddress!, cell: cl.baseAddress!,
                                    firstLeaf: firstLeaf, nodeCount: nodeCount, count: count))
        }}}}}
    }
}

/// Median-split builder (recursion depth = tree depth) over input rows (`d` coordinates
/// each; cells `w` wide).
private struct FeatureBuilder: @unchecked Sendable {
    let values: UnsafePointer<Double>?
    let d: Int
    let w: Int
    let entries: UnsafeMutablePointer<Int32>?
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>
    let cell: UnsafeMutablePointer<Double>
    let nodeCount: Int

    func build(node: Int, lo: Int, hi: Int, cell: [Double], parallelDepth: Int, threads: Int) {
        start[node] = Int32(lo)
        end[node] = Int32(hi)
        for i in 0..<2 * w { self.cell[2 * w * node + i] = cell[i] }
        let (left, right) = KDTree.children(of: node)
        if left >= nodeCount { return }
        let mid = lo + (hi - lo) / 2
        var lc = cell, rc = cell
        if hi - lo > 1, let e = entries, let values {
            let axis = widestSpread(e, lo: lo, hi: hi, values: values)
            let d = self.d
            RankSelection.select(e, lo: lo, hi: hi, k: mid) { values[Int($0) * d + axis] }
            let split = values[Int(e[mid]) * d + axis]
            lc[2 * axis + 1] = split
            rc[2 * axis] = split
        }
        if parallelDepth > 0 {
            Parallel.both(threads: threads,
                { self.build(node: left, lo: lo, hi: mid, cell: lc, parallelDepth: parallelDepth - 1, threads: threads) },
                { self.build(node: right, lo: mid, hi: hi, cell: rc, parallelDepth: parallelDepth - 1, threads: threads) })
        } else {
            build(node: left, lo: lo, hi: mid, cell: lc, parallelDepth: 0, threads: threads)
            build(node: right, lo: mid, hi: hi, cell: rc, parallelDepth: 0, threads: threads)
        }
    }
}

extension FeatureBuilder {
    /// The axis along which the points of `lo..<hi` spread widest (the first of equals): in
    /// more than a few dimensions the cell's widest side, which the plane's and the sphere's
    /// trees split, is often one the points hardly fill.
    fileprivate func widestSpread(_ e: UnsafeMutablePointer<Int32>, lo: Int, hi: Int, values: UnsafePointer<Double>) -> Int {
        var axis = 0, widest = -Double.infinity
        for a in 0..<d {
            var low = Double.infinity, high = -Double.infinity
            for i in lo..<hi {
                let v = values[Int(e[i]) * d + a]
                low = Swift.min(low, v); high = Swift.max(high, v)
            }
            if high - low > widest { widest = high - low; axis = a }
        }
        return axis
    }
}

/// Read-only pointers into a `FeatureTree` of width `W`, valid inside `withView`. A point is
/// the address of its first coordinate.
struct FeatureView<W: FeatureWidth>: @unchecked Sendable {
    let coords: UnsafePointer<Double>
    var d: Int { W.count }
    let start: UnsafePointer<Int32>
    let end: UnsafePointer<Int32>
    let box: UnsafePointer<Double>
    let cell: UnsafePointer<Double>
    let firstLeaf: Int
    let nodeCount: Int
    let count: Int

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
