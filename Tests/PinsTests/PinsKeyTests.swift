import Foundation
import Testing
@testable import Pins

/// The secret key and what is derived from it, tested as an attacker would use them.
@Suite struct PinsKeyTests {
    static let hex = "3b1f5e0c9a7d42e8b6c0f1a2d3e4b5c6978a6b5c4d3e2f1a0b9c8d7e6f5a4b3c"

    @Test func textFormRoundTripsAndIsNeverPrinted() throws {
        let key = try PinsKey(hex: Self.hex + "\n")
        #expect(key.bits == 256 && !key.isInsecureTestKey)
        #expect(key.hexEncoded() == Self.hex)
        #expect(try PinsKey(hex: "  " + Self.hex.uppercased() + "\r\n") == key)
        for shown in ["\(key)", String(reflecting: key), "\(Mirror(reflecting: key).children.map { "\($0.value)" })",
                      "\(PrivacyPolicy.displaced(try PrivacyMask(key: key)))"] {
            #expect(!shown.lowercased().contains(Self.hex.prefix(16)), "\(shown)")
        }
        // The fingerprint identifies the key without being any part of it.
        #expect(key.fingerprint.count == 32 && !Self.hex.contains(key.fingerprint.prefix(8)))
        #expect(try PinsKey(hex: String(Self.hex.prefix(32))).bits == 128)
    }

    @Test("malformed keys are refused without echoing them",
          arguments: ["", "abc", String(repeating: "0", count: 31), String(repeating: "g", count: 64),
                      String(repeating: "a", count: 63), String(repeating: "a", count: 66), "12345678 90abcdef"])
    func malformed(_ text: String) {
        #expect(throws: PinError.self) { try PinsKey(hex: text) }
        do { _ = try PinsKey(hex: text) } catch {
            #expect(text.count < 8 || !error.description.contains(text), "\(error)")
        }
    }

    @Test func generatedKeysAreFreshAndFull() {
        let keys = (0..<64).map { _ in PinsKey.generate() }
        #expect(Set(keys.map { $0.hexEncoded() }).count == 64 && keys.allSatisfy { $0.bits == 256 })
        // Every bit position is set in some key and clear in another.
        let words = keys.map { [$0.w0, $0.w1, $0.w2, $0.w3] }
        for w in 0..<4 {
            #expect(words.reduce(UInt64(0)) { $0 | $1[w] } == .max && words.reduce(UInt64.max) { $0 & $1[w] } == 0)
        }
    }

    @Test("domain separation: the mask, the pin ids and the fingerprint use different derived keys, none the key itself")
    func derivedKeysAreSeparate() throws {
        let key = try PinsKey(hex: Self.hex)
        let mask = try PrivacyMask(key: key)
        let derived = [key.derive(PinsKey.maskLabel), key.derive(PinsKey.idsLabel), key.derive(PinsKey.fingerprintLabel)]
        #expect(Set(derived.map { "\($0.0),\($0.1)" }).count == 3)
        #expect(mask.drawHasher == SipHash24(k0: derived[0].0, k1: derived[0].1))
        #expect(mask.idHasher == SipHash24(k0: derived[1].0, k1: derived[1].1))
        #expect(mask.idHasher != mask.drawHasher && mask.drawHasher != SipHash24(k0: key.w0, k1: key.w1))
    }

    /// Single-listing pins at zoom 22 of scattered listings, by location key.
    static func listingPinIDs(_ mask: PrivacyMask) throws -> [Int64: UInt64] {
        var listings = PinListings()
        for k in 0..<60 {
            listings.append(id: Int64(k), longitude: 127 + Double(k % 10) * 0.01, latitude: 37.5 + Double(k / 10) * 0.01,
                            locationKey: LocationKey(string: "b\(k)"))
        }
        let index = try PinIndex(listings: listings, options: PinOptions(privacy: .displaced(mask)))
        var out: [Int64: UInt64] = [:]
        for pin in try index.pins(zoom: 22) where pin.count == 1 { out[try index.leaves(of: pin.id, limit: 1, cursor: nil).leaves[0].id] = pin.id.rawValue }
        return out
    }

    @Test("a published pin id depends on the id key only: another offset range (another draw) keeps it, another key changes it")
    func pinIDsCannotTestMaskKeys() throws {
        let key = try PinsKey(hex: Self.hex)
        let a = try Self.listingPinIDs(try PrivacyMask(key: key))
        let b = try Self.listingPinIDs(try PrivacyMask(key: key, minDistance: 100, maxDistance: 300))
        let c = try Self.listingPinIDs(try PrivacyMask(key: .generate()))
        #expect(a.count == 60 && a == b)
        #expect(Set(a.values).isDisjoint(with: c.values))
        // The ids are not keyed by the mask's draw key: a hasher built from it does not give them.
        let mask = try PrivacyMask(key: key)
        let wrong = (0..<60).map { mask.drawHasher.hash(1, LocationKey(string: "b\($0)").value) }
        #expect(Set(wrong).isDisjoint(with: a.values))
    }
}
