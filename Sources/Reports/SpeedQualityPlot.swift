// The speed–quality plot, as ann-benchmarks draws recall against queries per second: every
// summary row with a fit time and an ARI is a point, x = median fit seconds (log scale), y =
// ARI against truth. The Pareto front is computed per dataset, because neither times nor ARIs
// compare across datasets of different sizes and structure.
import Harness

/// The speed–quality plot (SVG) and its Pareto front.
public enum SpeedQualityPlot {
    /// Which points are on the Pareto front: those that no other point dominates, where q
    /// dominates p when q is at least as fast (`seconds` ≤) and at least as good (`quality` ≥)
    /// and strictly better in one of the two. Points equal in both are all on the front.
    /// - Parameters:
    ///   - seconds: time per point (lower is better).
    ///   - quality: score per point, same order (higher is better).
    /// - Returns: one flag per point, true on the front.
    /// - Complexity: O(k log k) for k points: a sweep in order of time that keeps the best
    ///   quality seen among strictly faster points.
    public static func paretoFront(seconds: [Double], quality: [Double]) -> [Bool] {
        precondition(seconds.count == quality.count, "paretoFront needs one quality per time")
        let order = seconds.indices.sorted { (seconds[$0], -quality[$0], $0) < (seconds[$1], -quality[$1], $0) }
        var front = [Bool](repeating: false, count: seconds.count)
        var bestFaster = -Double.infinity   // best quality among points strictly faster than the current group
        var i = 0
        while i < order.count {
            // A group of equal times: its first member has the group's best quality.
            var j = i
            while j < order.count, seconds[order[j]] == seconds[order[i]] { j += 1 }
            let groupBest = quality[order[i]]
            for k in i..<j {
                let q = quality[order[k]]
                front[order[k]] = q > bestFaster && q == groupBest
            }
            bestFaster = max(bestFaster, groupBest)
            i = j
        }
        return front
    }

