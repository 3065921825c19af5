import ListingVocabulary

/// Metres per degree of longitude and of latitude at one latitude on the WGS 84 ellipsoid:
/// the parallel's radius N·cos φ and the meridian's radius of curvature M, times π/180.
/// Computed with ``DeterministicMath/cos(_:)`` and IEEE square roots, so the same bits
/// everywhere.
public struct DegreeScale: Sendable, Equatable {
    public var lon: Double
    public var lat: Double

    /// The scale at `latitude` degrees (|latitude| ≤ 90).
    public init(latitude: Double) {
        let a = 6_378_137.0, f = 1 / 298.257223563
        let e2 = f * (2 - f)
        let c = DeterministicMath.cos(latitude * .pi / 180)
        let w = 1 - e2 * (1 - c * c)  // 1 − e² sin² φ
        let n = a / w.squareRoot()
        lon = n * c * .pi / 180
        lat = a * (1 - e2) / (w * w.squareRoot()) * .pi / 180
    }

    /// Longitude wrapped into [−180, 180) (`lon` within one turn of that range).
    static func wrap(_ lon: Double) -> Double {
        if lon >= 180 { return lon - 360 }
        if lon < -180 { return lon + 360 }
        return lon
    }

    /// Metres between two points on the local plane at their mean latitude, the longitude
    /// difference taken the short way round: within 1% of the great-circle distance up to a
    /// few hundred kilometres away from the poles, which is all the placement needs.
    static func planeDistance(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> Double {
        let s = DegreeScale(latitude: (a.lat + b.lat) / 2)
        let dx = wrap(b.lon - a.lon) * s.lon, dy = (b.lat - a.lat) * s.lat
        return (dx * dx + dy * dy).squareRoot()
    }
}

extension ScenarioModel {
    /// The `world` scenario's clusters, in truth order, and its background count (see
    /// ``Scenario/world`` for the recipe).
    static func worldComponents(count: Int, rng: inout SplitMix64) -> (clusters: [ScenarioComponent], background: Int) {
        let shares = apportion([0.60, 0.07, 0.18, 0.15], total: count)
        let metros = WorldPlaces.metros, places = WorldPlaces.settlements
        var clusters: [ScenarioComponent] = []
        var placer = WorldPlacer()
        let metroSizes = apportion(metros.map(\.population), total: shares[0])
        for (m, size) in zip(metros, metroSizes) {
            let sigma = Self.metroSigma(population: m.population)
            clusters.append(.world(m, sigma: sigma, size, .apartment, level: m.priceLevel))
            placer.add((m.lon, m.lat), radius: 3 * sigma)
        }
        let placeSizes = apportion([Double](repeating: 1, count: places.count), total: shares[1])
        for (p, size) in zip(places, placeSizes) {
            clusters.append(.world(p, sigma: p.sigma, size, nil, level: p.priceLevel))
            placer.add((p.lon, p.lat), radius: 3 * p.sigma)
        }
        let k = shares[2] == 0 ? 0 : min(max(Int((Double(shares[2]) / 100).rounded()), 1), 2000)
        // Pareto weights capped at 20× the smallest, so no town outgrows the smaller metros.
        let weights = (0..<k).map { _ in min(rng.nextPareto(alpha: 1.2), 20) }
        let sizes = apportion(weights, total: shares[2])
        let totalPopulation = metros.reduce(0) { $0 + $1.population }
        for i in 0..<k {
            let sigma = rng.nextLogUniform(500, 3000)
            var pick = rng.nextDouble() * totalPopulation, m = 0
            while m < metros.count - 1 && pick >= metros[m].population { pick -= metros[m].population; m += 1 }
            let metro = metros[m]
            let centre = placer.placeTown(around: metro, metroRadius: 3 * metroSigma(population: metro.population),
                                          radius: 3 * sigma, rng: &rng)
            let town = WorldPlaces.Place(name: "town near \(metro.name)", lon: centre.lon, lat: centre.lat,
                                         population: 0, priceLevel: 0.6 * metro.priceLevel)
            clusters.append(.world(town, sigma: sigma, sizes[i], nil, level: town.priceLevel))
        }
        return (clusters, shares[3])
    }

    /// A metro's spread: 5 km × √(millions of people), within 2–30 km.
    static func metroSigma(population: Double) -> Double {
        min(max(5000 * population.squareRoot(), 2000), 30_000)
    }
}

extension ScenarioComponent {
    /// A blob of the world scenario around `place`.
    static func world(_ place: WorldPlaces.Place, sigma: Double, _ count: Int, _ category: ListingCategory?,
                      level: Double) -> ScenarioComponent {
        ScenarioComponent(truth: 0, count: count, centreLon: place.lon, centreLat: place.lat, shape: .blob(sigma: sigma),
                          category: category, unitsPerBuilding: nil, scale: DegreeScale(latitude: place.lat),
                          priceLevel: level)
    }

