import Foundation
import Harness
import Pins
@testable import PinsServer
import SwiftProtobuf
import Testing
import TestSupport

@Suite("vector tiles: every pin of a zoom inside exactly one tile, copies in the buffer")
struct PinTilesTests {
    /// Every tile at `z` that holds or buffers a pin: the owners of the pins and their neighbours.
    static func tiles(of pins: [Pin], zoom z: Int) -> Set<TileAddress> {
        var out = Set<TileAddress>()
        let n = 1 << z
        for pin in pins {
            let t = TileAddress.owner(longitude: pin.longitude, latitude: pin.latitude, zoom: z)
            for dx in -1...1 { for dy in -1...1 {
                if let a = TileAddress(z: z, x: (t.x + dx + n) % n, y: t.y + dy) { out.insert(a) }
            } }
        }
        return out
    }

    static func check(_ data: PinsDataset, zooms: [Int], filter: AttributeFilter? = nil) throws {
        for z in zooms {
            let pins = try data.index.pins(zoom: Double(z), filter: filter)
            var inside: [UInt64: Int] = [:]
            let byID = Dictionary(uniqueKeysWithValues: pins.map { ($0.id.rawValue, $0) })
            for address in tiles(of: pins, zoom: z) {
                let bytes = try PinTiles.tile(data, address, filter: filter)
                let tile = try VectorTile_Tile(serializedBytes: bytes)
                #expect(tile.layers.count <= 1)
                for layer in tile.layers {
                    #expect(layer.name == "pins" && layer.extent == 4096 && layer.version == 2)
                    for f in layer.features {
                        let pin = try #require(byID[f.id], "tile \(address) has a feature \(f.id) that is no pin of zoom \(z)")
                        #expect(f.type == .point && f.geometry.count == 3 && f.geometry[0] == 9)
                        let u = Int(Int32(bitPattern: (f.geometry[1] >> 1) ^ (0 &- (f.geometry[1] & 1))))
                        let v = Int(Int32(bitPattern: (f.geometry[2] >> 1) ^ (0 &- (f.geometry[2] & 1))))
                        let expected = address.local(longitude: pin.longitude, latitude: pin.latitude)
                        #expect(u == expected.u && v == expected.v)
                        if (0..<4096).contains(u) && (0..<4096).contains(v) { inside[f.id, default: 0] += 1 }
                        #expect(TileAddress.inBuffer((u, v)))
                    }
                }
            }
            #expect(inside.count == pins.count, "zoom \(z): \(inside.count) of \(pins.count) pins inside a tile")
            #expect(inside.values.allSatisfy { $0 == 1 }, "zoom \(z): a pin inside two tiles")
        }
    }

    @Test("generated Seoul listings, zooms 0–16, unfiltered and filtered")
    func seoul() throws {
        try withTemporaryFolder { folder in
            let data = try ServerFixture.make(count: 2000, folder: folder).service.snapshot.dataset
            try Self.check(data, zooms: Array(0...16))
            try Self.check(data, zooms: [10, 13], filter: AttributeFilter(categories: [ListingCategory.apartment.code]))
        }
    }

    @Test("listings on both sides of the antimeridian and near the poles' Mercator limit")
    func antimeridian() throws {
        var rows = ["id,lat,lon"]
        var rng = SplitMix64(seed: 9)
        for k in 0..<600 {
            let lon = k % 2 == 0 ? 179.995 + rng.uniform() * 0.005 : -180 + rng.uniform() * 0.005
            rows.append("\(k),\(-17 + rng.uniform() * 0.01),\(lon)")
        }
        for k in 600..<700 { rows.append("\(k),\(84.9 + rng.uniform() * 0.01),\(rng.uniform() * 0.01)") }
        try withTemporaryFolder { folder in
            let data = try ServerFixture.make(csv: rows.joined(separator: "\n") + "\n", folder: folder).service.snapshot.dataset
            #expect(data.shown > 500)
            try Self.check(data, zooms: Array(0...17))
        }
    }

    @Test("a tile's features carry the names MapLibre styles use, and a listing pin its attributes")
    func properties() throws {
        try withTemporaryFolder { folder in
            let data = try ServerFixture.make(count: 2000, folder: folder).service.snapshot.dataset
            let pins = try data.index.pins(zoom: 16)
            let cluster = try #require(pins.first { $0.kind == .cluster })
            let address = TileAddress.owner(longitude: cluster.longitude, latitude: cluster.latitude, zoom: 16)
            let layer = try #require(try VectorTile_Tile(serializedBytes: try PinTiles.tile(data, address, filter: nil)).layers.first)
            let f = try #require(layer.features.first { $0.id == cluster.id.rawValue })
            var properties: [String: VectorTile_Tile.Value] = [:]
            for k in stride(from: 0, to: f.tags.count, by: 2) { properties[layer.keys[Int(f.tags[k])]] = layer.values[Int(f.tags[k + 1])] }
            #expect(properties["cluster"]?.boolValue == true)
            #expect(properties["point_count"]?.uintValue == UInt64(cluster.count))
            #expect(properties["count"]?.uintValue == UInt64(cluster.count))
            #expect(properties["expansion_zoom"]?.uintValue == UInt64(cluster.expansionZoom ?? -1))
            #expect(properties["kind"]?.stringValue == "cluster")
            #expect(properties["bbox_west"]?.doubleValue == cluster.bbox.minLongitude)
        }
    }
}
