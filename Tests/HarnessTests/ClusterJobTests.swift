import ClusterCore
import Datasets
import Foundation
import Harness
import TestSupport
import Testing

@Suite("Harness.cluster")
struct ClusterJobTests {
    static func groups(_ folder: TemporaryFolder) throws -> String {
        var text = "id,x,y\n"
        for i in 0..<20 { text += "a\(i),\(Double(i % 5)),\(Double(i / 5))\n" }
        for i in 0..<20 { text += "b\(i),\(1000 + Double(i % 5)),\(Double(i / 5))\n" }
        return try folder.write(text + "far,5000,5000\n", to: "in.csv")
    }

    /// The run is reported before anything is written; then the labels, the MST and the
    /// condensed tree are there, and the labels name the input's ids.
    @Test("labels and trees written after the run is reported")
    func outputs() throws {
        try withTemporaryFolder { folder in
            var job = ClusterJob(input: RunInput(path: try Self.groups(folder)),
                                 method: .hdbscan(HDBSCANParameters(minClusterSize: 10, minSamples: 3)), threads: 2,
                                 output: folder.path("labels.csv"))
            job.mst = folder.path("mst.csv"); job.condensedTree = folder.path("ct.csv")
            var seenBeforeWriting = false
            let outcome = try Harness.cluster(job, clock: StageClock()) { record in
                seenBeforeWriting = record.clusterCount == 2 && !FileManager.default.fileExists(atPath: job.output)
            }
            #expect(seenBeforeWriting && outcome.stable == nil)
            let labels = try folder.read("labels.csv").split(separator: "\n")
            #expect(labels.count == 42 && labels[0].hasPrefix("id,label") && labels[41].hasPrefix("far,-1"))
            #expect(try folder.read("mst.csv").split(separator: "\n").count == 41)
            #expect(try folder.read("ct.csv").hasPrefix("parent,child,lambda,child_size"))
        }
    }

    /// GeoJSON labels need longitude/latitude: x,y input is refused before clustering, naming
    /// --output, and nothing is written.
    @Test("GeoJSON output of x,y input is refused before any work")
    func geoJSONNeedsPositions() throws {
        try withTemporaryFolder { folder in
            let job = ClusterJob(input: RunInput(path: try Self.groups(folder)), method: .dbscan(DBSCANParameters(eps: 2, minSamples: 3)),
                                 threads: 1, output: folder.path("labels.geojson"))
            var ran = false
            #expect(throws: DatasetError.self) { try Harness.cluster(job, clock: StageClock()) { _ in ran = true } }
            #expect(!ran && !FileManager.default.fileExists(atPath: job.output))
        }
    }
}
