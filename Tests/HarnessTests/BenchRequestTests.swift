import ClusterCore
import Datasets
import Foundation
import Harness
import Pins
import Testing
import TestSupport

/// `geocluster bench`'s request turned into datasets and a plan, and the staging folder its
/// report is built in: what the command did itself before, now tested without a process.
@Suite("Bench: the request, its datasets and plan, the staging folder")
struct BenchRequestTests {
    static let methods: [Method] = [.hdbscan(HDBSCANParameters(minClusterSize: 5))]

    static func request(_ change: (inout BenchRequest) -> Void = { _ in }) -> BenchRequest {
        var r = BenchRequest(methods: methods, version: "v", commandLine: "geocluster bench", executable: "/no/such/geocluster")
        change(&r)
        return r
    }

    @Test("a filter's cache key comes from its parsed conditions: sorted options, numbers as typed")
    func filterKey() throws {
        let filter = ListingFilter(
            attributes: AttributeFilter(categories: CategorySet([ListingCategory.villa, .apartment]), area: ValueRange(lower: 10, upper: 50.5),
                                        monthlyRent: ValueRange(lower: nil, upper: 80)),
            bbox: BoundingBox(minLongitude: 126.9, minLatitude: 37.5, maxLongitude: 127, maxLatitude: 37.6))
        #expect(filter.cacheKey == "--area=10..50.5 --bbox=126.9,37.5,127,37.6 --category=apartment,villa --rent=..80")
        // The same conditions in another order give the same key.
        let again = ListingFilter(
            attributes: AttributeFilter(categories: CategorySet([ListingCategory.apartment, .villa]),
                                        area: try ValueRange.parse("10.0..50.50", option: "--area"),
                                        monthlyRent: ValueRange(lower: nil, upper: 80)),
            bbox: try BoundingBox.parse("126.90,37.5,127.0,37.60"))
        #expect(again.cacheKey == filter.cacheKey)
        #expect(ListingFilter(attributes: AttributeFilter(deposit: ValueRange(lower: 1000, upper: nil))).cacheKey == "--deposit=1000..")
    }

    @Test("datasets: users' files first and named after them, then each scenario at each size, noted")
    func datasets() throws {
        try withTemporaryFolder { folder in
            let file = try folder.write("id,x,y\na,0,0\nb,1,1\n", to: "mine.csv")
            var notes: [String] = []
            let onlyFile = Self.request { $0.inputs = [file] }
            #expect(onlyFile.scenariosToGenerate.isEmpty, "no default scenario beside a user's file")
            let ds = try onlyFile.datasets { notes.append($0) }
            #expect(ds.map(\.name) == ["mine"] && ds[0].path == file && ds[0].hash.count == 16 && notes.isEmpty)

            let both = Self.request { $0.inputs = [file]; $0.scenarios = [.seoul]; $0.sizes = [300]; $0.cache = folder.path("cache") }
            let all = try both.datasets { notes.append($0) }
            #expect(all.map(\.name) == ["mine", "seoul-300"])
            #expect(notes == ["bench: dataset seoul-300 (seed 1)"])
            #expect(FileManager.default.fileExists(atPath: folder.path("cache/seoul-300-seed1.csv")))

            let missing = Self.request { $0.inputs = [folder.path("none.csv")] }
            #expect(throws: HarnessError.self) { _ = try missing.datasets { _ in } }
            do {
                _ = try missing.datasets { _ in }
            } catch {
                #expect("\(error)" == "--input \(folder.path("none.csv")): no such readable file; check the path")
            }
        }
        #expect(Self.request().scenariosToGenerate == BenchRequest.defaultScenarios)
    }

    @Test("the plan: peers need the peer script; resume keeps the earlier rows and their folder")
    func plan() throws {
        let d = [BenchDataset(name: "d", path: "/d.csv", hash: "h")]
        let peers = Self.request { $0.peers = [.hdbscan]; $0.peerScript = "/no/such/peer_cell.py" }
        do {
            _ = try peers.plan(datasets: d, work: "/w")
            Issue.record("a missing peer script is refused")
        } catch {
            #expect("\(error)" == "--peers: /no/such/peer_cell.py not found; run from the geocluster checkout or give --peer-script")
        }
        let resumed = Self.request { $0.resume = true; $0.out = "/out"; $0.repeats = 2; $0.threads = 3 }
        let p = try resumed.plan(datasets: d, work: "/w")
        #expect(p.previousWork == "/out" && p.work == "/w" && p.repeats == 2 && p.threads == 3 && p.methods == Self.methods)
        #expect(p.executable == "/no/such/geocluster" && p.binary == "" && p.version == "v")
        #expect(try Self.request().plan(datasets: d, work: "/w").previousWork == nil)
    }

    @Test("a note for each user's file whose rows came back without truth")
    func truthNotes() {
        let d = [BenchDataset(name: "a", path: "a.csv", hash: "ha"), BenchDataset(name: "b", path: "b.csv", hash: "hb")]
        let rows = [
            RunRow(dataset: "a", points: 3, datasetHash: "ha", hasTruth: false, implementation: "geocluster", method: "grid",
                   parameters: "p", repeatIndex: 1, status: .ok),
            RunRow(dataset: "b", points: 3, datasetHash: "hb", hasTruth: true, implementation: "geocluster", method: "grid",
                   parameters: "p", repeatIndex: 1, status: .ok),
        ]
        let notes = BenchRequest.truthNotes(rows: rows, datasets: d)
        #expect(notes.count == 1 && notes[0].hasPrefix("bench: a.csv has no truth column"))
    }

    @Test("the staging folder: published entries replace OUT's; a failure leaves OUT as it was")
    func staging() throws {
        try withTemporaryFolder { folder in
            let out = folder.path("out")
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            _ = try folder.write("old", to: "out/runs.csv")
            _ = try folder.write("kept", to: "out/other.txt")
            let staged = try BenchStagingFolder.staged(out: out) { staging in
                #expect(staging.path.hasPrefix(out + "/.bench-"))
                try "new".write(toFile: staging.path + "/runs.csv", atomically: true, encoding: .utf8)
                return staging.path
            }
            #expect(try folder.read("out/runs.csv") == "new" && folder.read("out/other.txt") == "kept")
            #expect(!FileManager.default.fileExists(atPath: staged))

            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try BenchStagingFolder.staged(out: out) { staging in
                    try "newer".write(toFile: staging.path + "/runs.csv", atomically: true, encoding: .utf8)
                    throw Stop()
                }
            }
            #expect(try folder.read("out/runs.csv") == "new")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["other.txt", "runs.csv"])

            let fresh = folder.path("fresh")
            #expect(throws: Stop.self) { try BenchStagingFolder.staged(out: fresh) { _ in throw Stop() } }
            #expect(!FileManager.default.fileExists(atPath: fresh), "a folder the run made is removed again")
        }
    }
}
