import ListingVocabulary

/// One cluster, or the background, of a scenario model.
public struct ScenarioComponent: Sendable, Equatable {
    /// How the component's buildings are spread around its centre.
    public enum Shape: Sendable, Equatable {
        /// An isotropic Gaussian, `sigma` metres along each axis.
        case blob(sigma: Double)
        /// Uniform along a straight segment of `length` metres through the centre in the
        /// unit direction (`dx` east, `dy` north), with Gaussian jitter of `jitter` metres
        /// across it.
        case strip(length: Double, dx: Double, dy: Double, jitter: Double)
        /// Uniform over the scenario's extent.
        case uniform
        /// Uniform on the sphere over the `world` scenario's land boxes.
        case land
    }

    /// The cluster label, 0-based; −1 for the background.
    public var truth: Int32
    /// Exact number of points.
    public var count: Int
    /// Centre in degrees (for the background, the middle of the extent's box).
    public var centreLon: Double
    public var centreLat: Double
    public var shape: Shape
    /// The category of every unit, or nil for the background mix
    /// (``CategoryProfile/backgroundMix``, drawn per building).
    public var category: ListingCategory?
    /// Units per building, or nil for the category's own range.
    public var unitsPerBuilding: ClosedRange<Int>?
    /// Metres per degree at the centre, for a component of the `world` scenario, whose
    /// positions wrap at ±180°; nil: the extent's local plane.
    public var scale: DegreeScale? = nil
    /// The component's own price level (`world`; see `worldPriceLevel`); nil: the extent's.
    public var priceLevel: Double? = nil
}

/// A scenario's clusters and background with their exact sizes: the small model drawn from
/// the seed before any point is generated. The model uses `SplitMix64(seed:stream:)` with
/// stream 2s, the points stream 2s + 1, where s is the scenario's position in
/// `Scenario.allCases` (seoul 0 … busan 5, world 6), so one seed gives unrelated scenarios.
///
/// Counts per scenario for a requested count N (shares apportioned by largest remainders,
/// cluster counts clamped to the ranges given):
/// - `seoul`, `busan`: complexes `round(0.55N / 150)` in 1…1500, officetel strips
///   `round(0.15N / 120)` in 1…400, background 0.30N;
/// - `varying-density`: `round(0.9N / 1600)` groups of four in 1…250, background 0.1N;
/// - `strips`: `round(0.9N / 400)` strips in 1…300, background 0.1N;
/// - `duplicates`: `round(0.9N / 300)` blobs in 1…1000, background 0.1N;
/// - `uniform`: background only;
/// - `world`: the metros of ``WorldPlaces`` 0.60N (apportioned by population), its remote
///   settlements 0.07N (equal shares), towns 0.18N in `round(0.18N / 100)` towns in 1…2000
///   (Pareto(1.2) weights capped at 20), background 0.15N.
///
/// Cluster sizes: Pareto weights (shape 1.2, capped at 100× the minimum) for complexes and
/// duplicate blobs, proportional to length for strips, equal for varying-density. A
/// component that gets no point is dropped, and truth labels number the rest 0, 1, … in
/// model order.
///
/// Placement: each cluster occupies a disc (3σ for blobs, half the length plus 3 jitters
/// for strips); centres are drawn uniformly in the extent with the disc inside it, and a
/// centre is accepted when its disc is at least 200 m (300 m for the synthetic scenarios)
/// from every earlier disc; after 60 tries the candidate with the widest gap is taken, so
/// crowded models (very large N) may overlap.
public struct ScenarioModel: Sendable {
    /// The scenario modelled.
    public let scenario: Scenario
    /// Points requested (and generated, exactly).
    public let count: Int
    /// The seed everything is drawn from.
    public let seed: UInt64
    /// Where the points lie: ``Scenario/extent``.
    public let extent: CityExtent
    /// Clusters first, in truth order, then the background (if it has points).
    public let components: [ScenarioComponent]

    /// Number of clusters (components with truth ≥ 0).
    public var clusterCount: Int { components.filter { $0.truth >= 0 }.count }
    /// Number of background points (truth −1).
    public var backgroundCount: Int { components.filter { $0.truth < 0 }.reduce(0) { $0 + $1.count } }

