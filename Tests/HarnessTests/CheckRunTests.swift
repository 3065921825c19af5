import Foundation
import Harness
import Testing
import TestSupport

/// What `geocluster check --update-baseline` keeps of the baseline it replaces, and how the
/// previous baseline is found: what the command did itself before, tested without a process.
@Suite("Check: the previous baseline and the merge of a refreshed one")
struct CheckRunTests {
    @Test("a refresh keeps the old tolerances, hand-set row tolerances and the lanes not run")
    func merge() {
        var old = CheckTests.baseline()
        old.tolerances.wallMinEffect = 0.3
        old.counts[0].instructionsRelative = 0.05
        old.counts[0].instructionsAbsolute = 1_000_000
        var measured = CheckTests.baseline()
        measured.commit = "new"
        measured.counts[0].instructions = 60_000_000
        measured.quality[0].clusters = 6
        measured.wall = []

        #expect(CheckBaseline.merged(measured, keeping: nil, lanes: [.quality]) == measured)
        let merged = CheckBaseline.merged(measured, keeping: old, lanes: [.quality, .counts])
        #expect(merged.commit == "new" && merged.tolerances.wallMinEffect == 0.3)
        #expect(merged.counts[0].instructions == 60_000_000 && merged.counts[0].instructionsRelative == 0.05
            && merged.counts[0].instructionsAbsolute == 1_000_000)
        #expect(merged.quality[0].clusters == 6)
        #expect(merged.wall == old.wall, "the wall lane did not run: its rows stay")
        let qualityOnly = CheckBaseline.merged(measured, keeping: old, lanes: [.quality])
        #expect(qualityOnly.counts == old.counts && qualityOnly.quality[0].clusters == 6)
    }

    @Test("the previous baseline: required to compare; when updating, a missing one is none and an unreadable one is replaced with a warning")
    func previous() throws {
        try withTemporaryFolder { folder in
            let missing = folder.path("none.json")
            #expect(throws: HarnessError.self) { _ = try CheckBaseline.previous(at: missing, updating: false) }
            var warnings: [String] = []
            #expect(try CheckBaseline.previous(at: missing, updating: true) { warnings.append($0) } == nil)
            #expect(warnings.isEmpty)

            let bad = try folder.write("{not json", to: "bad.json")
            #expect(try CheckBaseline.previous(at: bad, updating: true) { warnings.append($0) } == nil)
            #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: replacing \(bad), which is not a readable baseline ("))

            let good = try folder.write(CheckTests.baseline().json(), to: "good.json")
            #expect(try CheckBaseline.previous(at: good, updating: false) == CheckTests.baseline())
            #expect(try CheckBaseline.previous(at: good, updating: true) == CheckTests.baseline())
        }
    }

    @Test("a wall-lane regression is measured again, three times in all, and stands when every measurement moved")
    func wallConfirmation() throws {
        try withTemporaryFolder { folder in
            let suite = try folder.write("""
                {"quality": [], "counts": [], "repeats": 5,
                 "wall": [{"scenario": "seoul", "size": "2k", "method": "hdbscan", "parameters": "min_cluster_size=5"}]}
                """, to: "suite.json")
            // A baseline no real fit can match: every ratio far below any measurable one.
            var baseline = CheckBaseline(geoclusterVersion: "0.1.0", commit: "abc", machine: Machine.fingerprint(), suite: "suite.json")
            baseline.wall = [WallResult(name: "seoul-2k hdbscan min_cluster_size=5", ratios: (0..<5).map { 1e-9 * Double(1 + $0) },
                                        fitSeconds: 1e-9, calibrationSeconds: 1)]
            let path = try folder.write(baseline.json(), to: "baseline.json")
            var lines: [String] = []
            let request = CheckRequest(baseline: path, suite: suite, lanes: [.wall], against: nil, updateBaseline: false,
                                       repeats: nil, cache: folder.path("cache"), threads: 1, version: "test", wallPause: 0)
            guard case .verdict(let verdict) = try Check.run(request, progress: { lines.append($0) }) else {
                Issue.record("a comparison gave no verdict"); return
            }
            #expect(verdict.exitCode == 2, "a regression that reproduces stands")
            #expect(lines.filter { $0.hasPrefix("wall 1/1") }.count == Check.wallMeasurements, "the lane ran three times: \(lines)")
            #expect(verdict.warnings.contains { $0.hasPrefix("the wall lane was measured 3 times: the earlier measurements gave +") })

            let wallRow = try #require(verdict.rows.first { $0.lane == "wall" })
            #expect(wallRow.status == .regression)
            #expect(!CheckVerdict(rows: [], warnings: [], baselineDescription: "", currentDescription: "").wallMoved)
        }
    }
}
