import ClusterCore

// The condensed tree as an icicle plot, as the hdbscan library's `CondensedTree.plot` draws
// it: λ grows downwards, each cluster is a column whose width is the number of points still
// in it, so it narrows as points fall out, and a horizontal line joins a cluster to the
// children it splits into. What this one does differently:
// - the selection shown is the one given (the clusters behind the final labels), so a
//   selection changed by epsilon or leaf selection is drawn as it was made;
// - selected clusters are outlined and tinted in their label's colour, the one the map uses;
// - a branch narrower than a minimum visible width is not drawn (its points leave its parent
//   where it splits off, as smaller-than-minClusterSize parts do in the tree itself), so a
//   million-point tree with thousands of clusters stays readable and small; selected clusters
//   inside such branches are marked in their colours where the branch splits off;
// - infinite λ (coincident points) is clamped to a band below the largest finite λ, marked ∞;
// - λ can be drawn on a logarithmic axis (the default of the command line), on which
//   geographic trees, whose splits sit at λ a thousand times smaller than the densest
//   points', are readable; a second axis labels the same rows as distances.

/// How `TreePlot.render` draws.
public struct TreePlotOptions: Sendable, Equatable {
    /// How λ maps to the vertical axis.
    public enum LambdaScale: String, Sendable, CaseIterable {
        /// λ from 0 at the top, as the hdbscan library draws it.
        case linear
        /// log λ (equivalently, log distance) from just above the first split to the largest
        /// finite λ; the root, born at λ = 0, starts at the top.
        case logarithmic = "log"
    }

    /// Size of the whole picture, in px.
    public var width: Double
    public var height: Double
    /// Column width ∝ ln(1 + points) instead of points (the hdbscan library's `log_size`).
    public var logWidth: Bool
    /// A branch whose width at its birth would be below this (px) is collapsed: neither it
    /// nor anything under it is drawn; its points leave its parent where it splits off, and
    /// selected clusters inside it are marked there. The root is always drawn.
    public var minimumVisibleWidth: Double
    public var lambdaScale: LambdaScale
    /// Label the λ ticks with their distance (1/λ, metres) on a second axis on the right; off
    /// for distances in no unit (scaled features), the λ axis then naming none either.
    public var distanceAxis: Bool
    /// Heading; nil for none.
    public var title: String?

    public init(width: Double = 1000, height: Double = 700, logWidth: Bool = false,
                minimumVisibleWidth: Double = 2, lambdaScale: LambdaScale = .linear,
                distanceAxis: Bool = true, title: String? = nil) {
        self.width = width
        self.height = height
        self.logWidth = logWidth
        self.minimumVisibleWidth = minimumVisibleWidth
        self.lambdaScale = lambdaScale
        self.distanceAxis = distanceAxis
        self.title = title
    }
}

/// The condensed-tree icicle plot (see the notes at the top of this file).
public enum TreePlot {
    /// px between the slots of sibling branches.
    static let siblingGap = 4.0
    /// Colour of clusters outside every selected cluster, and of labels without a colour.
    static let plainFill = "#b4c5d8"
    static let fallbackColour = "#444444"
    /// Collapsed selected clusters' ticks: length and least spacing, px.
    static let markLength = 6.0
    /// Above this many selected clusters in collapsed branches, each split gets one grey tick
    /// instead of one tick per cluster in its colour: at 1M points thousands of coloured ticks
    /// turned the top of the plot into confetti.
    static let colouredMarkLimit = 300
    static let markSpacing = 2.5

