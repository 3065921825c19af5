#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a row of the verdict says.
public enum CheckStatus: String, Sendable, Codable, CaseIterable {
    /// Within tolerance.
    case pass
    /// Slower, or more instructions or allocations, beyond tolerance (and significant, for time).
    case regression
    /// An exact result differs from the baseline (quality lane, A/B partitions).
    case changed
    /// Faster or leaner beyond tolerance: the baseline should be refreshed on purpose.
    case improvement
    /// In the suite but not in the baseline.
    case new
    /// In the baseline but not in the suite.
    case removed
    /// Not compared (another machine kind, a tool missing); the warnings say why.
    case skipped
}

/// One row of the verdict: what was compared, what changed and by how much, against which
/// tolerance, and what to do.
public struct CheckRow: Sendable, Codable, Equatable {
    /// `quality`, `instructions`, `allocations`, `wall` or `a/b`.
    public var lane: String
    /// The case (`seoul-10k hdbscan min_cluster_size=30 min_samples=15`).
    public var name: String
    /// What was compared: a stage, `partition hash`, `clusters`, `fit / calibration` …
    public var metric: String
    public var baseline: String
    public var current: String
    /// The change, as a signed percentage or `differs`.
    public var change: String
    public var tolerance: String
    public var status: CheckStatus
    /// What to do (empty when the row passes).
    public var advice: String

    public init(lane: String, name: String, metric: String, baseline: String, current: String, change: String,
                tolerance: String, status: CheckStatus, advice: String) {
        self.lane = lane; self.name = name; self.metric = metric; self.baseline = baseline; self.current = current
        self.change = change; self.tolerance = tolerance; self.status = status; self.advice = advice
    }
}

/// The gate's answer: every row, the warnings, and the exit status.
public struct CheckVerdict: Sendable, Codable, Equatable {
    public var rows: [CheckRow]
    public var warnings: [String]
    /// The baseline's and this run's version, commit and machine.
    public var baselineDescription: String
    public var currentDescription: String

    public init(rows: [CheckRow], warnings: [String], baselineDescription: String, currentDescription: String) {
        self.rows = rows; self.warnings = warnings
        self.baselineDescription = baselineDescription; self.currentDescription = currentDescription
    }

    /// 2 when anything regressed or changed, else 3 when anything improved or the baseline lacks
    /// or has extra rows (it needs a deliberate refresh), else 0.
    public var exitCode: Int32 {
        if rows.contains(where: { $0.status == .regression || $0.status == .changed }) { return 2 }
        if rows.contains(where: { $0.status == .improvement || $0.status == .new || $0.status == .removed }) { return 3 }
        return 0
    }

    /// Whether a wall-lane row moved beyond its tolerance (a regression or an improvement).
    public var wallMoved: Bool {
        rows.contains { $0.lane == "wall" && ($0.status == .regression || $0.status == .improvement) }
    }

    /// The wall lane's changes, as `+28 % (regression)`, comma-separated.
    var wallChanges: String {
        rows.filter { $0.lane == "wall" }.map { "\($0.change) (\($0.status.rawValue))" }.joined(separator: ", ")
    }

    /// `pass`, `regression`, or `improvement: refresh the baseline`.
    public var outcome: String {
        switch exitCode {
        case 0: return "pass"
        case 2: return "regression"
        default: return "baseline out of date"
        }
    }

    /// Counts of rows per status, in `CheckStatus` order, the zero ones left out.
    public var tally: String {
        CheckStatus.allCases.compactMap { s in
            let n = rows.filter { $0.status == s }.count
            return n == 0 ? nil : "\(n) \(s.rawValue)"
        }.joined(separator: ", ")
    }

