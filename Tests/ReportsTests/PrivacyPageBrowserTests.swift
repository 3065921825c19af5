import Foundation
import Testing
import Harness
@testable import Pins
@testable import Reports
import TestSupport

/// `geocluster privacy`'s HTML page as a browser shows it: both figures after load, one disc per
/// location, and the map's colours on screen.
@Suite struct PrivacyPageBrowserTests {
    /// Clumps of buildings around Seoul and a few lone ones far out (rings that reach the cap).
    static func listings() -> PinListings {
        var g = SplitMix64(seed: 21)
        var l = PinListings()
        var id: Int64 = 1
        for _ in 0..<12 {
            let cx = 126.95 + 0.08 * g.uniform(), cy = 37.50 + 0.06 * g.uniform()
            for _ in 0..<25 { l.append(id: id, longitude: cx + 0.002 * g.normal(), latitude: cy + 0.002 * g.normal()); id += 1 }
        }
        for k in 0..<4 { l.append(id: id, longitude: 127.4 + 0.1 * Double(k), latitude: 37.9); id += 1 }
        return l
    }

    @Test func privacyPageRendersInChromium() throws {
        // The weak plain mask: its rings are anonymous in the clumps and not out in the country,
        // so the page has both colours to show (shared points have no red location).
        let mask = try PrivacyMask.weakAnnulus(key: .insecureTestKey(seed: 2), minDistance: 30, maxDistance: 1_000)
        let audit = AnonymityAudit(listings: Self.listings(), mask: mask)
        let page = PrivacyReport.page(AnonymityPage(
            input: "sample.csv", rule: MaskStore.describe(nil, 30, 1_000), summary: "an audit of sample.csv", target: 5,
            locations: audit.locations.map { AnonymityPage.Location(longitude: $0.longitude, latitude: $0.latitude, k: $0.k, largestSpot: $0.largestSpot) }))
        let red = audit.locations.filter { $0.k <= 1 || $0.largestSpot * 5 > $0.k }.count
        try #require(red > 0 && red < audit.locations.count, "the sample has both kinds of location")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geocluster-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("privacy.html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        guard ProcessInfo.processInfo.environment["CHROMIUM"] != "none", let browser = HeadlessBrowser.find() else {
            Issue.record("no chromium on PATH (make test installs it): the page was not rendered")
            return
        }
        let dom = try browser.dumpDOM(file, width: 1000, height: 1600, scratch: folder)
        #expect(dom.components(separatedBy: "<svg").count - 1 == 2)
        #expect(dom.components(separatedBy: "<circle").count - 1 == audit.locations.count)
        #expect(dom.contains("Distribution of k") && dom.contains("not anonymous at K = 5"))

        let png = folder.appendingPathComponent("privacy.png")
        try browser.screenshot(file, to: png, width: 1000, height: 1600, scratch: folder)
        let image = try PNGImage(contentsOf: png)
        func pixels(near colour: (Int, Int, Int)) -> Int {
            var n = 0
            for y in stride(from: 0, to: image.height, by: 1) {
                for x in 0..<image.width {
                    let p = image.rgb(x, y)
                    if abs(p.0 - colour.0) + abs(p.1 - colour.1) + abs(p.2 - colour.2) < 24 { n += 1 }
                }
            }
            return n
        }
        let blue = pixels(near: (0x31, 0x82, 0xbd)), orange = pixels(near: (0xfc, 0x8d, 0x59)), redInk = pixels(near: (0xd7, 0x30, 0x1f))
        #expect(blue > 500, "blue (anonymous) pixels: \(blue)")
        #expect(orange + redInk > 20, "orange and red (not anonymous) pixels: \(orange), \(redInk)")
    }
}
