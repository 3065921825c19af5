import Testing
@testable import ClusterCore
import TestSupport

@Suite("Prediction on the sphere: the index, the model file, row order and threads")
struct SpherePredictionTests {
    /// Blobs across the antimeridian, near a pole and elsewhere, with noise over the sphere, on
    /// a 1e-5 degree grid (so that coordinates repeat and distances tie); and points to predict.
    static func data(count: Int = 3000) throws -> (fit: SpherePoints, new: SpherePoints) {
        var random = SplitMix64(seed: 31)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func grid(_ v: Double) -> Double { (v * 1e5).rounded() / 1e5 }
        let centres: [(lon: Double, lat: Double, spread: Double)] = [(179.9, -17, 0.6), (-73.9, 40.7, 0.4), (12, 88.5, 1.5),
                                                                     (127, 37.5, 0.3)]
        var lons = [Double](), lats = [Double]()
        for i in 0..<count {
            if i % 10 == 0 {
                lons.append(grid(uniform() * 360 - 180))
                lats.append(grid(ElementaryMath.asin(uniform() * 2 - 1) * 180 / Double.pi))
                continue
            }
            let c = centres[i % centres.count]
            let lon = c.lon + (uniform() - 0.5) * c.spread * 4
            lons.append(grid(lon > 180 ? lon - 360 : lon))
            lats.append(grid(min(89.9, c.lat + (uniform() - 0.5) * c.spread)))
        }
        let newLons = (0..<600).map { i in i % 2 == 0 ? lons[(i * 7) % count] + 0.01 : grid(uniform() * 360 - 180) }
        let newLats = (0..<600).map { i in i % 2 == 0 ? max(-90, min(90, lats[(i * 7) % count] - 0.01)) : grid(uniform() * 170 - 85) }
        return (try SpherePoints(longitudes: lons, latitudes: lats), try SpherePoints(longitudes: newLons, latitudes: newLats))
    }

    static let parameters = HDBSCANParameters(minClusterSize: 30, minSamples: 8)

    static func model(_ points: SpherePoints, threads: Int = 1) throws -> (PredictionModel, HDBSCANResult) {
        let result = try HDBSCAN.fit(points, parameters: parameters, threads: threads, keeping: [.prediction, .clusterTree])
        return (try #require(result.prediction), result)
    }

    @Test("the fit's kept model is the model built from its result, and it is on the sphere")
    func keptByTheFit() throws {
        let (points, new) = try Self.data()
        let (kept, result) = try Self.model(points)
        let built = try PredictionModel(points: points, result: result, parameters: Self.parameters)
        #expect(kept.isOnSphere && kept.clusterCount >= 4)
        #expect(kept.predict(new) == built.predict(new))
        let labels = kept.predict(points).map(\.label)
        let agree = zip(labels, result.labeling.labels).filter { $0 == $1 }.count
        #expect(Double(agree) >= 0.95 * Double(points.count), "fitted points predicted into their own clusters")
    }

    @Test("encoded and read back, it answers exactly as before")
    func roundTrip() throws {
        let (points, new) = try Self.data()
        let (model, result) = try Self.model(points)
        let back = try PredictionModel(encoded: model.encoded(), threads: 2)
        #expect(back.isOnSphere)
        #expect(back.predict(new) == model.predict(new))
        #expect(back.membershipVectors(new) == model.membershipVectors(new))
        let labels = result.labeling.labels
        #expect(back.allPointsMembershipVectors(labels: labels) == model.allPointsMembershipVectors(labels: labels))
        #expect(back.encoded() == model.encoded())
    }

    @Test("the same answers for 1 and 2 threads and for shuffled fitted rows")
    func orderAndThreads() throws {
        let (points, new) = try Self.data()
        let (one, result) = try Self.model(points, threads: 1)
        let (two, _) = try Self.model(points, threads: 2)
        #expect(one.predict(new, threads: 1) == two.predict(new, threads: 2))
        #expect(one.membershipVectors(new, threads: 1) == two.membershipVectors(new, threads: 2))
        let labels = result.labeling.labels
        #expect(one.allPointsMembershipVectors(labels: labels, threads: 1)
                == two.allPointsMembershipVectors(labels: labels, threads: 2))
        var random = SplitMix64(seed: 5)
        let order = (0..<points.count).shuffled(using: &random)
        let shuffled = try SpherePoints(longitudes: order.map { points.longitudes[$0] },
                                        latitudes: order.map { points.latitudes[$0] })
        let (other, otherResult) = try Self.model(shuffled)
        let mine = one.predict(new), theirs = other.predict(new)
        // Labels may be numbered alike or not: map them through the fitted rows.
        var map = [Int32: Int32]()
        for (k, row) in order.enumerated() where labels[row] >= 0 { map[otherResult.labeling.labels[k]] = labels[row] }
        for (a, b) in zip(mine, theirs) {
            #expect(a.label == (b.label < 0 ? -1 : map[b.label]))
            #expect(a.probability == b.probability && a.outlierScore == b.outlierScore)
            let (r, s) = (Int(a.connectingRow), order[Int(b.connectingRow)])
            #expect(points.longitudes[r] == points.longitudes[s] && points.latitudes[r] == points.latitudes[s])
        }
    }

    @Test("each site's nearest exemplars from its group's candidates equal a scan of every exemplar")
    func groupsFindTheNearestExemplars() throws {
        let (points, _) = try Self.data(count: 6000)
        let (model, _) = try Self.model(points)
        guard case let .sphere(sites) = model.index else { Issue.record("a model on the sphere"); return }
        let context = SoftContext(model)
        let exemplars = SphereExemplarDistances(sites: sites, context: context)
        #expect(exemplars.groups.count > 8)
        let covered = SoftContextTests.checkGroups(exemplars, order: sites.tree.index, clusterCount: model.clusterCount) { site in
            let at = SphereAngles.Point(degrees: (model.sites.points.xs[site], model.sites.points.ys[site]))
            return context.exemplarAngles.map { list in
                list.map { SpherePoints.angle(at, $0) }.min() ?? .greatestFiniteMagnitude
            }
        }
        #expect(covered == sites.tree.count)
    }

    @Test("a fitted point predicted joins its cluster under both spellings of its longitude")
    func placesAcrossEdges() throws {
        let (points, _) = try Self.data()
        let (model, result) = try Self.model(points)
        let labels = result.labeling.labels
        // A fitted point in each blob, moved across the antimeridian or around the pole.
        for row in 0..<points.count where labels[row] >= 0 && row % 97 == 1 {
            let lon = points.longitudes[row], lat = points.latitudes[row]
            let same = try SpherePoints(longitudes: [lon, lon > 0 ? lon - 360 : lon + 360], latitudes: [lat, lat])
            let answers = model.predict(same)
            // The other spelling's haversine differs in its last bits, not more. (Its outlier
            // score may not: a point exactly on a fitted point scores as that point does, one a
            // hair off by its own lambda, as in hdbscan.)
            #expect(answers[0].label == labels[row] && answers[1].label == labels[row], "longitude \(lon)")
            #expect(abs(answers[0].probability - answers[1].probability) <= 1e-9, "longitude \(lon)")
        }
    }

    @Test("prediction data with sample weights is refused on the sphere too")
    func weightsRefused() throws {
        let (points, _) = try Self.data(count: 200)
        #expect(throws: ClusterCoreError.self) {
            try HDBSCAN.fit(points, parameters: Self.parameters, sampleWeight: [Double](repeating: 2, count: 200),
                            keeping: .prediction)
        }
    }
}
