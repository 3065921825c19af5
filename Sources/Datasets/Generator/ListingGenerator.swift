import Geo
import ListingVocabulary

/// Generated listings as a struct of arrays: one entry per listing in each array.
public struct ListingChunk: Sendable, Equatable {
    /// 0-based listing ids (positions in the full generated sequence; a filtered chunk keeps
    /// the ids of the listings it kept).
    public var ids: [Int] = []
    /// Degrees (WGS 84), already rounded to 1e-6° (about 0.1 m), the precision written.
    public var lon: [Double] = []
    public var lat: [Double] = []
    /// Metres in ``Scenario/projectedCRS`` (EPSG:5179); empty until ``project(with:)`` (and
    /// for the `world` scenario, which has none).
    public var x: [Double] = []
    public var y: [Double] = []
    /// Cluster label, −1 for background.
    public var truth: [Int32] = []
    public var category: [ListingCategory] = []
    /// m², rounded to 0.01.
    public var area: [Double] = []
    /// Units of 10,000 KRW.
    public var deposit: [Int] = []
    /// Units of 10,000 KRW a month; 0 for jeonse.
    public var rent: [Int] = []
    /// −1 for a basement.
    public var floor: [Int] = []
    public var buildingID: [Int] = []

    /// An empty chunk.
    public init() {}

    /// Number of listings.
    public var count: Int { ids.count }

    /// Fills `x`, `y` by projecting `lon`, `lat` (one `proj_trans_generic` call).
    public mutating func project(with projection: Projection) throws(GeoError) {
        (x, y) = try projection.forward(lon: lon, lat: lat)
    }

    /// The listings where `mask` is true, in order.
    /// - Precondition: `mask.count == count`.
    public func keeping(_ mask: [Bool]) -> ListingChunk {
        precondition(mask.count == count, "one mask entry per listing")
        var out = ListingChunk()
        let projected = !x.isEmpty
        for i in 0..<count where mask[i] {
            out.ids.append(ids[i]); out.lon.append(lon[i]); out.lat.append(lat[i])
            if projected { out.x.append(x[i]); out.y.append(y[i]) }
            out.truth.append(truth[i]); out.category.append(category[i]); out.area.append(area[i])
            out.deposit.append(deposit[i]); out.rent.append(rent[i]); out.floor.append(floor[i])
            out.buildingID.append(buildingID[i])
        }
        return out
    }

    /// Appends all of `other`.
    public mutating func append(_ other: ListingChunk) {
        ids += other.ids; lon += other.lon; lat += other.lat; x += other.x; y += other.y
        truth += other.truth; category += other.category; area += other.area
        deposit += other.deposit; rent += other.rent; floor += other.floor; buildingID += other.buildingID
    }
}

/// Streams the listings of a ``ScenarioModel``, chunk by chunk, in a random interleaved
/// order, with memory O(clusters + chunk) whatever the count.
///
/// Each listing comes from a component drawn with probability proportional to the points
/// it still has to give (a Fenwick tree over the remaining counts, so the counts are met
/// exactly and the file is not sorted by cluster). Each component has a current building:
/// a position drawn from its shape (redrawn until it lies in the extent after rounding to
/// 1e-6°), a category, a number of floors and a number of units; successive listings of
/// the component are the units of that building until it is used up.
///
/// Deterministic: all randomness comes from the scenario's point stream of `SplitMix64` through
/// ``DeterministicMath``, and positions are rounded before anything else sees them, so the
/// listings are the same bits on every platform. The x,y projection (PROJ) is the only step
/// that uses the C library's maths; the files round it to 0.01 m.
public struct ListingGenerator: Sendable {
    /// The model the listings are drawn from.
    public let model: ScenarioModel
    /// Listings not yet generated.
    public private(set) var remaining: Int
    private var rng: SplitMix64
    private var sampler: FenwickSampler
    private var buildings: [Building]
    private var nextID = 0
    private var nextBuildingID = 0
    private let profiles = ListingCategory.allCases.map(CategoryProfile.of)

    private struct Building: Sendable {
        var lon = 0.0, lat = 0.0
        var left = 0
        var category = ListingCategory.villa
        var floors = 1
        var level = 1.0
        var id = 0
    }

    /// A generator at the first listing of `model`.
    /// - Complexity: O(K) for K components.
    public init(model: ScenarioModel) {
        self.model = model
        remaining = model.count
        rng = SplitMix64(seed: model.seed, stream: model.scenario.streamBase + 1)
        sampler = FenwickSampler(counts: model.components.map(\.count))
        buildings = [Building](repeating: Building(), count: model.components.count)
    }

    /// The next at most `maxCount` listings (x,y not yet projected); nil when all are out.
    /// - Complexity: O(maxCount · log K) for K components.
    public mutating func next(maxCount: Int = 65_536) -> ListingChunk? {
        guard remaining > 0 else { return nil }
        let n = min(maxCount, remaining)
        var c = ListingChunk()
        c.ids.reserveCapacity(n); c.lon.reserveCapacity(n); c.lat.reserveCapacity(n)
        c.truth.reserveCapacity(n); c.category.reserveCapacity(n); c.area.reserveCapacity(n)
        c.deposit.reserveCapacity(n); c.rent.reserveCapacity(n); c.floor.reserveCapacity(n)
        c.buildingID.reserveCapacity(n)
        for _ in 0..<n {
            let k = sampler.take(rng.nextInt(below: sampler.total))
            if buildings[k].left == 0 { newBuilding(k) }
            buildings[k].left -= 1
            let b = buildings[k]
            let unit = profiles[Int(b.category.code)].unit(floors: b.floors, level: b.level, rng: &rng)
            c.ids.append(nextID); nextID += 1
            c.lon.append(b.lon); c.lat.append(b.lat)
            c.truth.append(model.components[k].truth)
            c.category.append(b.category)
            c.area.append(unit.area); c.deposit.append(unit.deposit); c.rent.append(unit.rent)
            c.floor.append(unit.floor); c.buildingID.append(b.id)
        }
        remaining -= n
        return c
    }