    /// Draws `tree` as an SVG document.
    ///
    /// Selected clusters are drawn as columns with a stroke and a translucent fill in their
    /// label's colour; drawn clusters inside a selected one (an epsilon- or EOM-selected
    /// parent's children) are tinted in it. Every element is written through `XMLWriter`;
    /// numbers have at most 2 decimals.
    ///
    /// SVG structure (stable, for tests and styling): each drawn cluster is a
    /// `<path class="branch…" data-cluster="ID" d="…"/>` whose `d` starts at the right edge of
    /// the column at its birth (`M right y`) and ends with the left edge at its birth
    /// (`…H left V y Z`); class `branch selected` (with `data-label`) for a selected cluster,
    /// `branch within` inside one. Splits are one `<path class="splits">`, collapsed selected
    /// clusters `<path class="collapsed" stroke="colour">` per colour.
    /// - Parameters:
    ///   - selected: selected cluster ids, ascending; label `i` is `selected[i]`
    ///     (`HDBSCANResult.selectedClusters`).
    ///   - colours: SVG colour of each label; a label without one is drawn dark grey.
    /// - Complexity: O(r log r) for r tree rows; the output has O(drawn clusters × height)
    ///   numbers at most (each column's outline is simplified to ≤ 0.5 px in both directions).
    /// - Precondition: every selected id is a cluster of `tree`.
    public static func render(
        _ tree: CondensedTree, selected: [Int32], colours: [Int32: String], options: TreePlotOptions = TreePlotOptions()
    ) -> String {
        let n = tree.pointCount, c = tree.clusterCount
        for id in selected { precondition(Int(id) >= n && Int(id) < n + c, "selected id \(id) is not a cluster of the tree") }
        let o = options
        let margin = (left: 78.0, right: o.distanceAxis ? 78.0 : 24.0, top: o.title == nil ? 54.0 : 76.0, bottom: 24.0)
        let plotWidth = max(o.width - margin.left - margin.right, 10)

        var w = XMLWriter()
        let headY = openDocument(&w, o, left: margin.left)
        guard n > 0 else {
            w.element("text", ["x": svgNumber(margin.left), "y": svgNumber(headY), "class": "note"], text: "No points.")
            w.close()
            return w.finish()
        }

        let shape = TreeShape(tree, logWidth: o.logWidth)
        let layout = TreeLayout(shape, x0: margin.left, width: plotWidth,
                                minimumVisible: o.minimumVisibleWidth, gap: siblingGap)
        let axis = lambdaAxis(shape, layout: layout, scale: o.lambdaScale, top: margin.top,
                              bottom: o.height - margin.bottom)
        let paint = Paint(tree, shape: shape, layout: layout, selected: selected, colours: colours)

        let summary = "\(n) points · \(c - 1) clusters in the tree, \(layout.visibleCount - 1) drawn · "
            + "\(selected.count) selected" + (paint.hiddenCount > 0 ? ", \(paint.hiddenCount) of them in collapsed branches (marks"
                + (paint.hiddenCount > Self.colouredMarkLimit ? ": one grey mark per split" : "") + ")" : "")
        w.element("text", ["x": svgNumber(margin.left), "y": svgNumber(headY), "class": "note"], text: summary)
        let legend = "width = points still in the cluster" + (o.logWidth ? " (log scale)" : "")
            + " · outlined: selected, in the map's colours · branches under "
            + svgNumber(o.minimumVisibleWidth) + " px wide collapsed"
        w.element("text", ["x": svgNumber(margin.left), "y": svgNumber(headY + 15), "class": "note"], text: legend)

        drawAxis(&w, axis, left: margin.left, right: margin.left + plotWidth, distances: o.distanceAxis)
        let (ends, labels) = drawColumns(&w, tree, shape: shape, layout: layout, axis: axis, paint: paint)
        drawSplits(&w, shape: shape, layout: layout, ends: ends)
        drawCollapsedMarks(&w, layout: layout, ends: ends, paint: paint)
        for l in labels {
            w.element("text", ["x": svgNumber(l.x), "y": svgNumber(l.y), "text-anchor": "middle",
                               "font-size": "10"], text: l.text)
        }
        w.close()
        return w.finish()
    }

    /// Opens the SVG document: size, styles, background and title; returns the y of the first
    /// line under the title.
    private static func openDocument(_ w: inout XMLWriter, _ o: TreePlotOptions, left: Double) -> Double {
        w.open("svg", [
            "xmlns": "http://www.w3.org/2000/svg",
            "width": svgNumber(o.width), "height": svgNumber(o.height),
            "viewBox": "0 0 \(svgNumber(o.width)) \(svgNumber(o.height))",
            "font-family": "sans-serif", "font-size": "11",
        ])
        w.element("style", text: """
            .selected{fill-opacity:.45;stroke-width:1.5}.within{fill-opacity:.22}\
            .splits{stroke:#222;stroke-width:1;fill:none}.grid{stroke:#e3e3e3;fill:none}\
            .axis{stroke:#444;fill:none}.collapsed{stroke-width:1.5;fill:none}\
            .infinity{stroke:#888;stroke-dasharray:4 3;fill:none}.note{fill:#555}
            """)
        w.empty("rect", ["width": "100%", "height": "100%", "fill": "#ffffff"])
        var headY = 20.0
        if let title = o.title {
            w.element("text", ["x": svgNumber(left), "y": svgNumber(headY), "font-size": "15",
                               "font-weight": "bold"], text: title)
            headY += 20
        }
        return headY
    }

