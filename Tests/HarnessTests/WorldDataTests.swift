import ClusterCore
import Datasets
import Foundation
import Geo
import Harness
import TestSupport
import Testing

@Suite("world data in the harness")
struct WorldDataTests {
    /// SHA-256 of files the generator wrote before the `world` scenario existed (CSV: 70,000
    /// listings, seed 3; GeoJSON: 3,000 listings, seed 5): appending a scenario must not move
    /// the RNG streams, or anything else, of the ones before it.
    static let golden: [(Scenario, csv: String, geojson: String)] = [
        (.seoul, "07fa050de234f4ac44dd83b07b315fd7152e6ecc8740ea557e78434943c6e0ec",
         "8621cb4af2bd4335907c3cdc8274bda333ce479abe98c10bee2f8c26fc2cbeb1"),
        (.varyingDensity, "acfb7f4735d921adf66394e75e7f4380a6b05590dccd94bf9d45b6bf1e8a234c",
         "68663df6532909bc6ce4f90b3db781b4a31e4aa4ec2975678c96af27cc6884e7"),
        (.strips, "7ccdc13f7dc47a7e81c2d613f5d2497e3d349e32f07cdd8fb94936f54d8cd648",
         "8d54105d141a3cea299013b0a2342e21c05b463449fcb3f181c5e19b2f3c2aee"),
        (.uniform, "cb4d188913ae6b46cda0ea36f86da3ee182a0d1f7d47485a69c1d71ab53c44d0",
         "36ff747a478131a8c3033ad6f69d2c0c5bef40facf27382ce32167bc1d7fa89d"),
        (.duplicates, "929d661026af510b2af1a7ab41e3bddd2a7e926cdd0d49dcf9d262f94dcfef13",
         "3249d01346a6b8fea6bd45384c030e41b43fbbcf50d8a80684d094e819ba6bbe"),
        (.busan, "151a1174dd79ef9a1ba47e08086f1e3348d5cb2a682541543aa192debd999f4e",
         "627a7c2bdc610432d65c3a245ea9c07e982ac7724a6df576b879c1d1f3209eee"),
    ]

    @Test("the scenarios before world write the bytes they wrote before it existed", arguments: golden)
    func goldenBytes(_ scenario: Scenario, _ csv: String, _ geojson: String) throws {
        try withTemporaryFolder { folder in
            for (name, count, seed, digest) in [("g.csv", 70_000, UInt64(3), csv), ("g.geojson", 3000, UInt64(5), geojson)] {
                let model = ScenarioModel(scenario: scenario, count: count, seed: seed)
                _ = try GeneratedListings.write(model: model, to: folder.path(name), format: ListingFormat(path: name)!)
                #expect(Fingerprint.sha256Hex(Array(try folder.data(name))) == digest, "\(scenario) \(name)")
            }
        }
    }

    @Test("the gate's default suite runs every scenario, the world's on the sphere")
    func defaultSuite() {
        let scenarios = Set(CheckSuite.default.quality.compactMap(\.scenario))
        #expect(scenarios == Set(Scenario.allCases.map(\.rawValue)))
        #expect(BenchRequest.defaultScenarios == [.seoul])
    }

    @Test("Harness.run names the file line and the point PROJ could not transform, with the sphere as a way out")
    func projectionFailure() throws {
        try withTemporaryFolder { folder in
            var text = "id,lat,lon\n"
            for i in 0..<30 { text += "\(i),\(48 + 0.01 * Double(i % 6)),\(11 + 0.01 * Double(i / 6))\n" }
            text += "\n\nfar,-52,-170\n"  // two blank lines: the file line is not the row number
            let path = try folder.write(text, to: "in.csv")
            var input = RunInput(path: path, crs: "EPSG:3035")
            input.options.threads = 1
            let expected = DatasetError.projectionFailed(
                path: path, line: 34, feature: nil, latitude: -52, longitude: -170, crs: "EPSG:3035",
                reason: "Point outside of projection domain", clustering: true)
            do {
                _ = try Harness.run(input, method: .hdbscan(HDBSCANParameters(minClusterSize: 5)), threads: 1, clock: StageClock())
                Issue.record("the run should fail")
            } catch {
                guard case .dataset(let e)? = error as? HarnessError else { Issue.record("not a dataset error: \(error)"); return }
                #expect(e == expected)
            }
            let message = "\(HarnessError.dataset(.projectionFailed(path: "in.csv", line: 34, feature: nil, latitude: -52, longitude: -170, crs: "EPSG:3035", reason: "r", clustering: true)))"
            #expect(message.hasPrefix("in.csv line 34: PROJ could not transform the point (lat -52.0, lon -170.0) to EPSG:3035: r;"))
            #expect(message.hasSuffix("or cluster on the sphere with --metric geodesic"))
        }
    }
}
