// What the report's two plots share: the series key and its colour, marker shapes, log and
// linear axes, and the frame. Both plots assign colours from the whole summary (not from the
// rows each one can draw), so a method has the same colour in both and in the legend of each.
import Datasets
import Harness

/// One implementation and method (`geocluster` · `hdbscan`): a series in the plots and a row
/// of the time-budget table. Ordered with geocluster first, then by implementation and method.
public struct ImplementationMethod: Hashable, Comparable, Sendable {
    /// `geocluster`, or a peer's name (`hdbscan`, `fast_hdbscan`, …).
    public var implementation: String
    /// `hdbscan`, `dbscan`, `grid` or `supercluster`.
    public var method: String

    public init(implementation: String, method: String) {
        self.implementation = implementation
        self.method = method
    }

    /// The key of a summary row.
    public init(_ row: SummaryRow) {
        self.init(implementation: row.implementation, method: row.method)
    }

    /// `geocluster · hdbscan`.
    public var label: String { implementation + " · " + method }

    public static func < (a: Self, b: Self) -> Bool {
        let aOwn = a.implementation == "geocluster", bOwn = b.implementation == "geocluster"
        if aOwn != bOwn { return aOwn }
        return (a.implementation, a.method) < (b.implementation, b.method)
    }

    /// The distinct keys of `rows`, sorted.
    /// - Complexity: O(n log n) for n rows.
    public static func ordered(_ rows: [SummaryRow]) -> [ImplementationMethod] {
        Array(Set(rows.map(ImplementationMethod.init))).sorted()
    }
}

/// Colours and marker shapes for the plots.
enum PlotStyle {
    /// Okabe and Ito's colour-blind-safe palette (without its yellow, too faint on white),
    /// then four darker tones for reports with more than seven series.
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
                          "#7F3C8D", "#11A579", "#3969AC", "#A5AA99"]
    static func colour(_ index: Int) -> String { palette[index % palette.count] }

    static let shapeCount = 5
    static let text = "#222222"
    static let muted = "#666666"
    static let grid = "#e6e6e6"
    static let axis = "#999999"
    static let fontFamily = "system-ui, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif"

    /// Draws marker `shape` (0 circle, 1 square, 2 triangle, 3 diamond, 4 inverted triangle;
    /// others wrap) centred on (x, y) with about `radius` pixels of half-size.
    static func marker(_ w: inout XMLWriter, shape: Int, x: Double, y: Double, radius r: Double,
                       fill: String, stroke: String, strokeWidth: Double = 1.5, title: String? = nil) {
        func points(_ pts: [(Double, Double)]) -> String {
            pts.map { svgNumber(x + $0.0 * r) + "," + svgNumber(y + $0.1 * r) }.joined(separator: " ")
        }
        let sw = svgNumber(strokeWidth)
        if let title { w.open("g"); w.element("title", text: title) }
        switch shape % shapeCount {
        case 0:
            w.empty("circle", ["cx": svgNumber(x), "cy": svgNumber(y), "r": svgNumber(r), "fill": fill,
                               "stroke": stroke, "stroke-width": sw])
        case 1:
            let s = r * 0.9
            w.empty("rect", ["x": svgNumber(x - s), "y": svgNumber(y - s), "width": svgNumber(2 * s),
                             "height": svgNumber(2 * s), "fill": fill, "stroke": stroke, "stroke-width": sw])
        case 2:
            w.empty("polygon", ["points": points([(0, -1.2), (1.1, 0.8), (-1.1, 0.8)]), "fill": fill,
                                "stroke": stroke, "stroke-width": sw])
        case 3:
            w.empty("polygon", ["points": points([(0, -1.25), (1.1, 0), (0, 1.25), (-1.1, 0)]), "fill": fill,
                                "stroke": stroke, "stroke-width": sw])
        default:
            w.empty("polygon", ["points": points([(0, 1.2), (1.1, -0.8), (-1.1, -0.8)]), "fill": fill,
                                "stroke": stroke, "stroke-width": sw])
        }
        if title != nil { w.close() }
    }

    /// Opens the root `<svg>` of a plot with its size, fonts and an accessible title.
    static func openPlot(_ w: inout XMLWriter, width: Double, height: Double, title: String) {
        w.open("svg", ["xmlns": "http://www.w3.org/2000/svg", "viewBox": "0 0 \(svgNumber(width)) \(svgNumber(height))",
                       "width": svgNumber(width), "height": svgNumber(height), "role": "img",
                       "font-family": fontFamily, "font-size": "13", "fill": text])
        w.element("title", text: title)
        w.empty("rect", ["width": svgNumber(width), "height": svgNumber(height), "fill": "#ffffff"])
    }
}

