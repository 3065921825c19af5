// The scaling plot: median fit time against points on log–log axes, one series per
// implementation and method, with the exponent b of a least-squares fit t = a·n^b in the
// legend. The same measurements (`ScalingPlot.series`) feed the time-budget table, so the plot
// and the table never disagree about which row stands for a method at a size.
import Datasets
import Harness

/// A power law t = a·n^b fitted by least squares to (ln n, ln t): time in seconds against size
/// in points.
public struct PowerLawFit: Sendable, Equatable {
    /// Seconds at n = 1 (the intercept, e^α, of the fit in log space).
    public var a: Double
    /// The exponent: 1 is linear, 2 quadratic; 1.1–1.3 is typical of n log n at these sizes.
    public var b: Double
    /// How many (size, time) pairs the fit used.
    public var count: Int

    public init(a: Double, b: Double, count: Int) {
        self.a = a; self.b = b; self.count = count
    }

    /// The least-squares line through (ln n, ln t): b = cov(ln n, ln t) / var(ln n), ln a =
    /// mean(ln t) − b·mean(ln n). Nil unless there are at least two distinct sizes and every
    /// size and time is positive and finite (a log–log fit needs them).
    /// - Parameters:
    ///   - sizes: points per dataset.
    ///   - seconds: the time measured at each size, same order.
    /// - Complexity: O(k) for k pairs.
    public init?(sizes: [Double], seconds: [Double]) {
        precondition(sizes.count == seconds.count, "PowerLawFit needs one time per size")
        guard sizes.allSatisfy({ $0 > 0 && $0.isFinite }), seconds.allSatisfy({ $0 > 0 && $0.isFinite }),
              Set(sizes).count >= 2 else { return nil }
        let x = sizes.map(DeterministicMath.log), y = seconds.map(DeterministicMath.log)
        let k = Double(x.count)
        let mx = x.reduce(0, +) / k, my = y.reduce(0, +) / k
        var sxy = 0.0, sxx = 0.0
        for i in x.indices {
            sxy += (x[i] - mx) * (y[i] - my)
            sxx += (x[i] - mx) * (x[i] - mx)
        }
        let b = sxy / sxx
        self.init(a: DeterministicMath.exp(my - b * mx), b: b, count: x.count)
    }

    /// The fitted time, seconds, at `size` points.
    public func seconds(atSize size: Double) -> Double {
        a * DeterministicMath.exp(b * DeterministicMath.log(size))
    }

    /// The size, points, whose fitted time is `seconds`: (t/a)^(1/b). Nil when b ≤ 0 (time
    /// that does not grow with n says nothing about the largest size within a budget).
    public func size(forSeconds seconds: Double) -> Double? {
        guard b > 0, seconds > 0, a > 0 else { return nil }
        return DeterministicMath.exp(DeterministicMath.log(seconds / a) / b)
    }
}

/// One measured size of a series: the dataset and its fit-time spread over repeats.
public struct ScalingPoint: Sendable, Equatable {
    public var dataset: String
    /// Points clustered.
    public var points: Int
    /// Median, minimum and maximum fit seconds over the repeats.
    public var fitSeconds: Spread
    /// The summary row's parameters, to say which setting of a sweep stands for the series.
    public var parameters: String
}

/// The measurements of one implementation and method at every size of one scenario (or on one
/// user's input file), and their power-law fit.
public struct ScalingSeries: Sendable, Equatable {
    public var key: ImplementationMethod
    /// The generated scenario whose sizes the series spans; empty for a user's input file, which
    /// is a series of its own: sizes of unrelated data say nothing about how a method scales.
    public var scenario: String
    /// Sorted by size, then dataset name.
    public var points: [ScalingPoint]
    /// Nil with fewer than two distinct sizes, and for a user's input file.
    public var fit: PowerLawFit?

    public init(key: ImplementationMethod, scenario: String, points: [ScalingPoint], fit: PowerLawFit?) {
        self.key = key; self.scenario = scenario; self.points = points; self.fit = fit
    }

    /// The data the series measured: its scenario, or the input file's dataset name.
    public var data: String { scenario.isEmpty ? points.first?.dataset ?? "" : scenario }
}