    /// The λ axis over what is drawn: points that leave collapsed branches (often the largest
    /// λ of all) would only stretch it.
    private static func lambdaAxis(
        _ shape: TreeShape, layout: TreeLayout, scale: TreePlotOptions.LambdaScale, top: Double, bottom: Double
    ) -> LambdaAxis {
        var smallest: Double?, largest: Double?, infinite = false
        for k in 0..<layout.visible.count where layout.visible[k] {
            for l in shape.eventLambda[shape.eventStart[k]..<shape.eventStart[k + 1]] {
                if l.isInfinite { infinite = true } else if l > 0 {
                    smallest = min(smallest ?? l, l); largest = max(largest ?? l, l)
                }
            }
        }
        return LambdaAxis(scale: scale, smallestPositive: smallest, largestFinite: largest,
                          hasInfinity: infinite, top: top, bottom: bottom)
    }

    /// Columns, in id order (parents before children); returns each drawn column's bottom
    /// (y and width just above it) and the label texts to write on top of everything.
    private static func drawColumns(
        _ w: inout XMLWriter, _ tree: CondensedTree, shape: TreeShape, layout: TreeLayout, axis: LambdaAxis,
        paint: Paint
    ) -> (ends: [(y: Double, width: Double)], labels: [(x: Double, y: Double, text: String)]) {
        let n = tree.pointCount, c = tree.clusterCount
        var ends = [(y: Double, width: Double)](repeating: (0, 0), count: c)
        var labels: [(x: Double, y: Double, text: String)] = []
        for k in 0..<c where layout.visible[k] {
            let (d, end, birthWidth) = columnPath(shape, k, layout: layout, axis: axis, tree: tree)
            ends[k] = end
            let id = String(n + k)
            if paint.ownLabel[k] >= 0 {
                let col = paint.colour(paint.ownLabel[k])
                w.empty("path", ["class": "branch selected", "data-cluster": id, "data-label": String(paint.ownLabel[k]),
                                 "fill": col, "stroke": col, "d": d])
                let y0 = axis.y(tree.clusterBirth[k])
                if birthWidth >= 16 && end.y - y0 >= 16 {
                    labels.append((layout.centre[k], y0 + 12, String(paint.ownLabel[k])))
                }
            } else if paint.inherited[k] >= 0 {
                w.empty("path", ["class": "branch within", "data-cluster": id, "fill": paint.colour(paint.inherited[k]), "d": d])
            } else {
                w.empty("path", ["class": "branch", "data-cluster": id, "fill": plainFill, "d": d])
            }
        }
        return (ends, labels)
    }

    /// Splits: from the parent's centre out to its outer drawn children's outer edges. A
    /// cluster with one drawn child (the others collapsed) gets no line: the child goes on
    /// below it, narrower by the points that left, as one column losing points would.
    private static func drawSplits(
        _ w: inout XMLWriter, shape: TreeShape, layout: TreeLayout, ends: [(y: Double, width: Double)]
    ) {
        var splits = ""
        for k in 0..<ends.count where layout.visible[k] {
            let kids = shape.children[k].filter { layout.visible[$0] }
            guard kids.count >= 2, let first = kids.first, let last = kids.last else { continue }
            let y = ends[k].y
            let x1 = min(layout.centre[k], layout.centre[first] - layout.scale * shape.birthUnits[first] / 2)
            let x2 = max(layout.centre[k], layout.centre[last] + layout.scale * shape.birthUnits[last] / 2)
            splits += "M" + svgNumber(x1) + " " + svgNumber(y) + "H" + svgNumber(x2)
        }
        if !splits.isEmpty { w.empty("path", ["class": "splits", "d": splits]) }
    }