    /// The plot as a standalone SVG document. Colour: implementation and method (in
    /// `ImplementationMethod` order over all of `rows`, as in `ScalingPlot`), filled for
    /// geocluster and hollow for peers; shape: dataset (in order of size). Horizontal bars run
    /// from the fastest to the slowest repeat. Each dataset's Pareto front is joined by a
    /// dark dashed line and its points ringed. A footnote counts the rows left out (no fit time
    /// or no ARI). Deterministic: the same rows give the same bytes.
    /// - Complexity: O(n log n) for n rows.
    public static func render(_ rows: [SummaryRow]) -> String {
        let all = ImplementationMethod.ordered(rows)
        let plottable = rows.filter { r in
            guard let t = r.fitSeconds, t.median > 0, t.median.isFinite, let a = r.ari, a.isFinite else { return false }
            return true
        }
        // Datasets by size, so shapes go circle, square, triangle… from the smallest up.
        var sizes: [String: Int] = [:]
        for r in plottable { sizes[r.dataset] = r.points }
        let datasets = sizes.keys.sorted { (sizes[$0]!, $0) < (sizes[$1]!, $1) }
        // Drawing order decides which marker lies on top, so it is fixed by dataset and series
        // (then the input's order), not by how the caller happened to list the rows.
        let drawn = plottable.enumerated().sorted { a, b in
            let da = datasets.firstIndex(of: a.element.dataset)!, db = datasets.firstIndex(of: b.element.dataset)!
            if da != db { return da < db }
            let ka = ImplementationMethod(a.element), kb = ImplementationMethod(b.element)
            if ka != kb { return kb < ka }   // geocluster last, so its markers sit on top
            return a.offset < b.offset
        }.map(\.element)
        let keys = all.filter { k in drawn.contains { ImplementationMethod($0) == k } }

        let width = 760.0
        let legendRows = Double(keys.count + datasets.count + 3)
        let height = max(460.0, 16 + 20 * legendRows + 50 + 80)
        let frame = PlotFrame(left: 72, top: 16, right: 540, bottom: height - 80)
        let x = LogAxis(values: drawn.flatMap { [$0.fitSeconds!.min, $0.fitSeconds!.max] }, from: frame.left, to: frame.right)
        let y = LinearAxis(values: drawn.map { $0.ari! }, from: frame.bottom - 6, to: frame.top + 6)

        var w = XMLWriter()
        PlotStyle.openPlot(&w, width: width, height: height, title: "Speed and quality: fit time against ARI")
        frame.draw(&w, xTicks: x.ticks(label: secondsTick), xPosition: x.position,
                   yTicks: y.ticks(), yPosition: y.position,
                   xTitle: "median fit time (log scale; left is faster)", yTitle: "ARI against truth (higher is better)")

        // Fronts first, so markers draw over the lines.
        for (d, dataset) in datasets.enumerated() {
            let members = drawn.filter { $0.dataset == dataset }
            let front = paretoFront(seconds: members.map { $0.fitSeconds!.median }, quality: members.map { $0.ari! })
            let onFront = members.indices.filter { front[$0] }
                .sorted { (members[$0].fitSeconds!.median, -members[$0].ari!) < (members[$1].fitSeconds!.median, -members[$1].ari!) }
            w.open("g", ["data-front": dataset])
            if onFront.count > 1 {
                let path = onFront.map { svgNumber(x.position(members[$0].fitSeconds!.median)) + "," + svgNumber(y.position(members[$0].ari!)) }
                w.empty("polyline", ["points": path.joined(separator: " "), "fill": "none", "stroke": "#333333",
                                     "stroke-width": "1.2", "stroke-dasharray": d % 2 == 0 ? "5 3" : "2 3"])
            }
            for i in onFront {
                w.empty("circle", ["cx": svgNumber(x.position(members[i].fitSeconds!.median)), "cy": svgNumber(y.position(members[i].ari!)),
                                   "r": "9", "fill": "none", "stroke": "#333333", "stroke-width": "1"])
            }
            w.close()
        }
        for r in drawn {
            let colour = PlotStyle.colour(all.firstIndex(of: ImplementationMethod(r)) ?? 0)
            let t = r.fitSeconds!, py = y.position(r.ari!)
            if t.min < t.max {
                w.empty("line", ["x1": svgNumber(x.position(t.min)), "y1": svgNumber(py), "x2": svgNumber(x.position(t.max)),
                                 "y2": svgNumber(py), "stroke": colour, "stroke-width": "1.5"])
            }
            let filled = r.implementation == "geocluster"
            PlotStyle.marker(&w, shape: datasets.firstIndex(of: r.dataset) ?? 0, x: x.position(t.median), y: py, radius: 5,
                             fill: filled ? colour : "#ffffff", stroke: colour, strokeWidth: filled ? 1 : 2,
                             title: "\(ImplementationMethod(r).label), \(r.dataset), \(r.parameters): "
                                 + ReportFormat.seconds(t) + ", ARI " + ReportFormat.fixed(r.ari!))
        }

        // Legend: colours, then shapes, then the front.
        let lx = frame.right + 20
        var ly = frame.top + 12
        w.element("text", ["x": svgNumber(lx), "y": svgNumber(ly), "font-weight": "bold"], text: "Implementation · method")
        for k in keys {
            ly += 20
            let colour = PlotStyle.colour(all.firstIndex(of: k) ?? 0)
            let filled = k.implementation == "geocluster"
            PlotStyle.marker(&w, shape: 0, x: lx + 8, y: ly - 4, radius: 5, fill: filled ? colour : "#ffffff",
                             stroke: colour, strokeWidth: filled ? 1 : 2)
            w.element("text", ["x": svgNumber(lx + 22), "y": svgNumber(ly)], text: k.label)
        }
        ly += 30
        w.element("text", ["x": svgNumber(lx), "y": svgNumber(ly), "font-weight": "bold"], text: "Dataset")
        for (d, dataset) in datasets.enumerated() {
            ly += 20
            PlotStyle.marker(&w, shape: d, x: lx + 8, y: ly - 4, radius: 5, fill: PlotStyle.muted, stroke: PlotStyle.muted, strokeWidth: 1)
            w.element("text", ["x": svgNumber(lx + 22), "y": svgNumber(ly)], text: dataset)
        }
        if !datasets.isEmpty {
            ly += 26
            w.empty("line", ["x1": svgNumber(lx), "y1": svgNumber(ly - 4), "x2": svgNumber(lx + 16), "y2": svgNumber(ly - 4),
                             "stroke": "#333333", "stroke-width": "1.2", "stroke-dasharray": "5 3"])
            w.empty("circle", ["cx": svgNumber(lx + 8), "cy": svgNumber(ly - 4), "r": "6", "fill": "none", "stroke": "#333333"])
            w.element("text", ["x": svgNumber(lx + 22), "y": svgNumber(ly)], text: "Pareto front (per dataset)")
        }

        let left = rows.count - drawn.count
        let foot = "\(drawn.count) of \(rows.count) rows drawn" + (left > 0 ? "; \(left) left out (no fit time or no ARI: failed, skipped, unavailable, or no truth)." : ".")
        w.element("text", ["x": "16", "y": svgNumber(height - 28), "font-size": "11.5", "fill": PlotStyle.muted], text: foot)
        w.element("text", ["x": "16", "y": svgNumber(height - 12), "font-size": "11.5", "fill": PlotStyle.muted],
                  text: "Bars: fastest to slowest repeat. Ringed: no other point of the same dataset is both as fast and as good.")
        w.close()
        return w.finish()
    }
}
