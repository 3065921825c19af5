#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The point layer of a cluster map: every point as a dot up to the point budget, a density
/// raster above it.
enum PointLayer {
    enum Drawn: Equatable {
        case dots
        case raster(cell: Double)
    }

    /// Draws the points (projected metres `x`, `y`) into `w`.
    /// - Complexity: O(n) plus, for dots, the output; the raster's output is bounded by its
    ///   cell count whatever n is.
    static func draw(_ w: inout XMLWriter, x: [Double], y: [Double], labels: [Int32], layout: MapLayout,
                     colours: [Int32: String], options: MapOptions) -> Drawn {
        let groups = Groups(labels: labels)
        if labels.count <= options.pointBudget {
            dots(&w, x: x, y: y, groups: groups, layout: layout, colours: colours)
            return .dots
        }
        raster(&w, x: x, y: y, groups: groups, layout: layout, colours: colours, cell: options.rasterCell)
        return .raster(cell: options.rasterCell)
    }

    /// Points grouped by label: slot 0 is noise, slots 1… the clusters in ascending label
    /// order, so output order depends only on the labels.
    struct Groups {
        /// The label of each slot (slot 0: -1).
        var labels: [Int32] = [-1]
        /// The slot of each point.
        var slot: [Int32]

        init(labels pointLabels: [Int32]) {
            let distinct = Set(pointLabels.lazy.filter { $0 >= 0 }).sorted()
            labels += distinct
            var index: [Int32: Int32] = [:]
            for (s, l) in distinct.enumerated() { index[l] = Int32(s + 1) }
            // Labels come in long runs (files sorted by cluster, or the same label on nearby
            // rows); remembering the last lookup skips most hash lookups.
            var last: (label: Int32, slot: Int32) = (-1, 0)
            slot = pointLabels.map { l in
                if l < 0 { return 0 }
                if l != last.label { last = (l, index[l]!) }
                return last.slot
            }
        }

        func colour(_ s: Int, _ colours: [Int32: String]) -> String {
            s == 0 ? ClusterPalette.noise : colours[labels[s]] ?? ClusterPalette.noise
        }
    }

    /// One `<path>` per label of zero-length segments with round caps: a dot each, about 15
    /// bytes a point. Points that fall on the same 0.1 pt are drawn once.
    private static func dots(_ w: inout XMLWriter, x: [Double], y: [Double], groups: Groups, layout: MapLayout,
                             colours: [Int32: String]) {
        let n = x.count
        let diameter = n <= 5_000 ? 3.4 : n <= 20_000 ? 2.6 : 1.9
        let bySlot = countingSort(groups.slot, slots: groups.labels.count)
        w.open("g", ["stroke-linecap": "round", "stroke-width": svgNumber(diameter), "fill": "none"])
        var seen = Set<Int64>()
        for s in 0..<groups.labels.count {
            let members = bySlot.order[bySlot.start[s]..<bySlot.start[s + 1]]
            guard !members.isEmpty else { continue }
            seen.removeAll(keepingCapacity: true)
            var d = ""
            d.reserveCapacity(members.count * 16)
            for i in members {
                let (px, py) = layout.point(x: x[Int(i)], y: y[Int(i)])
                let key = Int64((px * 10).rounded()) << 32 | Int64(UInt32(truncatingIfNeeded: Int64((py * 10).rounded())))
                guard seen.insert(key).inserted else { continue }
                d += "M" + svgNumber(px, decimals: 1) + " " + svgNumber(py, decimals: 1) + "h0"
            }
            w.empty("path", ["d": d, "stroke": groups.colour(s, colours),
                             "stroke-opacity": s == 0 ? "1" : "0.9"])
        }
        w.close()
    }