/// The scaling plot (SVG) and the measurements behind it.
public enum ScalingPlot {
    /// One series per implementation and method and per scenario (each user's input file a
    /// series of its own) that has a positive median fit time of a whole clustering, in `ImplementationMethod` order,
    /// then scenarios by name, then files by dataset name. Per dataset, the row standing for the
    /// series is: its only row with a fit time; else the one marked best in its sweep; else,
    /// when a sweep has no best (no truth), the row with the lower-median fit time (ties by
    /// parameters), so a sweep is represented by a typical setting, not its fastest. A
    /// scenario's fit uses every size's median; a file gets no fit.
    /// - Complexity: O(n log n) for n rows.
    public static func series(_ rows: [SummaryRow]) -> [ScalingSeries] {
        struct Group: Hashable, Comparable {
            var key: ImplementationMethod, scenario: String, file: String
            static func < (a: Group, b: Group) -> Bool {
                if a.key != b.key { return a.key < b.key }
                if a.scenario.isEmpty != b.scenario.isEmpty { return !a.scenario.isEmpty }
                return (a.scenario, a.file) < (b.scenario, b.file)
            }
        }
        var groups: [Group: [String: [SummaryRow]]] = [:]
        for row in rows {
            // An MST-only fit (quitefastmst) is not a clustering: it is no point of this plot.
            guard row.fitScope == .clustering, let t = row.fitSeconds, t.median > 0, t.median.isFinite, row.points > 0 else { continue }
            let group = Group(key: ImplementationMethod(row), scenario: row.scenario,
                              file: row.scenario.isEmpty ? row.dataset : "")
            groups[group, default: [:]][row.dataset, default: []].append(row)
        }
        return groups.keys.sorted().map { group in
            let byDataset = groups[group]!
            let points = byDataset.keys.sorted().map { representative(byDataset[$0]!) }
                .sorted { ($0.points, $0.dataset) < ($1.points, $1.dataset) }
            let fit = group.scenario.isEmpty ? nil
                : PowerLawFit(sizes: points.map { Double($0.points) }, seconds: points.map(\.fitSeconds.median))
            return ScalingSeries(key: group.key, scenario: group.scenario, points: points, fit: fit)
        }
    }

    /// The row standing for a dataset's rows of one implementation and method (see `series`).
    private static func representative(_ candidates: [SummaryRow]) -> ScalingPoint {
        let chosen: SummaryRow
        if candidates.count == 1 {
            chosen = candidates[0]
        } else if let best = candidates.filter(\.bestInSweep).min(by: { $0.parameters < $1.parameters }) {
            chosen = best
        } else {
            let sorted = candidates.sorted {
                ($0.fitSeconds!.median, $0.parameters) < ($1.fitSeconds!.median, $1.parameters)
            }
            chosen = sorted[(sorted.count - 1) / 2]
        }
        return ScalingPoint(dataset: chosen.dataset, points: chosen.points, fitSeconds: chosen.fitSeconds!,
                            parameters: chosen.parameters)
    }

    /// The plot as a standalone SVG document: x = points, y = median fit seconds, both log
    /// scale; bars from the fastest to the slowest repeat; a dashed line for each scenario's fit
    /// over its measured sizes, with the exponent b in the legend; an input file's points (a
    /// square marker) without a line or fit. Colours follow `ImplementationMethod` order over all
    /// of `rows`, as in `SpeedQualityPlot`. A footnote counts the rows left out (no fit time).
    /// Deterministic: the same rows give the same bytes.
    /// - Complexity: O(n log n) for n rows.
    public static func render(_ rows: [SummaryRow]) -> String {
        let all = ImplementationMethod.ordered(rows)
        let series = series(rows)
        let legend = legendEntries(series)
        let width = 760.0
        let legendHeight = legend.reduce(0) { $0 + 18 + 14 * Double($1.notes.count) }
        let height = max(460.0, 56 + legendHeight + 60)
        let frame = PlotFrame(left: 72, top: 16, right: 540, bottom: height - 80)
        let times = series.flatMap { $0.points.flatMap { [$0.fitSeconds.min, $0.fitSeconds.max] } }
        let x = LogAxis(values: series.flatMap { $0.points.map { Double($0.points) } }, from: frame.left, to: frame.right)
        let y = LogAxis(values: times, from: frame.bottom, to: frame.top)

        var w = XMLWriter()
        PlotStyle.openPlot(&w, width: width, height: height, title: "Scaling: fit time against points")
        frame.draw(&w, xTicks: x.ticks(label: ReportFormat.compactCount), xPosition: x.position,
                   yTicks: y.ticks(label: secondsTick), yPosition: y.position,
                   xTitle: "points (log scale)", yTitle: "median fit time (log scale)")
        for s in series {
            draw(&w, s, colour: PlotStyle.colour(all.firstIndex(of: s.key) ?? 0), x: x.position, y: y.position)
        }
        drawLegend(&w, legend, all: all, left: frame.right + 20, top: frame.top)
        footnote(&w, rows: rows, drawn: series.reduce(0) { $0 + $1.points.count }, height: height)
        w.close()
        return w.finish()
    }