    /// Collapsed selected clusters: a short tick each, in the label's colour, hanging from
    /// the end of the column they split off from, spread over its width at least
    /// `markSpacing` apart; when they do not fit, the last tick is dark grey for the rest.
    private static func drawCollapsedMarks(
        _ w: inout XMLWriter, layout: TreeLayout, ends: [(y: Double, width: Double)], paint: Paint
    ) {
        var marks: [String: String] = [:]
        let aggregate = paint.hiddenCount > Self.colouredMarkLimit
        for k in paint.hiddenLabels.keys.sorted() {
            let ls = paint.hiddenLabels[k]!
            let (y, width) = ends[k]
            if aggregate {
                marks[fallbackColour, default: ""] += "M" + svgNumber(layout.centre[k]) + " " + svgNumber(y) + "v" + svgNumber(markLength)
                continue
            }
            let count = min(ls.count, max(1, Int(width / markSpacing)))
            let step = width / Double(count)
            for j in 0..<count {
                let col = j == count - 1 && ls.count > count ? fallbackColour : paint.colour(ls[j])
                let x = layout.centre[k] - width / 2 + (Double(j) + 0.5) * step
                marks[col, default: ""] += "M" + svgNumber(x) + " " + svgNumber(y) + "v" + svgNumber(markLength)
            }
        }
        for col in marks.keys.sorted() {
            w.empty("path", ["class": "collapsed", "stroke": col, "d": marks[col]!])
        }
    }

    /// Which label colours each cluster: its own (selected) and inherited (inside a selected
    /// cluster), and the selected clusters inside collapsed branches, by the drawn cluster
    /// they split off from.
    private struct Paint {
        var ownLabel: [Int32]
        var inherited: [Int32]
        var hiddenLabels: [Int: [Int32]] = [:]
        var hiddenCount = 0
        let colours: [Int32: String]

        init(_ tree: CondensedTree, shape: TreeShape, layout: TreeLayout, selected: [Int32], colours: [Int32: String]) {
            let n = tree.pointCount, c = tree.clusterCount
            self.colours = colours
            // Parents first.
            ownLabel = [Int32](repeating: -1, count: c)
            for (i, id) in selected.enumerated() { ownLabel[Int(id) - n] = Int32(i) }
            inherited = ownLabel
            for k in 1..<max(c, 1) where inherited[k] < 0 { inherited[k] = inherited[shape.parent[k]] }
            // The top collapsed cluster of each branch is found parents-first.
            var topCollapsed = [Int](repeating: -1, count: c)
            for k in 1..<max(c, 1) where !layout.visible[k] {
                topCollapsed[k] = layout.visible[shape.parent[k]] ? k : topCollapsed[shape.parent[k]]
            }
            for (i, id) in selected.enumerated() where topCollapsed[Int(id) - n] >= 0 {
                hiddenLabels[shape.parent[topCollapsed[Int(id) - n]], default: []].append(Int32(i))
                hiddenCount += 1
            }
        }

        func colour(_ label: Int32) -> String { colours[label] ?? TreePlot.fallbackColour }
    }

    /// The outline of cluster k's column: its half-width at each λ on both sides of its
    /// centre, stepping in as points leave, down to its last event. Steps closer than 0.5 px
    /// vertically are merged (the later width wins), width changes under 0.25 px are
    /// dropped until they add up; the birth width is exact.
    /// - Returns: the path data, the column's bottom (y and the width just above it), and
    ///   its birth width (px).
    private static func columnPath(
        _ shape: TreeShape, _ k: Int, layout: TreeLayout, axis: LambdaAxis, tree: CondensedTree
    ) -> (String, end: (y: Double, width: Double), birthWidth: Double) {
        let s = layout.scale, x = layout.centre[k]
        let y0 = axis.y(tree.clusterBirth[k])
        var ys = [y0], ws = [s * shape.birthUnits[k]]
        var remaining = Int(tree.clusterSize[k])
        for e in shape.eventStart[k]..<shape.eventStart[k + 1] {
            remaining -= shape.eventDrop[e]
            let y = axis.y(shape.eventLambda[e])
            let width = remaining > 0 ? s * TreeShape.unit(remaining, logWidth: shape.logWidth) : 0
            if width > 0 && abs(width - ws[ws.count - 1]) < 0.25 { continue }
            if ys.count > 1 && y - ys[ys.count - 1] < 0.5 && width > 0 {
                ws[ws.count - 1] = width
            } else {
                ys.append(y); ws.append(width)
            }
        }
        if ws[ws.count - 1] > 0 { ys.append(ys[ys.count - 1]); ws.append(0) }
        // Every column is at least 1 px tall, so a cluster that ends where it starts shows.
        let m = ys.count
        if ys[m - 1] - y0 < 1 { for i in 1..<m { ys[i] = max(ys[i], y0 + 1) } }

        func right(_ i: Int) -> String { svgNumber(x + ws[i] / 2) }
        func left(_ i: Int) -> String { svgNumber(x - ws[i] / 2) }
        var d = "M" + right(0) + " " + svgNumber(y0)
        for i in 1..<m {
            d += "V" + svgNumber(ys[i]) + "H" + (i < m - 1 ? right(i) : left(m - 2))
        }
        for i in stride(from: m - 2, through: 1, by: -1) {
            d += "V" + svgNumber(ys[i]) + "H" + left(i - 1)
        }
        d += "V" + svgNumber(y0) + "Z"
        return (d, (ys[m - 1], ws[m - 2]), ws[0])
    }

