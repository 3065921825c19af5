// Building the d-dimensional tree: sliding-midpoint splits (Maneewongvatana and Mount, "It's
// okay to be skinny, if your friends are fat"), then the nodes renumbered into the layout
// Borůvka's rounds read (BoruvkaTree.swift): internal nodes first in pre-order, then the
// leaves in position order.

/// The nodes of a d-dimensional tree as the build leaves them, renumbered (see `init`).
struct FeatureTreeNodes {
    var coords: [Double]
    var index: [Int32]
    var start = [Int32](), end = [Int32](), left = [Int32](), right = [Int32](), parent = [Int32]()
    var box = [Double](), cell = [Double]()
    var firstLeaf = 0
    var depth = 0
}

extension FeatureTreeNodes {
    /// The tree over `points` taken in `order` (their canonical order), coordinates padded to
    /// `width`; a node of at most `leafSize` points, or of identical points, is a leaf. With
    /// more than one thread the root's two subtrees are built at once; the tree is the same.
    init(_ points: FeaturePoints, order: [Int32], width: Int, leafSize: Int, threads: Int) {
        let n = points.count, d = points.dimensions
        var coords = [Double](repeating: 0, count: n * width)
        for (p, row) in order.enumerated() {
            for a in 0..<d { coords[p * width + a] = points.values[Int(row) * d + a] }
        }
        var index = order
        let root = NodeList(width: width, leafSize: leafSize)
        coords.withUnsafeMutableBufferPointer { c in
        index.withUnsafeMutableBufferPointer { e in
            let rows = BuildingRows(coords: c.baseAddress ?? UnsafeMutablePointer(bitPattern: 8)!,
                            index: e.baseAddress ?? UnsafeMutablePointer(bitPattern: 8)!, width: width)
            let cell = n > 0 ? rows.tightBox(lo: 0, hi: n) : [Double](repeating: 0, count: 2 * width)
            guard threads > 1 && n > 1 << 16 else {
                root.build(rows, lo: 0, hi: n, depth: 0, parent: -1, cell: cell)
                return
            }
            root.append(rows, lo: 0, hi: n, depth: 0, parent: -1, cell: cell)
            guard let split = root.split(rows, node: 0, depth: 0, cell: cell) else { return }
            let l = NodeList(width: width, leafSize: leafSize), r = NodeList(width: width, leafSize: leafSize)
            Parallel.both(threads: threads,
                { l.build(rows, lo: 0, hi: split.mid, depth: 1, parent: -1, cell: split.left) },
                { r.build(rows, lo: split.mid, hi: n, depth: 1, parent: -1, cell: split.right) })
            root.adopt(l, r)
        }}
        self.coords = coords
        self.index = index
        start = root.start; end = root.end; left = root.left; right = root.right; parent = root.parent
        box = root.box; cell = root.cell; depth = root.depth
        renumber(width: width)
    }

    /// Renumbers the nodes from pre-order to internal nodes first (still in pre-order), then
    /// the leaves (pre-order meets them in position order).
    private mutating func renumber(width: Int) {
        let count = start.count
        var newID = [Int32](repeating: 0, count: count)
        let inner = left.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        var nextInner: Int32 = 0, nextLeaf = Int32(inner)
        for node in 0..<count {
            if left[node] >= 0 { newID[node] = nextInner; nextInner += 1 } else { newID[node] = nextLeaf; nextLeaf += 1 }
        }
        func moved<T>(_ a: [T], stride: Int, _ value: (T) -> T = { $0 }) -> [T] {
            var out = a
            for node in 0..<count {
                for i in 0..<stride { out[Int(newID[node]) * stride + i] = value(a[node * stride + i]) }
            }
            return out
        }
        let remap: (Int32) -> Int32 = { $0 < 0 ? $0 : newID[Int($0)] }
        start = moved(start, stride: 1); end = moved(end, stride: 1)
        left = moved(left, stride: 1, remap); right = moved(right, stride: 1, remap); parent = moved(parent, stride: 1, remap)
        box = moved(box, stride: 2 * width); cell = moved(cell, stride: 2 * width)
        firstLeaf = inner
    }
}

/// The rows being built over (padded coordinates and input rows, in tree order so far): two
/// builds share them, each moving only the rows of its own range.
private struct BuildingRows: @unchecked Sendable {
    let coords: UnsafeMutablePointer<Double>
    let index: UnsafeMutablePointer<Int32>
    let width: Int

    /// The least box holding rows lo..<hi (min and max of each axis) into `b`.
    func tightBox(lo: Int, hi: Int, into b: UnsafeMutablePointer<Double>) {
        for a in 0..<width { b[2 * a] = .infinity; b[2 * a + 1] = -.infinity }
        for p in lo..<hi {
            let x = coords + p * width
            for a in 0..<width {
                b[2 * a] = Swift.min(b[2 * a], x[a])
                b[2 * a + 1] = Swift.max(b[2 * a + 1], x[a])
            }
        }
    }

    /// The least box holding rows lo..<hi.
    func tightBox(lo: Int, hi: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: 2 * width) { b, count in
            tightBox(lo: lo, hi: hi, into: b.baseAddress!)
            count = 2 * width
        }
    }

    @inline(__always) func swap(_ i: Int, _ j: Int) {
        (index[i], index[j]) = (index[j], index[i])
        for a in 0..<width { (coords[i * width + a], coords[j * width + a]) = (coords[j * width + a], coords[i * width + a]) }
    }
}

