import Foundation
import Testing
@testable import Pins

/// The secret key and what is derived from it, tested as an attacker would use them.
@Suite struct PinsKeyTests {
    @Test func textFormRoundTripsAndIsNeverPrinted() throws {
        let hex = PinsKey.generate().hexEncoded()
        let key = try PinsKey(hex: hex + "\n")
        #expect(key.bits == 256 && !key.isInsecureTestKey)
        #expect(key.hexEncoded() == hex && hex.count == 64)
        #expect(try PinsKey(hex: "  " + hex.uppercased() + "\r\n") == key)
        for shown in ["\(key)", String(reflecting: key), "\(Mirror(reflecting: key).children.map { "\($0.value)" })",
                      "\(PrivacyPolicy.displaced(PrivacyMask(key: key)))"] {
            #expect(!shown.lowercased().contains(hex.prefix(16)), "\(shown)")
        }
        // The fingerprint identifies the key without being any part of it.
        #expect(key.fingerprint.count == 32 && !hex.contains(key.fingerprint.prefix(8)))
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

    /// Every 8-digit stretch of `hex`: a message that holds one echoes part of the key.
    static func stretches(_ hex: String) -> [Substring] {
        let digits = Array(hex.lowercased())
        return (0...(digits.count - 8)).map { Substring(String(digits[$0..<($0 + 8)])) }
    }

    /// The message of the error `attempt` throws; nil (and an issue) when it makes a key.
    static func refusal(_ kind: String, _ attempt: () throws -> PinsKey) -> String? {
        do {
            _ = try attempt()
            Issue.record("\(kind): accepted")
            return nil
        } catch {
            #expect(error is PinError, "\(kind): \(error)")
            return "\(error)"
        }
    }

    @Test("128-bit keys (32 digits, 16 bytes) are refused: a key is 256 bits, and the message says how to make one")
    func shortKeysAreRefused() {
        let hex = String(PinsKey.generate().hexEncoded().prefix(32))
        let bytes = Array(Self.bytes(of: PinsKey.generate()).prefix(16))
        let texts = [Self.refusal("32 digits") { try PinsKey(hex: hex) }, Self.refusal("16 bytes") { try PinsKey(bytes: bytes) }]
        for text in texts.compactMap({ $0 }) {
            #expect(text.contains("256 bits") && text.contains("geocluster pins-key -o FILE"), "\(text)")
            #expect(!Self.stretches(hex).contains { text.lowercased().contains($0) }, "\(text)")
        }
    }

    /// The key's 32 bytes, as its text form spells them.
    static func bytes(of key: PinsKey) -> [UInt8] {
        [key.w0, key.w1, key.w2, key.w3].flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
    }

    /// Keys made by hand, one of each kind the rules catch (random where the kind allows, so
    /// no usable key is written here).
    static var weakKeys: [(kind: String, bytes: [UInt8])] {
        var g = SystemRandomNumberGenerator()
        func random(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) } }
        func repeated(_ block: [UInt8]) -> [UInt8] { Array((0..<(32 / block.count)).map { _ in block }.joined()) }
        // Eight values drawn at random, then 32 bytes drawn among them.
        let few = random(8)
        return [
            ("all zero", [UInt8](repeating: 0, count: 32)),
            ("all 0xff", [UInt8](repeating: 0xff, count: 32)),
            ("one byte repeated", [UInt8](repeating: random(1)[0], count: 32)),
            ("fewer than 12 distinct bytes", (0..<32).map { _ in few.randomElement(using: &g)! }),
            ("the c0ffee test key", [0xc0, 0xff, 0xee, 0x12, 0x34, 0, 0, 0, 0x77] + [UInt8](repeating: 0, count: 22) + [1]),
            ("a 2-byte block repeated", repeated(random(2))),
            ("a 4-byte block repeated", repeated(random(4))),
            ("an 8-byte block repeated", repeated(random(8))),
            ("a 16-byte block repeated", repeated(random(16))),
            ("0123456789abcdef repeated", repeated([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef])),
            ("00112233…ff twice", repeated((0..<16).map { UInt8($0 * 0x11) })),
            ("ascending 00 01 02 …", (0..<32).map { UInt8($0) }),
            ("descending ff fe fd …", (0..<32).map { UInt8(255 - $0) }),
            ("ascending from a random byte, wrapping", { let s = random(2); return (0..<32).map { s[0] &+ UInt8($0) &* (s[1] | 1) } }()),
        ]
    }

    @Test("weak keys are refused by bytes and by hex, naming what is wrong and how to make a key, never echoing the digits")
    func weakKeysAreRefused() {
        for (kind, bytes) in Self.weakKeys {
            #expect(bytes.count == 32 && PinsKey.weakness(bytes) != nil, "\(kind)")
            let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
            let texts = [Self.refusal(kind) { try PinsKey(bytes: bytes) }, Self.refusal(kind) { try PinsKey(hex: hex) },
                         Self.refusal(kind) { try PinsKey(hex: hex.uppercased() + "\n") }]
            for text in texts.compactMap({ $0 }) {
                #expect(text.contains("weak key") && text.contains("geocluster pins-key -o FILE"), "\(kind): \(text)")
                #expect(!Self.stretches(hex).contains { text.lowercased().contains($0) }, "\(kind): the digits in \(text)")
            }
        }
    }

    @Test("1000 generated keys, and 10,000 draws of 32 random bytes, are accepted and read back")
    func randomKeysAreAccepted() throws {
        for _ in 0..<1000 {
            let key = PinsKey.generate()
            #expect(try PinsKey(hex: key.hexEncoded()) == key)
            #expect(try PinsKey(bytes: Self.bytes(of: key)) == key)
        }
        // Without generate()'s redraw: the rules must leave random bytes alone on their own.
        var g = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &g) }
            #expect(PinsKey.weakness(bytes) == nil)
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
        let key = PinsKey.generate()
        let mask = PrivacyMask(key: key)
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
        let key = PinsKey.generate()
        // The plain annulus shows each listing alone, so every listing has a pin of its own.
        let a = try Self.listingPinIDs(try PrivacyMask.weakAnnulus(key: key))
        let b = try Self.listingPinIDs(try PrivacyMask.weakAnnulus(key: key, minDistance: 100, maxDistance: 300))
        let c = try Self.listingPinIDs(try PrivacyMask.weakAnnulus(key: .generate()))
        #expect(a.count == 60 && a == b)
        #expect(Set(a.values).isDisjoint(with: c.values))
        // The ids are not keyed by the mask's draw key: a hasher built from it does not give them.
        let mask = PrivacyMask(key: key)
        let wrong = (0..<60).map { mask.drawHasher.hash(1, LocationKey(string: "b\($0)").value) }
        #expect(Set(wrong).isDisjoint(with: a.values))
    }
}
