import Pins
@testable import PinsServer
import Testing
import TestSupport

@Suite("tile addresses: ownership, local coordinates, query boxes")
struct TileAddressTests {
    /// Positions that test the edges: the antimeridian from both sides, Mercator's latitude
    /// limit and beyond, the equator and Greenwich, tile corners.
    static let edges: [(Double, Double)] = [
        (180, 0), (-180, 0), (179.999_999_9, 10), (-179.999_999_9, -10), (0, 0), (0, 85.051_128_779_806_59), (0, 89.9),
        (0, -85.051_128_779_806_59), (0, -90), (90, 45), (-90, -45), (126.978, 37.566), (-0.000_000_1, 0.000_000_1),
    ]

    @Test("the owner tile holds the position inside [0, 4096)², every other tile outside it")
    func ownerIsTheOnlyTileHoldingThePosition() {
        var rng = SplitMix64(seed: 3)
        var positions = Self.edges
        for _ in 0..<2000 { positions.append((rng.uniform() * 360 - 180, rng.uniform() * 170 - 85)) }
        for (lon, lat) in positions {
            for z in [0, 1, 2, 5, 12, 17, 22] {
                let owner = TileAddress.owner(longitude: lon, latitude: lat, zoom: z)
                let p = owner.local(longitude: lon, latitude: lat)
                #expect((0..<4096).contains(p.u) && (0..<4096).contains(p.v), "\(lon), \(lat) at z\(z): \(owner) gives \(p)")
                let n = 1 << z
                for dx in -1...1 { for dy in -1...1 where (dx, dy) != (0, 0) {
                    guard let other = TileAddress(z: z, x: (owner.x + dx + n) % n, y: owner.y + dy), other != owner else { continue }
                    let q = other.local(longitude: lon, latitude: lat)
                    #expect(!((0..<4096).contains(q.u) && (0..<4096).contains(q.v)), "\(lon), \(lat) at z\(z) is inside \(other) too: \(q)")
                    #expect(!other.owns(longitude: lon, latitude: lat))
                } }
            }
        }
    }

    @Test("a position within a tile's buffer lies in its query box")
    func bufferedPositionsAreInTheQueryBox() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<3000 {
            let z = Int(rng.next() % 18)
            let lon = rng.uniform() * 360 - 180, lat = rng.uniform() * 170 - 85
            let owner = TileAddress.owner(longitude: lon, latitude: lat, zoom: z)
            let n = 1 << z
            for dx in -1...1 {
                guard let t = TileAddress(z: z, x: (owner.x + dx + n) % n, y: owner.y) else { continue }
                let p = t.local(longitude: lon, latitude: lat)
                guard TileAddress.inBuffer(p) else { continue }
                #expect(t.queryBox.contains(longitude: lon, latitude: lat), "\(lon), \(lat) is in \(t)'s buffer at \(p) but not in \(t.queryBox)")
            }
        }
    }

    @Test("addresses outside the grid are refused")
    func invalidAddresses() {
        #expect(TileAddress(z: -1, x: 0, y: 0) == nil)
        #expect(TileAddress(z: 23, x: 0, y: 0) == nil)
        #expect(TileAddress(z: 3, x: 8, y: 0) == nil)
        #expect(TileAddress(z: 3, x: 0, y: -1) == nil)
        #expect(TileAddress(z: 3, x: 7, y: 7) != nil)
    }

    @Test("supercluster's count abbreviations")
    func abbreviations() {
        #expect(PinTiles.abbreviated(950) == "950")
        #expect(PinTiles.abbreviated(1234) == "1.2k")
        #expect(PinTiles.abbreviated(9960) == "10k")
        #expect(PinTiles.abbreviated(12_600) == "13k")
    }
}
