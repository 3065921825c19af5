import Testing
@testable import Pins
import TestSupport

/// Filters never leak: a filtered pin of every kind carries only what the listings that pass
/// the filter say, checked against brute force over each pin's leaves.
@Suite("Filtered pins against brute force")
struct FilterLeakTests {
    /// Seeded listings: buildings of 2–30 units at one place, singles, some values missing.
    static func listings(seed: UInt64) -> PinListings {
        var g = SplitMix64(seed: seed)
        var l = PinListings()
        var id: Int64 = 1
        func add(_ lon: Double, _ lat: Double, _ key: LocationKey?) {
            l.append(id: id, longitude: lon, latitude: lat, locationKey: key,
                     category: g.uniform() < 0.1 ? nil : UInt8(g.next() % 6),
                     area: g.uniform() < 0.05 ? nil : (20 + 100 * g.uniform()).rounded(),
                     deposit: g.uniform() < 0.1 ? nil : (500 + 5000 * g.uniform()).rounded(),
                     monthlyRent: g.uniform() < 0.1 ? nil : (100 * g.uniform()).rounded())
            id += 1 + Int64(g.next() % 5)
        }
        for b in 0..<60 {
            let lon = 126.95 + 0.1 * g.uniform(), lat = 37.48 + 0.06 * g.uniform()
            for _ in 0..<(2 + Int(g.next() % 29)) { add(lon, lat, LocationKey(explicit: UInt64(b))) }
        }
        for _ in 0..<700 { add(126.9 + 0.2 * g.uniform() * g.uniform(), 37.45 + 0.12 * g.uniform(), nil) }
        return l
    }

    /// A random filter: each condition present with probability ½.
    static func filter(_ g: inout SplitMix64) -> AttributeFilter {
        func range(_ lo: Double, _ hi: Double) -> ValueRange? {
            guard g.uniform() < 0.5 else { return nil }
            let a = lo + (hi - lo) * g.uniform(), b = lo + (hi - lo) * g.uniform()
            switch g.next() % 3 {
            case 0: return ValueRange(lower: min(a, b).rounded(), upper: max(a, b).rounded())
            case 1: return ValueRange(lower: a.rounded())
            default: return ValueRange(upper: a.rounded())
            }
        }
        let categories: CategorySet? = g.uniform() < 0.5 ? CategorySet(mask: UInt16(g.next() % 64)) : nil
        return AttributeFilter(categories: categories, area: range(20, 120), deposit: range(500, 5500), monthlyRent: range(0, 100))
    }

    static func passes(_ leaf: PinLeaf, _ f: AttributeFilter) -> Bool {
        if let c = f.categories { guard let code = leaf.category, c.contains(code) else { return false } }
        return f.numbersPass(area: leaf.area ?? .nan, deposit: leaf.deposit ?? .nan, monthlyRent: leaf.monthlyRent ?? .nan)
    }

    static func median(_ values: [Double]) -> Double? {
        let s = values.sorted(), k = s.count
        guard k > 0 else { return nil }
        return k % 2 == 1 ? s[k / 2] : s[k / 2 - 1] + (s[k / 2] - s[k / 2 - 1]) / 2
    }

    @Test("count, kind, listing and its attributes, medians, category counts, centroid and box of every filtered pin are those of its passing leaves; no pin without one", arguments: [3, 17])
    func filteredPinsMatchBruteForce(seed: UInt64) throws {
        let index = try PinIndex(listings: Self.listings(seed: seed),
                                 options: PinOptions(privacy: .displaced(try PrivacyMask(insecureTestSeed: seed))))
        var g = SplitMix64(seed: seed &+ 1000)
        var checked = 0, listingPins = 0
        for _ in 0..<25 {
            let f = Self.filter(&g)
            for z in [0, 9, 12, 14, 16, 18, 22] {
                let filtered = try index.pins(zoom: Double(z), filter: f)
                var byID: [PinID: Pin] = [:]
                for p in filtered { byID[p.id] = p }
                for whole in try index.pins(zoom: Double(z)) {
                    let passing = index.allLeaves(whole.id, limit: 1000).filter { Self.passes($0, f) }
                    guard let pin = byID[whole.id] else {
                        #expect(passing.isEmpty, "zoom \(z) \(f): pin \(whole.id) has \(passing.count) passing listings but is missing")
                        continue
                    }
                    checked += 1
                    #expect(pin.count == passing.count && pin.count > 0, "zoom \(z) \(f): count \(pin.count), brute force \(passing.count)")
                    let places = Set(passing.map { [$0.longitude, $0.latitude] })
                    let kind: PinKind = places.count > 1 ? .cluster : passing.count == 1 ? .listing : .building
                    #expect(pin.kind == kind)
                    #expect(pin.listingID == (passing.count == 1 ? passing[0].id : nil))
                    if pin.listingID != nil {
                        listingPins += 1
                        #expect(try index.listing(of: pin) == passing[0])
                    }
                    #expect(pin.medianDeposit == Self.median(passing.compactMap(\.deposit)))
                    #expect(pin.medianMonthlyRent == Self.median(passing.compactMap(\.monthlyRent)))
                    var counts = PinCategoryCounts()
                    for leaf in passing { if let c = leaf.category { counts[c] += 1 } }
                    #expect(pin.categoryCounts == counts)
                    let lons = passing.map(\.longitude), lats = passing.map(\.latitude)
                    #expect(abs(pin.bbox.minLongitude - lons.min()!) < 1e-9 && abs(pin.bbox.maxLongitude - lons.max()!) < 1e-9)
                    #expect(abs(pin.bbox.minLatitude - lats.min()!) < 1e-9 && abs(pin.bbox.maxLatitude - lats.max()!) < 1e-9)
                    let x = passing.map { WebMercator.x(longitude: $0.longitude) }.reduce(0, +) / Double(passing.count)
                    #expect(abs(WebMercator.x(longitude: pin.longitude) - x) < 1e-12)
                }
                #expect(byID.count == filtered.count, "a pin returned twice")
            }
        }
        #expect(checked > 2000 && listingPins > 200, "\(checked) pins, \(listingPins) listing pins checked")
    }
}
