/// SipHash-2-4 (Aumasson & Bernstein, 2012): a keyed pseudo-random function from a 128-bit
/// key and a message to 64 bits, the PRF behind the privacy mask and the pin ids.
///
/// SipHash is designed and widely analysed as a PRF (no practical distinguisher is known for
/// the 2-4 variant), but this is an unaudited transcription with a 64-bit output: treat the
/// mask as "an outsider without the key cannot predict the offsets", not as a certified
/// cryptographic guarantee. Checked against the paper's test vectors in PinsTests.
package struct SipHash24: Sendable, Hashable {
    /// The first 64-bit half of the key (little-endian word k0 of the paper).
    package let k0: UInt64
    /// The second 64-bit half of the key (little-endian word k1 of the paper).
    package let k1: UInt64

    /// A hasher with the key (k0, k1).
    package init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    @inline(__always)
    private static func round(_ v0: inout UInt64, _ v1: inout UInt64, _ v2: inout UInt64, _ v3: inout UInt64) {
        v0 &+= v1; v1 = v1.rotl(13); v1 ^= v0; v0 = v0.rotl(32)
        v2 &+= v3; v3 = v3.rotl(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotl(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotl(17); v1 ^= v2; v2 = v2.rotl(32)
    }

    /// The 64-bit tag of `words` read as a message of `8 · words.count` little-endian bytes
    /// followed by `tail` (the low `tailCount` bytes of it, little-endian, at most 7).
    /// - Complexity: O(words.count).
    package func hash(words: some Collection<UInt64>, tail: UInt64 = 0, tailCount: Int = 0) -> UInt64 {
        var state = start()
        for m in words { Self.absorb(m, &state) }
        return Self.finish(&state, length: 8 * words.count + tailCount, tail: tail, tailCount: tailCount)
    }

    /// The tag of the two-word message (a, b) followed by `tail` as above, without an array.
    @inline(__always)
    func hash(_ a: UInt64, _ b: UInt64, tail: UInt64 = 0, tailCount: Int = 0) -> UInt64 {
        var state = start()
        Self.absorb(a, &state)
        Self.absorb(b, &state)
        return Self.finish(&state, length: 16 + tailCount, tail: tail, tailCount: tailCount)
    }

    /// The tag of the four-word message (a, b, c, d) followed by `tail` as above, without an array.
    @inline(__always)
    func hash(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64, tail: UInt64 = 0, tailCount: Int = 0) -> UInt64 {
        var state = start()
        Self.absorb(a, &state)
        Self.absorb(b, &state)
        Self.absorb(c, &state)
        Self.absorb(d, &state)
        return Self.finish(&state, length: 32 + tailCount, tail: tail, tailCount: tailCount)
    }

    @inline(__always)
    private func start() -> (UInt64, UInt64, UInt64, UInt64) {
        (k0 ^ 0x736f_6d65_7073_6575, k1 ^ 0x646f_7261_6e64_6f6d, k0 ^ 0x6c79_6765_6e65_7261, k1 ^ 0x7465_6462_7974_6573)
    }

    @inline(__always)
    private static func absorb(_ m: UInt64, _ s: inout (UInt64, UInt64, UInt64, UInt64)) {
        s.3 ^= m
        round(&s.0, &s.1, &s.2, &s.3); round(&s.0, &s.1, &s.2, &s.3)
        s.0 ^= m
    }

    @inline(__always)
    private static func finish(_ s: inout (UInt64, UInt64, UInt64, UInt64), length: Int, tail: UInt64, tailCount: Int) -> UInt64 {
        precondition(tailCount >= 0 && tailCount < 8, "tailCount is 0...7 bytes")
        let mask: UInt64 = tailCount == 0 ? 0 : (UInt64.max >> UInt64(64 - 8 * tailCount))
        let b = (UInt64(truncatingIfNeeded: length) << 56) | (tail & mask)
        s.3 ^= b
        round(&s.0, &s.1, &s.2, &s.3); round(&s.0, &s.1, &s.2, &s.3)
        s.0 ^= b
        s.2 ^= 0xff
        for _ in 0..<4 { round(&s.0, &s.1, &s.2, &s.3) }
        return s.0 ^ s.1 ^ s.2 ^ s.3
    }

    /// The tag of arbitrary bytes (the paper's definition).
    /// - Complexity: O(bytes.count).
    package func hash(bytes: some Collection<UInt8>) -> UInt64 {
        var words: [UInt64] = []
        words.reserveCapacity(bytes.count / 8)
        var w: UInt64 = 0, k = 0
        for byte in bytes {
            w |= UInt64(byte) << UInt64(8 * k)
            k += 1
            if k == 8 { words.append(w); w = 0; k = 0 }
        }
        return hash(words: words, tail: w, tailCount: k)
    }

    /// A uniform Double in [0, 1) from a tag: its top 53 bits times 2⁻⁵³.
    @inline(__always)
    static func unit(_ tag: UInt64) -> Double { Double(tag >> 11) * 0x1.0p-53 }
}

extension UInt64 {
    @inline(__always) func rotl(_ k: UInt64) -> UInt64 { (self << k) | (self >> (64 - k)) }
}
