import Foundation
import Testing
@testable import Pins
import TestSupport

/// Tests/Fixtures/supercluster/*.json, written by scripts/reference/make_supercluster_fixtures.py
/// with pysupercluster-problematy 0.7.8.
struct SuperclusterFixture: Decodable {
    struct Options: Decodable { let min_zoom: Int; let max_zoom: Int; let radius: Double; let extent: Double }
    struct Run: Decodable { let options: Options; let zooms: [String: [[Double]]] }
    let longitudes: [Double]
    let latitudes: [Double]
    let runs: [Run]
}

@Suite struct SuperclusterFixtureTests {
    static let fixtures = TestPaths.jsonFixtures("supercluster")

    @Test(arguments: fixtures)
    func sameItemsAsPysupercluster(_ url: URL) throws {
        let f = try JSONDecoder().decode(SuperclusterFixture.self, from: Data(contentsOf: url))
        var compared = 0
        for run in f.runs {
            let o = run.options
            let sc = try Supercluster(longitudes: f.longitudes, latitudes: f.latitudes,
                                      options: SuperclusterOptions(minZoom: o.min_zoom, maxZoom: o.max_zoom, radius: o.radius, extent: o.extent))
            for (zText, expected) in run.zooms {
                let z = Int(zText)!
                let got = sc.clusters(zoom: z).map { [Double($0.count), $0.longitude, $0.latitude] }
                    .sorted { $0.lexicographicallyPrecedes($1) }
                #expect(got.count == expected.count, "\(url.lastPathComponent) zoom \(z)")
                guard got.count == expected.count else { continue }
                for (a, b) in zip(got, expected) {
                    #expect(a[0] == b[0] && abs(a[1] - b[1]) <= 1e-6 && abs(a[2] - b[2]) <= 1e-6,
                            "\(url.lastPathComponent) zoom \(z): \(a) vs \(b)")
                }
                compared += 1
            }
        }
        #expect(compared >= 8)
    }

    @Test func fixturesArePresent() { #expect(Self.fixtures.count == 3) }

    /// `assignment(zoom:)` puts each point in an item of that zoom: the group sizes are the
    /// items' counts, and a point shown as itself is alone in its group.
    @Test func assignmentMatchesTheItemsOfEveryZoom() throws {
        let scenario = PinScenario(seed: 21)
        let sc = try Supercluster(longitudes: scenario.lons, latitudes: scenario.lats)
        for z in 0...17 {
            let items = sc.clusters(zoom: z)
            let groups = sc.assignment(zoom: z)
            #expect(groups.count == scenario.count)
            var size: [Int32: Int] = [:]
            for g in groups { size[g, default: 0] += 1 }
            #expect(size.values.sorted() == items.map(\.count).sorted(), "zoom \(z)")
            for item in items { if let p = item.pointIndex { #expect(size[groups[p]] == 1) } }
        }
    }
}
