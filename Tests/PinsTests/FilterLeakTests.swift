import Testing
@testable import Pins
import TestSupport

/// Filters never leak: a filtered pin of every kind carries only what the listings that pass
/// the filter say, checked against brute force over each pin's leaves; conditions on the
/// caller's own columns (a brand, a price) included.
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
        let (brand, price) = Self.properties(count: l.count, seed: seed)
        try! l.properties.add("brand", texts: brand)
        try! l.properties.add("price", numbers: price)
        return l
    }

    /// The listings' own columns, in input order: a brand among five (a tenth missing) and a
    /// price (a tenth missing).
    static func properties(count: Int, seed: UInt64) -> (brand: [String?], price: [Double?]) {
        var g = SplitMix64(seed: seed &+ 77)
        let brands = ["Ediya", "Mega", "Paik's", "Starbucks", "Twosome"]
        var brand: [String?] = [], price: [Double?] = []
        for _ in 0..<count {
            brand.append(g.uniform() < 0.1 ? nil : brands[Int(g.next() % 5)])
            price.append(g.uniform() < 0.1 ? nil : (1000 + 9000 * g.uniform()).rounded())
        }
        return (brand, price)
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
        var properties: [PropertyCondition] = []
        if g.uniform() < 0.5 {
            let some = ["Ediya", "Mega", "Paik's", "Starbucks", "Twosome", "Blue Bottle"].filter { _ in g.uniform() < 0.5 }
            properties.append(PropertyCondition("brand", .oneOf(Set(some))))
        }
        if let price = range(1000, 10000) { properties.append(PropertyCondition("price", .range(price))) }
        return AttributeFilter(categories: categories, area: range(20, 120), deposit: range(500, 5500), monthlyRent: range(0, 100),
                               properties: properties)
    }

    /// The filter, tested on a leaf's own values (brute force: no compiled columns).
    static func passes(_ leaf: PinLeaf, _ f: AttributeFilter) -> Bool {
        if let c = f.categories { guard let code = leaf.category, c.contains(code) else { return false } }
        for condition in f.properties {
            let value = leaf.properties[condition.name == "brand" ? 0 : 1]
            switch (condition.test, value) {
            case let (.oneOf(texts), .text(t)?): guard texts.contains(t) else { return false }
            case let (.range(r), .number(v)?): guard r.contains(v) else { return false }
            default: return false
            }
        }
        return f.numbersPass(area: leaf.area ?? .nan, deposit: leaf.deposit ?? .nan, monthlyRent: leaf.monthlyRent ?? .nan)
    }

    /// The pin summaries of these leaves' brand and price, brute force.
    static func summaries(_ leaves: [PinLeaf]) -> [PropertySummary] {
        var counts: [String: Int] = [:]
        var prices: [Double] = []
        for leaf in leaves {
            if case .text(let brand)? = leaf.properties[0] { counts[brand, default: 0] += 1 }
            if case .number(let price)? = leaf.properties[1] { prices.append(price) }
        }
        let price: PropertySummary = prices.isEmpty ? .none : .numbers(min: prices.min()!, median: median(prices)!, max: prices.max()!)
        return [.counts(counts), price]
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
                    #expect(pin.properties == Self.summaries(passing), "zoom \(z) \(f): \(pin.properties)")
                    #expect(whole.properties == Self.summaries(index.allLeaves(whole.id, limit: 1000)))
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

    @Test("filtered leaves, page by page, are exactly the pin's passing listings, as many as the filtered pin counts", arguments: [4, 9])
    func filteredLeavesPageByPage(seed: UInt64) throws {
        let index = try PinIndex(listings: Self.listings(seed: seed),
                                 options: PinOptions(privacy: .displaced(try PrivacyMask(insecureTestSeed: seed))))
        var g = SplitMix64(seed: seed &+ 2000)
        for _ in 0..<12 {
            let f = Self.filter(&g)
            let limit = 1 + Int(g.next() % 9)
            for z in [0, 12, 16] {
                let counts = Dictionary(uniqueKeysWithValues: try index.pins(zoom: Double(z), filter: f).map { ($0.id, $0.count) })
                for whole in try index.pins(zoom: Double(z)) {
                    let expected = index.allLeaves(whole.id, limit: 1000).filter { Self.passes($0, f) }
                    var got: [PinLeaf] = [], cursor: PinCursor? = nil
                    repeat {
                        let page = try index.leaves(of: whole.id, limit: limit, cursor: cursor, filter: f)
                        #expect(page.leaves.count <= limit && (page.next == nil || !page.leaves.isEmpty))
                        got += page.leaves
                        cursor = page.next
                    } while cursor != nil
                    #expect(got == expected, "zoom \(z) \(f)")
                    #expect(got.count == counts[whole.id] ?? 0)
                }
            }
        }
    }

    @Test("every leaf carries its own listing's property values, whatever order the index keeps them in")
    func leavesCarryTheirProperties() throws {
        let source = Self.listings(seed: 5)
        let ids = source.ids
        let (brand, price) = Self.properties(count: ids.count, seed: 5)
        let index = try PinIndex(listings: source, options: PinOptions(privacy: .displaced(try PrivacyMask(insecureTestSeed: 5))))
        #expect(index.propertyNames == ["brand", "price"])
        var seen = 0
        for root in try index.pins(zoom: 0) {
            for leaf in index.allLeaves(root.id, limit: 100_000) {
                let i = try #require(ids.firstIndex(of: leaf.id))
                #expect(leaf.properties == [brand[i].map(PropertyValue.text), price[i].map(PropertyValue.number)])
                seen += 1
            }
        }
        #expect(seen == ids.count)
    }

    @Test("a text column of more than 64 distinct texts (names) is carried but not counted on pins")
    func manyTextsAreNotCounted() throws {
        var listings = Self.listings(seed: 8)
        try listings.properties.add("name", texts: (0..<listings.count).map { "store \($0)" })
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .displaced(try PrivacyMask(insecureTestSeed: 8))))
        for pin in try index.pins(zoom: 10) {
            #expect(pin.properties.count == 3 && pin.properties[2] == .none)
            if case .counts = pin.properties[0] {} else { Issue.record("brand not counted: \(pin.properties[0])") }
        }
        let leaf = try #require(try index.pins(zoom: 22).first.flatMap { try index.leaves(of: $0.id, limit: 1, cursor: nil).leaves.first })
        if case .text(let name)? = leaf.properties[2] { #expect(name.hasPrefix("store ")) } else { Issue.record("\(leaf.properties)") }
    }

    @Test("a condition on a column the listings lack, or of the wrong kind, is refused with what to give instead")
    func badConditionsAreRefused() throws {
        let index = try PinIndex(listings: Self.listings(seed: 6), options: PinOptions(privacy: .displaced(try PrivacyMask(insecureTestSeed: 6))))
        let cases: [(PropertyCondition, String)] = [
            (PropertyCondition("colour", .oneOf(["red"])), "must name a property of the listings (brand, price)"),
            (PropertyCondition("brand", .range(ValueRange(lower: 1))), "brand holds texts: give the values to keep"),
            (PropertyCondition("price", .oneOf(["cheap"])), "price holds numbers: give a range"),
        ]
        for (condition, message) in cases {
            let filter = AttributeFilter(properties: [condition])
            #expect(throws: PinError.self) { try index.pins(zoom: 10, filter: filter) }
            do { _ = try index.nearby(longitude: 127, latitude: 37.5, filter: filter); Issue.record("accepted \(condition)") } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}
