import Harness
@testable import Reports
import Testing
import TestSupport

@Suite struct ParetoFrontTests {
    @Test func keepsExactlyTheUndominatedPoints() {
        //            0     1     2     3     4     5     6
        let t = [1.0, 2.0, 2.0, 3.0, 0.5, 4.0, 2.0]
        let q = [0.5, 0.8, 0.7, 0.8, 0.2, 0.9, 0.8]
        // 1 and 6 tie in both (both kept); 2 is as fast as 1 but worse; 3 is slower than 1 and
        // no better; 5 is the slowest but the best; 4 the fastest.
        #expect(SpeedQualityPlot.paretoFront(seconds: t, quality: q) == [true, true, false, false, true, true, true])
    }

    @Test func agreesWithTheDefinitionOnRandomPoints() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<50 {
            let k = 1 + Int(rng.uniform() * 30)
            // Coarse values, so ties in time and in quality are common.
            let t = (0..<k).map { _ in (rng.uniform() * 8).rounded() }
            let q = (0..<k).map { _ in (rng.uniform() * 8).rounded() / 8 }
            let brute = (0..<k).map { p in
                !(0..<k).contains { o in o != p && t[o] <= t[p] && q[o] >= q[p] && (t[o] < t[p] || q[o] > q[p]) }
            }
            #expect(SpeedQualityPlot.paretoFront(seconds: t, quality: q) == brute, "t \(t) q \(q)")
        }
    }
}

@Suite struct ScalingAndBudgetTests {
    @Test func fitRecoversAnExactPowerLaw() throws {
        let sizes = [1_000.0, 10_000, 100_000, 1_000_000]
        let fit = try #require(PowerLawFit(sizes: sizes, seconds: sizes.map { 2e-6 * pow15($0) }))
        #expect(abs(fit.b - 1.5) < 1e-9)
        #expect(abs(fit.a / 2e-6 - 1) < 1e-9)
        #expect(fit.count == 4)
        #expect(abs(fit.seconds(atSize: 40_000) / (2e-6 * pow15(40_000)) - 1) < 1e-9)
        #expect(abs(try #require(fit.size(forSeconds: 2e-6 * pow15(3e6))) / 3e6 - 1) < 1e-9)
    }

    /// n^1.5 without libm: n·√n.
    func pow15(_ n: Double) -> Double { n * n.squareRoot() }

    @Test func fitNeedsTwoSizesAndPositiveValues() {
        #expect(PowerLawFit(sizes: [1000, 1000], seconds: [1, 2]) == nil)
        #expect(PowerLawFit(sizes: [1000], seconds: [1]) == nil)
        #expect(PowerLawFit(sizes: [1000, 2000], seconds: [0, 1]) == nil)
        #expect(PowerLawFit(sizes: [1000, 2000], seconds: [2, 1])?.size(forSeconds: 1) == nil, "a falling time has no budget size")
    }