    /// Draws the model.
    /// - Precondition: `count >= 1`.
    /// - Complexity: O(K² · 60) for K clusters (placement), at most about 2,000 clusters.
    public init(scenario: Scenario, count: Int, seed: UInt64) {
        precondition(count >= 1, "a scenario needs at least one point")
        self.scenario = scenario
        self.count = count
        self.seed = seed
        extent = scenario.extent
        var rng = SplitMix64(seed: seed, stream: scenario.streamBase)
        var placer = Placer(extent: extent)
        var clusters: [ScenarioComponent] = []
        var background = 0
        var backgroundUnits: ClosedRange<Int>? = 1...1

        func component(_ centre: (lon: Double, lat: Double), _ shape: ScenarioComponent.Shape, _ n: Int,
                       _ category: ListingCategory?, _ units: ClosedRange<Int>?) -> ScenarioComponent {
            ScenarioComponent(truth: 0, count: n, centreLon: centre.lon, centreLat: centre.lat,
                              shape: shape, category: category, unitsPerBuilding: units)
        }
        func clusterCount(_ n: Int, per: Double, max upper: Int) -> Int {
            n == 0 ? 0 : min(max(Int((Double(n) / per).rounded()), 1), upper)
        }

        switch scenario {
        case .seoul, .busan:
            let shares = Self.apportion([0.55, 0.15, 0.30], total: count)
            let kA = clusterCount(shares[0], per: 150, max: 1500)
            let weights = (0..<kA).map { _ in min(rng.nextPareto(alpha: 1.2), 100) }
            let sizes = Self.apportion(weights, total: shares[0])
            for k in 0..<kA {
                let sigma = rng.nextLogUniform(30, 400)
                let centre = placer.place(radius: 3 * sigma, gap: 200, rng: &rng)
                clusters.append(component(centre, .blob(sigma: sigma), sizes[k], .apartment, nil))
            }
            let kO = clusterCount(shares[1], per: 120, max: 400)
            let lengths = (0..<kO).map { _ in rng.nextDouble(in: 500, 2500) }
            let stripSizes = Self.apportion(lengths, total: shares[1])
            for k in 0..<kO {
                let jitter = rng.nextDouble(in: 20, 50)
                let (dx, dy) = Self.direction(&rng)
                let centre = placer.place(radius: lengths[k] / 2 + 3 * jitter, gap: 200, rng: &rng)
                clusters.append(component(centre, .strip(length: lengths[k], dx: dx, dy: dy, jitter: jitter),
                                          stripSizes[k], .officetel, nil))
            }
            background = shares[2]
            backgroundUnits = nil
        case .varyingDensity:
            let shares = Self.apportion([0.9, 0.1], total: count)
            let groups = clusterCount(shares[0], per: 1600, max: 250)
            let sizes = Self.apportion([Double](repeating: 1, count: 4 * groups), total: shares[0])
            let dense = 40.0, medium = 40 * 10.0.squareRoot(), sparse = 400.0, pairOffset = 160.0
            for g in 0..<groups {
                let (dx, dy) = Self.direction(&rng)
                let pair = placer.place(radius: pairOffset + 3 * dense, gap: 300, rng: &rng)
                for side in [-1.0, 1.0] {
                    let c = extent.offset(pair, east: side * pairOffset * dx, north: side * pairOffset * dy)
                    clusters.append(component(c, .blob(sigma: dense), sizes[4 * g + (side < 0 ? 0 : 1)], .apartment, 1...1))
                }
                let m = placer.place(radius: 3 * medium, gap: 300, rng: &rng)
                clusters.append(component(m, .blob(sigma: medium), sizes[4 * g + 2], .apartment, 1...1))
                let s = placer.place(radius: 3 * sparse, gap: 300, rng: &rng)
                clusters.append(component(s, .blob(sigma: sparse), sizes[4 * g + 3], .apartment, 1...1))
            }
            background = shares[1]
        case .strips:
            let shares = Self.apportion([0.9, 0.1], total: count)
            let k = clusterCount(shares[0], per: 400, max: 300)
            let lengths = (0..<k).map { _ in rng.nextDouble(in: 2000, 6000) }
            let sizes = Self.apportion(lengths, total: shares[0])
            for i in 0..<k {
                let jitter = rng.nextDouble(in: 15, 40)
                let (dx, dy) = Self.direction(&rng)
                let centre = placer.place(radius: lengths[i] / 2 + 3 * jitter, gap: 300, rng: &rng)
                clusters.append(component(centre, .strip(length: lengths[i], dx: dx, dy: dy, jitter: jitter),
                                          sizes[i], .officetel, 1...1))
            }
            background = shares[1]
        case .uniform:
            background = count
        case .world:
            (clusters, background) = Self.worldComponents(count: count, rng: &rng)
        case .duplicates:
            let shares = Self.apportion([0.9, 0.1], total: count)
            let k = clusterCount(shares[0], per: 300, max: 1000)
            let weights = (0..<k).map { _ in min(rng.nextPareto(alpha: 1.2), 100) }
            let sizes = Self.apportion(weights, total: shares[0])
            for i in 0..<k {
                let sigma = rng.nextLogUniform(50, 300)
                let centre = placer.place(radius: 3 * sigma, gap: 300, rng: &rng)
                clusters.append(component(centre, .blob(sigma: sigma), sizes[i], .apartment, 4...16))
            }
            background = shares[1]
        }

        var all: [ScenarioComponent] = []
        for var c in clusters where c.count > 0 {
            c.truth = Int32(all.count)
            all.append(c)
        }
        if background > 0 && scenario == .world {
            var c = ScenarioComponent.worldBackground
            c.count = background
            all.append(c)
        } else if background > 0 {
            let centre = (lon: (extent.box.minLongitude + extent.box.maxLongitude) / 2, lat: (extent.box.minLatitude + extent.box.maxLatitude) / 2)
            all.append(ScenarioComponent(truth: -1, count: background, centreLon: centre.lon, centreLat: centre.lat,
                                         shape: .uniform, category: nil, unitsPerBuilding: backgroundUnits))
        }
        components = all
    }

