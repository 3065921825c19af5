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
    /// Settlements on every continent, with truth labels: 60% in 43 metropolitan areas
    /// (Tokyo, Delhi, Shanghai, São Paulo, Mexico City, Cairo, New York, Lagos, London, …;
    /// Gaussian blobs with σ = 5 km × √(millions of people) within 2–30 km, sizes in
    /// proportion to population, apartments), 7% in 24 remote settlements of equal size
    /// (σ 0.5–3 km: Fiji across ±180° with Suva, Labasa, Taveuni on the line and the Lau
    /// islands; Samoa, Tonga and other Pacific islands; Svalbard, Tromsø, Nuuk, Ushuaia,
    /// McMurdo …), 18% in towns (σ log-uniform in 0.5–3 km) placed 10–200 km beyond a metro
    /// drawn by population, on land where they can be, and 15% background uniform over
    /// land-ish boxes on every continent (truth −1). Spreads are metres, converted to
    /// degrees at each centre's latitude (WGS 84), and longitudes are wrapped into
    /// [−180, 180), so a cluster on the antimeridian straddles it. No projected x,y: see
    /// ``writesProjectedXY``.
    case world

    /// The area the scenario's points lie in.
    public var extent: CityExtent {
        switch self {
        case .busan: return .busan
        case .world: return .world
        default: return .seoul
        }
    }

    /// Whether the generated files carry `x`,`y` in ``projectedCRS``: every scenario but
    /// `world`, for which no planar CRS keeps ground distances anywhere on the globe (and
    /// any would cut the clusters on the antimeridian). Without x,y the readers take
    /// latitude/longitude, as for any file without planar columns.
    public var writesProjectedXY: Bool { self != .world }

    /// The first of the scenario's two RNG streams (model, then points): 2 × its position
    /// in `allCases`, so one seed gives unrelated sequences in different scenarios.
    var streamBase: UInt64 {
        UInt64(Self.allCases.firstIndex(of: self)!) * 2
    }

    /// The projected CRS of the generated x,y columns: Korea 2000 / Unified CS (metres); see
    /// ``writesProjectedXY``.
    public static let projectedCRS = "EPSG:5179"
}