    @Test func seriesPicksTheBestOfASweepAndFitsAcrossDatasets() throws {
        let series = ScalingPlot.series(ReportSample.summary)
        #expect(series.map(\.key.label) == ["geocluster · dbscan", "geocluster · grid", "geocluster · hdbscan",
                                            "fast_hdbscan · hdbscan", "hdbscan · hdbscan", "sklearn · hdbscan"])
        let hdbscan = try #require(series.first { $0.key.label == "geocluster · hdbscan" })
        #expect(hdbscan.points.map(\.points) == [10_000, 100_000])
        #expect(hdbscan.points.allSatisfy { $0.parameters == "min_cluster_size=30 min_samples=15" })
        // 12.6× the time for 10× the points: b = log10(12.6).
        #expect(abs(try #require(hdbscan.fit).b - 1.1004) < 1e-3)
        #expect(series.first { $0.key.label == "sklearn · hdbscan" }?.fit == nil)
    }

    @Test func sweepWithoutABestIsRepresentedByItsLowerMedianTime() {
        let rows = [0.3, 0.1, 0.2, 0.4].enumerated().map { i, t in
            ReportSample.row("d", 1000, "geocluster", "dbscan", "eps=\(i)", fit: t, ari: nil)
        }
        #expect(ScalingPlot.series(rows).first?.points.first?.parameters == "eps=2")
    }

    func budgetSeries(_ points: [(Int, Double)]) -> ScalingSeries {
        let p = points.map { ScalingPoint(dataset: "n\($0.0)", points: $0.0, fitSeconds: Spread(median: $0.1, min: $0.1, max: $0.1), parameters: "") }
        return ScalingSeries(key: ImplementationMethod(implementation: "geocluster", method: "hdbscan"), scenario: "seoul", points: p,
                             fit: PowerLawFit(sizes: p.map { Double($0.points) }, seconds: p.map(\.fitSeconds.median)))
    }

    @Test func budgetFollowsItsDefinition() {
        // Linear: 1 µs per point.
        let linear = budgetSeries([(10_000, 0.01), (100_000, 0.1), (1_000_000, 1.5)])
        #expect(TimeBudget.estimate(linear, seconds: 1) == .atLeast(100_000))
        #expect(TimeBudget.estimate(linear, seconds: 1)?.text == "≥ 100k (measured)")
        let ten = TimeBudget.estimate(linear, seconds: 10)
        #expect(ten?.isExtrapolated == true)
        #expect(ten?.text.hasPrefix("~") == true && ten?.text.hasSuffix("M (extrapolated)") == true, "\(ten?.text ?? "nil")")
        // Every measured size is over budget: extrapolated downwards.
        let slow = budgetSeries([(10_000, 5), (100_000, 50)])
        #expect(TimeBudget.estimate(slow, seconds: 1)?.text == "~2k (extrapolated)")
        // One size: no fit, only what was measured.
        let single = budgetSeries([(10_000, 5)])
        #expect(TimeBudget.estimate(single, seconds: 1) == .below(10_000))
        #expect(TimeBudget.estimate(single, seconds: 10) == .atLeast(10_000))
        // Far beyond the measured sizes: a bound, not a number.
        let fast = budgetSeries([(1_000, 1e-6), (10_000, 1e-5)])
        #expect(TimeBudget.estimate(fast, seconds: 60)?.text == "> 1M (extrapolated)")
    }

    /// Two unrelated input files (a small slow one, a large fast one) beside a scenario's two
    /// sizes: only the scenario is fitted; the files are points of their own, measured only.
    @Test func onlySizesOfOneScenarioAreFitted() throws {
        var rows = [ReportSample.row("seoul-10k", 10_000, "geocluster", "dbscan", "eps=1", fit: 0.01, ari: nil),
                    ReportSample.row("seoul-100k", 100_000, "geocluster", "dbscan", "eps=1", fit: 0.1, ari: nil)]
        rows.append(ReportSample.row("airports", 28_000, "geocluster", "dbscan", "eps=1", fit: 0.5, ari: nil, scenario: ""))
        rows.append(ReportSample.row("cities", 3_470_000, "geocluster", "dbscan", "eps=1", fit: 0.2, ari: nil, scenario: ""))
        let series = ScalingPlot.series(rows)
        #expect(series.map(\.data) == ["seoul", "airports", "cities"])
        #expect(abs(try #require(series[0].fit).b - 1) < 1e-9)
        #expect(series[1].fit == nil && series[2].fit == nil)
        let table = TimeBudget.table(rows)
        #expect(table.map(\.data) == ["seoul", "airports", "cities"])
        #expect(table[1].estimates == [.atLeast(28_000), .atLeast(28_000), .atLeast(28_000)])
        #expect(table[2].estimates.allSatisfy { !$0.isExtrapolated })
        let svg = ScalingPlot.render(rows)
        #expect(svg.contains("b = 1.00 on seoul (2 sizes)"))
        #expect(svg.contains("airports: input file, no fit"))
        #expect(svg.ranges(of: "stroke-dasharray=\"6 4\"").count == 2, "one fit line and one legend line")
    }

    @Test func tableHasOneRowPerTimedMethod() {
        let table = TimeBudget.table(ReportSample.summary)
        #expect(table.count == 6)
        #expect(table.allSatisfy { $0.estimates.count == TimeBudget.budgets.count })
        // sklearn's HDBSCAN: one size (10k in 2.1 s).
        #expect(table.first { $0.key.implementation == "sklearn" }?.estimates == [.below(10_000), .atLeast(10_000), .atLeast(10_000)])
    }
}

