import Foundation
import Testing
@testable import Pins
import TestSupport

@Suite struct PrivacyTests {
    /// The Kolmogorov–Smirnov statistic of a sample against U(0, 1).
    static func ks(_ sample: [Double]) -> Double {
        let s = sample.sorted(), n = Double(s.count)
        var d = 0.0
        for (i, x) in s.enumerated() { d = max(d, Double(i + 1) / n - x, x - Double(i) / n) }
        return d
    }

    /// The critical value at α = 0.001: 1.949 / √n (asymptotic).
    static func critical(_ n: Int) -> Double { 1.949 / Double(n).squareRoot() }

    @Test func offsetsAreUniformInAreaAndDirection() throws {
        let mask = try PrivacyMask(insecureTestSeed: 2024)
        let n = 5000
        var u: [Double] = [], a: [Double] = [], linear: [Double] = []
        for k in 0..<n {
            let o = mask.offset(for: LocationKey(explicit: UInt64(k)))
            #expect(o.distance >= 30 && o.distance <= 80)
            u.append((o.distance * o.distance - 900) / (6400 - 900))
            a.append(o.bearing / 360)
            linear.append((o.distance - 30) / 50)
        }
        #expect(Self.ks(u) < Self.critical(n))
        #expect(Self.ks(a) < Self.critical(n))
        // The test has power: the distance itself is not uniform (that would crowd the centre).
        #expect(Self.ks(linear) > Self.critical(n))
    }

    @Test func displacementOfEveryLocationIsInTheAnnulusAndUniform() throws {
        let s = PinScenario(seed: 5, blobs: 8, perBlob: 150, strip: 0, singles: 400, buildings: 5)
        let index = s.index()
        let rowOf = s.rowOfID
        var u: [Double] = [], a: [Double] = []
        var seen = Set<LocationKey>()
        // Coordinates within 5 m of another are units of one place, shown at its first one's
        // draw (`SetAside.mergedUnits`): the others are not drawn around their own truth.
        let units = Set(index.setAside.mergedUnits.flatMap { $0.dropFirst() }.map { i in
            s.keys[rowOf[i]!] ?? LocationKey(longitude: s.lons[rowOf[i]!], latitude: s.lats[rowOf[i]!])
        })
        for pin in try index.pins(zoom: 0) {
            for leaf in index.allLeaves(pin.id, limit: 500) {
                let i = rowOf[leaf.id]!
                let key = s.keys[i] ?? LocationKey(longitude: s.lons[i], latitude: s.lats[i])
                if units.contains(key) { continue }
                // Listings of one key sit at one displayed position, drawn around their median (here all of a key share one coordinate).
                let first = (0..<s.count).filter { (s.keys[$0] ?? LocationKey(longitude: s.lons[$0], latitude: s.lats[$0])) == key }
                    .min { s.ids[$0] < s.ids[$1] }!
                let r = localMetres(s.lons[first], s.lats[first], leaf.longitude, leaf.latitude)
                #expect(r >= 30 - 1e-6 && r <= 80 + 1e-6)
                if seen.insert(key).inserted {
                    u.append((r * r - 900) / (6400 - 900))
                    let m = WebMercator.metresPerDegree(latitude: s.lats[first])
                    let east = (leaf.longitude - s.lons[first]) * m.longitude, north = (leaf.latitude - s.lats[first]) * m.latitude
                    var bearing = atan2(east, north) / (2 * .pi)
                    if bearing < 0 { bearing += 1 }
                    a.append(bearing)
                }
            }
        }
        #expect(u.count > 1000)
        #expect(Self.ks(u) < Self.critical(u.count))
        #expect(Self.ks(a) < Self.critical(a.count))
    }

    @Test func sameSeedAndKeySameOffsetOtherSeedOther() throws {
        let m1 = try PrivacyMask(insecureTestSeed: 1), m1b = try PrivacyMask(insecureTestSeed: 1), m2 = try PrivacyMask(insecureTestSeed: 2)
        var differ = 0
        for k in 0..<200 {
            let key = LocationKey(string: "building-\(k)")
            let a = m1.offset(for: key), b = m1b.offset(for: key), c = m2.offset(for: key)
            #expect(a == b)
            if abs(a.distance - c.distance) > 1e-9 && abs(a.bearing - c.bearing) > 1e-9 { differ += 1 }
        }
        #expect(differ == 200)
        #expect(throws: PinError.self) { try PrivacyMask(insecureTestSeed: 1, minDistance: 80, maxDistance: 30) }
        #expect(throws: PinError.self) { try PrivacyMask(insecureTestSeed: 1, minDistance: 50, maxDistance: 50) }
        #expect(throws: PinError.self) { try PrivacyMask(insecureTestSeed: 1, minDistance: -1, maxDistance: 30) }
        for (lo, hi) in [(0.0, 30.0), (0.5, 30), (30, 5_001), (30, .infinity), (.nan, 80), (30, .nan), (1e20, 1e21), (30, 1e20)] {
            #expect(throws: PinError.self) { try PrivacyMask(insecureTestSeed: 1, minDistance: lo, maxDistance: hi) }
        }
        #expect((try? PrivacyMask(insecureTestSeed: 1, minDistance: 1, maxDistance: 5_000)) != nil)
    }