    /// Compares a run with the baseline, lane by lane.
    /// - Parameter lanes: the lanes that ran (rows of the others are neither new nor removed).
    public static func compare(baseline: CheckBaseline, current m: CheckMeasurement, lanes: Set<CheckLane>) -> CheckVerdict {
        let t = baseline.tolerances
        var rows: [CheckRow] = []
        var warnings = m.warnings
        let sameMachine = baseline.machine == m.results.machine
        if !sameMachine && (lanes.contains(.counts) || lanes.contains(.wall)) {
            warnings.append("the baseline was measured on another kind of machine (\(baseline.machine)); this is \(m.results.machine): the counts and wall lanes are skipped (their numbers depend on the machine), the quality lane and A/B comparisons still run. Create a baseline on this machine kind to gate speed here.")
        }
        if lanes.contains(.quality) { rows += quality(baseline.quality, m.results.quality, t) }
        if lanes.contains(.counts) {
            if sameMachine {
                rows += counts(baseline.counts, m.results.counts, t)
            } else {
                rows += m.results.counts.map { skipped("instructions", $0.name, $0.stage) }
            }
        }
        if lanes.contains(.wall) {
            if sameMachine {
                rows += wall(baseline.wall, m.results.wall, t)
            } else {
                rows += m.results.wall.map { skipped("wall", $0.name, "fit / calibration") }
            }
        }
        rows += ab(m.ab, t)
        func describe(_ b: CheckBaseline) -> String { "geocluster \(b.geoclusterVersion) (\(b.commit)) on \(b.machine)" }
        return CheckVerdict(rows: rows, warnings: warnings, baselineDescription: describe(baseline),
                            currentDescription: describe(m.results))
    }

    static func skipped(_ lane: String, _ name: String, _ metric: String) -> CheckRow {
        CheckRow(lane: lane, name: name, metric: metric, baseline: "", current: "", change: "", tolerance: "",
                 status: .skipped, advice: "baseline from another machine kind")
    }

    /// A case measured now that the baseline lacks.
    static func newRow(_ lane: String, _ name: String, _ metric: String, current: String) -> CheckRow {
        CheckRow(lane: lane, name: name, metric: metric, baseline: "", current: current, change: "", tolerance: "",
                 status: .new, advice: "not in the baseline: run `geocluster check --update-baseline` to record it")
    }

    /// A case of the baseline not measured now (dropped from the suite).
    static func removedRow(_ lane: String, _ name: String, _ metric: String, baseline: String) -> CheckRow {
        CheckRow(lane: lane, name: name, metric: metric, baseline: baseline, current: "", change: "", tolerance: "",
                 status: .removed, advice: "in the baseline but not in this suite: run `geocluster check --update-baseline` to drop it")
    }

    static let updateAdvice = "if intended, run `geocluster check --update-baseline` and commit the baseline with the change"

    static func quality(_ old: [QualityResult], _ new: [QualityResult], _ t: CheckTolerances) -> [CheckRow] {
        var rows: [CheckRow] = []
        let byName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for q in new {
            guard let b = byName[q.name] else {
                rows.append(newRow("quality", q.name, "all", current: "\(q.clusters) clusters"))
                continue
            }
            if b.datasetHash != q.datasetHash {
                rows.append(CheckRow(lane: "quality", name: q.name, metric: "dataset hash", baseline: b.datasetHash,
                                     current: q.datasetHash, change: "differs", tolerance: "equal", status: .changed,
                                     advice: "the input itself changed (the generator or the file), so nothing else can be compared; \(updateAdvice)"))
                continue
            }
            var changed: [CheckRow] = []
            func exact<T: Equatable & CustomStringConvertible>(_ metric: String, _ x: T, _ y: T) {
                guard x != y else { return }
                var change = "differs"
                if let a = x as? Int, let b = y as? Int { change = (b - a >= 0 ? "+" : "") + "\(b - a)" }
                changed.append(CheckRow(lane: "quality", name: q.name, metric: metric, baseline: x.description,
                                        current: y.description, change: change, tolerance: "equal", status: .changed,
                                        advice: "the clustering result changed: \(updateAdvice); otherwise find the change that moved it"))
            }
            func close(_ metric: String, _ x: Double?, _ y: Double?) {
                let same: Bool
                switch (x, y) {
                case (nil, nil): same = true
                case let (a?, b?): same = abs(a - b) <= t.scoreRelative * max(abs(a), abs(b)) || a == b
                default: same = false
                }
                guard !same else { return }
                changed.append(CheckRow(lane: "quality", name: q.name, metric: metric, baseline: x.map(number) ?? "none",
                                        current: y.map(number) ?? "none", change: percent(x, y),
                                        tolerance: "±\(number(t.scoreRelative)) relative", status: .changed,
                                        advice: "the clustering result changed: \(updateAdvice); otherwise find the change that moved it"))
            }
            exact("points", b.points, q.points)
            exact("clusters", b.clusters, q.clusters)
            exact("noise", b.noise, q.noise)
            exact("partition hash", b.partitionHash, q.partitionHash)
            close("MST weight", b.mstWeight, q.mstWeight)
            close("ARI", b.ari, q.ari)
            close("AMI", b.ami, q.ami)
            if changed.isEmpty {
                rows.append(CheckRow(lane: "quality", name: q.name, metric: "all",
                                     baseline: "\(b.clusters) clusters, \(b.noise) noise",
                                     current: "\(q.clusters) clusters, \(q.noise) noise", change: "none",
                                     tolerance: "equal; ±\(number(t.scoreRelative)) on weights and scores",
                                     status: .pass, advice: ""))
            }
            rows += changed
        }
        let names = Set(new.map(\.name))
        for b in old where !names.contains(b.name) {
            rows.append(removedRow("quality", b.name, "all", baseline: "\(b.clusters) clusters"))
        }
        return rows
    }