@Suite struct PlotRenderingTests {
    @Test func plotsAreWellFormedDeterministicAndCountWhatTheyLeaveOut() throws {
        for render in [SpeedQualityPlot.render, ScalingPlot.render] {
            let svg = render(ReportSample.summary)
            #expect(svg == render(ReportSample.summary))
            let parsed = try XMLCheck(svg)
            #expect(parsed.elements.first?.name == "svg")
        }
        let speed = SpeedQualityPlot.render(ReportSample.summary)
        let drawable = ReportSample.summary.filter { $0.fitSeconds != nil && $0.ari != nil }.count
        #expect(speed.contains("\(drawable) of \(ReportSample.summary.count) rows drawn; \(ReportSample.summary.count - drawable) left out"))
        // One ringed point per front member: on seoul-10k geocluster grid, dbscan, hdbscan
        // (0.0195 s, ARI 0.874 and 0.0212 s, 0.912); the peers are slower and no better.
        let document = try XMLCheck(speed)
        let fronts = document.elements.indices.filter { document.elements[$0].attributes["data-front"] != nil }
        let rings = fronts.map { f in document.elements.indices.filter { document.elements[$0].name == "circle" && document.isInside($0, f) }.count }
        #expect(rings == [4, 4])
    }

    @Test func emptyInputStillGivesAValidPlotAndPage() throws {
        _ = try XMLCheck(SpeedQualityPlot.render([]))
        _ = try XMLCheck(ScalingPlot.render([]))
        _ = try XMLCheck(HTMLReport.render(summary: [], figures: [], info: ReportSample.info))
    }
}

@Suite struct ReportFormatTests {
    @Test func significantDigits() {
        #expect(ReportFormat.significant(0.01234) == "0.0123")
        #expect(ReportFormat.significant(12.345) == "12.3")
        #expect(ReportFormat.significant(1234.5) == "1235")
        #expect(ReportFormat.significant(9.996) == "10.0")
        #expect(ReportFormat.significant(1.5) == "1.50")
        #expect(ReportFormat.significant(-0.5) == "-0.500")
        #expect(ReportFormat.significant(1000) == "1000")
        #expect(ReportFormat.significant(0.1 + 0.2) == "0.300")
    }

    @Test func units() {
        #expect(ReportFormat.seconds(1.234) == "1.23 s")
        #expect(ReportFormat.seconds(0.0456) == "45.6 ms")
        #expect(ReportFormat.seconds(0.9999) == "1.00 s")
        #expect(ReportFormat.seconds(0.000789) == "789 µs")
        #expect(ReportFormat.seconds(Spread(median: 0.0212, min: 0.0208, max: 0.0231)) == "21.2 ms [20.8–23.1]")
        #expect(ReportFormat.count(1_234_567) == "1,234,567")
        #expect(ReportFormat.count(999) == "999")
        #expect(ReportFormat.compactCount(100_000) == "100k")
        #expect(ReportFormat.compactCount(3_240_000) == "3.2M")
        #expect(ReportFormat.compactCount(999_999) == "1M")
        #expect(ReportFormat.compactCount(950) == "950")
        #expect(ReportFormat.fixed(-0.0001) == "0.000")
        #expect(ReportFormat.fixed(0.87) == "0.870")
        #expect(ReportFormat.percent(0.1234) == "12.3 %")
    }
}
