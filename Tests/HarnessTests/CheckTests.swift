import Foundation
@testable import Harness
import Testing
import TestSupport

@Suite("Check: the gate's statistics, counts and verdicts")
struct CheckTests {
    struct MannWhitneyFixture: Decodable {
        struct Case: Decodable { var a: [Double]; var b: [Double]; var u: Double; var p: Double; var method: String }
        var cases: [Case]
    }

    @Test("Mann–Whitney U and p equal scipy's (scripts/reference/make_mannwhitney_fixtures.py), exact and asymptotic")
    func mannWhitneyAgainstScipy() throws {
        let url = TestPaths.fixtures("stats").appendingPathComponent("mannwhitney.json")
        let fixture = try JSONDecoder().decode(MannWhitneyFixture.self, from: Data(contentsOf: url))
        #expect(fixture.cases.count >= 9)
        for c in fixture.cases {
            let t = MannWhitney(c.a, c.b)
            #expect(t.u == c.u, "U for \(c.a.count)×\(c.b.count)")
            #expect(t.exact == (c.method == "exact"))
            #expect(abs(t.p - c.p) <= 1e-9 * max(1, c.p) + 1e-15, "p for \(c.a.count)×\(c.b.count) \(c.method): \(t.p) vs \(c.p)")
        }
    }

    @Test("the exact p-value is the share of all splits of the pooled values at least as extreme (brute force)")
    func mannWhitneyExactByEnumeration() {
        var g = SplitMix64(seed: 7)
        for (n1, n2) in [(3, 4), (5, 5), (6, 7), (4, 8)] {
            let a = (0..<n1).map { _ in Double(g.next() % 1_000_000) + 0.5 }
            let b = (0..<n2).map { _ in Double(g.next() % 1_000_000) + 0.25 }
            let pooled = a + b
            // U of every choice of n1 of the pooled values as the first sample.
            var us: [Double] = []
            func choose(_ start: Int, _ picked: [Int]) {
                if picked.count == n1 {
                    let first = picked.map { pooled[$0] }
                    let second = pooled.indices.filter { !picked.contains($0) }.map { pooled[$0] }
                    us.append(Double(first.reduce(0) { acc, x in acc + second.filter { x > $0 }.count }))
                    return
                }
                guard start < pooled.count else { return }
                for k in start..<pooled.count { choose(k + 1, picked + [k]) }
            }
            choose(0, [])
            let test = MannWhitney(a, b)
            let lower = Double(us.filter { $0 <= test.u }.count) / Double(us.count)
            let upper = Double(us.filter { $0 >= test.u }.count) / Double(us.count)
            #expect(test.exact)
            #expect(abs(test.p - min(1, 2 * min(lower, upper))) < 1e-12, "\(n1)×\(n2)")
        }
        // Clearly separated samples: as small as the test can say.
        let t = MannWhitney([10, 11, 12, 13, 14], [1, 2, 3, 4, 5])
        #expect(t.u == 25)
        #expect(abs(t.p - 2.0 / 252) < 1e-12)
    }

    @Test("callgrind dumps: the summary line and the calls to the allocators, in both name forms")
    func callgrindParse() {
        let dump = """
            version: 1
            events: Ir
            fn=main
            0 10
            cfn=malloc
            calls=40 3281
            0 5243
            cfn=(12) calloc
            calls=2 11
            0 30
            cfn=(12)
            calls=3 11
            0 30
            cfn=free
            calls=7 1
            0 70
            cfn=malloc_usable_size
            calls=5 1
            0 9
            summary: 150027525
            totals: 150027525
            """
        let (instructions, allocations) = Callgrind.parse(dump)
        #expect(instructions == 150_027_525)
        // malloc 40, calloc 2, and calloc again by its compressed id alone: 3.
        #expect(allocations == 45)
    }

