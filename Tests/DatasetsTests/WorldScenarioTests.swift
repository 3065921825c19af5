import Foundation
import Testing
@testable import Datasets
import struct TestSupport.TemporaryFolder
import func TestSupport.withTemporaryFolder

/// Degrees between two longitudes the short way round, in [0, 180].
private func lonGap(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
}

/// Metres between two nearby points, from Foundation's trigonometry (haversine on the mean
/// Earth radius): an oracle independent of the generator's own maths.
private func haversine(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
    let r = 6_371_008.8, rad = Double.pi / 180
    let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
    let h = Foundation.sin(dLat / 2) * Foundation.sin(dLat / 2)
        + Foundation.cos(lat1 * rad) * Foundation.cos(lat2 * rad) * Foundation.sin(dLon / 2) * Foundation.sin(dLon / 2)
    return 2 * r * Foundation.asin(h.squareRoot())
}

/// The centre of some points: the mean latitude and the circular mean longitude.
private func centre(_ c: ListingChunk, _ rows: [Int]) -> (lon: Double, lat: Double) {
    var s = 0.0, co = 0.0, lat = 0.0
    for r in rows {
        s += Foundation.sin(c.lon[r] * .pi / 180); co += Foundation.cos(c.lon[r] * .pi / 180); lat += c.lat[r]
    }
    return (Foundation.atan2(s, co) * 180 / .pi, lat / Double(rows.count))
}

@Suite("Generator: deterministic sine and cosine")
struct DeterministicTrigTests {
    private func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        let x = Int64(bitPattern: a.bitPattern), y = Int64(bitPattern: b.bitPattern)
        return x > y ? UInt64(x - y) : UInt64(y - x)
    }

    @Test("cos and sin are within 1 ulp of the C library on [-π/2, π/2], odd and even as they should be")
    func againstLibm() {
        var g = Datasets.SplitMix64(seed: 21)
        var worstCos: UInt64 = 0, worstSin: UInt64 = 0
        var samples = (0..<200_000).map { _ in g.nextDouble(in: -Double.pi / 2, Double.pi / 2) }
        samples += [0, .pi / 4, -.pi / 4, .pi / 2, -.pi / 2, 0.3, 0.78125, 1e-9, -1e-300]
        samples += (-90...90).map { Double($0) * .pi / 180 }
        for x in samples {
            worstCos = max(worstCos, ulps(DeterministicMath.cos(x), Foundation.cos(x)))
            let s = DeterministicMath.sin(x)
            // Near 0 compare absolutely: sin(x) ≈ x to far below an ulp of the values nearby.
            if abs(x) > 1e-6 { worstSin = max(worstSin, ulps(s, Foundation.sin(x))) } else { #expect(abs(s - x) <= abs(x) * 1e-12) }
            #expect(DeterministicMath.sin(-x) == -s)
            #expect(DeterministicMath.cos(-x) == DeterministicMath.cos(x))
        }
        #expect(worstCos <= 1, "cos off by \(worstCos) ulp")
        #expect(worstSin <= 1, "sin off by \(worstSin) ulp")
        #expect(DeterministicMath.cos(0) == 1 && DeterministicMath.sin(0) == 0)
    }

    @Test("DegreeScale gives the WGS 84 metres per degree the city extents were written with")
    func degreeScale() {
        for city in [CityExtent.seoul, CityExtent.busan, CityExtent.world] {
            let s = DegreeScale(latitude: city.referenceLatitude)
            #expect(abs(s.lon - city.metresPerDegreeLon) < 0.01, "\(city.name) lon \(s.lon)")
            #expect(abs(s.lat - city.metresPerDegreeLat) < 0.01, "\(city.name) lat \(s.lat)")
        }
        // At the poles a degree of longitude is (next to) nothing.
        #expect(DegreeScale(latitude: 90).lon < 1e-6)
    }
}