    static func counts(_ old: [StageCounts], _ new: [StageCounts], _ t: CheckTolerances) -> [CheckRow] {
        var rows: [CheckRow] = []
        let byKey = Dictionary(old.map { ($0.name + "|" + $0.stage, $0) }, uniquingKeysWith: { a, _ in a })
        for c in new {
            guard let b = byKey[c.name + "|" + c.stage] else {
                rows.append(newRow("instructions", c.name, c.stage, current: "\(c.instructions)"))
                continue
            }
            let relative = b.instructionsRelative ?? t.instructionsRelative
            let absolute = b.instructionsAbsolute ?? t.instructionsAbsolute
            rows.append(countRow("instructions", c.name, c.stage, b.instructions, c.instructions, relative, absolute,
                                 what: "instructions"))
            rows.append(countRow("allocations", c.name, c.stage, b.allocations, c.allocations,
                                 t.allocationsRelative, t.allocationsAbsolute, what: "heap allocations"))
        }
        let keys = Set(new.map { $0.name + "|" + $0.stage })
        for b in old where !keys.contains(b.name + "|" + b.stage) {
            rows.append(removedRow("instructions", b.name, b.stage, baseline: "\(b.instructions)"))
        }
        return rows
    }

    /// A count compared with both tolerances: it moved when the change exceeds the relative
    /// share of the baseline and the absolute amount.
    static func countRow(_ lane: String, _ name: String, _ stage: String, _ old: Int, _ new: Int,
                         _ relative: Double, _ absolute: Int, what: String) -> CheckRow {
        let diff = new - old
        let limit = max(Double(absolute), relative * Double(old))
        var status = CheckStatus.pass, advice = ""
        if Double(abs(diff)) > limit {
            if diff > 0 {
                status = .regression
                advice = "\(stage) does \(percent(Double(old), Double(new))) more \(what): profile it (`valgrind --tool=callgrind`, README: The regression gate); \(updateAdvice)"
            } else {
                status = .improvement
                // The share saved, of the baseline's count (a third fewer, not "+50 %").
                let saved = percent(Double(old), Double(new)).replacing("-", with: "")
                advice = "\(stage) does \(saved) fewer \(what): refresh the baseline (`geocluster check --update-baseline`) so the gain is kept"
            }
        }
        return CheckRow(lane: lane, name: name, metric: stage, baseline: "\(old)", current: "\(new)",
                        change: percent(Double(old), Double(new)),
                        tolerance: "±\(number(relative * 100)) % or ±\(absolute)", status: status, advice: advice)
    }