/// log10 through `DeterministicMath`, so tick positions are the same bits on every platform.
func log10(_ value: Double) -> Double { DeterministicMath.log(value) / ReportFormat.ln10 }

/// A tick on an axis: its data value, whether it is a labelled one, and its label.
struct Tick {
    var value: Double
    var label: String?
}

/// A base-10 logarithmic axis over whole decades around the data, mapped onto a pixel range.
struct LogAxis {
    /// The decades at the two ends: the axis runs from 10^low to 10^high.
    let low: Int
    let high: Int
    /// Pixel coordinates of 10^low and 10^high (`to` may be less than `from`, for y axes).
    let from: Double
    let to: Double

    /// An axis over the positive finite `values` (one decade, 1 to 10, when there are none).
    init(values: [Double], from: Double, to: Double) {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let lo = positive.min() ?? 1, hi = positive.max() ?? 10
        let low = ReportFormat.decimalExponent(lo)
        let top = ReportFormat.decimalExponent(hi)
        self.low = low
        self.high = max(low + 1, ReportFormat.power10(top) == hi ? top : top + 1)
        self.from = from
        self.to = to
    }

    /// The pixel coordinate of `value` (> 0).
    func position(_ value: Double) -> Double {
        from + (log10(value) - Double(low)) / Double(high - low) * (to - from)
    }

    /// A tick at every decade (labelled) and at 2…9 × each decade (labelled at 2 and 5 when
    /// the axis spans two decades or fewer, so a short axis still has several labels).
    func ticks(label: (Double) -> String) -> [Tick] {
        var out: [Tick] = []
        let labelMinor = high - low <= 2
        for e in low...high {
            let decade = ReportFormat.power10(e)
            out.append(Tick(value: decade, label: label(decade)))
            guard e < high else { break }
            for m in 2...9 {
                let v = Double(m) * decade
                out.append(Tick(value: v, label: labelMinor && (m == 2 || m == 5) ? label(v) : nil))
            }
        }
        return out
    }
}

/// A linear axis whose ends and step are round numbers in hundredths (for scores in [-1, 1]).
struct LinearAxis {
    /// The ends and the step, in hundredths.
    let lowHundredths: Int
    let highHundredths: Int
    let stepHundredths: Int
    let from: Double
    let to: Double

    /// An axis over `values` with at most about eight steps, at least 0.1 long.
    init(values: [Double], from: Double, to: Double) {
        let finite = values.filter(\.isFinite)
        var lo = Int(((finite.min() ?? 0) * 100).rounded(.down))
        var hi = Int(((finite.max() ?? 1) * 100).rounded(.up))
        if hi - lo < 10 { hi = min(max(hi, lo + 10), 100); lo = min(lo, hi - 10) }
        let step = [1, 2, 5, 10, 20, 25, 50, 100].first { (hi - lo + $0 - 1) / $0 <= 8 } ?? 100
        lo = Int((Double(lo) / Double(step)).rounded(.down)) * step
        hi = Int((Double(hi) / Double(step)).rounded(.up)) * step
        lowHundredths = lo
        highHundredths = hi
        stepHundredths = step
        self.from = from
        self.to = to
    }