@Suite("Generator: the world scenario")
struct WorldScenarioTests {
    @Test("the same seed gives the same bytes (CSV and GeoJSON), another seed other bytes; no x,y columns")
    func deterministic() throws {
        try withTemporaryFolder { folder in
            func write(_ name: String, seed: UInt64) throws -> Data {
                let model = ScenarioModel(scenario: .world, count: 30_000, seed: seed)
                _ = try GeneratedListings.write(model: model, to: folder.path(name), format: ListingFormat(path: name)!)
                return try folder.data(name)
            }
            let a = try write("a.csv", seed: 4), b = try write("b.csv", seed: 4), c = try write("c.csv", seed: 5)
            #expect(a == b)
            #expect(a != c)
            #expect(try write("a.geojson", seed: 4) == (try write("b.geojson", seed: 4)))
            let header = try #require(try folder.read("a.csv").split(separator: "\n").first)
            #expect(header == "id,lat,lon,truth,category,area_m2,deposit,monthly_rent,floor,building_id")
            #expect(!(try folder.read("a.geojson")).contains("\"x\":"))
        }
    }

    @Test("coordinates: latitudes within ±90, longitudes in [-180, 180), at the written precision")
    func ranges() throws {
        for seed: UInt64 in [1, 2, 3] {
            let (_, c) = try Generated.listings(.world, count: 50_000, seed: seed)
            #expect(c.x.isEmpty && c.y.isEmpty)
            for i in 0..<c.count {
                #expect(c.lat[i] >= -90 && c.lat[i] <= 90)
                #expect(c.lon[i] >= -180 && c.lon[i] < 180, "lon \(c.lon[i])")
                #expect(ListingGenerator.round6(c.lon[i]) == c.lon[i] && ListingGenerator.round6(c.lat[i]) == c.lat[i])
            }
        }
    }

    @Test("cluster sizes are as apportioned: metros in proportion to population, settlements equal, truth = component")
    func sizes() throws {
        let n = 100_000
        let (model, c) = try Generated.listings(.world, count: n)
        let byTruth = Generated.byTruth(c)
        for comp in model.components {
            #expect(byTruth[comp.truth]?.count ?? 0 == comp.count, "truth \(comp.truth)")
        }
        let metros = WorldPlaces.metros, total = metros.reduce(0) { $0 + $1.population }
        for (k, m) in metros.enumerated() {
            let expected = 0.6 * Double(n) * m.population / total
            #expect(abs(Double(model.components[k].count) - expected) < 1.01, "\(m.name)")
            #expect(model.components[k].centreLon == m.lon && model.components[k].centreLat == m.lat)
        }
        let settlements = model.components[metros.count..<(metros.count + WorldPlaces.settlements.count)]
        #expect(settlements.allSatisfy { abs(Double($0.count) - 0.07 * Double(n) / Double(WorldPlaces.settlements.count)) < 1.01 })
        #expect(model.backgroundCount == 15_000)
        #expect(model.components.map(\.count).reduce(0, +) == n)
    }

    @Test("every continent, Antarctica included, holds clusters")
    func continents() throws {
        let (_, c) = try Generated.listings(.world, count: 20_000)
        // Rough continent boxes (lon, lat ranges), drawn independently of the generator's.
        let boxes: [(String, ClosedRange<Double>, ClosedRange<Double>)] = [
            ("Europe", -25...45, 35...72), ("Asia", 45...180, 0...78), ("Africa", -20...52, -36...34),
            ("North America", -170 ... -50, 14...75), ("South America", -82 ... -34, -56...13),
            ("Oceania", 110...180, -48 ... -10), ("Antarctica", -180...180, -90 ... -60),
        ]
        var found = Set<String>()
        for (truth, rows) in Generated.byTruth(c) where truth >= 0 {
            let m = centre(c, rows)
            for (name, lon, lat) in boxes where lon.contains(m.lon) && lat.contains(m.lat) { found.insert(name) }
        }
        #expect(found == Set(boxes.map(\.0)))
    }

    @Test("a cluster on the antimeridian has points on both sides and stays a few kilometres across")
    func antimeridian() throws {
        let (_, c) = try Generated.listings(.world, count: 20_000)
        var straddling = 0
        for (truth, rows) in Generated.byTruth(c) where truth >= 0 {
            let east = rows.filter { c.lon[$0] > 179 }, west = rows.filter { c.lon[$0] < -179 }
            guard !east.isEmpty && !west.isEmpty else { continue }
            straddling += 1
            let m = centre(c, rows)
            #expect(lonGap(m.lon, 180) < 0.2, "centre \(m)")
            let far = rows.map { haversine(c.lon[$0], c.lat[$0], m.lon, m.lat) }.max()!
            #expect(far < 15_000, "cluster \(truth) reaches \(far) m from its centre")
        }
        #expect(straddling >= 1)
    }

