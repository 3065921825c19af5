import Foundation
@testable import Pins
import TestSupport

/// A small clustered city around Seoul from TestSupport's SplitMix64: dense blobs, a straight
/// strip of buildings (the chain case), scattered singles and a few buildings with many units.
struct PinScenario {
    var ids: [Int64] = []
    var lons: [Double] = []
    var lats: [Double] = []
    var keys: [LocationKey?] = []
    var categories: [UInt8?] = []
    var areas: [Double?] = []
    var deposits: [Double?] = []
    var rents: [Double?] = []

    init(seed: UInt64, blobs: Int = 6, perBlob: Int = 120, strip: Int = 80, singles: Int = 150, buildings: Int = 5) {
        var g = SplitMix64(seed: seed)
        var nextID: Int64 = 1000
        func add(_ lon: Double, _ lat: Double, key: LocationKey? = nil) {
            ids.append(nextID); nextID += 7
            lons.append(lon); lats.append(lat); keys.append(key)
            categories.append(g.uniform() < 0.1 ? nil : UInt8(g.next() % 6))
            areas.append(g.uniform() < 0.05 ? nil : (20 + 100 * g.uniform()).rounded())
            deposits.append(g.uniform() < 0.1 ? nil : (500 + 5000 * g.uniform()).rounded())
            rents.append(g.uniform() < 0.1 ? nil : (10 + 100 * g.uniform()).rounded())
        }
        for _ in 0..<blobs {
            let cx = 126.9 + 0.2 * g.uniform(), cy = 37.45 + 0.15 * g.uniform()
            let s = 0.001 + 0.004 * g.uniform()
            for _ in 0..<perBlob { add(cx + s * g.normal(), cy + s * g.normal()) }
        }
        // A strip of buildings 10 m apart along a road (about 0.000113° of longitude).
        let sx = 127.0, sy = 37.52
        for k in 0..<strip { add(sx + Double(k) * 0.000113, sy + 0.000002 * Double(k % 3)) }
        for _ in 0..<singles { add(126.8 + 0.4 * g.uniform(), 37.4 + 0.3 * g.uniform()) }
        for b in 0..<buildings {
            let lon = 126.95 + 0.1 * g.uniform(), lat = 37.5 + 0.05 * g.uniform()
            let units = 3 + Int(g.next() % 40)
            for _ in 0..<units { add(lon, lat, key: LocationKey(explicit: UInt64(9000 + b))) }
        }
        // Co-located listings without a key: three at one true coordinate.
        for _ in 0..<3 { add(127.05, 37.55) }
    }

    var count: Int { ids.count }

    func listings(order: [Int]? = nil) -> PinListings {
        var l = PinListings()
        for i in order ?? Array(0..<count) {
            l.append(id: ids[i], longitude: lons[i], latitude: lats[i], locationKey: keys[i], category: categories[i],
                     area: areas[i], deposit: deposits[i], monthlyRent: rents[i])
        }
        return l
    }

    /// The scenario's mask: an insecure test key, so a failure reproduces (no usable key is
    /// written in the tests).
    static let mask = try! PrivacyMask(insecureTestSeed: 0xc0ffee)

    func index(order: [Int]? = nil, privacy: PrivacyPolicy = .displaced(PinScenario.mask)) -> PinIndex {
        try! PinIndex(listings: listings(order: order), options: PinOptions(privacy: privacy))
    }

    /// The row of each id.
    var rowOfID: [Int64: Int] { Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) }) }
}

extension PinIndex {
    /// Every listing id of a pin, through the pager.
    func allLeaves(_ id: PinID, limit: Int = 7) -> [PinLeaf] {
        var out: [PinLeaf] = []
        var cursor: PinCursor? = nil
        repeat {
            let page = try! leaves(of: id, limit: limit, cursor: cursor)
            out += page.leaves
            cursor = page.next
        } while cursor != nil
        return out
    }
}

/// Metres between two positions by the WGS 84 local scale at the first one's latitude,
/// computed with the C library (independently of Pins' own functions).
func localMetres(_ lon0: Double, _ lat0: Double, _ lon1: Double, _ lat1: Double) -> Double {
    let phi = lat0 * .pi / 180, e2 = 0.00669437999014, a = 6378137.0
    let w = 1 - e2 * sin(phi) * sin(phi)
    let mLat = .pi / 180 * a * (1 - e2) / pow(w, 1.5), mLon = .pi / 180 * a / sqrt(w) * cos(phi)
    return hypot((lon1 - lon0) * mLon, (lat1 - lat0) * mLat)
}