    @Test("another offset range with the same key is a new, unrelated draw: the two displayed points of a location are not on one ray from the truth")
    func rangeChangeLeavesNoRay() throws {
        let key = PinsKey.generate()
        let a = PrivacyMask(key: key), b = try PrivacyMask.weakAnnulus(key: key, minDistance: 30, maxDistance: 100)
        var small = 0, n = 2000
        for k in 0..<n {
            let lon = 127 + Double(k % 50) * 0.002, lat = 37.5 + Double(k / 50) * 0.002
            let loc = LocationKey(longitude: lon, latitude: lat)
            // As an attacker sees them: two published positions and (at most) the truth.
            let p = a.displayedPosition(of: loc, longitude: lon, latitude: lat)
            let q = b.displayedPosition(of: loc, longitude: lon, latitude: lat)
            let m = WebMercator.metresPerDegree(latitude: lat)
            let u = ((p.longitude - lon) * m.longitude, (p.latitude - lat) * m.latitude)
            let v = ((q.longitude - lon) * m.longitude, (q.latitude - lat) * m.latitude)
            let angle = abs(atan2(u.0 * v.1 - u.1 * v.0, u.0 * v.0 + u.1 * v.1)) * 180 / .pi
            if angle < 1 { small += 1 }
        }
        // Independent bearings: an angle under 1° for 1 location in 180, not for all of them.
        #expect(Double(small) / Double(n) < 0.02, "\(small) of \(n) locations on one ray")
    }

    @Test func differencingAttackNeverLandsNearATruePosition() throws {
        let s = PinIndexInvariantTests.scenario
        let index = PinIndexInvariantTests.index
        let rowOf = s.rowOfID
        var attacks = 0
        for z in 0...PinOptions.maxZoom {
            for parent in try index.pins(zoom: Double(z)) where parent.kind == .cluster {
                let kids = try index.children(of: parent.id)
                for lone in kids where lone.sameLocation {
                    // In Web Mercator, where the published centroids are exact means (the
                    // strongest form of the attack).
                    func y(_ lat: Double) -> Double { let s = sin(lat * .pi / 180); return 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi }
                    var x = Double(parent.count) * parent.longitude, my = Double(parent.count) * y(parent.latitude)
                    for k in kids where k.id != lone.id { x -= Double(k.count) * k.longitude; my -= Double(k.count) * y(k.latitude) }
                    x /= Double(lone.count); my /= Double(lone.count)
                    let lon = x, lat = 360 * atan(exp((180 - my * 360) * .pi / 180)) / .pi - 90
                    // The smallest-id listing of the location is where it truly is.
                    let leaf = index.allLeaves(lone.id).min { $0.id < $1.id }!
                    let i = rowOf[leaf.id]!
                    #expect(localMetres(s.lons[i], s.lats[i], lon, lat) >= 29.99)
                    attacks += 1
                }
            }
        }
        #expect(attacks > 100)
    }

    @Test func noTrueCoordinateIsStoredOrPublished() throws {
        let s = PinIndexInvariantTests.scenario
        let index = PinIndexInvariantTests.index
        let truth = Set(s.lons).union(s.lats)
        // Every Double the index stores, however deep.
        var stored = 0
        func walk(_ value: Any) {
            if let d = value as? Double { stored += 1; #expect(!truth.contains(d)); return }
            if let a = value as? [Double] { stored += a.count; #expect(a.allSatisfy { !truth.contains($0) }); return }
            for child in Mirror(reflecting: value).children { walk(child.value) }
        }
        walk(index)
        #expect(stored > 10 * s.count)
        // Everything published.
        for z in 0...PinOptions.maxZoom {
            for pin in try index.pins(zoom: Double(z)) {
                let values = [pin.longitude, pin.latitude, pin.bbox.minLongitude, pin.bbox.maxLongitude, pin.bbox.minLatitude, pin.bbox.maxLatitude]
                #expect(values.allSatisfy { !truth.contains($0) })
            }
        }
        for leaf in index.allLeaves(try index.pins(zoom: 0)[0].id) {
            #expect(!truth.contains(leaf.longitude) && !truth.contains(leaf.latitude))
        }
        // Errors do not echo coordinates.
        var bad = PinListings()
        bad.append(id: 1, longitude: 127.123456, latitude: 88.5)
        do {
            _ = try PinIndex(listings: bad, options: PinOptions(privacy: .disabled))
            Issue.record("a latitude beyond 85° must be rejected")
        } catch {
            #expect(!error.description.contains("88.5") && !error.description.contains("127.12"))
        }
    }
}