    static func baseline() -> CheckBaseline {
        var b = CheckBaseline(geoclusterVersion: "0.1.0", commit: "abc", machine: "M", suite: "default")
        b.quality = [
            QualityResult(name: "seoul-10k hdbscan p", datasetHash: "d1", points: 100, clusters: 5, noise: 10,
                          partitionHash: "h1", mstWeight: 1000, ari: 0.5, ami: 0.6),
            QualityResult(name: "seoul-10k grid p", datasetHash: "d1", points: 100, clusters: 7, noise: 20,
                          partitionHash: "h2"),
        ]
        b.counts = [StageCounts(name: "seoul-10k hdbscan p", stage: "MST", instructions: 50_000_000, allocations: 100)]
        b.wall = [WallResult(name: "seoul-100k hdbscan p", ratios: (0..<15).map { 0.5 + Double($0) * 0.001 },
                             fitSeconds: 0.2, calibrationSeconds: 0.4)]
        return b
    }

    @Test("the same results pass; one cluster count and one hash changed fail the quality lane on their rows")
    func qualityLane() {
        let b = Self.baseline()
        let lanes = Set(CheckLane.allCases)
        let same = CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: b), lanes: lanes)
        #expect(same.exitCode == 0)
        #expect(same.rows.allSatisfy { $0.status == .pass })

        var altered = b
        altered.quality[0].clusters = 6
        altered.quality[1].partitionHash = "h9"
        altered.quality[0].mstWeight = 1000 * (1 + 1e-12)  // floating-point noise: tolerated
        let v = CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: altered), lanes: lanes)
        #expect(v.exitCode == 2)
        let failing = v.rows.filter { $0.status != .pass }
        #expect(failing.map(\.metric) == ["clusters", "partition hash"])
        #expect(failing[0].name == "seoul-10k hdbscan p" && failing[0].baseline == "5" && failing[0].current == "6"
            && failing[0].change == "+1" && failing[0].status == .changed)
        #expect(failing[1].name == "seoul-10k grid p" && failing[1].advice.contains("--update-baseline"))

        var moved = b
        moved.quality[0].ari = 0.5 * (1 + 1e-6)
        #expect(CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: moved), lanes: lanes)
            .rows.contains { $0.metric == "ARI" && $0.status == .changed })
    }

    @Test("counts: beyond both tolerances is a regression or an improvement; within either passes")
    func countsLane() {
        let b = Self.baseline()
        let lanes: Set<CheckLane> = [.counts]
        func verdict(_ instructions: Int, _ allocations: Int) -> CheckVerdict {
            var c = b
            c.counts[0].instructions = instructions
            c.counts[0].allocations = allocations
            return CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: c), lanes: lanes)
        }
        #expect(verdict(50_400_000, 100).exitCode == 0)  // +0.8 %
        #expect(verdict(60_000_000, 100).exitCode == 2)
        #expect(verdict(60_000_000, 100).rows.first { $0.lane == "instructions" }?.change == "+20 %")
        #expect(verdict(40_000_000, 100).exitCode == 3)
        #expect(verdict(50_000_000, 115).exitCode == 0)  // 15 more: within the absolute 20
        #expect(verdict(50_000_000, 200).exitCode == 2)
        // A per-row override in the baseline wins over the baseline-wide tolerance.
        var loose = b
        loose.counts[0].instructionsRelative = 0.5
        var c = b
        c.counts[0].instructions = 60_000_000
        #expect(CheckVerdict.compare(baseline: loose, current: CheckMeasurement(results: c), lanes: lanes).exitCode == 0)
    }

    @Test("wall: a shift beyond the effect size and significant fails; a small or noisy one passes")
    func wallLane() {
        let b = Self.baseline()
        func verdict(_ ratios: [Double]) -> CheckVerdict {
            var c = b
            c.wall[0].ratios = ratios
            return CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: c), lanes: [.wall])
        }
        let base = b.wall[0].ratios
        #expect(verdict(base.map { $0 * 1.05 }).exitCode == 0)
        #expect(verdict(base.map { $0 * 1.3 }).exitCode == 2)
        #expect(verdict(base.map { $0 * 0.7 }).exitCode == 3)
        // Two slow outliers in a run at the same speed: not a regression.
        #expect(verdict(base.enumerated().map { $0.offset < 2 ? $0.element * 2 : $0.element }).exitCode == 0)
    }

    @Test("new and removed cases ask for a refresh (exit 3); another machine skips the speed lanes with a warning")
    func baselineShape() {
        let b = Self.baseline()
        var c = b
        c.quality.append(QualityResult(name: "busan-10k dbscan p", datasetHash: "d2", points: 5, clusters: 1, noise: 0, partitionHash: "x"))
        c.quality.removeFirst()
        let v = CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: c), lanes: [.quality])
        #expect(v.exitCode == 3)
        #expect(Set(v.rows.filter { $0.status != .pass }.map(\.status)) == [.new, .removed])

        var other = b
        other.machine = "another CPU"
        other.counts[0].instructions *= 2
        other.quality[0].noise += 1
        let w = CheckVerdict.compare(baseline: b, current: CheckMeasurement(results: other), lanes: Set(CheckLane.allCases))
        #expect(w.warnings.contains { $0.contains("another kind of machine") })
        #expect(w.rows.filter { $0.lane == "instructions" || $0.lane == "wall" }.allSatisfy { $0.status == .skipped })
        #expect(w.rows.contains { $0.metric == "noise" && $0.status == .changed })
        #expect(w.exitCode == 2)
    }

    @Test("A/B: a slower head is a regression, a different partition a change")
    func abLane() {
        let base = (0..<11).map { 0.100 + Double($0) * 0.0005 }
        let b = Self.baseline()
        func verdict(_ head: [Double], same: Bool = true) -> CheckVerdict {
            var m = CheckMeasurement(results: b)
            m.ab = [ABResult(name: "seoul-100k hdbscan p", headSeconds: head, baseSeconds: base, samePartition: same)]
            return CheckVerdict.compare(baseline: b, current: m, lanes: [])
        }
        #expect(verdict(base.map { $0 * 1.02 }).exitCode == 0)
        #expect(verdict(base.map { $0 * 1.2 }).exitCode == 2)
        #expect(verdict(base).exitCode == 0)
        #expect(verdict(base, same: false).rows.contains { $0.metric == "partition" && $0.status == .changed })
    }

    @Test("numbers in rows: integers plain, four significant digits, p-values in short exponent form")
    func numberText() {
        #expect(CheckVerdict.number(108) == "108")
        #expect(CheckVerdict.number(0.65364) == "0.6536")
        #expect(CheckVerdict.number(12.3456) == "12.35")
        #expect(CheckVerdict.number(2.57869001515754e-08) == "2.58e-8")
        #expect(CheckVerdict.number(1e-9) == "1.0e-9")
        #expect(CheckVerdict.number(0.01452) == "0.01452")
        #expect(CheckVerdict.percent(100, 125) == "+25 %" && CheckVerdict.percent(100, 99.96) == "0.0 %"
            && CheckVerdict.percent(100, 96.2) == "-3.8 %")
    }

    @Test("a baseline round-trips through its JSON; a missing one says how to create it")
    func baselineFile() throws {
        try withFolder { folder in
            let b = Self.baseline()
            try b.json().write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
            #expect(try CheckBaseline.read(path: folder + "/b.json") == b)
            #expect(throws: HarnessError.self) { try CheckBaseline.read(path: folder + "/missing.json") }
            do {
                _ = try CheckBaseline.read(path: folder + "/missing.json")
            } catch {
                #expect("\(error)".contains("--update-baseline"))
            }
            try "{\"format\": 1}".write(toFile: folder + "/bad.json", atomically: true, encoding: .utf8)
            #expect(throws: HarnessError.self) { try CheckBaseline.read(path: folder + "/bad.json") }
        }
    }

    @Test("a suite file: cases resolve relative to it; bad cases are refused naming the case")
    func suiteFile() throws {
        try withFolder { folder in
            try """
            {"quality": [{"file": "mine.csv", "method": "dbscan", "parameters": "eps=50 min_samples=3"}],
             "counts": [], "wall": [{"scenario": "seoul", "size": "2k", "method": "hdbscan", "parameters": "min_cluster_size=5"}],
             "repeats": 5}
            """.write(toFile: folder + "/suite.json", atomically: true, encoding: .utf8)
            let s = try CheckSuite.read(path: folder + "/suite.json")
            #expect(s.quality[0].file == folder + "/mine.csv")
            #expect(s.wall[0].name == "seoul-2k hdbscan min_cluster_size=5")
            try """
            {"quality": [{"scenario": "paris", "size": "2k", "method": "hdbscan", "parameters": ""}], "counts": [], "wall": []}
            """.write(toFile: folder + "/bad.json", atomically: true, encoding: .utf8)
            do {
                _ = try CheckSuite.read(path: folder + "/bad.json")
                Issue.record("an unknown scenario was accepted")
            } catch {
                #expect("\(error)".contains("scenario must be one of"))
            }
        }
        // A case's metric: part of its name, passed to its runs and cells; a bad one refused.
        try withFolder { folder in
            var rows = "id,lat,lon\n"
            var g = SplitMix64(seed: 5)
            for i in 0..<600 {
                let c = Double(i % 4)
                rows += "\(i),\(37.5 + 0.02 * c + 0.002 * g.normal()),\(127.0 + 0.03 * c + 0.002 * g.normal())\n"
            }
            try rows.write(toFile: folder + "/seoul.csv", atomically: true, encoding: .utf8)
            try """
            {"quality": [{"file": "seoul.csv", "method": "hdbscan", "parameters": "min_cluster_size=20"},
                         {"file": "seoul.csv", "method": "hdbscan", "parameters": "min_cluster_size=20", "metric": "geodesic"}],
             "counts": [], "wall": []}
            """.write(toFile: folder + "/metric.json", atomically: true, encoding: .utf8)
            let s = try CheckSuite.read(path: folder + "/metric.json")
            #expect(s.quality.map(\.name) == ["seoul.csv hdbscan min_cluster_size=20", "seoul.csv hdbscan min_cluster_size=20 metric=geodesic"])
            #expect(s.quality[1].cellArguments(try s.quality[1].dataset(cache: folder)).suffix(2) == ["--metric", "geodesic"])
            let options = CheckOptions(suite: s, suiteName: "metric", lanes: [.quality], cache: folder, executable: "", against: nil,
                                       threads: 1, work: folder, version: "", commit: "", machine: "")
            let (planar, sphere) = (try Check.quality(s.quality[0], options: options), try Check.quality(s.quality[1], options: options))
            // Four blobs 2 km apart: the same four clusters either way; the MST weights differ
            // (UTM metres against great-circle metres) by less than the zone's scale error.
            #expect(planar.clusters == 4 && sphere.clusters == 4)
            let ratio = try #require(planar.mstWeight) / (try #require(sphere.mstWeight))
            #expect(ratio != 1 && abs(ratio - 1) < 0.01, "\(ratio)")
            try """
            {"quality": [{"file": "seoul.csv", "method": "hdbscan", "parameters": "", "metric": "manhattan"}], "counts": [], "wall": []}
            """.write(toFile: folder + "/bad-metric.json", atomically: true, encoding: .utf8)
            #expect { try CheckSuite.read(path: folder + "/bad-metric.json") } throws: { "\($0)".contains("metric must be one of auto, planar, geodesic") }
        }
        // Seven scenarios (the world's on the sphere) with three methods at two sizes; the
        // counts lane adds HDBSCAN on the world to seoul's three.
        #expect(CheckSuite.default.quality.count == 7 * 3 * 2)
        #expect(CheckSuite.default.quality.filter { $0.scenario == "world" }.map(\.method).sorted()
                == ["dbscan", "dbscan", "grid", "grid", "hdbscan", "hdbscan"])
        #expect(CheckSuite.default.counts.map { "\($0.scenario ?? "")-\($0.method)" }
                == ["seoul-hdbscan", "seoul-dbscan", "seoul-grid", "world-hdbscan"])
    }
}
