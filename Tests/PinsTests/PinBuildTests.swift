import ClusterCore
import Testing
@testable import Pins
import TestSupport

/// The build's parallel parts (the mask per location, the two medians' structures) and its
/// order statistics.
struct PinBuildTests {
    /// 20,000 locations (above the size at which the mask is split between threads): the same
    /// pins, ids, counts, medians and filtered medians on 1 and 2 threads.
    @Test func sameIndexOnOneAndTwoThreads() throws {
        var l = PinListings()
        var g = SplitMix64(seed: 13)
        for i in 0..<30_000 {
            var lon = 126.8 + 0.4 * g.uniform(), lat = 37.4 + 0.3 * g.uniform()
            let key: LocationKey? = i % 3 == 0 ? LocationKey(explicit: UInt64(i % 2_000)) : nil
            if i % 3 == 0 {   // a building's listings at its one place
                let b = i % 2_000
                lon = 126.8 + 0.4 * Double(b * 7_919 % 2_000) / 2_000; lat = 37.4 + 0.3 * Double(b * 104_729 % 2_000) / 2_000
            }
            l.append(id: Int64(i), longitude: lon, latitude: lat, locationKey: key, category: UInt8(g.next() % 4),
                     area: 20 + Double(g.next() % 90), deposit: Double(100 * (g.next() % 500)), monthlyRent: Double(g.next() % 120))
        }
        let mask = try PrivacyMask(insecureTestSeed: 99)
        let one = try PinIndex(listings: l, options: PinOptions(privacy: .displaced(mask), threads: 1))
        let two = try PinIndex(listings: l, options: PinOptions(privacy: .displaced(mask), threads: 2))
        let filter = AttributeFilter(categories: [0, 2], deposit: ValueRange(lower: 1_000, upper: 30_000))
        for zoom in [0, 8, 11, 13, 15, 17, 22] {
            for f in [nil, filter] {
                let a = try one.pins(zoom: Double(zoom), bbox: nil, filter: f), b = try two.pins(zoom: Double(zoom), bbox: nil, filter: f)
                #expect(a.count == b.count)
                for (p, q) in zip(a, b) {
                    #expect(p.id == q.id && p.count == q.count && p.medianDeposit == q.medianDeposit
                            && p.medianMonthlyRent == q.medianMonthlyRent && p.longitude == q.longitude && p.latitude == q.latitude)
                }
            }
        }
    }

    /// min_samples 2 is single linkage: HDBSCAN's mutual-reachability MST at 2 has the
    /// Euclidean MST's weights (the hierarchy takes the Delaunay path for both), on scattered
    /// points and on points with repeated coordinates.
    @Test(arguments: [0, 7]) func minSamplesTwoIsSingleLinkage(repeats: Int) throws {
        var g = SplitMix64(seed: 41)
        var xs = (0..<3_000).map { _ in 1_000 * g.uniform() }, ys = (0..<3_000).map { _ in 1_000 * g.uniform() }
        for i in 0..<repeats * 100 { xs[i] = xs[i % 50]; ys[i] = ys[i % 50] }
        let single = try MinimumSpanningTree.euclidean(xs: xs, ys: ys, threads: 1).weight
        let reach = try HDBSCAN.minimumSpanningTree(try PointSet(xs: xs, ys: ys), minSamples: 2, threads: 1).mst.weight
        #expect(single.sorted() == reach.sorted())
        let three = try HDBSCAN.minimumSpanningTree(try PointSet(xs: xs, ys: ys), minSamples: 3, threads: 1).mst.weight
        #expect(three.reduce(0, +) > single.reduce(0, +))
    }

    /// Each position's rank is its value's index among the distinct values (NaN: their count),
    /// and medians of ranges and of counts per rank agree with sorting.
    @Test func rangeQuantilesRanksAndMedians() {
        var g = SplitMix64(seed: 5)
        let column = (0..<5_000).map { _ -> Double in
            let r = g.next() % 700
            return r % 40 == 0 ? .nan : (r == 1 ? -0.0 : Double(r * 10))
        }
        let q = RangeQuantiles(column)
        #expect(q.values == Array(Set(column.filter { !$0.isNaN }.map { $0 == 0 ? 0 : $0 })).sorted())
        for i in 0..<column.count {
            let v = column[i]
            #expect(Int(q.ranks[i]) == (v.isNaN ? q.values.count : q.values.firstIndex(of: v)!))
        }
        // Long ranges walk the wavelet matrix; short ones (up to RangeQuantiles.smallRange) sort their ranks.
        let short = (1...30).map { length in (length * 97)..<(length * 97 + length) }
        for range in [0..<5_000, 17..<901, 2_000..<2_001, 3_333..<4_999] + short {
            let present = column[range].filter { !$0.isNaN }.sorted()
            let m = present.count
            let expected: Double? = m == 0 ? nil : present[(m - 1) / 2] + (present[m / 2] - present[(m - 1) / 2]) / 2
            #expect(q.median(range) == expected)
            var counts = [UInt32](repeating: 0, count: q.values.count + 1)
            for i in range { counts[Int(q.ranks[i])] += 1 }
            #expect(counts.withUnsafeBufferPointer { q.median(counts: $0, present: m) } == expected)
        }
    }
}
