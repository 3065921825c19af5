import Testing
@testable import ClusterCore
import TestSupport

/// `HDBSCAN.fit(locationTree:)`: the hierarchy over a tree between locations computed elsewhere.
@Suite("HDBSCAN over a given tree between locations")
struct LocationTreeTests {
    /// The rows of `p` grouped by coordinates (locations numbered by their first row).
    static func locations(_ p: PointSet) -> [Int32] {
        var number: [[UInt64]: Int32] = [:]
        return (0..<p.count).map { i in
            let key = [(p.xs[i] + 0).bitPattern, (p.ys[i] + 0).bitPattern]
            if let l = number[key] { return l }
            number[key] = Int32(number.count)
            return Int32(number.count - 1)
        }
    }

    /// The fit's tree between the locations (Kruskal over its edges with their ends' locations)
    /// and each location's core distance.
    static func locationTree(_ fitted: HDBSCANResult, locationOf: [Int32]) throws -> (MinimumSpanningTree, [Double]) {
        let mst = try #require(fitted.mst)
        let count = Int(locationOf.max()!) + 1
        var inner = [Double](repeating: .nan, count: count)
        for (row, l) in locationOf.enumerated() where inner[Int(l)].isNaN { inner[Int(l)] = fitted.coreDistances[row] }
        let joins = BottleneckForest.joins(count: count, a: mst.a.map { locationOf[Int($0)] },
                                           b: mst.b.map { locationOf[Int($0)] }, weight: mst.weight, limit: .infinity,
                                           kept: [Bool](repeating: true, count: count))
        return (MinimumSpanningTree(a: joins.a, b: joins.b, weight: joins.weight), inner)
    }

    @Test("the fit's tree between its locations gives the fit's labels, probabilities and scores", arguments: [1, 2])
    func sameAsTheFit(threads: Int) throws {
        let blobs = Shapes.blobs(800, seed: 3)
        var g = SplitMix64(seed: 4)
        let picks = (0..<4000).map { _ in Int(g.next() % 800) }
        let repeated = try PointSet(xs: picks.map { blobs.xs[$0] }, ys: picks.map { blobs.ys[$0] })
        for (name, p) in [("grid with duplicates", Shapes.gridWithDuplicates(3000, seed: 2)), ("repeated blobs", repeated)] {
            let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 5)
            let fitted = try HDBSCAN.fit(p, parameters: parameters)
            let locationOf = Self.locations(p)
            let (tree, inner) = try Self.locationTree(fitted, locationOf: locationOf)
            #expect(inner.count < p.count * 3 / 4, "\(name)")
            let given = try HDBSCAN.fit(locationTree: GivenTreeTests.shuffledTree(tree, seed: 5), locationOf: locationOf,
                                        inner: inner, parameters: parameters, threads: threads)
            // (The grid's rows are all noise at these parameters: its ties are the test.)
            #expect(name.hasPrefix("grid") || Set(fitted.labeling.labels).count > 2, "\(name)")
            #expect(given.labeling.labels == fitted.labeling.labels, "\(name)")
            #expect(given.labeling.probabilities == fitted.labeling.probabilities, "\(name)")
            #expect(given.labeling.outlierScores == fitted.labeling.outlierScores, "\(name)")
            #expect(given.coreDistances.isEmpty)
        }
    }

    @Test("one location, a location without points, a bad core distance, a light edge or a cycle")
    func oneLocationAndRefusals() throws {
        let one = try HDBSCAN.fit(locationTree: MinimumSpanningTree(a: [], b: [], weight: []),
                                  locationOf: [Int32](repeating: 0, count: 30), inner: [2],
                                  parameters: HDBSCANParameters(minClusterSize: 15, selection: SelectionOptions(allowSingleCluster: true)))
        #expect(one.labeling.labels == [Int32](repeating: 0, count: 30))
        func refusal(_ locationOf: [Int32], _ inner: [Double], _ a: [Int32], _ b: [Int32], _ w: [Double]) -> String? {
            do throws(ClusterCoreError) {
                _ = try HDBSCAN.fit(locationTree: MinimumSpanningTree(a: a, b: b, weight: w), locationOf: locationOf,
                                    inner: inner, parameters: HDBSCANParameters(minClusterSize: 2))
                return nil
            } catch {
                return error.description
            }
        }
        let at: [Int32] = [0, 0, 1, 2, 2], inner = [1.0, .nan, 2.0]
        #expect(refusal(at, inner, [0, 1], [1, 2], [3, 3]) == nil)
        #expect(refusal([0, 3, 1, 2, 2], inner, [0, 1], [1, 2], [3, 3])?.contains("point 1 at location 3") == true)
        #expect(refusal([0, 0, 2, 2, 2], inner, [0, 1], [1, 2], [3, 3])?.contains("location 1 holds no point") == true)
        #expect(refusal(at, [1, 0, .infinity], [0, 1], [1, 2], [3, 3])?.contains("location 2: inf") == true)
        #expect(refusal(at, inner, [0, 1], [1, 2], [3, 1.5])?.contains("edge 1 weighs 1.5") == true)
        #expect(refusal(at, inner, [0, 1], [1, 0], [3, 3])?.contains("edge 1 joins 1 and 0, already joined") == true)
        #expect(refusal(at, inner, [0], [1], [3])?.contains("1 edges") == true)
    }
}