    func position(_ value: Double) -> Double {
        from + (value * 100 - Double(lowHundredths)) / Double(highHundredths - lowHundredths) * (to - from)
    }

    func ticks() -> [Tick] {
        let decimals = stepHundredths % 10 == 0 ? 1 : 2
        return stride(from: lowHundredths, through: highHundredths, by: stepHundredths).map {
            Tick(value: Double($0) / 100, label: ReportFormat.fixed(Double($0) / 100, decimals: decimals))
        }
    }
}

/// The plot area of a figure and the drawing of its grid, ticks and axis titles.
struct PlotFrame {
    let left: Double, top: Double, right: Double, bottom: Double

    /// Grid lines and labels for the x ticks (below the area) and y ticks (left of it), the
    /// area's border, and the two axis titles.
    func draw(_ w: inout XMLWriter, xTicks: [Tick], xPosition: (Double) -> Double,
              yTicks: [Tick], yPosition: (Double) -> Double, xTitle: String, yTitle: String) {
        w.open("g", ["stroke-width": "1"])
        for t in xTicks {
            let x = svgNumber(xPosition(t.value))
            w.empty("line", ["x1": x, "y1": svgNumber(top), "x2": x, "y2": svgNumber(bottom),
                             "stroke": PlotStyle.grid, "stroke-opacity": t.label == nil ? "0.6" : "1"])
        }
        for t in yTicks {
            let y = svgNumber(yPosition(t.value))
            w.empty("line", ["x1": svgNumber(left), "y1": y, "x2": svgNumber(right), "y2": y,
                             "stroke": PlotStyle.grid, "stroke-opacity": t.label == nil ? "0.6" : "1"])
        }
        w.empty("rect", ["x": svgNumber(left), "y": svgNumber(top), "width": svgNumber(right - left),
                         "height": svgNumber(bottom - top), "fill": "none", "stroke": PlotStyle.axis])
        w.close()
        w.open("g", ["font-size": "12", "fill": PlotStyle.muted])
        for t in xTicks {
            let x = xPosition(t.value)
            w.empty("line", ["x1": svgNumber(x), "y1": svgNumber(bottom), "x2": svgNumber(x),
                             "y2": svgNumber(bottom + (t.label == nil ? 3 : 5)), "stroke": PlotStyle.axis])
            if let label = t.label {
                w.element("text", ["x": svgNumber(x), "y": svgNumber(bottom + 18), "text-anchor": "middle"], text: label)
            }
        }
        for t in yTicks {
            let y = yPosition(t.value)
            w.empty("line", ["x1": svgNumber(left - (t.label == nil ? 3 : 5)), "y1": svgNumber(y),
                             "x2": svgNumber(left), "y2": svgNumber(y), "stroke": PlotStyle.axis])
            if let label = t.label {
                w.element("text", ["x": svgNumber(left - 8), "y": svgNumber(y + 4), "text-anchor": "end"], text: label)
            }
        }
        w.close()
        w.element("text", ["x": svgNumber((left + right) / 2), "y": svgNumber(bottom + 40), "text-anchor": "middle"], text: xTitle)
        let cy = (top + bottom) / 2
        w.element("text", ["x": "16", "y": svgNumber(cy), "text-anchor": "middle",
                           "transform": "rotate(-90 16 \(svgNumber(cy)))"], text: yTitle)
    }
}

/// A tick label for seconds without trailing zeros: `1 ms`, `20 ms`, `0.5 s`… `100 s`.
func secondsTick(_ value: Double) -> String {
    let (scaled, unit) = value >= 0.9995 ? (value, "s") : value >= 0.9995e-3 ? (value * 1e3, "ms") : (value * 1e6, "µs")
    var text = ReportFormat.significant(scaled, digits: 2)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text + " " + unit
}
