import ClusterCore
import Foundation
import Harness
import TestSupport
import Testing

@Suite("Harness.run")
struct RunTests {
    @Test("one run: labels, fingerprints, the stages in order and the peak memory, for each method")
    func runRecord() throws {
        try withTemporaryFolder { folder in
            // Two tight groups of 20 and one far point, in metres.
            var text = "id,x,y\n"
            for i in 0..<20 { text += "a\(i),\(Double(i % 5)),\(Double(i / 5))\n" }
            for i in 0..<20 { text += "b\(i),\(1000 + Double(i % 5)),\(Double(i / 5))\n" }
            text += "far,5000,5000\n"
            let path = try folder.write(text, to: "in.csv")
            let clock = StageClock()
            let h = try Harness.run(RunInput(path: path), method: .hdbscan(HDBSCANParameters(minClusterSize: 10, minSamples: 3)),
                                    threads: 2, clock: clock)
            #expect(h.clusterCount == 2 && h.noiseCount == 1 && h.labels.count == 41)
            #expect(h.file.id(40) == "far" && h.labels[40] == -1)
            #expect(h.stages.map(\.name) == ["reading", "projecting"] + HDBSCANStage.allCases.map(\.rawValue))
            #expect((h.mstWeight ?? 0) > 5000, "the far point's edge is in the MST")
            #expect(h.peakMegabytes.map { $0 > 1 } ?? true)
            #expect(h.hdbscan?.mst == nil, "trees not asked for are not kept")

            let d = try Harness.run(RunInput(path: path), method: .dbscan(DBSCANParameters(eps: 1.5, minSamples: 3)),
                                    threads: 1, clock: StageClock())
            #expect(d.clusterCount == 2 && d.isCore?.count == 41 && d.mstWeight == nil)
            #expect(d.stages.map(\.name) == ["reading", "projecting"] + DBSCANStage.allCases.map(\.rawValue))
            #expect(Fingerprint.partition(d.labels) == Fingerprint.partition(h.labels))

            let g = try Harness.run(RunInput(path: path), method: .grid(GridParameters(cellSize: 100, minPoints: 2)),
                                    threads: 1, clock: StageClock())
            #expect(g.clusterCount == 2 && g.stages.last?.name == "grid")

            #expect(throws: HarnessError.self) {
                try Harness.run(RunInput(path: folder.path("missing.csv")), method: .grid(GridParameters(cellSize: 1)),
                                threads: 1, clock: StageClock())
            }
            #expect(throws: HarnessError.self) {
                try Harness.run(RunInput(path: path), method: .grid(GridParameters(cellSize: -1)), threads: 1, clock: StageClock())
            }
        }
    }
}
