// A supercluster-compatible baseline: greedy radius clustering zoom by zoom (mapbox/supercluster,
// index.js), the method map apps use today, for comparisons with PinIndex.
//
// Semantics, as supercluster defines them: points are projected to Web Mercator in [0, 1];
// level maxZoom + 1 holds the points themselves; each zoom z from maxZoom down to minZoom
// re-clusters the level above: the items are visited in that level's order, and an item not
// yet taken gathers every untaken item of the level above within r = radius / (extent · 2^z)
// (a k-d tree range search, distance <= r); if that makes at least `minPoints` points it
// becomes a cluster at their count-weighted centroid, else the item (and the gathered ones)
// stay as they are. A query at zoom z reads level clamp(z, minZoom, maxZoom + 1).
//
// Follows the `pysupercluster-problematy` 0.7.8 package that the fixtures come from, where it
// differs from supercluster JS: coordinates stay Double (supercluster 8 rounds them to Float32
// first) and latitudes beyond ±90° map to the edges without clamping in between. The package
// has no minPoints (it behaves as minPoints = 2); other values follow the JS definition.

import ClusterCore

/// The options of `Supercluster`, with supercluster's names, meanings and defaults.
public struct SuperclusterOptions: Sendable, Equatable {
    /// Zoom of the topmost level (default 0).
    public var minZoom: Int
    /// Deepest zoom that clusters (default 16); zoom maxZoom + 1 shows the points.
    public var maxZoom: Int
    /// Cluster radius in pixels of a tile of `extent` pixels (default 40).
    public var radius: Double
    /// Tile extent in pixels that `radius` is relative to (default 512).
    public var extent: Double
    /// Fewest points that make a cluster (default 2).
    public var minPoints: Int
    /// K-d tree leaf size (default 64); affects speed only.
    public var nodeSize: Int

    /// Options with supercluster's defaults; each parameter sets the property of its name.
    public init(minZoom: Int = 0, maxZoom: Int = 16, radius: Double = 40, extent: Double = 512,
                minPoints: Int = 2, nodeSize: Int = 64) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.radius = radius
        self.extent = extent
        self.minPoints = minPoints
        self.nodeSize = nodeSize
    }

    /// Checks every option's range.
    /// - Throws: `PinError.invalidParameter` naming the option.
    public func validate() throws(PinError) {
        guard minZoom >= 0, maxZoom >= minZoom, maxZoom <= 30 else {
            throw .invalidParameter(name: "minZoom/maxZoom", value: "\(minZoom)/\(maxZoom)", requirement: "need 0 <= minZoom <= maxZoom <= 30")
        }
        guard radius.isFinite, radius > 0 else { throw .invalidParameter(name: "radius", value: "\(radius)", requirement: "must be > 0") }
        guard extent.isFinite, extent > 0 else { throw .invalidParameter(name: "extent", value: "\(extent)", requirement: "must be > 0") }
        guard minPoints >= 1 else { throw .invalidParameter(name: "minPoints", value: "\(minPoints)", requirement: "must be at least 1") }
        guard nodeSize >= 1 else { throw .invalidParameter(name: "nodeSize", value: "\(nodeSize)", requirement: "must be at least 1") }
    }
}

/// One item of a supercluster level: a point (`pointIndex` set, count 1) or a cluster.
public struct SuperclusterPin: Sendable, Hashable {
    /// Longitude in degrees (a cluster's: the count-weighted mean in Web Mercator).
    public var longitude: Double
    /// Latitude in degrees (a cluster's: the count-weighted mean in Web Mercator).
    public var latitude: Double
    /// The number of points (1 for a point).
    public var count: Int
    /// The input index of a point; nil for a cluster.
    public var pointIndex: Int?
    /// The zoom at which a cluster was made + 1 (where it splits); nil for a point.
    public var expansionZoom: Int?
}

/// Greedy radius clustering per zoom, as supercluster (see the file's header).
public struct Supercluster: Sendable {
    /// The options it was built with.
    public let options: SuperclusterOptions
    /// Levels minZoom...maxZoom + 1 (index z − minZoom).
    let levels: [Level]

    struct Level: Sendable {
        var x: [Double] = [], y: [Double] = [], count: [Int] = [], point: [Int32] = [], expansion: [Int8] = []
        var tree = FlatKDTree(xs: [], ys: [], nodeSize: 64)
        /// The item of the level below (one zoom out) that each item went into.
        var parent: [Int32] = []
    }

