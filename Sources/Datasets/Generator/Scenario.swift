/// The generated estate scenarios. Each is a small model (clusters with centres, spreads and
/// exact sizes) drawn from the seed first, then streamed point by point; see
/// ``ScenarioModel`` for the shapes and ``CategoryProfile`` for the attributes.
///
/// Shares below are of the requested count, apportioned exactly (largest remainders).
public enum Scenario: String, CaseIterable, Sendable {
    /// Listings around Seoul: 55% apartments in complexes (Gaussian blobs, σ log-uniform in
    /// 30–400 m, sizes Pareto-distributed with shape 1.2), 15% officetels in strips along
    /// straight roads (0.5–2.5 km, 20–50 m jitter across the road), 30% villas, one-rooms,
    /// two-rooms and stores scattered uniformly (truth −1). Several units share each
    /// building's exact coordinates.
    case seoul
    /// Clusters whose densities differ by 100×: groups of four equal-sized clusters around
    /// Seoul, a dense pair (σ 40 m, centres 320 m apart), a medium one (σ 126.5 m) and a
    /// sparse one (σ 400 m); 10% uniform background. A DBSCAN radius that holds the sparse
    /// clusters together merges each dense pair, and one that splits the pair leaves the
    /// sparse clusters as noise; HDBSCAN separates all four. One unit per building.
    case varyingDensity = "varying-density"
    /// Long thin clusters: straight strips 2–6 km long with 15–40 m jitter across, sizes in
    /// proportion to length; 10% uniform background. One unit per building.
    case strips
    /// No structure: every point uniform over the Seoul box, truth −1, one unit per building.
    case uniform
    /// Most points coincide with others: 90% in blobs (σ log-uniform in 50–300 m) of
    /// buildings holding 4–16 units each at one coordinate; 10% single-unit background.
    case duplicates
    /// The `seoul` recipe in Busan, whose extent is a coastline-shaped polygon and whose
    /// price level is 0.55 of Seoul's, so nothing is Seoul-only.
    case busan

    /// The area the scenario's points lie in.
    public var extent: CityExtent {
        self == .busan ? .busan : .seoul
    }

    /// The first of the scenario's two RNG streams (model, then points): 2 × its position
    /// in `allCases`, so one seed gives unrelated sequences in different scenarios.
    var streamBase: UInt64 {
        UInt64(Self.allCases.firstIndex(of: self)!) * 2
    }

    /// The projected CRS of the generated x,y columns: Korea 2000 / Unified CS (metres).
    public static let projectedCRS = "EPSG:5179"
}