/// Nodes in pre-order, as one build makes them.
private final class NodeList: @unchecked Sendable {
    /// Below this depth a node splits at the middle of its box's widest side, where its
    /// points' clusters and empty space separate; deeper (points packed at very different
    /// scales), at the median, which bounds the depth.
    static let midpointDepth = 48

    let width: Int, leafSize: Int
    var start = [Int32](), end = [Int32](), left = [Int32](), right = [Int32](), parent = [Int32]()
    var box = [Double](), cell = [Double]()
    var depth = 0

    init(width: Int, leafSize: Int) { self.width = width; self.leafSize = leafSize }

    /// Appends the node of rows lo..<hi, then its subtree; returns its number.
    @discardableResult
    func build(_ rows: BuildingRows, lo: Int, hi: Int, depth: Int, parent: Int32, cell: [Double]) -> Int32 {
        let id = Int32(start.count)
        append(rows, lo: lo, hi: hi, depth: depth, parent: parent, cell: cell)
        guard let split = split(rows, node: Int(id), depth: depth, cell: cell) else { return id }
        let l = build(rows, lo: lo, hi: split.mid, depth: depth + 1, parent: id, cell: split.left)
        let r = build(rows, lo: split.mid, hi: hi, depth: depth + 1, parent: id, cell: split.right)
        left[Int(id)] = l; right[Int(id)] = r
        return id
    }

    func append(_ rows: BuildingRows, lo: Int, hi: Int, depth: Int, parent: Int32, cell: [Double]) {
        start.append(Int32(lo)); end.append(Int32(hi)); left.append(-1); right.append(-1); self.parent.append(parent)
        let at = box.count
        box.append(contentsOf: repeatElement(0, count: 2 * width))
        box.withUnsafeMutableBufferPointer { rows.tightBox(lo: lo, hi: hi, into: $0.baseAddress! + at) }
        self.cell.append(contentsOf: cell)
        self.depth = max(self.depth, depth)
    }

    /// Splits the rows of appended node `node` in two (moving them), unless they make a leaf:
    /// where the second part starts and the two parts' cells.
    func split(_ rows: BuildingRows, node: Int, depth: Int, cell: [Double]) -> (mid: Int, left: [Double], right: [Double])? {
        let lo = Int(start[node]), hi = Int(end[node])
        guard hi - lo > leafSize else { return nil }
        let b = Array(box[2 * width * node..<2 * width * (node + 1)])
        var axis = 0, widest = b[1] - b[0]
        for a in 1..<width where b[2 * a + 1] - b[2 * a] > widest { widest = b[2 * a + 1] - b[2 * a]; axis = a }
        guard widest > 0 else { return nil }
        let (mid, value) = depth < Self.midpointDepth
            ? Self.splitAtMidpoint(rows, lo: lo, hi: hi, axis: axis, low: b[2 * axis], high: b[2 * axis + 1])
            : Self.splitAtMedian(rows, lo: lo, hi: hi, axis: axis)
        var lc = cell, rc = cell
        lc[2 * axis + 1] = value
        rc[2 * axis] = value
        return (mid, lc, rc)
    }

    /// Moves the rows at most the middle of [low, high] along `axis` before the others (both
    /// sides keep a point: low and high are the rows' own least and greatest values); returns
    /// where the others start and the split value.
    private static func splitAtMidpoint(_ rows: BuildingRows, lo: Int, hi: Int, axis: Int, low: Double, high: Double) -> (Int, Double) {
        var split = low + (high - low) / 2
        if !(split < high) { split = low }
        let c = rows.coords, w = rows.width
        var i = lo, j = hi - 1
        while true {
            while c[i * w + axis] <= split { i += 1 }
            while c[j * w + axis] > split { j -= 1 }
            if i >= j { break }
            rows.swap(i, j)
        }
        return (i, split)
    }

    /// Orders the rows by their value along `axis` (stably) and splits them in the middle;
    /// returns where the second half starts and its first value.
    private static func splitAtMedian(_ rows: BuildingRows, lo: Int, hi: Int, axis: Int) -> (Int, Double) {
        let w = rows.width, c = rows.coords
        let order = (lo..<hi).sorted { (c[$0 * w + axis], $0) < (c[$1 * w + axis], $1) }
        let values = order.map { Array(UnsafeBufferPointer(start: c + $0 * w, count: w)) }, ids = order.map { rows.index[$0] }
        for (k, row) in values.enumerated() {
            rows.index[lo + k] = ids[k]
            for a in 0..<w { c[(lo + k) * w + a] = row[a] }
        }
        let mid = lo + (hi - lo) / 2
        return (mid, c[mid * w + axis])
    }

    /// Makes this list's one node (the root) the parent of the two subtrees built apart:
    /// their nodes follow it in pre-order, the left subtree's first.
    func adopt(_ l: NodeList, _ r: NodeList) {
        precondition(start.count == 1)
        for (list, offset) in [(l, Int32(1)), (r, Int32(1 + l.start.count))] {
            let shift: (Int32) -> Int32 = { $0 < 0 ? $0 : $0 + offset }
            start += list.start; end += list.end
            left += list.left.map(shift); right += list.right.map(shift)
            parent += list.parent.map { $0 < 0 ? 0 : $0 + offset }
            box += list.box; cell += list.cell
            depth = max(depth, list.depth)
        }
        left[0] = 1; right[0] = Int32(1 + l.start.count)
    }
}
