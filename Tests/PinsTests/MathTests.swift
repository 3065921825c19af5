import Foundation
import Testing
@testable import Pins
import ClusterCore
import TestSupport

@Suite struct MathTests {
    @Test func sipHashMatchesThePapersVectors() {
        // SipHash-2-4 reference (Aumasson & Bernstein, appendix A / vectors.h): key 00..0f,
        // message 00 01 .. (n-1), for n = 0, 1, 7, 8 and 15 bytes.
        let h = SipHash24(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)
        let expected: [Int: UInt64] = [
            0: 0x726f_db47_dd0e_0e31, 1: 0x74f8_39c5_93dc_67fd, 7: 0xab02_00f5_8b01_d137,
            8: 0x93f5_f579_9a93_2462, 15: 0xa129_ca61_49be_45e5,
        ]
        for (n, tag) in expected {
            #expect(h.hash(bytes: (0..<n).map { UInt8($0) }) == tag, "n = \(n)")
        }
    }

    @Test func elementaryFunctionsAgreeWithTheCLibrary() {
        var g = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let x = (g.uniform() * 2 - 1) * 7
            #expect(abs(ElementaryMath.sin(x) - Foundation.sin(x)) <= 4e-16)
            #expect(abs(ElementaryMath.cos(x) - Foundation.cos(x)) <= 4e-16)
            let e = (g.uniform() * 2 - 1) * 40
            #expect(abs(ElementaryMath.exp(e) - Foundation.exp(e)) <= 4e-16 * Foundation.exp(e))
            let l = Foundation.exp((g.uniform() * 2 - 1) * 30)
            #expect(abs(ElementaryMath.log(l) - Foundation.log(l)) <= 4e-16 * max(1, abs(Foundation.log(l))))
            let a = (g.uniform() * 2 - 1) * 50
            #expect(abs(ElementaryMath.atan(a) - Foundation.atan(a)) <= 1e-15)
        }
    }

    @Test func mercatorRoundTripsAndMatchesTheFormula() {
        var g = SplitMix64(seed: 8)
        for _ in 0..<5_000 {
            let lat = (g.uniform() * 2 - 1) * 85
            let y = WebMercator.y(latitude: lat)
            let s = Foundation.sin(lat * .pi / 180)
            #expect(abs(y - (0.5 - 0.25 * Foundation.log((1 + s) / (1 - s)) / .pi)) < 5e-15)
            #expect(abs(WebMercator.latitude(y: y) - lat) < 1e-11)
        }
        // 156 543.03 m per pixel at zoom 0 on the equator with 256-pixel tiles.
        #expect(abs(WebMercator.metresPerPixel(zoom: 0, latitude: 0) - 156_543.033_928) < 1e-3)
        // WGS 84 metres per degree, against the radii of curvature computed with the C library
        // and the published values at 45° (111 132 m and 78 847 m).
        for lat in stride(from: -80.0, through: 80, by: 7.5) {
            let m = WebMercator.metresPerDegree(latitude: lat)
            let p = lat * .pi / 180, e2 = 0.00669437999014, w = 1 - e2 * sin(p) * sin(p)
            #expect(abs(m.latitude - .pi / 180 * 6378137 * (1 - e2) / pow(w, 1.5)) < 1e-8)
            #expect(abs(m.longitude - .pi / 180 * 6378137 / w.squareRoot() * cos(p)) < 1e-8)
        }
        let m45 = WebMercator.metresPerDegree(latitude: 45)
        #expect(abs(m45.latitude - 111_132) < 1 && abs(m45.longitude - 78_847) < 1)
    }

    @Test("the zoom of a visible span: whole tiles, MapKit's map points, 512-pixel tiles, and back through metres per pixel")
    func zoomOfAVisibleSpan() {
        #expect(WebMercator.zoom(span: 1, pixels: 256) == 0)
        #expect(abs(WebMercator.zoom(span: 1.0 / 1024, pixels: 256) - 10) < 1e-12)
        // MapKit: 99,840 of 2^28 map points across a 390-point view is zoom 12.
        #expect(abs(WebMercator.zoom(span: 99_840 / 268_435_456, pixels: 390) - 12) < 1e-12)
        #expect(abs(WebMercator.zoom(span: 99_840 / 268_435_456, pixels: 390, tileSize: 512) - 11) < 1e-12)
        for (span, pixels) in [(0.3, 1170.0), (1e-5, 390), (2.5e-3, 844)] {
            let z = WebMercator.zoom(span: span, pixels: pixels)
            #expect(abs(z - log2(pixels / (span * 256))) < 1e-12)
            // The span's ground width at the equator equals the view's pixels at that zoom.
            let metres = span * 2 * Double.pi * 6_378_137
            #expect(abs(WebMercator.metresPerPixel(zoom: z, latitude: 0) * pixels - metres) <= 1e-9 * metres)
        }
    }
}
