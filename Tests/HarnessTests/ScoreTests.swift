import ClusterMetrics
import Foundation
import Harness
import TestSupport
import Testing

@Suite("Harness.score")
struct ScoreTests {
    /// Ids in another order and a relabelled partition score 1 (ARI, V-measure) under every
    /// noise mode; with --shared-ids, the ids only one file has are left out and said so.
    @Test("rows matched by id whatever their order, shared ids counted in a note")
    func matchedByID() throws {
        try withTemporaryFolder { folder in
            var truth = "id,truth\n", labels = "id,label\n"
            for i in 0..<30 { truth += "p\(i),\(i / 10)\n" }
            for i in (0..<32).reversed() { labels += "p\(i),\(i < 30 ? 7 - i / 10 : -1)\n" }
            let t = try folder.write(truth, to: "t.csv"), l = try folder.write(labels, to: "l.csv")
            var notes: [String] = []
            let outcome = try Harness.score(ScoreRequest(truth: t, labels: l, sharedIDs: true), note: { notes.append($0) })
            #expect(outcome.matchedBy == "id" && outcome.scores.map(\.noise) == NoiseMode.allCases)
            for s in outcome.scores {
                #expect(s.count == 30 && s.adjustedRandIndex == 1 && s.vMeasure == 1)
            }
            #expect(notes == ["scored the 30 ids both files have; left out 0 only in \(t), 2 only in \(l)"])
            #expect(throws: (any Error).self) { try Harness.score(ScoreRequest(truth: t, labels: l), note: { _ in }) }
        }
    }
}
