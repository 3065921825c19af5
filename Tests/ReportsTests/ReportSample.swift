import Harness
import Reports
import TestSupport

/// A realistic benchmark summary and small figures for the report tests: two datasets
/// (seoul-10k, seoul-100k), geocluster's three methods with a two-setting HDBSCAN sweep, peers
/// that are slower, one that failed, one skipped and one not installed; a map per dataset and
/// method and a few tree plots, drawn with XMLWriter as the real renderers do.
enum ReportSample {
    static let info = ReportInfo(
        title: "geocluster benchmark", generatedAt: "2025-06-01 12:00 UTC", version: "0.1.0", commit: "0b799c1",
        machine: "AMD EPYC 7B13, 2 cores, Debian 12", commandLine: "geocluster bench --datasets seoul-10k,seoul-100k --repeats 5 --output reports")

    static func spread(_ median: Double, _ spreadFraction: Double = 0.06) -> Spread {
        Spread(median: median, min: median * (1 - spreadFraction / 3), max: median * (1 + spreadFraction))
    }

    static func row(_ dataset: String, _ n: Int, _ implementation: String, _ method: String, _ parameters: String,
                    fit: Double?, ari: Double?, clusters: Int? = nil, noise: Double? = nil, ratio: Double? = nil,
                    vsGeocluster: Double? = nil, mst: Bool? = nil, best: Bool = false, status: RunStatus = .ok,
                    error: String = "", version: String = "", scenario: String = "seoul") -> SummaryRow {
        let ok = status == .ok
        var summary = SummaryRow(
            dataset: dataset, points: n, datasetHash: n == 10_000 ? "3f9a0c1d2e4b5a67" : "8c1e5b7d9a0f2c34",
            implementation: implementation, method: method, parameters: parameters,
            okRepeats: ok ? 5 : 0, repeats: ok ? 5 : (status == .error ? 5 : 0), status: status, error: error,
            fitSeconds: fit.map { spread($0) }, processSeconds: fit.map { spread($0 * 1.4 + 0.03, 0.03) },
            peakMegabytes: fit.map { _ in spread(Double(n) / 1000 * 0.9 + 24, 0.01) },
            clusters: ok ? (clusters ?? Int(ari.map { $0 * Double(n) / 80 } ?? 0)) : nil,
            noiseFraction: ok ? (noise ?? 0.12) : nil, ari: ari, ami: ari.map { $0 - 0.03 }, vMeasure: ari.map { $0 - 0.02 },
            speedRatio: ratio, ariVsGeocluster: vsGeocluster, mstMatchesGeocluster: mst, bestInSweep: best,
            implementationVersion: version)
        summary.scenario = scenario
        return summary
    }

    static let summary: [SummaryRow] = {
        var rows: [SummaryRow] = []
        // Times grow 10.5× to 14.8× from 10k to 100k points (exponents 1.02 to 1.17).
        for (name, n, large) in [("seoul-10k", 10_000, false), ("seoul-100k", 100_000, true)] {
            func t(_ small: Double, _ growth: Double) -> Double { large ? small * growth : small }
            let hdbscan = t(0.0212, 12.6)
            rows.append(row(name, n, "geocluster", "hdbscan", "min_cluster_size=30 min_samples=15", fit: hdbscan, ari: 0.912, best: true, version: "0.1.0"))
            rows.append(row(name, n, "geocluster", "hdbscan", "min_cluster_size=60 min_samples=15", fit: t(0.0195, 12.6), ari: 0.874, version: "0.1.0"))
            rows.append(row(name, n, "geocluster", "dbscan", "eps=150 min_samples=10", fit: t(0.0081, 11.2), ari: 0.781, noise: 0.21, version: "0.1.0"))
            rows.append(row(name, n, "geocluster", "grid", "cell=250", fit: t(0.00214, 10.5), ari: 0.523, noise: 0, version: "0.1.0"))
            rows.append(row(name, n, "hdbscan", "hdbscan", "min_cluster_size=30 min_samples=15", fit: t(0.471, 14.8), ari: 0.912,
                            ratio: t(0.471, 14.8) / hdbscan, vsGeocluster: 1, mst: true, version: "0.8.40"))
            rows.append(row(name, n, "fast_hdbscan", "hdbscan", "min_cluster_size=30 min_samples=15", fit: t(0.18, 13.1), ari: 0.905,
                            ratio: t(0.18, 13.1) / hdbscan, vsGeocluster: 0.982, mst: !large, version: "0.2.2"))
        }
        rows.append(row("seoul-10k", 10_000, "sklearn", "hdbscan", "min_cluster_size=30 min_samples=15", fit: 2.1, ari: 0.912,
                        ratio: 2.1 / 0.0212, vsGeocluster: 1, mst: nil, version: "1.6.1"))
        rows.append(row("seoul-100k", 100_000, "sklearn", "hdbscan", "min_cluster_size=30 min_samples=15", fit: nil, ari: nil,
                        status: .skipped, error: "quadratic memory: not run above 50,000 points", version: "1.6.1"))
        rows.append(row("seoul-100k", 100_000, "sklearn_dbscan", "dbscan", "eps=150 min_samples=10", fit: nil, ari: nil,
                        status: .error, error: "MemoryError: Unable to allocate 74.5 GiB for an array with shape (100000, 100000) and data type float64",
                        version: "1.6.1"))
        rows.append(row("seoul-100k", 100_000, "hdbscan_rs", "hdbscan", "min_cluster_size=30 min_samples=15", fit: nil, ari: nil,
                        status: .unavailable, error: "hdbscan_rs is not installed (pip install hdbscan-rs)"))
        return rows
    }()