    /// Square cells of `cell` pt over the map frame. A cell takes the colour of the cluster
    /// with the most points in it (ties: the smaller label), noise grey only when it holds no
    /// cluster point; its opacity is one of 8 steps of log(1 + points) relative to the
    /// fullest cell. Cells of one row with the same colour and step merge into one rectangle,
    /// and all rectangles of one colour and step form one `<path>`.
    private static func raster(_ w: inout XMLWriter, x: [Double], y: [Double], groups: Groups, layout: MapLayout,
                               colours: [Int32: String], cell: Double) {
        let columns = max(1, Int((layout.mapWidth / cell).rounded(.up)))
        let rows = max(1, Int((layout.mapHeight / cell).rounded(.up)))
        var cellOf = [Int32](repeating: 0, count: x.count)
        for i in 0..<x.count {
            let (px, py) = layout.point(x: x[i], y: y[i])
            let c = min(max(Int((px - layout.mapX) / cell), 0), columns - 1)
            let r = min(max(Int((py - layout.mapY) / cell), 0), rows - 1)
            cellOf[i] = Int32(r * columns + c)
        }
        let byCell = countingSort(cellOf, slots: rows * columns)

        // Per cell: the dominant slot and the point count.
        var dominant = [Int32](repeating: -1, count: rows * columns)
        var total = [Int32](repeating: 0, count: rows * columns)
        var tally = [Int32](repeating: 0, count: groups.labels.count)
        var touched: [Int32] = []
        for c in 0..<rows * columns {
            let members = byCell.order[byCell.start[c]..<byCell.start[c + 1]]
            guard !members.isEmpty else { continue }
            for i in members {
                let s = groups.slot[Int(i)]
                if tally[Int(s)] == 0 { touched.append(s) }
                tally[Int(s)] += 1
            }
            var best: Int32 = 0, bestCount: Int32 = 0
            for s in touched {
                let k = tally[Int(s)]
                if s != 0 && (k > bestCount || (k == bestCount && s < best)) { (best, bestCount) = (s, k) }
                tally[Int(s)] = 0
            }
            touched.removeAll(keepingCapacity: true)
            dominant[c] = best
            total[c] = Int32(members.count)
        }

        let fullest = log(1 + Double(total.max() ?? 1))
        let steps = 8
        // key = slot · steps + step; one path of merged runs per key.
        var paths: [Int: String] = [:]
        for r in 0..<rows {
            var c = 0
            while c < columns {
                let at = r * columns + c
                guard dominant[at] >= 0 else { c += 1; continue }
                func key(_ i: Int) -> Int {
                    let step = min(steps - 1, Int(Double(steps) * log(1 + Double(total[i])) / fullest))
                    return Int(dominant[i]) * steps + step
                }
                let k = key(at)
                var end = c + 1
                while end < columns && dominant[r * columns + end] >= 0 && key(r * columns + end) == k { end += 1 }
                paths[k, default: ""] += "M" + svgNumber(layout.mapX + Double(c) * cell) + " "
                    + svgNumber(layout.mapY + Double(r) * cell) + "h" + svgNumber(Double(end - c) * cell)
                    + "v" + svgNumber(cell) + "h-" + svgNumber(Double(end - c) * cell) + "z"
                c = end
            }
        }
        w.open("g", ["shape-rendering": "crispEdges"])
        for (k, d) in paths.sorted(by: { $0.key < $1.key }) {
            let opacity = 0.25 + 0.75 * Double(k % steps + 1) / Double(steps)
            w.empty("path", ["d": d, "fill": groups.colour(k / steps, colours), "fill-opacity": svgNumber(opacity)])
        }
        w.close()
    }

    /// Indices 0..<keys.count ordered by key (stable), and where each key's run starts:
    /// key `k`'s indices are `order[start[k]..<start[k + 1]]`.
    /// - Complexity: O(n + slots).
    static func countingSort(_ keys: [Int32], slots: Int) -> (order: [Int32], start: [Int]) {
        var start = [Int](repeating: 0, count: slots + 1)
        for k in keys { start[Int(k) + 1] += 1 }
        for s in 0..<slots { start[s + 1] += start[s] }
        var next = start
        var order = [Int32](repeating: 0, count: keys.count)
        for (i, k) in keys.enumerated() {
            order[next[Int(k)]] = Int32(i)
            next[Int(k)] += 1
        }
        return (order, start)
    }
}
