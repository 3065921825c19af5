import Testing
@testable import ClusterMetrics

@Suite("DBCV and relative validity")
struct ValidityTests {
    @Test("there are fixtures for the required situations")
    func coverage() {
        let names = Set(ValidityFixture.all.map(\.name))
        for required in ["validity_blobs", "validity_touching", "validity_duplicates", "validity_one_cluster",
                         "validity_all_noise", "validity_pair_cluster"] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test("DBCV equals hdbscan.validity.validity_index within 1e-9", arguments: ValidityFixture.all)
    func dbcv(_ f: ValidityFixture) throws {
        let v = try DBCV.validityIndex(xs: f.xs, ys: f.ys, labels: f.labels)
        if let want = f.dbcv {
            #expect(close(v, want), "\(v) vs \(want)")
        } else {
            #expect(v.isNaN, "the library gives NaN here; got \(v)")
        }
    }

    @Test("relative validity equals HDBSCAN.relative_validity_ within 1e-9", arguments: ValidityFixture.all)
    func relativeValidity(_ f: ValidityFixture) throws {
        let v = try DBCV.relativeValidity(labels: f.hdbscan_labels, from: f.mst_from, to: f.mst_to, weight: f.mst_weight)
        #expect(close(v, f.relative_validity), "\(v) vs \(f.relative_validity)")
    }

    @Test("well separated tight clusters score near 1; mixing them lowers the score")
    func ordering() throws {
        var xs = [Double](), ys = [Double](), labels = [Int32]()
        for c in 0..<3 {
            for i in 0..<20 {
                xs.append(Double(c) * 1000 + Double(i % 5)); ys.append(Double(i / 5)); labels.append(Int32(c))
            }
        }
        let good = try DBCV.validityIndex(xs: xs, ys: ys, labels: labels)
        #expect(good > 0.9)
        var mixed = labels
        for i in stride(from: 0, to: 60, by: 4) { mixed[i] = Int32((Int(mixed[i]) + 1) % 3) }
        #expect(try DBCV.validityIndex(xs: xs, ys: ys, labels: mixed) < good)
        // Noise points count in the total: labelling half the points noise halves the score.
        let half = labels.enumerated().map { $0.offset % 2 == 0 ? $0.element : -1 }
        let h = try DBCV.validityIndex(xs: xs, ys: ys, labels: half)
        #expect(h < good && h > 0.3)
    }

    @Test("bad input is refused with the documented errors")
    func errors() throws {
        #expect(throws: MetricsError.mismatchedLengths(what: "x coordinates", expected: 2, found: 1)) {
            try DBCV.validityIndex(xs: [0], ys: [0, 1], labels: [0, 0])
        }
        #expect(throws: MetricsError.clusterTooSmall(label: 1, size: 1)) {
            try DBCV.validityIndex(xs: [0, 1, 5], ys: [0, 0, 0], labels: [0, 0, 1])
        }
        #expect(throws: MetricsError.nonFiniteCoordinate(row: 1)) {
            try DBCV.validityIndex(xs: [0, .nan], ys: [0, 0], labels: [0, 0])
        }
        #expect(throws: MetricsError.self) {
            try DBCV.relativeValidity(labels: [0, 0], from: [0], to: [2], weight: [1])
        }
        #expect(throws: MetricsError.self) {
            try DBCV.relativeValidity(labels: [0, -2], from: [0], to: [1], weight: [1])
        }
        #expect(try DBCV.relativeValidity(labels: [-1, -1], from: [0], to: [1], weight: [3]) == 0)
        #expect(try DBCV.validityIndex(xs: [0, 1], ys: [0, 0], labels: [-1, -1]) == 0)
    }
}