    /// Builds all levels.
    /// - Throws: `.invalidParameter` for bad options, `.invalidCoordinate` for a non-finite one.
    /// - Complexity: O(n log n) per zoom.
    public init(longitudes: [Double], latitudes: [Double], options: SuperclusterOptions = SuperclusterOptions()) throws(PinError) {
        try options.validate()
        guard longitudes.count == latitudes.count else {
            throw .invalidParameter(name: "latitudes", value: "\(latitudes.count) values",
                                    requirement: "need one per longitude (\(longitudes.count))")
        }
        for i in longitudes.indices where !(longitudes[i].isFinite && latitudes[i].isFinite) {
            throw .invalidCoordinate(row: i, reason: "a coordinate is NaN or infinite")
        }
        self.options = options
        var level = Level()
        level.x = longitudes.map { WebMercator.x(longitude: $0) }
        level.y = latitudes.map { lat in lat <= -90 ? 1 : (lat >= 90 ? 0 : Self.latY(lat)) }
        level.count = [Int](repeating: 1, count: longitudes.count)
        level.point = longitudes.indices.map { Int32($0) }
        level.expansion = [Int8](repeating: -1, count: longitudes.count)
        var built: [Level] = []
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            level.tree = FlatKDTree(xs: level.x, ys: level.y, nodeSize: options.nodeSize)
            let (next, parent) = Self.cluster(level, zoom: z, options: options)
            level.parent = parent
            built.append(level)
            level = next
        }
        level.tree = FlatKDTree(xs: level.x, ys: level.y, nodeSize: options.nodeSize)
        built.append(level)
        levels = built.reversed()
    }

    /// supercluster's unclamped Mercator y (only ±90° are pinned to the edges, as the package does).
    static func latY(_ lat: Double) -> Double {
        let s = ElementaryMath.sin(lat * Double.pi / 180)
        return 0.5 - 0.25 * ElementaryMath.log((1 + s) / (1 - s)) / Double.pi
    }

    static func cluster(_ level: Level, zoom: Int, options: SuperclusterOptions) -> (Level, parent: [Int32]) {
        let r = options.radius / (options.extent * Double(1 << zoom))
        var taken = [Bool](repeating: false, count: level.x.count)
        var parent = [Int32](repeating: -1, count: level.x.count)
        var next = Level()
        var neighbours: [Int] = []
        func keep(_ i: Int) {
            parent[i] = Int32(next.x.count)
            next.x.append(level.x[i]); next.y.append(level.y[i]); next.count.append(level.count[i])
            next.point.append(level.point[i]); next.expansion.append(level.expansion[i])
        }
        for i in 0..<level.x.count where !taken[i] {
            taken[i] = true
            neighbours.removeAll(keepingCapacity: true)
            level.tree.within(level.x[i], level.y[i], r) { neighbours.append($0) }
            var total = level.count[i]
            for j in neighbours where !taken[j] { total += level.count[j] }
            if total > level.count[i] && total >= options.minPoints {
                var wx = level.x[i] * Double(level.count[i]), wy = level.y[i] * Double(level.count[i])
                parent[i] = Int32(next.x.count)
                for j in neighbours where !taken[j] {
                    taken[j] = true
                    parent[j] = Int32(next.x.count)
                    wx += level.x[j] * Double(level.count[j]); wy += level.y[j] * Double(level.count[j])
                }
                next.x.append(wx / Double(total)); next.y.append(wy / Double(total)); next.count.append(total)
                next.point.append(-1); next.expansion.append(Int8(zoom + 1))
            } else {
                keep(i)
                if total > 1 {
                    for j in neighbours where !taken[j] { taken[j] = true; keep(j) }
                }
            }
        }
        return (next, parent)
    }

    /// For every input point, the item of zoom `zoom` it belongs to, as an index into that
    /// zoom's items in their stored order (the grouping `clusters(zoom:)` draws, for scoring).
    /// - Complexity: O(n · zooms).
    public func assignment(zoom: Int) -> [Int32] {
        let z = max(options.minZoom, min(zoom, options.maxZoom + 1))
        var a = (0..<levels[levels.count - 1].x.count).map { Int32($0) }
        // levels[k] is zoom minZoom + k; its `parent` maps its items to those of levels[k − 1].
        for k in stride(from: levels.count - 1, to: z - options.minZoom, by: -1) {
            let parent = levels[k].parent
            for i in a.indices { a[i] = parent[Int(a[i])] }
        }
        return a
    }

    /// The items of zoom `zoom` (clamped to minZoom...maxZoom + 1, as supercluster) in `bbox`
    /// (minLongitude > maxLongitude crosses the antimeridian).
    /// - Complexity: O(√m + k) for m items of the level and k results.
    public func clusters(bbox: BoundingBox = .world, zoom: Int) -> [SuperclusterPin] {
        let z = max(options.minZoom, min(zoom, options.maxZoom + 1))
        let level = levels[z - options.minZoom]
        var out: [SuperclusterPin] = []
        for rect in PinIndex.rects(bbox) {
            level.tree.range(rect.0, rect.2, rect.1, rect.3) { i in
                let e = level.expansion[i]
                out.append(SuperclusterPin(longitude: WebMercator.longitude(x: level.x[i]), latitude: WebMercator.latitude(y: level.y[i]),
                                           count: level.count[i], pointIndex: level.point[i] >= 0 ? Int(level.point[i]) : nil,
                                           expansionZoom: e >= 0 ? Int(e) : nil))
            }
        }
        return out
    }
}