    /// Starts the next building of component `k`.
    private mutating func newBuilding(_ k: Int) {
        let comp = model.components[k]
        var b = Building()
        if let category = comp.category {
            b.category = category
        } else {
            let u = rng.nextDouble()
            var acc = 0.0
            b.category = CategoryProfile.backgroundMix.last!.0
            for (category, share) in CategoryProfile.backgroundMix {
                acc += share
                if u < acc { b.category = category; break }
            }
        }
        let profile = profiles[Int(b.category.code)]
        b.left = rng.nextInt(in: comp.unitsPerBuilding ?? profile.unitsPerBuilding)
        b.floors = rng.nextInt(in: profile.floors)
        (b.lon, b.lat) = position(comp)
        b.level = comp.priceLevel != nil ? comp.worldPriceLevel(lon: b.lon, lat: b.lat)
            : model.extent.priceLevel(lon: b.lon, lat: b.lat)
        b.id = nextBuildingID
        nextBuildingID += 1
        buildings[k] = b
    }

    /// A building position of `comp`, rounded to 1e-6° and inside the extent.
    private mutating func position(_ comp: ScenarioComponent) -> (Double, Double) {
        if let scale = comp.scale { return worldPosition(comp, scale) }
        let e = model.extent
        for _ in 0..<1000 {
            var lon: Double, lat: Double
            switch comp.shape {
            case .blob(let sigma):
                lon = comp.centreLon + sigma * rng.nextNormal() / e.metresPerDegreeLon
                lat = comp.centreLat + sigma * rng.nextNormal() / e.metresPerDegreeLat
            case let .strip(length, dx, dy, jitter):
                let along = length * (rng.nextDouble() - 0.5), across = jitter * rng.nextNormal()
                lon = comp.centreLon + (along * dx - across * dy) / e.metresPerDegreeLon
                lat = comp.centreLat + (along * dy + across * dx) / e.metresPerDegreeLat
            case .uniform, .land:
                lon = rng.nextDouble(in: e.box.minLongitude, e.box.maxLongitude)
                lat = rng.nextDouble(in: e.box.minLatitude, e.box.maxLatitude)
            }
            lon = Self.round6(lon); lat = Self.round6(lat)
            if e.contains(lon: lon, lat: lat) { return (lon, lat) }
        }
        // Practically unreachable (a component centre lies in the extent by construction).
        return (Self.round6(comp.centreLon), Self.round6(comp.centreLat))
    }

    /// A building position of a `world` component: metres converted to degrees with the
    /// component's own scale, rounded to 1e-6°, the longitude wrapped into [−180, 180) after
    /// rounding (so 179.9999996 becomes −180), redrawn in the rare case a latitude passes a pole.
    private mutating func worldPosition(_ comp: ScenarioComponent, _ scale: DegreeScale) -> (Double, Double) {
        while true {
            var east = 0.0, north = 0.0
            switch comp.shape {
            case .blob(let sigma):
                east = sigma * rng.nextNormal()
                north = sigma * rng.nextNormal()
            case let .strip(length, dx, dy, jitter):
                let along = length * (rng.nextDouble() - 0.5), across = jitter * rng.nextNormal()
                east = along * dx - across * dy
                north = along * dy + across * dx
            case .uniform, .land:
                return WorldPlaces.landPoint(&rng)
            }
            let lon = DegreeScale.wrap(Self.round6(DegreeScale.wrap(comp.centreLon + east / scale.lon)))
            let lat = Self.round6(comp.centreLat + north / scale.lat)
            if abs(lat) <= 90 { return (lon, lat) }
        }
    }

    /// Rounds degrees to 6 decimals, the precision the files carry, so what is written is
    /// what was checked against the extent and projected.
    @inline(__always)
    static func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
}

/// Draws items without replacement in proportion to their remaining counts (a Fenwick, or
/// binary indexed, tree of counts).
struct FenwickSampler: Sendable {
    private var tree: [Int]
    /// Sum of the remaining counts.
    private(set) var total: Int

    init(counts: [Int]) {
        tree = [0] + counts
        total = counts.reduce(0, +)
        let n = counts.count
        if n > 0 {
            for i in 1...n {
                let parent = i + (i & -i)
                if parent <= n { tree[parent] += tree[i] }
            }
        }
    }

    /// The item holding the `r`-th remaining unit (0 ≤ r < total), whose count is then
    /// decreased by one.
    /// - Complexity: O(log n).
    mutating func take(_ r: Int) -> Int {
        let n = tree.count - 1
        var pos = 0, rest = r
        var step = 1
        while step * 2 <= n { step *= 2 }
        while step > 0 {
            if pos + step <= n && tree[pos + step] <= rest {
                pos += step
                rest -= tree[pos]
            }
            step /= 2
        }
        var i = pos + 1
        while i <= n { tree[i] -= 1; i += i & -i }
        total -= 1
        return pos
    }
}
