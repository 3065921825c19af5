// The secret behind the privacy mask and the pin ids, and the keys derived from it.

/// The secret key of the privacy mask and of the pin ids: 128 or 256 bits from the operating
/// system's random source (`generate()`), never a small integer. Nothing uses it directly:
/// the mask, the pin ids and the fingerprint each use their own key derived from it (SipHash-2-4
/// as a PRF over a distinct label), so a published pin id cannot be used to test a guess of
/// the mask's key, and the fingerprint recorded in a mask file is one-way.
///
/// Its text form (`init(hex:)`, `hexEncoded()`) is 64 hexadecimal digits (32 for a 128-bit
/// key): the key file's one line and the `GEOCLUSTER_PINS_KEY` variable's value. The key is
/// never part of a description, a debug description or a mirror: printing it shows
/// `PinsKey(secret)`.
public struct PinsKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's four little-endian 64-bit words (the last two are 0 for a 128-bit key).
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64
    /// Bits of secret: 128 or 256 (64 for an insecure test key).
    public let bits: Int
    /// True for `insecureTestKey(seed:)`: a key anyone can guess.
    public let isInsecureTestKey: Bool

    /// The labels that separate the derived keys.
    static let maskLabel = "geocluster mask v1"
    static let idsLabel = "geocluster pin ids v1"
    static let fingerprintLabel = "geocluster key fingerprint v1"

    /// A key from 16 or 32 bytes (little-endian words).
    /// - Throws: `PinError.invalidParameter` for any other length.
    public init(bytes: some Collection<UInt8>) throws(PinError) {
        let b = Array(bytes)
        guard b.count == 16 || b.count == 32 else {
            throw .invalidParameter(name: "key", value: "\(b.count) bytes", requirement: "a key is 16 or 32 bytes (128 or 256 bits)")
        }
        func word(_ k: Int) -> UInt64 {
            guard 8 * k + 8 <= b.count else { return 0 }
            var w: UInt64 = 0
            for j in 0..<8 { w |= UInt64(b[8 * k + j]) << UInt64(8 * j) }
            return w
        }
        self.init(word(0), word(1), word(2), word(3), bits: 8 * b.count, insecure: false)
    }

    /// A key from its text form: 64 (or 32) hexadecimal digits, upper or lower case;
    /// surrounding spaces and line breaks are ignored.
    /// - Throws: `PinError.invalidParameter` naming what is wrong (the digits are never echoed).
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
        guard high == nil, bytes.count == 32 || bytes.count == 16 else {
            throw .invalidParameter(name: "key", value: "\(text.count) hexadecimal digits",
                                    requirement: "a key is 64 hexadecimal digits (256 bits; 32 digits, 128 bits, at least); make one with `geocluster pins-key -o FILE`")
        }
        try self.init(bytes: bytes)
    }

    private init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, bits: Int, insecure: Bool) {
        self.w0 = w0; self.w1 = w1; self.w2 = w2; self.w3 = w3
        self.bits = bits
        isInsecureTestKey = insecure
    }

    /// A new 256-bit key from the operating system's random source (`SystemRandomNumberGenerator`:
    /// getrandom(2) on Linux, arc4random_buf on Apple platforms).
    public static func generate() -> PinsKey {
        var g = SystemRandomNumberGenerator()
        return PinsKey(g.next(), g.next(), g.next(), g.next(), bits: 256, insecure: false)
    }

    /// A key made from a small integer, for tests and benchmarks only: anyone can try every
    /// seed, so displayed positions made with it hide nothing.
    public static func insecureTestKey(seed: UInt64) -> PinsKey {
        PinsKey(seed, 0x696e_7365_6375_7265, 0x7465_7374_206b_6579, 0, bits: 64, insecure: true)
    }

    /// The key's text form (64 or 32 lower-case hexadecimal digits): for writing the key file,
    /// nothing else.
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