/// A static k-d tree in flat arrays (kdbush's layout): items sorted so that each range's middle
/// item splits it, alternately by x and y, down to `nodeSize` items.
struct FlatKDTree: Sendable {
    let ids: [Int32]
    let xs: [Double]
    let ys: [Double]
    let nodeSize: Int

    init(xs inX: [Double], ys inY: [Double], nodeSize: Int) {
        var ids = (0..<inX.count).map { Int32($0) }
        var xs = inX, ys = inY
        self.nodeSize = max(nodeSize, 1)
        if ids.count > 1 { Self.sort(&ids, &xs, &ys, 0, ids.count - 1, 0, self.nodeSize) }
        self.ids = ids; self.xs = xs; self.ys = ys
    }

    private static func sort(_ ids: inout [Int32], _ xs: inout [Double], _ ys: inout [Double], _ left: Int, _ right: Int, _ axis: Int, _ nodeSize: Int) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(&ids, &xs, &ys, m, left, right, axis)
        sort(&ids, &xs, &ys, left, m - 1, 1 - axis, nodeSize)
        sort(&ids, &xs, &ys, m + 1, right, 1 - axis, nodeSize)
    }

    /// Puts the item of rank k (by the axis) at k, smaller ones before, larger after.
    private static func select(_ ids: inout [Int32], _ xs: inout [Double], _ ys: inout [Double], _ k: Int, _ l: Int, _ r: Int, _ axis: Int) {
        var left = l, right = r
        func key(_ i: Int) -> Double { axis == 0 ? xs[i] : ys[i] }
        func swapItems(_ i: Int, _ j: Int) { ids.swapAt(i, j); xs.swapAt(i, j); ys.swapAt(i, j) }
        while right > left {
            let t = key(k)
            var i = left, j = right
            swapItems(left, k)
            if key(right) > t { swapItems(left, right) }
            while i < j {
                swapItems(i, j); i += 1; j -= 1
                while key(i) < t { i += 1 }
                while key(j) > t { j -= 1 }
            }
            if key(left) == t { swapItems(left, j) } else { j += 1; swapItems(j, right) }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    /// Calls `body` with the index of every item in the box, edges included.
    func range(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, _ body: (Int) -> Void) {
        if ids.isEmpty { return }
        var stack: [(Int, Int, Int)] = [(0, ids.count - 1, 0)]
        while let item = stack.popLast() {
            let (left, right, axis) = item
            if right - left <= nodeSize {
                for i in left...right where xs[i] >= minX && xs[i] <= maxX && ys[i] >= minY && ys[i] <= maxY { body(Int(ids[i])) }
                continue
            }
            let m = (left + right) >> 1
            let x = xs[m], y = ys[m]
            if x >= minX && x <= maxX && y >= minY && y <= maxY { body(Int(ids[m])) }
            if axis == 0 ? minX <= x : minY <= y { stack.append((left, m - 1, 1 - axis)) }
            if axis == 0 ? maxX >= x : maxY >= y { stack.append((m + 1, right, 1 - axis)) }
        }
    }

    /// Calls `body` with the index of every item within distance `r` of (qx, qy), inclusive.
    func within(_ qx: Double, _ qy: Double, _ r: Double, _ body: (Int) -> Void) {
        if ids.isEmpty { return }
        let r2 = r * r
        var stack: [(Int, Int, Int)] = [(0, ids.count - 1, 0)]
        while let item = stack.popLast() {
            let (left, right, axis) = item
            if right - left <= nodeSize {
                for i in left...right {
                    let dx = xs[i] - qx, dy = ys[i] - qy
                    if dx * dx + dy * dy <= r2 { body(Int(ids[i])) }
                }
                continue
            }
            let m = (left + right) >> 1
            let dx = xs[m] - qx, dy = ys[m] - qy
            if dx * dx + dy * dy <= r2 { body(Int(ids[m])) }
            if axis == 0 ? qx - r <= xs[m] : qy - r <= ys[m] { stack.append((left, m - 1, 1 - axis)) }
            if axis == 0 ? qx + r >= xs[m] : qy + r >= ys[m] { stack.append((m + 1, right, 1 - axis)) }
        }
    }
}