    /// The λ axis on the left (ticks, labels, title, light grid lines across the plot), the
    /// distance labels on the right, and the ∞ band with its break mark and dashed line.
    private static func drawAxis(_ w: inout XMLWriter, _ axis: LambdaAxis, left: Double, right: Double, distances: Bool) {
        let ax = left - 8
        var grid = "", ticks = ""
        for (lambda, decimals) in axis.ticks() {
            let y = svgNumber(axis.y(lambda))
            grid += "M" + svgNumber(left) + " " + y + "H" + svgNumber(right)
            ticks += "M" + svgNumber(ax - 4) + " " + y + "h4"
            w.element("text", ["x": svgNumber(ax - 6), "y": y, "dy": "0.35em", "text-anchor": "end"],
                      text: svgNumber(lambda, decimals: decimals))
            if distances && lambda > 0 {
                w.element("text", ["x": svgNumber(right + 8), "y": y, "dy": "0.35em", "class": "note"],
                          text: LambdaAxis.distanceLabel(1 / lambda))
            }
        }
        w.empty("path", ["class": "grid", "d": grid])
        let finiteEnd = axis.hasInfinity ? axis.finiteBottom + 6 : axis.finiteBottom
        w.empty("path", ["class": "axis", "d": "M" + svgNumber(ax) + " " + svgNumber(axis.top) + "V" + svgNumber(finiteEnd) + ticks])
        let midY = svgNumber((axis.top + axis.finiteBottom) / 2)
        w.element("text", ["x": "16", "y": midY, "text-anchor": "middle",
                           "transform": "rotate(-90 16 \(midY))"], text: distances ? "λ = 1 / distance (1/m)" : "λ = 1 / distance")
        if distances {
            let rx = svgNumber(right + 66)
            w.element("text", ["x": rx, "y": midY, "text-anchor": "middle", "class": "note",
                               "transform": "rotate(90 \(rx) \(midY))"], text: "distance (1 / λ)")
        }
        guard axis.hasInfinity else { return }
        // The break: the axis stops above the band, resumes at ∞ after a double slash.
        let y = axis.infinityY, b = axis.finiteBottom
        let brk = "M" + svgNumber(ax - 4) + " " + svgNumber(b + 10) + "l8 -4M" + svgNumber(ax - 4) + " " + svgNumber(b + 14)
            + "l8 -4M" + svgNumber(ax) + " " + svgNumber(b + 12) + "V" + svgNumber(y) + "M" + svgNumber(ax - 4) + " "
            + svgNumber(y) + "h4"
        w.empty("path", ["class": "axis", "d": brk])
        w.element("text", ["x": svgNumber(ax - 6), "y": svgNumber(y), "dy": "0.35em", "text-anchor": "end",
                           "font-size": "15"], text: "∞")
        w.empty("path", ["class": "infinity", "d": "M" + svgNumber(left) + " " + svgNumber(y) + "H" + svgNumber(right)])
        w.element("text", ["x": svgNumber(right), "y": svgNumber(y - 4), "text-anchor": "end", "class": "note"],
                  text: "λ = ∞ (coincident points), clamped")
        if distances {
            w.element("text", ["x": svgNumber(right + 8), "y": svgNumber(y), "dy": "0.35em", "class": "note"], text: "0 m")
        }
    }
}
