import Pins
import PinsQueries
import Testing
import TestSupport

/// The request layer every caller shares: text → `PinsQuery` → one index call. Checked
/// against the index called directly and against brute force over the listings.
@Suite("PinsCall: one parsed request, one index call")
struct PinsCallTests {
    struct Listing { var id: Int64, lon: Double, lat: Double, category: ListingCategory, deposit: Double }

    static let listings: [Listing] = {
        var rng = SplitMix64(seed: 29)
        let categories = ListingCategory.allCases
        return (0..<2000).map { i in
            // Three towns around Seoul, a few hundred metres wide each.
            let town = Double(i % 3)
            return Listing(id: Int64(i) * 7 + 3, lon: 126.9 + 0.05 * town + Double.random(in: -0.004...0.004, using: &rng),
                           lat: 37.5 + 0.03 * town + Double.random(in: -0.003...0.003, using: &rng),
                           category: categories[Int.random(in: 0..<categories.count, using: &rng)],
                           deposit: Double(Int.random(in: 100...9000, using: &rng)))
        }
    }()

    static let index: PinIndex = {
        var l = PinListings()
        for x in listings { l.append(id: x.id, longitude: x.lon, latitude: x.lat, category: x.category.code, deposit: x.deposit) }
        return try! PinIndex(listings: l, options: PinOptions(privacy: .disabled))
    }()

    static func answer(_ endpoint: PinsCall.Endpoint, _ query: [(String, String)]) throws(PinsCall.Failure) -> PinsCall.Answer {
        try PinsCall.answer(endpoint, try PinsCall.query(query, for: endpoint), index: index)
    }

    static func failure(_ endpoint: PinsCall.Endpoint, _ query: [(String, String)]) -> PinsCall.Failure? {
        do { _ = try answer(endpoint, query); return nil } catch { return error }
    }

    @Test("pins: the same pins as the index called directly, and filtered counts equal brute force")
    func pinsEqualTheIndex() throws {
        for zoom in [9.0, 12.5, 16.0] {
            guard case let .pins(pins, z) = try Self.answer(.pins, [("zoom", "\(zoom)")]) else { Issue.record("not pins"); return }
            #expect(z == Int(zoom))
            #expect(pins.map(\.id) == (try Self.index.pins(zoom: zoom)).map(\.id))
        }
        let query = [("zoom", "11"), ("category", "villa, Apartment"), ("deposit", "..3000")]
        guard case let .pins(pins, _) = try Self.answer(.pins, query) else { Issue.record("not pins"); return }
        let passing = Self.listings.filter { [.villa, .apartment].contains($0.category) && $0.deposit <= 3000 }
        #expect(pins.reduce(0) { $0 + $1.count } == passing.count && passing.count > 100)
    }

    @Test("leaves and nearby page through what the index holds, cursors included")
    func pagesEqualTheIndex() throws {
        let top = try #require(try Self.index.pins(zoom: 8).max { $0.count < $1.count })
        var seen: [Int64] = [], cursor: String?
        repeat {
            let query = [("limit", "150")] + (cursor.map { [("cursor", $0)] } ?? [])
            guard case let .leaves(page) = try Self.answer(.leaves(String(top.id.rawValue)), query) else { Issue.record("not leaves"); return }
            seen += page.leaves.map(\.id)
            cursor = page.next?.token
        } while cursor != nil
        #expect(seen.count == top.count && Set(seen).count == top.count)
        guard case let .nearby(near) = try Self.answer(.nearby, [("lat", "37.5"), ("lon", "126.9"), ("radius", "800")]) else {
            Issue.record("not nearby"); return
        }
        let direct = try Self.index.nearby(longitude: 126.9, latitude: 37.5, radius: 800, limit: 20, cursor: nil)
        #expect(near.total == direct.total && near.listings.map(\.leaf.id) == direct.listings.map(\.leaf.id) && near.total > 20)
    }

    @Test("every refusal names its parameter: missing, not taken here, repeated, malformed, a foreign cursor, an unknown pin")
    func refusalsNameTheParameter() throws {
        func parameter(_ f: PinsCall.Failure?) -> String? { if case .badQuery(let e) = f { e.parameter } else { nil } }
        #expect(parameter(Self.failure(.pins, [])) == "zoom")
        #expect(parameter(Self.failure(.pins, [("zoom", "23")])) == "zoom")
        #expect(parameter(Self.failure(.nearby, [("lon", "127")])) == "lat")
        #expect(parameter(Self.failure(.nearby, [("lat", "37.5"), ("lon", "127"), ("zoom", "3")])) == "zoom")
        #expect(parameter(Self.failure(.pins, [("zoom", "3"), ("zoom", "4")])) == "zoom")
        #expect(parameter(Self.failure(.pins, [("zoom", "3"), ("bbox", "1,2,3")])) == "bbox")
        #expect(parameter(Self.failure(.pins, [("zoom", "3"), ("deposit", "9..1")])) == "deposit")
        #expect(parameter(Self.failure(.pins, [("zoom", "3"), ("category", "castle")])) == "category")
        let pins = try Self.index.pins(zoom: 11).sorted { $0.count > $1.count }
        try #require(pins.count >= 2 && pins[0].count > 10)
        let first = try Self.index.leaves(of: pins[0].id, limit: 10, cursor: nil)
        let foreign = try #require(first.next?.token)
        #expect(parameter(Self.failure(.leaves(String(pins[1].id.rawValue)), [("cursor", foreign)])) == "cursor")
        #expect(parameter(Self.failure(.leaves("7"), [("cursor", "nonsense")])) == "cursor")
        #expect(Self.failure(.children("12345"), []) == .unknownPin("12345"))
        #expect(parameter(Self.failure(.pin("twelve"), [])) == "id")
    }
}
