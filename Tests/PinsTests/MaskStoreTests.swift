import Testing
@testable import Pins

/// The mask store: one draw per location, forever, tested through what an index publishes.
@Suite struct MaskStoreTests {
    static let s = PinScenario(seed: 9, blobs: 5, perBlob: 80, strip: 0, singles: 200, buildings: 4)

    /// Every listing's displayed position, by listing id, from the index's leaves.
    static func displayed(_ listings: PinListings, _ mask: PrivacyMask) throws -> [Int64: [Double]] {
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .displaced(mask)))
        var out: [Int64: [Double]] = [:]
        for pin in try index.pins(zoom: 0) {
            for leaf in index.allLeaves(pin.id) { out[leaf.id] = [leaf.longitude, leaf.latitude] }
        }
        return out
    }

    @Test("a rotated key or a changed range reproduces the stored positions exactly; without the store every location moves")
    func rotationKeepsPositions() throws {
        // The plain annulus, whose every location is a draw of its own (shared points:
        // AnonymityTests.storeKeepsGroups).
        let first = try PrivacyMask.weakAnnulus(key: .generate())
        var store = MaskStore(for: first)
        #expect(store.add(Self.s.listings(), mask: first) > 300)
        let published = try Self.displayed(Self.s.listings(), first.keeping(store))
        #expect(published == (try Self.displayed(Self.s.listings(), first)), "the store holds exactly the draws")
        for next in [try PrivacyMask.weakAnnulus(key: .generate()), try PrivacyMask.weakAnnulus(key: .generate(), minDistance: 50, maxDistance: 200)] {
            #expect(store.mismatch(with: next) != nil)
            #expect(try Self.displayed(Self.s.listings(), next.keeping(store)) == published)
            let fresh = try Self.displayed(Self.s.listings(), next)
            #expect(published.allSatisfy { fresh[$0.key] != $0.value })
        }
        #expect(store.mismatch(with: try PrivacyMask.weakAnnulus(key: .generate(), minDistance: 30, maxDistance: 80)) == "another key")
    }

    @Test("new locations are added, stored ones never redrawn, even when a new listing of a building has a smaller id")
    func growsWithoutRedrawing() throws {
        let mask = try PrivacyMask.weakAnnulus(key: .generate())
        var part = PinListings()
        part.append(id: 10, longitude: 127.0, latitude: 37.5, locationKey: LocationKey(string: "b1"))
        part.append(id: 11, longitude: 127.01, latitude: 37.5)
        var store = MaskStore(for: mask)
        #expect(store.add(part, mask: mask) == 2)
        let b1 = try #require(store.displayedPosition(of: LocationKey(string: "b1")))
        var all = part
        all.append(id: 1, longitude: 127.0001, latitude: 37.5, locationKey: LocationKey(string: "b1"))   // a lower id, 9 m away
        all.append(id: 12, longitude: 127.02, latitude: 37.5)
        #expect(store.add(all, mask: mask) == 1 && store.count == 3)
        let again = try #require(store.displayedPosition(of: LocationKey(string: "b1")))
        #expect(again == b1)
        let shown = try Self.displayed(all, mask.keeping(store))
        #expect(shown[1] == [b1.longitude, b1.latitude] && shown[10] == [b1.longitude, b1.latitude])
    }

    @Test("the bytes round-trip; truncated, altered or foreign bytes are refused")
    func serialization() throws {
        let mask = try PrivacyMask.weakAnnulus(key: .generate(), minDistance: 40, maxDistance: 90)
        var store = MaskStore(for: mask)
        store.add(Self.s.listings(), mask: mask)
        let bytes = store.serialized()
        let back = try MaskStore(serialized: bytes, mask: mask)
        #expect(back == store && back.serialized() == bytes && back.minDistance == 40 && back.keyFingerprint == mask.keyFingerprint)
        var altered = bytes
        altered[100] ^= 1
        for bad in [Array(bytes.dropLast()), altered, Array("GCPMASK1".utf8), Array("GCPMASK2".utf8), [], Array(repeating: 0, count: 200)] {
            #expect(throws: PinError.self) { try MaskStore(serialized: bad, mask: mask) }
        }
    }
}
