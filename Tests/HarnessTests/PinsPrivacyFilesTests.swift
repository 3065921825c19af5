import Foundation
import Pins
import Testing
import TestSupport
@testable import Harness

/// The key file and the mask file as the library sees them (the CLI's tests run the commands).
@Suite struct PinsPrivacyFilesTests {
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue & 0o777
    }

    @Test func keyFileRoundTripsWithMode0600AndIsNeverOverwritten() throws {
        try withTemporaryFolder { folder in
            let key = try PinsKeyFile.create(path: folder.path("k"), replace: false)
            #expect(try PinsKeyFile.read(path: folder.path("k")) == key && (try Self.mode(folder.path("k"))) == 0o600)
            #expect(PinsKeyFile.exposure(path: folder.path("k")) == nil)
            #expect(throws: HarnessError.self) { try PinsKeyFile.create(path: folder.path("k"), replace: false) }
            #expect(try PinsKeyFile.read(path: folder.path("k")) == key)
            #expect(try PinsKeyFile.create(path: folder.path("k"), replace: true) != key)
            #expect(try folder.contents() == ["k"])
        }
    }

    @Test("policy(for:) keeps, extends and saves the mask file; another key is refused unless remask")
    func maskFilePolicy() throws {
        try withTemporaryFolder { folder in
            var listings = PinListings()
            for k in 0..<50 { listings.append(id: Int64(k), longitude: 127 + Double(k) * 0.001, latitude: 37.5) }
            let mask = folder.path("m")
            let first = PinSourceSettings(key: .generate(), maskFile: mask)
            guard case let .displaced(a) = try first.policy(for: listings) else { Issue.record("no mask"); return }
            #expect(try Self.mode(mask) == 0o600 && (try PinsMaskFile.load(path: mask, mask: a))?.count == 50)
            let rotated = PinSourceSettings(key: .generate(), maskFile: mask)
            #expect(throws: HarnessError.self) { try rotated.policy(for: listings) }
            var remasked = rotated
            remasked.remask = true
            guard case let .displaced(b) = try remasked.policy(for: listings) else { Issue.record("no mask"); return }
            for k in 0..<50 {
                let key = LocationKey(longitude: 127 + Double(k) * 0.001, latitude: 37.5)
                let p = a.displayedPosition(of: key, longitude: 0, latitude: 0), q = b.displayedPosition(of: key, longitude: 0, latitude: 0)
                #expect(p == q)
            }
            #expect(try PinsMaskFile.load(path: mask, mask: b)?.keyFingerprint == rotated.key!.fingerprint)
            #expect(try PinsMaskFile.load(path: folder.path("none"), mask: b) == nil)
        }
    }
}