    /// The world scenario's background: uniform over the land boxes, one unit per building,
    /// price level 0.3 everywhere.
    static let worldBackground = ScenarioComponent(
        truth: -1, count: 0, centreLon: 0, centreLat: 0, shape: .land, category: nil, unitsPerBuilding: 1...1,
        scale: DegreeScale(latitude: 0), priceLevel: 0.3)

    /// The price level of a building of this world component at (lon, lat): the component's
    /// level × (0.8 + e^(−d²/2w²)), d the distance from its centre and w twice its σ (so 1.8×
    /// at the centre, 0.8× far out, as Seoul's level runs); the background's level is flat.
    func worldPriceLevel(lon: Double, lat: Double) -> Double {
        let base = priceLevel ?? 1
        guard case .blob(let sigma) = shape, let s = scale else { return base }
        let dx = DegreeScale.wrap(lon - centreLon) * s.lon, dy = (lat - centreLat) * s.lat
        let w = 2 * sigma
        return base * (0.8 + DeterministicMath.exp(-(dx * dx + dy * dy) / (2 * w * w)))
    }
}

extension WorldPlaces {
    /// A point uniform on the sphere over the land boxes: a box with probability in
    /// proportion to its area (Δlon · (sin φ₂ − sin φ₁)), then a longitude uniform in it and a
    /// latitude uniform, kept with probability cos φ / (the box's largest cos φ); rounded to
    /// 1e-6°.
    static func landPoint(_ rng: inout SplitMix64) -> (Double, Double) {
        var pick = rng.nextDouble() * landAreaTotal, k = 0
        while k < land.count - 1 && pick >= landAreas[k] { pick -= landAreas[k]; k += 1 }
        let b = land[k]
        let top = DeterministicMath.cos(minAbsLatitude(b) * .pi / 180)
        while true {
            let lon = rng.nextDouble(in: b.minLongitude, b.maxLongitude)
            let lat = rng.nextDouble(in: b.minLatitude, b.maxLatitude)
            if rng.nextDouble() * top <= DeterministicMath.cos(lat * .pi / 180) {
                return (ListingGenerator.round6(lon), ListingGenerator.round6(lat))
            }
        }
    }

    /// Each land box's area on the unit sphere (radians² of solid angle).
    static let landAreas: [Double] = land.map { b in
        (b.maxLongitude - b.minLongitude) * .pi / 180
            * (DeterministicMath.sin(b.maxLatitude * .pi / 180) - DeterministicMath.sin(b.minLatitude * .pi / 180))
    }
    static let landAreaTotal = landAreas.reduce(0, +)

    /// The latitude of the box nearest the equator.
    private static func minAbsLatitude(_ b: BoundingBox) -> Double {
        b.minLatitude <= 0 && b.maxLatitude >= 0 ? 0 : min(abs(b.minLatitude), abs(b.maxLatitude))
    }

    /// Whether a point lies in one of the land boxes.
    static func onLand(lon: Double, lat: Double) -> Bool {
        land.contains { $0.contains(longitude: lon, latitude: lat) }
    }
}

/// Places the world scenario's towns: discs (3σ) kept at least 5 km apart and on land where
/// 60 tries allow.
struct WorldPlacer {
    private var discs: [(lon: Double, lat: Double, r: Double)] = []
    static let tries = 60
    static let gap = 5000.0

    mutating func add(_ centre: (lon: Double, lat: Double), radius: Double) {
        discs.append((centre.lon, centre.lat, radius))
    }

    /// A town centre around `metro`: beyond the metro's disc by 10–200 km (log-uniform), in a
    /// uniformly random direction. The first candidate on land and `gap` from every disc is
    /// taken; after 60 tries the one with the widest gap (on land if any was).
    mutating func placeTown(around metro: WorldPlaces.Place, metroRadius: Double, radius: Double,
                            rng: inout SplitMix64) -> (lon: Double, lat: Double) {
        let scale = DegreeScale(latitude: metro.lat)
        var best: (lon: Double, lat: Double, land: Bool, gap: Double)?
        for _ in 0..<Self.tries {
            let distance = metroRadius + rng.nextLogUniform(10_000, 200_000)
            let (dx, dy) = ScenarioModel.direction(&rng)
            let lat = min(max(metro.lat + distance * dy / scale.lat, -89), 89)
            let c = (lon: DegreeScale.wrap(metro.lon + distance * dx / scale.lon), lat: lat)
            let land = WorldPlaces.onLand(lon: c.lon, lat: c.lat)
            var nearest = Double.infinity
            for d in discs { nearest = min(nearest, DegreeScale.planeDistance((d.lon, d.lat), c) - d.r - radius) }
            if land && nearest >= Self.gap { best = (c.lon, c.lat, true, nearest); break }
            if let b = best, b.land && !land || (b.land == land && b.gap >= nearest) { continue }
            best = (c.lon, c.lat, land, nearest)
        }
        let p = best!
        discs.append((p.lon, p.lat, radius))
        return (p.lon, p.lat)
    }
}