    @Test("spreads are metres on the ground at every latitude (the cos φ factor), metros 2–30 km")
    func spreads() throws {
        let (model, c) = try Generated.listings(.world, count: 200_000)
        let byTruth = Generated.byTruth(c)
        for comp in model.components where comp.truth >= 0 && comp.count >= 400 {
            guard case .blob(let sigma) = comp.shape else { Issue.record("not a blob"); continue }
            let rows = byTruth[comp.truth]!
            // East-west and north-south RMS distances from the centre, by haversine.
            var ew = 0.0, ns = 0.0
            for r in rows {
                ew += pow(haversine(c.lon[r], comp.centreLat, comp.centreLon, comp.centreLat), 2)
                ns += pow(haversine(comp.centreLon, c.lat[r], comp.centreLon, comp.centreLat), 2)
            }
            ew = (ew / Double(rows.count)).squareRoot(); ns = (ns / Double(rows.count)).squareRoot()
            #expect(abs(ew / sigma - 1) < 0.2 && abs(ns / sigma - 1) < 0.2,
                    "truth \(comp.truth) at lat \(comp.centreLat): σ \(sigma), east-west \(ew), north-south \(ns)")
        }
        let metroSigmas = WorldPlaces.metros.map { ScenarioModel.metroSigma(population: $0.population) }
        #expect(metroSigmas.min()! >= 2000 && metroSigmas.max()! <= 30_000)
    }

    @Test("the background lies in the land boxes, spread evenly over their area on the sphere")
    func background() throws {
        let (_, c) = try Generated.listings(.world, count: 200_000)
        let rows = c.ids.indices.filter { c.truth[$0] < 0 }
        #expect(rows.allSatisfy { WorldPlaces.onLand(lon: c.lon[$0], lat: c.lat[$0]) })
        // The box over northern Asia, 38–68°N: its two halves by latitude hold points in the
        // ratio of their areas, (sin 53° − sin 38°) : (sin 68° − sin 53°) ≈ 1.42 (between 60°E
        // and 120°E, where no other box overlaps it).
        let box = WorldPlaces.land[11]
        #expect(box.minLatitude == 38 && box.maxLatitude == 68)
        let inBox = rows.filter { box.contains(longitude: c.lon[$0], latitude: c.lat[$0]) && c.lon[$0] > 60 && c.lon[$0] < 120 }
        let south = Double(inBox.filter { c.lat[$0] < 53 }.count), north = Double(inBox.count) - south
        let rad = Double.pi / 180
        let expected = (Foundation.sin(53 * rad) - Foundation.sin(38 * rad)) / (Foundation.sin(68 * rad) - Foundation.sin(53 * rad))
        #expect(inBox.count > 2000)
        #expect(abs(south / north / expected - 1) < 0.12, "ratio \(south / north), expected \(expected)")
    }

    @Test("towns lie beyond their metro's disc and apart from every other cluster where 60 tries allow")
    func towns() throws {
        let (model, _) = try Generated.listings(.world, count: 300_000)
        let clusters = model.components.filter { $0.truth >= 0 }
        let fixed = WorldPlaces.metros.count + WorldPlaces.settlements.count
        func radius(_ c: ScenarioComponent) -> Double { if case .blob(let s) = c.shape { 3 * s } else { 0 } }
        var crowded = 0
        for (i, t) in clusters.enumerated().dropFirst(fixed) {
            let gap = clusters.indices.filter { $0 != i }.map {
                haversine(t.centreLon, t.centreLat, clusters[$0].centreLon, clusters[$0].centreLat) - radius(t) - radius(clusters[$0])
            }.min()!
            if gap < 4000 { crowded += 1 }
        }
        #expect(clusters.count - fixed == 540)
        #expect(crowded <= (clusters.count - fixed) / 20, "\(crowded) towns within 4 km of another cluster")
    }
}
