import Foundation
@testable import Harness
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-4 test vectors")
    func vectors() {
        #expect(Fingerprint.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Fingerprint.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Fingerprint.sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Fingerprint.sha256Hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("any split into updates gives the one-shot digest")
    func streaming() {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<1_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let whole = Fingerprint.sha256Hex(bytes)
        for split in [1, 7, 63, 64, 65, 200, 999] {
            var h = SHA256Hasher()
            var i = 0
            while i < bytes.count { h.update(bytes[i..<min(i + split, bytes.count)]); i += split }
            let hex = h.finalize().map { String(format: "%02x", $0) }.joined()
            #expect(hex == whole, "split \(split)")
        }
    }

    @Test("a file's hash is the first 16 hex digits of sha256sum's")
    func fileMatchesSha256sum() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let ours = try Fingerprint.file(path)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let theirs = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ours.count == 16 && theirs.hasPrefix(ours), "\(ours) vs \(theirs)")
    }
}