    /// One series: its fit (dashed), the line through its medians, and a marker with the
    /// repeats' range at each size.
    private static func draw(_ w: inout XMLWriter, _ s: ScalingSeries, colour: String,
                             x: (Double) -> Double, y: (Double) -> Double) {
        w.open("g", ["data-series": s.key.label, "data-scenario": s.data])
        if let fit = s.fit, let lo = s.points.first?.points, let hi = s.points.last?.points {
            w.empty("line", ["x1": svgNumber(x(Double(lo))), "y1": svgNumber(y(fit.seconds(atSize: Double(lo)))),
                             "x2": svgNumber(x(Double(hi))), "y2": svgNumber(y(fit.seconds(atSize: Double(hi)))),
                             "stroke": colour, "stroke-width": "1.5", "stroke-dasharray": "6 4"])
        }
        if s.points.count > 1 {
            let path = s.points.map { svgNumber(x(Double($0.points))) + "," + svgNumber(y($0.fitSeconds.median)) }
            w.empty("polyline", ["points": path.joined(separator: " "), "fill": "none", "stroke": colour,
                                 "stroke-opacity": "0.35", "stroke-width": "1"])
        }
        let filled = s.key.implementation == "geocluster"
        for p in s.points {
            let px = x(Double(p.points))
            if p.fitSeconds.min < p.fitSeconds.max {
                w.empty("line", ["x1": svgNumber(px), "y1": svgNumber(y(p.fitSeconds.min)),
                                 "x2": svgNumber(px), "y2": svgNumber(y(p.fitSeconds.max)),
                                 "stroke": colour, "stroke-width": "1.5"])
            }
            PlotStyle.marker(&w, shape: s.scenario.isEmpty ? 1 : 0, x: px, y: y(p.fitSeconds.median), radius: 4.5,
                             fill: filled ? colour : "#ffffff", stroke: colour, strokeWidth: filled ? 1 : 2,
                             title: "\(s.key.label), \(p.dataset) (\(ReportFormat.count(p.points)) points, \(p.parameters)): "
                                 + ReportFormat.seconds(p.fitSeconds))
        }
        w.close()
    }

    /// One legend entry per implementation and method: its exponent on each scenario with a
    /// fit, and what was drawn without one.
    private static func legendEntries(_ series: [ScalingSeries]) -> [(key: ImplementationMethod, notes: [String])] {
        var keys: [ImplementationMethod] = []
        var notes: [ImplementationMethod: [String]] = [:]
        for s in series {
            if notes[s.key] == nil { keys.append(s.key) }
            if let fit = s.fit {
                notes[s.key, default: []].append("b = " + ReportFormat.fixed(fit.b, decimals: 2) + " on \(s.scenario) (\(fit.count) sizes)")
            } else {
                let name = s.data.count > 18 ? s.data.prefix(17) + "…" : s.data
                notes[s.key, default: []].append(s.scenario.isEmpty ? "\(name): input file, no fit" : "\(name): one size, no fit")
            }
        }
        return keys.map { ($0, notes[$0]!) }
    }

    private static func drawLegend(_ w: inout XMLWriter, _ entries: [(key: ImplementationMethod, notes: [String])],
                                   all: [ImplementationMethod], left lx: Double, top frameTop: Double) {
        w.element("text", ["x": svgNumber(lx), "y": svgNumber(frameTop + 12), "font-weight": "bold"], text: "Implementation · method")
        var top = frameTop + 30
        for entry in entries {
            let colour = PlotStyle.colour(all.firstIndex(of: entry.key) ?? 0)
            let filled = entry.key.implementation == "geocluster"
            w.empty("line", ["x1": svgNumber(lx), "y1": svgNumber(top), "x2": svgNumber(lx + 22), "y2": svgNumber(top),
                             "stroke": colour, "stroke-width": "1.5", "stroke-dasharray": "6 4"])
            PlotStyle.marker(&w, shape: 0, x: lx + 11, y: top, radius: 4.5, fill: filled ? colour : "#ffffff",
                             stroke: colour, strokeWidth: filled ? 1 : 2)
            w.element("text", ["x": svgNumber(lx + 30), "y": svgNumber(top + 4)], text: entry.key.label)
            for (i, note) in entry.notes.enumerated() {
                w.element("text", ["x": svgNumber(lx + 30), "y": svgNumber(top + 18 + 14 * Double(i)), "font-size": "11",
                                   "fill": PlotStyle.muted], text: note)
            }
            top += 18 + 14 * Double(entry.notes.count)
        }
    }

    private static func footnote(_ w: inout XMLWriter, rows: [SummaryRow], drawn: Int, height: Double) {
        let untimed = rows.filter { r in !(r.fitSeconds.map { $0.median > 0 && $0.median.isFinite } ?? false) }.count
        var foot = "\(drawn) of \(rows.count) rows drawn"
        if untimed > 0 { foot += "; \(untimed) without a fit time (failed, skipped, unavailable)" }
        if rows.count - untimed - drawn > 0 { foot += "; \(rows.count - untimed - drawn) other settings of a sweep" }
        w.element("text", ["x": "16", "y": svgNumber(height - 28), "font-size": "11.5", "fill": PlotStyle.muted],
                  text: foot + ".")
        w.element("text", ["x": "16", "y": svgNumber(height - 12), "font-size": "11.5", "fill": PlotStyle.muted],
                  text: "Bars: fastest to slowest repeat. Dashed: the fit t = a·n^b across the sizes of one scenario; "
                      + "squares: input files, never fitted.")
    }
}
