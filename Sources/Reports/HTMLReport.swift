// The one-file report, reports/index.html: the summary table, the speed–quality and scaling
// plots, the time-budget table, the maps side by side by method, and the condensed-tree plots.
// Everything is inline (CSS in one <style>, SVG in the page): the page makes no request of any
// kind, so it reads the same offline, from a CI artefact or from an e-mail attachment. It has
// no script either; nothing in it needs one.
//
// The page is well-formed XML as well as HTML (void elements self-closed, no `<` or `&` in the
// style sheet), so a plain XML parser can check it where no browser is installed.
import Harness

/// One map or condensed-tree plot for the report, with the SVG text another renderer of this
/// module wrote.
public struct ReportFigure: Sendable, Equatable {
    /// Which section of the page the figure goes in.
    public enum Kind: String, Sendable, CaseIterable {
        /// A map of the dataset coloured by cluster (the "Maps" section).
        case map
        /// A condensed-tree plot (the "Condensed trees" section).
        case tree
    }

    public var kind: Kind
    /// The summary rows' dataset name: figures are grouped by it.
    public var dataset: String
    /// With `method`, the column the figure goes in.
    public var implementation: String
    public var method: String
    /// The parameters in canonical form (`name=value` joined by spaces), shown under the figure.
    public var parameters: String
    /// Shown above the figure.
    public var title: String
    /// A complete SVG document (an XML declaration, a doctype and the SVG namespace attribute
    /// are dropped when it is embedded). Only SVG this module wrote: it goes in as markup.
    public var svg: String

    public init(kind: Kind, dataset: String, implementation: String, method: String, parameters: String,
                title: String, svg: String) {
        self.kind = kind; self.dataset = dataset; self.implementation = implementation; self.method = method
        self.parameters = parameters; self.title = title; self.svg = svg
    }
}

/// What the page's header says about the run that produced it.
public struct ReportInfo: Sendable, Equatable {
    /// The page's title and heading.
    public var title: String
    /// When the benchmark ran, as text (the caller formats it; the renderer reads no clock).
    public var generatedAt: String
    /// geocluster's version and git commit.
    public var version: String
    public var commit: String
    /// The machine fingerprint (CPU model, cores, OS).
    public var machine: String
    /// The command line that produced the report.
    public var commandLine: String

    public init(title: String, generatedAt: String, version: String, commit: String, machine: String, commandLine: String) {
        self.title = title; self.generatedAt = generatedAt; self.version = version; self.commit = commit
        self.machine = machine; self.commandLine = commandLine
    }
}

/// The one-file HTML report.
public enum HTMLReport {
    /// The page for `summary` and `figures`. Pure and deterministic: the same input gives the
    /// same bytes (no clock, no environment; every ordering is a sort).
    ///
    /// Order on the page: datasets by points then name; within a dataset, implementation and
    /// method in `ImplementationMethod` order (geocluster first), then the input's order.
    /// Figures go in a grid per dataset with one column per implementation and method that
    /// has a figure of that kind for that dataset, ordered by method, then as
    /// `ImplementationMethod` (so geocluster's HDBSCAN map sits beside the peers' HDBSCAN maps).
    /// - Complexity: O(r log r + f log f + total SVG length) for r rows and f figures.
    public static func render(summary: [SummaryRow], figures: [ReportFigure], info: ReportInfo) -> String {
        var w = XMLWriter()
        w.raw("<!DOCTYPE html>\n")
        w.open("html", ["lang": "en"])
        w.open("head")
        w.empty("meta", ["charset": "utf-8"])
        w.empty("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"])
        w.element("title", text: info.title)
        w.open("style")
        w.raw(styleSheet)
        w.close()
        w.close()
        w.open("body")