    static let colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F3C8D"]

    /// A 300 × 300 map: clusters of points in colours, noise in grey, a clip path with an id
    /// (two maps on one page must not share it), an XML declaration and the SVG namespace.
    static func map(seed: UInt64, clusters: Int) -> String {
        var rng = SplitMix64(seed: seed)
        var w = XMLWriter()
        w.open("svg", ["xmlns": "http://www.w3.org/2000/svg", "viewBox": "0 0 300 300", "width": "300", "height": "300"])
        w.open("defs")
        w.open("clipPath", ["id": "frame"])
        w.empty("rect", ["x": "4", "y": "4", "width": "292", "height": "292"])
        w.close()
        w.close()
        w.empty("rect", ["width": "300", "height": "300", "fill": "#f4f1ea"])
        w.open("g", ["clip-path": "url(#frame)"])
        for c in 0..<clusters {
            let cx = 30 + rng.uniform() * 240, cy = 30 + rng.uniform() * 240, spread = 8 + rng.uniform() * 22
            for _ in 0..<30 {
                w.empty("circle", ["cx": svgNumber(cx + (rng.uniform() - 0.5) * 2 * spread), "cy": svgNumber(cy + (rng.uniform() - 0.5) * 2 * spread),
                                   "r": "2.2", "fill": colours[c % colours.count]])
            }
        }
        for _ in 0..<60 {
            w.empty("circle", ["cx": svgNumber(rng.uniform() * 300), "cy": svgNumber(rng.uniform() * 300), "r": "1.5", "fill": "#9a9a9a"])
        }
        w.close()
        w.close()
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + w.finish() + "\n"
    }

    /// A 300 × 200 icicle-style tree: one bar per cluster, width by size, depth by λ.
    static func tree(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        var w = XMLWriter()
        w.open("svg", ["xmlns": "http://www.w3.org/2000/svg", "viewBox": "0 0 300 200", "width": "300", "height": "200"])
        w.empty("rect", ["x": "10", "y": "10", "width": "280", "height": "24", "fill": "#8aa1b1"])
        var x = 10.0
        for c in 0..<6 {
            let width = 280.0 / 6 - 4, depth = 40 + rng.uniform() * 120
            w.empty("rect", ["x": svgNumber(x), "y": "38", "width": svgNumber(width), "height": svgNumber(depth),
                             "fill": colours[c % colours.count]])
            x += 280.0 / 6
        }
        w.close()
        return w.finish()
    }

    static let figures: [ReportFigure] = {
        var out: [ReportFigure] = []
        var seed: UInt64 = 1
        for dataset in ["seoul-10k", "seoul-100k"] {
            for (implementation, method, parameters) in [
                ("geocluster", "hdbscan", "min_cluster_size=30 min_samples=15"), ("geocluster", "dbscan", "eps=150 min_samples=10"),
                ("geocluster", "grid", "cell=250"), ("hdbscan", "hdbscan", "min_cluster_size=30 min_samples=15"),
                ("fast_hdbscan", "hdbscan", "min_cluster_size=30 min_samples=15"),
            ] {
                seed += 1
                out.append(ReportFigure(kind: .map, dataset: dataset, implementation: implementation, method: method,
                                        parameters: parameters, title: "\(dataset): \(implementation) \(method)",
                                        svg: map(seed: seed, clusters: 4 + Int(seed % 4))))
            }
            for implementation in ["geocluster", "hdbscan"] {
                seed += 1
                out.append(ReportFigure(kind: .tree, dataset: dataset, implementation: implementation, method: "hdbscan",
                                        parameters: "min_cluster_size=30 min_samples=15",
                                        title: "\(dataset): condensed tree (\(implementation))", svg: tree(seed: seed)))
            }
        }
        return out
    }()
}