    /// Splits `total` in proportion to `weights` (largest remainders, ties to the lower
    /// index): the parts sum to `total` exactly.
    /// - Complexity: O(k log k).
    public static func apportion(_ weights: [Double], total: Int) -> [Int] {
        guard !weights.isEmpty else { return [] }
        let sum = weights.reduce(0, +)
        var parts = [Int](repeating: 0, count: weights.count)
        var remainders: [(Double, Int)] = []
        var given = 0
        for (i, w) in weights.enumerated() {
            let quota = Double(total) * w / sum
            parts[i] = Int(quota.rounded(.down))
            given += parts[i]
            remainders.append((quota - Double(parts[i]), i))
        }
        remainders.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        for k in 0..<(total - given) { parts[remainders[k % remainders.count].1] += 1 }
        return parts
    }

    /// A uniformly random unit vector (east, north), by rejection from the unit disc: no
    /// trigonometry, so the same on every platform.
    static func direction(_ rng: inout SplitMix64) -> (Double, Double) {
        while true {
            let u = 2 * rng.nextDouble() - 1, v = 2 * rng.nextDouble() - 1
            let s = u * u + v * v
            if s > 1e-6 && s <= 1 {
                let r = s.squareRoot()
                return (u / r, v / r)
            }
        }
    }
}

extension CityExtent {
    /// The point `east`, `north` metres from `point` on the local plane.
    func offset(_ point: (lon: Double, lat: Double), east: Double, north: Double) -> (lon: Double, lat: Double) {
        (point.lon + east / metresPerDegreeLon, point.lat + north / metresPerDegreeLat)
    }
}

/// Places cluster discs in an extent, keeping them apart where it can.
struct Placer {
    let extent: CityExtent
    /// Placed discs on the local plane (metres east and north of the box's south-west corner).
    private var discs: [(x: Double, y: Double, r: Double)] = []
    static let tries = 60

    init(extent: CityExtent) { self.extent = extent }

    /// A centre for a disc of radius `radius` metres at least `gap` metres from the other
    /// discs; see ``ScenarioModel`` for the rule.
    mutating func place(radius: Double, gap: Double, rng: inout SplitMix64) -> (lon: Double, lat: Double) {
        let box = extent.box
        let width = (box.maxLongitude - box.minLongitude) * extent.metresPerDegreeLon
        let height = (box.maxLatitude - box.minLatitude) * extent.metresPerDegreeLat
        // Keep the disc inside the box when it fits.
        let mx = min(radius, width / 2), my = min(radius, height / 2)
        var best: (x: Double, y: Double)?
        var bestGap = -Double.infinity
        for _ in 0..<Self.tries {
            let x = rng.nextDouble(in: mx, width - mx), y = rng.nextDouble(in: my, height - my)
            guard fits(x, y, radius) else { continue }
            var nearest = Double.infinity
            for d in discs {
                let dx = d.x - x, dy = d.y - y
                nearest = min(nearest, (dx * dx + dy * dy).squareRoot() - d.r - radius)
            }
            if nearest >= gap { best = (x, y); break }
            if nearest > bestGap { bestGap = nearest; best = (x, y) }
        }
        if best == nil {
            // Nothing fits (a disc wider than the polygon allows): any centre inside will do.
            for _ in 0..<10_000 {
                let x = rng.nextDouble(in: 0, width), y = rng.nextDouble(in: 0, height)
                if contains(x, y) { best = (x, y); break }
            }
        }
        let p = best ?? (width / 2, height / 2)
        discs.append((p.x, p.y, radius))
        return (box.minLongitude + p.x / extent.metresPerDegreeLon, box.minLatitude + p.y / extent.metresPerDegreeLat)
    }

    private func contains(_ x: Double, _ y: Double) -> Bool {
        extent.contains(lon: extent.box.minLongitude + x / extent.metresPerDegreeLon,
                        lat: extent.box.minLatitude + y / extent.metresPerDegreeLat)
    }

    /// Whether the centre and eight points around the disc's rim are inside the extent.
    private func fits(_ x: Double, _ y: Double, _ r: Double) -> Bool {
        guard contains(x, y) else { return false }
        guard extent.polygon != nil else { return true }
        let h = r * 0.5.squareRoot()
        let rim: [(Double, Double)] = [(r, 0), (-r, 0), (0, r), (0, -r), (h, h), (h, -h), (-h, h), (-h, -h)]
        return rim.allSatisfy { contains(x + $0.0, y + $0.1) }
    }
}