        header(&w, info: info, summary: summary)
        let datasets = datasetOrder(summary: summary, figures: figures)
        let counts = (maps: figures.filter { $0.kind == .map }.count, trees: figures.filter { $0.kind == .tree }.count)
        w.open("nav")
        for (anchor, label) in [("summary", "Summary"), ("plots", "Speed, quality and scaling"), ("budget", "Time budget"),
                                ("maps", "Maps (\(counts.maps))"), ("trees", "Condensed trees (\(counts.trees))")] {
            w.element("a", ["href": "#" + anchor], text: label)
        }
        w.close()

        w.open("main")
        summaryTable(&w, summary: summary, datasets: datasets)
        plots(&w, summary: summary)
        budgetTable(&w, summary: summary)
        var figureNumber = 0
        figureSection(&w, id: "maps", heading: "Maps", kind: .map, figures: figures, datasets: datasets,
                      empty: "No maps in this report.", number: &figureNumber)
        figureSection(&w, id: "trees", heading: "Condensed trees", kind: .tree, figures: figures, datasets: datasets,
                      empty: "No condensed-tree plots in this report.", number: &figureNumber)
        w.close()

        w.open("footer")
        w.text("geocluster \(info.version) (\(info.commit)). A self-contained page: styles and figures are inline; it loads nothing.")
        w.close()
        w.close()
        w.close()
        w.raw("\n")
        return w.finish()
    }

    // MARK: Sections

    private static func header(_ w: inout XMLWriter, info: ReportInfo, summary: [SummaryRow]) {
        w.open("header")
        w.element("h1", text: info.title)
        w.open("dl", ["class": "info"])
        let datasets = Set(summary.map(\.dataset)).count
        let failed = summary.filter { $0.status != .ok }.count
        let items: [(String, String, Bool)] = [
            ("Generated", info.generatedAt, false),
            ("geocluster", info.version + " · commit " + info.commit, false),
            ("Machine", info.machine, false),
            ("Command", info.commandLine, true),
            ("Cells", "\(summary.count) (\(datasets) dataset\(datasets == 1 ? "" : "s")); \(failed) did not finish every repeat", false),
        ]
        for (term, value, code) in items {
            w.element("dt", text: term)
            w.open("dd")
            if code { w.element("code", text: value) } else { w.text(value) }
            w.close()
        }
        w.close()
        w.close()
    }

    private static func summaryTable(_ w: inout XMLWriter, summary: [SummaryRow], datasets: [String]) {
        w.open("section", ["id": "summary"])
        w.element("h2", text: "Summary")
        w.element("p", ["class": "note"], text: "One row per dataset × implementation × method × parameters. "
            + "Fit: median fit time over the repeats that finished [fastest–slowest]. Process: median wall time of the whole process. "
            + "Peak: median peak resident memory. Noise: share of points labelled noise. ARI, AMI, V: agreement with the truth labels. "
            + "Time × geocluster: a peer's median fit time over geocluster's on the same dataset, method and parameters (above 1: slower). "
            + "MST =: the peer's minimum-spanning-tree weight equals geocluster's within 1e-9. ★ marks the best setting of a sweep by ARI.")
        if summary.isEmpty {
            w.element("p", ["class": "empty"], text: "No benchmark rows.")
            w.close()
            return
        }
        w.open("div", ["class": "scroll"])
        w.open("table", ["id": "summary-table", "class": "summary"])
        w.open("thead")
        w.open("tr")
        let headers: [(String, Bool)] = [
            ("Dataset", false), ("Implementation", false), ("Method", false), ("Parameters", false), ("Fit", true),
            ("Process", true), ("Peak MB", true), ("Clusters", true), ("Noise", true), ("ARI", true), ("AMI", true),
            ("V", true), ("Time × geocluster", true), ("ARI vs geocluster", true), ("MST =", false), ("Status", false),
        ]
        for (label, numeric) in headers { w.element("th", numeric ? ["class": "num", "scope": "col"] : ["scope": "col"], text: label) }
        w.close()
        w.close()
        var index = 0
        for dataset in datasets {
            let rows = sortedRows(summary.filter { $0.dataset == dataset })
            guard let first = rows.first else { continue }
            w.open("tbody", ["data-dataset": dataset])
            for (i, row) in rows.enumerated() {
                w.open("tr", ["data-row": String(index), "class": row.bestInSweep ? "best" : (row.status == .ok ? "" : "failed")])
                index += 1
                if i == 0 {
                    w.open("th", ["scope": "rowgroup", "rowspan": String(rows.count), "class": "dataset"])
                    w.text(dataset)
                    w.element("span", ["class": "sub"], text: ReportFormat.count(first.points) + " points")
                    if !first.datasetHash.isEmpty { w.element("span", ["class": "sub hash"], text: first.datasetHash) }
                    w.close()
                }
                summaryCells(&w, row)
                w.close()
            }
            w.close()
        }
        w.close()
        w.close()
        w.close()
    }

    private static func summaryCells(_ w: inout XMLWriter, _ r: SummaryRow) {
        w.open("td")
        w.text(r.implementation)
        if !r.implementationVersion.isEmpty { w.element("span", ["class": "sub"], text: r.implementationVersion) }
        if r.fitScope == .mst {
            w.element("span", ["class": "sub", "title": "fit is the MST alone; the speed ratio is against geocluster's index + core distances + MST stages"],
                      text: " MST only")
        }
        if r.metric == "geodesic" { w.element("span", ["class": "sub", "title": "great-circle metres on the sphere"], text: " geodesic") }
        w.close()
        w.element("td", text: r.method)
        w.open("td", ["class": "params"])
        if r.bestInSweep { w.element("span", ["class": "star", "title": "best setting of the sweep by ARI"], text: "★\u{A0}") }
        w.text(r.parameters.isEmpty ? "defaults" : r.parameters)
        w.close()
        // A cell that never produced a result has nothing to show in the measured columns: its
        // message takes their place, so it is read where the numbers would be.
        let measured = r.fitSeconds != nil || r.processSeconds != nil || r.peakMegabytes != nil || r.clusters != nil || r.ari != nil
        if !measured && !r.error.isEmpty {
            w.element("td", ["class": "err", "colspan": "11"], text: r.error)
        } else {
            if let fit = r.fitSeconds {
                w.open("td", ["class": "num"])
                w.text(ReportFormat.seconds(fit.median))
                if fit.min != fit.max {
                    w.element("span", ["class": "sub", "title": "fastest–slowest repeat"], text: ReportFormat.secondsRange(fit))
                }
                w.close()
            } else {
                cell(&w, nil)
            }
            cell(&w, r.processSeconds.map { ReportFormat.seconds($0.median) })
            cell(&w, r.peakMegabytes.map { ReportFormat.significant($0.median) })
            cell(&w, r.clusters.map(ReportFormat.count))
            cell(&w, r.noiseFraction.map(ReportFormat.percent))
            cell(&w, r.ari.map { ReportFormat.fixed($0) })
            cell(&w, r.ami.map { ReportFormat.fixed($0) })
            cell(&w, r.vMeasure.map { ReportFormat.fixed($0) })
        }
        if measured || r.error.isEmpty {
            cell(&w, r.speedRatio.map { ReportFormat.significant($0) + "×" })
            cell(&w, r.ariVsGeocluster.map { ReportFormat.fixed($0) })
            switch r.mstMatchesGeocluster {
            case true?: w.element("td", ["class": "yes"], text: "yes")
            case false?: w.element("td", ["class": "no"], text: "no")
            case nil: w.element("td", ["class": "none"], text: "—")
            }
        }
        w.open("td", ["class": "status"])
        w.element("span", ["class": "badge " + r.status.rawValue], text: r.status.rawValue)
        w.element("span", ["class": "sub", "title": "repeats that finished / repeats run"], text: " \(r.okRepeats)/\(r.repeats)")
        if measured && !r.error.isEmpty { w.element("span", ["class": "err"], text: r.error) }
        w.close()
    }

    /// A right-aligned number cell, or a muted dash when the value is missing.
    private static func cell(_ w: inout XMLWriter, _ text: String?) {
        if let text { w.element("td", ["class": "num"], text: text) } else { w.element("td", ["class": "num none"], text: "—") }
    }

    private static func plots(_ w: inout XMLWriter, summary: [SummaryRow]) {
        w.open("section", ["id": "plots"])
        w.element("h2", text: "Speed, quality and scaling")
        w.open("div", ["class": "plots"])
        let figures = [
            ("speed-quality", "Speed against quality", SpeedQualityPlot.render(summary),
             "Each point is one row of the summary: median fit time (log scale) against ARI. Colour: implementation and method; "
                + "filled: geocluster, hollow: peers; shape: dataset. The ringed points joined by a dashed line form each dataset's "
                + "Pareto front: no other point of that dataset is both as fast and as good."),
            ("scaling", "Scaling with the number of points", ScalingPlot.render(summary),
             "Median fit time against points, log–log, one representative row per dataset (the best of a sweep where marked). "
                + "The legend gives the exponent b of the least-squares fit t = a·n^b across the sizes of one scenario: about 1 is "
                + "linear, 2 quadratic. Input files (squares) are drawn without a fit: sizes of unrelated data are no scaling law."),
        ]
        for (key, title, svg, caption) in figures {
            w.open("figure", ["class": "card plot", "data-figure": key, "id": "plot-" + key])
            w.element("div", ["class": "fig-title"], text: title)
            w.open("div", ["class": "svg"])
            w.raw(inlineSVG(svg, prefix: "plot-" + key + "-") ?? "")
            w.close()
            w.element("figcaption", text: caption)
            w.close()
        }
        w.close()
        w.close()
    }

    private static func budgetTable(_ w: inout XMLWriter, summary: [SummaryRow]) {
        w.open("section", ["id": "budget"])
        w.element("h2", text: "What fits in a time budget")
        let table = TimeBudget.table(summary)
        if table.isEmpty {
            w.element("p", ["class": "empty"], text: "No row has a fit time.")
            w.close()
            return
        }
        w.open("table", ["id": "budget-table", "class": "budget"])
        w.open("thead")
        w.open("tr")
        w.element("th", ["scope": "col"], text: "Implementation · method")
        w.element("th", ["scope": "col"], text: "Data")
        w.element("th", ["scope": "col", "class": "num"], text: "Exponent b")
        w.element("th", ["scope": "col", "class": "num"], text: "Sizes measured")
        for budget in TimeBudget.budgets { w.element("th", ["scope": "col", "class": "num"], text: "within " + secondsTick(budget)) }
        w.close()
        w.close()
        w.open("tbody")
        for row in table {
            w.open("tr")
            w.element("th", ["scope": "row"], text: row.key.label)
            w.element("td", text: row.data)
            cell(&w, row.fit.map { ReportFormat.fixed($0.b, decimals: 2) })
            w.element("td", ["class": "num"], text: row.sizes.map { ReportFormat.compactCount(Double($0)) }.joined(separator: ", "))
            for estimate in row.estimates {
                w.element("td", ["class": estimate.isExtrapolated ? "num extrapolated" : "num"], text: estimate.text)
            }
            w.close()
        }
        w.close()
        w.close()
        w.element("p", ["class": "note"], text: "The largest number of points each implementation and method clusters within 1 s, 10 s "
            + "and 60 s of median fit time, on the rows of the scaling plot. “≥ n (measured)”: the largest measured size within the "
            + "budget (the next larger measured size took longer). “< n (measured)”: even the smallest measured size took longer. "
            + "“~n (extrapolated)”, in italics: beyond the measured sizes, from the fitted t = a·n^b, n = (budget / a)^(1/b); "
            + "shown as a bound past 100× the measured range, where memory and caches make the fit meaningless. A line is fitted "
            + "only across the sizes of one generated scenario; an input file is measured, never extrapolated.")
        w.close()
    }

    private static func figureSection(_ w: inout XMLWriter, id: String, heading: String, kind: ReportFigure.Kind,
                                      figures: [ReportFigure], datasets: [String], empty: String, number: inout Int) {
        w.open("section", ["id": id])
        w.element("h2", text: heading)
        let ofKind = figures.filter { $0.kind == kind }
        if ofKind.isEmpty { w.element("p", ["class": "empty"], text: empty) }
        for dataset in datasets {
            let here = ofKind.filter { $0.dataset == dataset }
            guard !here.isEmpty else { continue }
            // Columns by method first, so a method's implementations stand side by side (the
            // comparison the maps are for), geocluster first within a method.
            let keys = Set(here.map { ImplementationMethod(implementation: $0.implementation, method: $0.method) })
            let columns = keys.sorted { (a: ImplementationMethod, b: ImplementationMethod) -> Bool in
                a.method != b.method ? a.method < b.method : a < b
            }
            // Wide enough to read, not so wide that two trees fill the page.
            let widest = kind == .map ? 440 : 640
            w.element("h3", text: dataset)
            w.open("div", ["class": "scroll"])
            w.open("div", ["class": "multiples", "style": "grid-template-columns: repeat(\(columns.count), minmax(220px, \(widest)px))"])
            for key in columns { w.element("div", ["class": "col-head"], text: key.label) }
            let byColumn = columns.map { key in here.filter { $0.implementation == key.implementation && $0.method == key.method } }
            let depth = byColumn.map(\.count).max() ?? 0
            for r in 0..<depth {
                for c in columns.indices {
                    guard r < byColumn[c].count else { w.element("div", ["class": "blank"], text: ""); continue }
                    let f = byColumn[c][r]
                    number += 1
                    let anchor = "\(kind.rawValue)-\(number)"
                    w.open("figure", ["class": "card", "id": anchor, "data-figure": kind.rawValue, "data-dataset": f.dataset,
                                      "data-implementation": f.implementation, "data-method": f.method])
                    w.element("div", ["class": "fig-title one-line", "title": f.title], text: f.title)
                    w.open("div", ["class": "svg"])
                    if let svg = inlineSVG(f.svg, prefix: anchor + "-") {
                        w.raw(svg)
                    } else {
                        w.element("p", ["class": "broken"], text: "This figure is not an SVG document.")
                    }
                    w.close()
                    w.element("figcaption", text: f.parameters.isEmpty ? "defaults" : f.parameters)
                    w.close()
                }
            }
            w.close()
            w.close()
        }
        w.close()
    }

    // MARK: Helpers

    /// Datasets in page order: those of the summary by points then name, then any that only
    /// figures name, by name.
    private static func datasetOrder(summary: [SummaryRow], figures: [ReportFigure]) -> [String] {
        var points: [String: Int] = [:]
        for r in summary { points[r.dataset] = max(points[r.dataset] ?? 0, r.points) }
        let known = points.keys.sorted { (points[$0]!, $0) < (points[$1]!, $1) }
        let extra = Set(figures.map(\.dataset)).subtracting(known).sorted()
        return known + extra
    }

    /// One dataset's rows: `ImplementationMethod` order, then the input's order (a stable sort).
    private static func sortedRows(_ rows: [SummaryRow]) -> [SummaryRow] {
        rows.enumerated().sorted { a, b in
            let ka = ImplementationMethod(a.element), kb = ImplementationMethod(b.element)
            if ka != kb { return ka < kb }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// `svg` ready to sit inside the page, or nil when it is not an SVG document: the XML
    /// declaration, doctype and comments before the root dropped; the SVG and XLink namespace
    /// attributes dropped (the HTML parser puts `<svg>` in the SVG namespace itself, and the
    /// page then names no URL at all); and every `id` prefixed with `prefix`, references
    /// (`url(#…)`, `href="#…"`) alike, because two maps that each define `id="clip"` would
    /// otherwise share one clip path once on the same page.
    static func inlineSVG(_ svg: String, prefix: String) -> String? {
        var rest = Substring(svg)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!DOCTYPE") || rest.hasPrefix("<!doctype") {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                rest = rest[rest.index(after: end)...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.firstRange(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        guard rest.hasPrefix("<svg") else { return nil }
        var text = String(rest)
        for namespace in [" xmlns=\"http://www.w3.org/2000/svg\"", " xmlns:xlink=\"http://www.w3.org/1999/xlink\""] {
            text = text.replacing(namespace, with: "")
        }
        text = text.replacing(" id=\"", with: " id=\"" + prefix)
        text = text.replacing("url(#", with: "url(#" + prefix)
        text = text.replacing("href=\"#", with: "href=\"#" + prefix)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }

    /// The page's style sheet. No `<` or `&` (the page stays well-formed XML), no `url(` and no
    /// `@import` (it loads nothing); system fonts only.
    static let styleSheet = """
    :root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0072b2; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: var(--ink); background: #ffffff; }
    header { padding: 22px 32px 16px; background: var(--soft); border-bottom: 1px solid var(--line); }
    h1 { margin: 0 0 10px; font-size: 24px; font-weight: 650; }
    dl.info { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; font-size: 13px; }
    dl.info dt { color: var(--muted); }
    dl.info dd { margin: 0; }
    code { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; background: #eaeef2; padding: 1px 5px; border-radius: 4px; word-break: break-all; }
    nav { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 4px 20px; padding: 8px 32px; background: #ffffffee; border-bottom: 1px solid var(--line); font-size: 13px; }
    nav a { color: var(--accent); text-decoration: none; }
    nav a:hover { text-decoration: underline; }
    main { padding: 4px 32px 40px; }
    section { margin-top: 26px; }
    h2 { font-size: 19px; font-weight: 650; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
    h3 { font-size: 15px; font-weight: 600; margin: 18px 0 8px; }
    p.note { color: var(--muted); font-size: 12.5px; max-width: 110ch; margin: 4px 0 10px; }
    p.empty { color: var(--muted); font-style: italic; }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
    th, td { padding: 4px 7px; text-align: left; vertical-align: top; white-space: nowrap; border-bottom: 1px solid #eaeef2; }
    thead th { background: var(--soft); border-bottom: 2px solid var(--line); font-weight: 600; white-space: normal; vertical-align: bottom; }
    td.params { white-space: normal; min-width: 11em; max-width: 17em; }
    .num { text-align: right; }
    tbody { border-top: 2px solid var(--line); }
    th.dataset { background: #ffffff; font-weight: 600; border-right: 1px solid #eaeef2; }
    .sub { display: block; color: var(--muted); font-weight: 400; font-size: 11.5px; }
    td.status .sub { display: inline; }
    .hash { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 11px; }
    tr.best td { background: #fff6d6; }
    tr.failed td { background: #fbfbfc; }
    .star { color: #a06b00; }
    .none { color: #b0b7be; }
    td.no { color: #cf222e; font-weight: 600; }
    td.yes { color: #1a7f37; }
    .badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 11px; font-weight: 600; background: #dafbe1; color: #1a7f37; }
    .badge.error, .badge.crashed, .badge.timeout { background: #ffebe9; color: #cf222e; }
    .badge.skipped, .badge.unavailable { background: #eaeef2; color: var(--muted); }
    .err { white-space: normal; color: #8c2f00; font-size: 12px; }
    span.err { display: block; max-width: 26em; }
    table.budget th[scope=row] { font-weight: 500; }
    td.extrapolated { font-style: italic; color: var(--muted); }
    .plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 20px; }
    figure { margin: 0; }
    .card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; background: #ffffff; }
    .fig-title { font-weight: 600; font-size: 13px; margin-bottom: 4px; }
    .one-line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-weight: 500; font-size: 12px; color: var(--muted); }
    .svg svg { display: block; width: 100%; height: auto; }
    figcaption { color: var(--muted); font-size: 12px; margin-top: 4px; }
    .multiples { display: grid; gap: 12px; align-items: start; }
    .col-head { font-weight: 600; font-size: 13px; padding: 4px 0; border-bottom: 2px solid var(--accent); }
    .broken { color: #cf222e; }
    footer { padding: 14px 32px 28px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); }
    """
}
