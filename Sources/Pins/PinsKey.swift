// The secret behind the privacy mask and the pin ids, and the keys derived from it.

/// The secret key of the privacy mask and of the pin ids: 256 bits from the operating system's
/// random source (`generate()`), never a small integer. Nothing uses it directly: the mask,
/// the pin ids and the fingerprint each use their own key derived from it (SipHash-2-4 as a
/// PRF over a distinct label), so a published pin id cannot be used to test a guess of the
/// mask's key, and the fingerprint recorded in a mask file is one-way.
///
/// Its text form (`init(hex:)`, `hexEncoded()`) is 64 hexadecimal digits: the key file's one
/// line and the `GEOCLUSTER_PINS_KEY` variable's value. A key that was not drawn at random
/// (all zeros, a repeated block, a run such as 00 01 02 …, a handful of byte values) is
/// refused: it is among the first an attacker tries. The key is never part of a description, a
/// debug description or a mirror: printing it shows `PinsKey(secret)`.
public struct PinsKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's four little-endian 64-bit words.
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64
    /// Bits of secret: 256 (64 for an insecure test key).
    public let bits: Int
    /// True for `insecureTestKey(seed:)`: a key anyone can guess.
    public let isInsecureTestKey: Bool

    /// The labels that separate the derived keys.
    static let maskLabel = "geocluster mask v1"
    static let idsLabel = "geocluster pin ids v1"
    static let fingerprintLabel = "geocluster key fingerprint v1"
    static let maskFileLabel = "geocluster mask file v2"

    /// The bytes of a key.
    public static let byteCount = 32

    /// Where a refusal says a key comes from.
    static let howToMake = "make one with `geocluster pins-key -o FILE` (or `PinsKey.generate()`)"

    /// A key from its 32 bytes (little-endian words).
    /// - Throws: `PinError.invalidParameter` for any other length, or for bytes that were not
    ///   drawn at random (see `weakness(_:)`); the bytes are never echoed.
    public init(bytes: some Collection<UInt8>) throws(PinError) {
        let b = Array(bytes)
        guard b.count == Self.byteCount else {
            throw .invalidParameter(name: "key", value: "\(b.count) bytes", requirement: "a key is 32 bytes (256 bits); \(Self.howToMake)")
        }
        if let weakness = Self.weakness(b) {
            throw .invalidParameter(name: "key", value: "a weak key",
                                    requirement: "\(weakness), so it was not drawn at random and an attacker would try it early; \(Self.howToMake)")
        }
        self.init(Self.word(b, 0), Self.word(b, 1), Self.word(b, 2), Self.word(b, 3), bits: 256, insecure: false)
    }

    /// A key from its text form: 64 hexadecimal digits, upper or lower case; surrounding spaces
    /// and line breaks are ignored.
    /// - Throws: `PinError.invalidParameter` naming what is wrong (the digits are never echoed):
    ///   not hexadecimal, not 64 digits, or a weak key (as `init(bytes:)`).
    public init(hex: some StringProtocol) throws(PinError) {
        let text = hex.utf8.drop { Self.isSpace($0) }.reversed().drop { Self.isSpace($0) }.reversed()
        var bytes: [UInt8] = []
        var high: UInt8? = nil
        for (k, c) in text.enumerated() {
            guard let v = Self.hexValue(c) else {
                throw .invalidParameter(name: "key", value: "character \(k + 1)",
                                        requirement: "a key is 64 hexadecimal digits (0-9, a-f) on one line, as `geocluster pins-key` writes it")
            }
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        guard high == nil, bytes.count == Self.byteCount else {
            throw .invalidParameter(name: "key", value: "\(text.count) hexadecimal digits",
                                    requirement: "a key is 64 hexadecimal digits (256 bits); \(Self.howToMake)")
        }
        try self.init(bytes: bytes)
    }

    /// Why the 32 bytes `b` cannot be a randomly drawn key, nil when nothing says so. Each rule
    /// catches a way people make keys by hand; none refuses a random key in practice:
    /// - fewer than `minimumDistinctBytes` distinct values: 32 random bytes take about 28, and
    ///   fewer than 12 has probability at most C(256, 11)·(11/256)^32 < 2^-80 (a union bound over
    ///   the sets of 11 values the bytes could stay within). This catches all zeros, all 0xff,
    ///   any block of up to 8 bytes repeated and keys typed from a few characters;
    /// - a block of 16 bytes repeated (probability 2^-128);
    /// - bytes in a run, every step between neighbours the same (00 01 02 …, ff fe fd …, or
    ///   00 11 22 …; probability 2^-240).
    /// - Complexity: O(1) (32 bytes).
    static func weakness(_ b: [UInt8]) -> String? {
        if b.allSatisfy({ $0 == b[0] }) { return "every byte is the same" }
        for period in [2, 4, 8, 16] where (period..<b.count).allSatisfy({ b[$0] == b[$0 - period] }) {
            return "it repeats a block of \(period) bytes"
        }
        let step = b[1] &- b[0]
        if (2..<b.count).allSatisfy({ b[$0] &- b[$0 - 1] == step }) { return "its bytes form a run (each the previous plus a constant)" }
        var seen = [Bool](repeating: false, count: 256)
        for x in b { seen[Int(x)] = true }
        if seen.count(where: { $0 }) < minimumDistinctBytes {
            return "its bytes take fewer than \(minimumDistinctBytes) distinct values (a random key's take about 28)"
        }
        return nil
    }

    /// The fewest distinct byte values a key may have (see `weakness(_:)`).
    static let minimumDistinctBytes = 12

    /// Little-endian word `k` of `b`.
    private static func word(_ b: [UInt8], _ k: Int) -> UInt64 {
        var w: UInt64 = 0
        for j in 0..<8 { w |= UInt64(b[8 * k + j]) << UInt64(8 * j) }
        return w
    }

    private init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, bits: Int, insecure: Bool) {
        self.w0 = w0; self.w1 = w1; self.w2 = w2; self.w3 = w3
        self.bits = bits
        isInsecureTestKey = insecure
    }

    /// A new 256-bit key from the operating system's random source (`SystemRandomNumberGenerator`:
    /// getrandom(2) on Linux, arc4random_buf on Apple platforms). It draws again in the case,
    /// never seen in practice, of a draw `init(bytes:)` would refuse (probability below 2^-80),
    /// so every generated key can be read back.
    public static func generate() -> PinsKey {
        var g = SystemRandomNumberGenerator()
        while true {
            let words: [UInt64] = [g.next(), g.next(), g.next(), g.next()]
            let bytes = words.flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
            if weakness(bytes) == nil { return PinsKey(words[0], words[1], words[2], words[3], bits: 256, insecure: false) }
        }
    }

    /// A key made from a small integer, for tests and benchmarks only: anyone can try every
    /// seed, so displayed positions made with it hide nothing.
    public static func insecureTestKey(seed: UInt64) -> PinsKey {
        PinsKey(seed, 0x696e_7365_6375_7265, 0x7465_7374_206b_6579, 0, bits: 64, insecure: true)
    }

    /// The key's text form (64 lower-case hexadecimal digits; 32 for an insecure test key): for
    /// writing the key file, nothing else.
    public func hexEncoded() -> String {
        let words = bits > 128 ? [w0, w1, w2, w3] : [w0, w1]
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for w in words {
            for j in 0..<8 {
                let b = UInt8(truncatingIfNeeded: w >> UInt64(8 * j))
                out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// 128 bits derived from the key under `label` (SipHash-2-4 keyed by the key's first 128
    /// bits over its other 128 bits, the label and a counter byte): a PRF output, so keys
    /// derived under different labels are independent and none reveals the key.
    func derive(_ label: String) -> (UInt64, UInt64) {
        let prf = SipHash24(k0: w0, k1: w1)
        var message: [UInt8] = []
        for w in [w2, w3] { for j in 0..<8 { message.append(UInt8(truncatingIfNeeded: w >> UInt64(8 * j))) } }
        message += Array(label.utf8)
        return (prf.hash(bytes: message + [0]), prf.hash(bytes: message + [1]))
    }

    /// The key's fingerprint: 32 hexadecimal digits derived one-way from it, which identify
    /// the key (in a mask file, in messages) without revealing it or any derived key.
    public var fingerprint: String {
        let (a, b) = derive(Self.fingerprintLabel)
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for w in [a, b] { for j in (0..<16).reversed() { out.append(digits[Int((w >> UInt64(4 * j)) & 15)]) } }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { isInsecureTestKey ? "PinsKey(insecure test key)" : "PinsKey(secret)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["bits": bits, "isInsecureTestKey": isInsecureTestKey]) }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }
}