    static func wall(_ old: [WallResult], _ new: [WallResult], _ t: CheckTolerances) -> [CheckRow] {
        var rows: [CheckRow] = []
        let byName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for w in new {
            guard let b = byName[w.name], !b.ratios.isEmpty, !w.ratios.isEmpty else {
                rows.append(newRow("wall", w.name, "fit / calibration", current: number(Spread(w.ratios)?.median ?? 0)))
                continue
            }
            rows.append(timedRow(lane: "wall", name: w.name, metric: "fit / calibration", old: b.ratios, new: w.ratios,
                                 minEffect: t.wallMinEffect, alpha: t.alpha, unit: "",
                                 regressionAdvice: "slower against the calibration workload: confirm with `geocluster check --against BASE_BINARY` (A/B on this machine) and the counts lane"))
        }
        let names = Set(new.map(\.name))
        for b in old where !names.contains(b.name) {
            rows.append(removedRow("wall", b.name, "fit / calibration", baseline: number(Spread(b.ratios)?.median ?? 0)))
        }
        return rows
    }

    static func ab(_ results: [ABResult], _ t: CheckTolerances) -> [CheckRow] {
        var rows: [CheckRow] = []
        for r in results {
            rows.append(timedRow(lane: "a/b", name: r.name, metric: "fit seconds (base → head)", old: r.baseSeconds,
                                 new: r.headSeconds, minEffect: t.abMinEffect, alpha: t.alpha, unit: " s",
                                 regressionAdvice: "this binary is slower than the other on this machine, run interleaved: find the stage with the counts lane or `geocluster cluster --timings`"))
            rows.append(CheckRow(lane: "a/b", name: r.name, metric: "partition", baseline: "base", current: "head",
                                 change: r.samePartition ? "none" : "differs", tolerance: "equal",
                                 status: r.samePartition ? .pass : .changed,
                                 advice: r.samePartition ? "" : "the two binaries cluster the points differently: if intended, update the baseline; otherwise find the change that moved it"))
        }
        return rows
    }

    /// Two samples of times (or ratios) compared: a change counts only when the medians differ by
    /// at least `minEffect` and the Mann–Whitney test says p < `alpha`.
    static func timedRow(lane: String, name: String, metric: String, old: [Double], new: [Double], minEffect: Double,
                         alpha: Double, unit: String, regressionAdvice: String) -> CheckRow {
        let a = Spread(old)!.median, b = Spread(new)!.median
        let effect = b / a - 1
        let test = MannWhitney(new, old)
        var status = CheckStatus.pass, advice = ""
        if abs(effect) >= minEffect && test.p < alpha {
            if effect > 0 {
                status = .regression
                advice = regressionAdvice + "; if intended, update the baseline"
            } else {
                status = .improvement
                advice = "faster beyond tolerance: refresh the baseline (`geocluster check --update-baseline`) so the gain is kept"
            }
        } else if abs(effect) >= minEffect {
            advice = "a \(percent(a, b)) change, but not significant (p = \(number(test.p))): noise"
        }
        return CheckRow(lane: lane, name: name, metric: metric,
                        baseline: "median \(number(a))\(unit) of \(old.count)", current: "median \(number(b))\(unit) of \(new.count)",
                        change: percent(a, b) + " (p = \(number(test.p)))",
                        tolerance: "±\(number(minEffect * 100)) % and p < \(number(alpha))", status: status, advice: advice)
    }

    /// `+3.2 %`, from `a` to `b`.
    static func percent(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b, a != 0 else { return "differs" }
        let p = (b / a - 1) * 100
        if abs(p) < 0.05 { return "0.0 %" }
        let text = abs(p) >= 10 ? String(Int(p.rounded())) : String(Double(Int((p * 10).rounded())) / 10)
        return (p > 0 ? "+" : "") + text + " %"
    }

    /// Four significant digits for ratios and seconds, three in exponent form below 0.001
    /// (p-values); integers as they are.
    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        guard v.isFinite, v != 0 else { return "\(v)" }
        var digits = 3, magnitude = abs(v)
        while magnitude >= 10 { magnitude /= 10; digits -= 1 }
        while magnitude < 1 { magnitude *= 10; digits += 1 }
        if abs(v) < 1e-3 {
            // magnitude is in [1, 10); the exponent is digits - 3 below zero.
            let mantissa = (magnitude * 100).rounded() / 100
            return (v < 0 ? "-" : "") + "\(mantissa)e-\(digits - 3)"
        }
        if abs(v) >= 1e6 { return "\(v)" }
        var scale = 1.0
        for _ in 0..<max(0, digits) { scale *= 10 }
        return "\((v * scale).rounded() / scale)"
    }
}
