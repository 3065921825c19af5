import ListingVocabulary

/// The attribute distributions of generated listings, per category. Money is in units of
/// 10,000 KRW (만원), as Korean listing sites quote it; areas are exclusive floor areas in m².
///
/// For a unit of category c at price level L (``CityExtent/priceLevel(lon:lat:)``), with Z a
/// fresh standard normal each time:
/// - `area_m2` = clamp(areaMedian · e^(areaSigma·Z), areaMin, areaMax), to 0.01 m²;
/// - the lease is jeonse (전세) with probability `jeonseShare`, else monthly (월세);
/// - jeonse: `deposit` = jeonsePerM2 · area · L · e^(0.2·Z), to the nearest 100;
///   `monthly_rent` = 0;
/// - monthly: `deposit` = depositMedian · √L · e^(0.6·Z), to the nearest 50;
///   `monthly_rent` = max(1, rentPerM2 · area · L · e^(0.15·Z)), to the nearest 1.
/// So deposits are log-normal and rent rises in proportion to area and price level.
/// - `floor`: the building has floors drawn uniformly from `floors`; a unit is in the
///   basement (−1) with probability `basementShare`, otherwise on a floor uniform in
///   1…floors (stores: on the ground floor with probability 0.6, else on 2…floors).
/// - Units per building: uniform in `unitsPerBuilding` (all units of a building share its
///   coordinates and `building_id`).
public struct CategoryProfile: Sendable {
    public var category: ListingCategory
    /// Median floor area, m², and the log-normal's σ (of ln area).
    public var areaMedian: Double
    public var areaSigma: Double
    /// Areas are clamped to [areaMin, areaMax] m².
    public var areaMin: Double
    public var areaMax: Double
    /// Probability that a lease is jeonse (deposit only).
    public var jeonseShare: Double
    /// Jeonse deposit per m² at price level 1, units of 10,000 KRW.
    public var jeonsePerM2: Double
    /// Median deposit of a monthly lease at price level 1, units of 10,000 KRW.
    public var depositMedian: Double
    /// Monthly rent per m² at price level 1, units of 10,000 KRW.
    public var rentPerM2: Double
    /// Floors of a building of this category (uniform).
    public var floors: ClosedRange<Int>
    /// Probability that a unit is in the basement (floor −1).
    public var basementShare: Double
    /// Units listed per building (uniform).
    public var unitsPerBuilding: ClosedRange<Int>

    /// The profile of each category (Seoul levels; other cities scale by their base price
    /// level). Medians: apartment 84 m², jeonse ≈ 5.9억 at L = 1, monthly ≈ 160만원;
    /// officetel 28 m²; villa 55 m²; one-room 20 m²; two-room 40 m²; store 60 m².
    public static func of(_ c: ListingCategory) -> CategoryProfile {
        switch c {
        case .apartment:
            return CategoryProfile(category: c, areaMedian: 84, areaSigma: 0.25, areaMin: 25, areaMax: 250,
                                   jeonseShare: 0.55, jeonsePerM2: 700, depositMedian: 5000, rentPerM2: 1.9,
                                   floors: 5...35, basementShare: 0, unitsPerBuilding: 1...10)
        case .officetel:
            return CategoryProfile(category: c, areaMedian: 28, areaSigma: 0.35, areaMin: 15, areaMax: 120,
                                   jeonseShare: 0.25, jeonsePerM2: 650, depositMedian: 1000, rentPerM2: 2.6,
                                   floors: 8...25, basementShare: 0, unitsPerBuilding: 2...8)
        case .villa:
            return CategoryProfile(category: c, areaMedian: 55, areaSigma: 0.30, areaMin: 20, areaMax: 150,
                                   jeonseShare: 0.40, jeonsePerM2: 450, depositMedian: 1000, rentPerM2: 1.6,
                                   floors: 3...5, basementShare: 0.08, unitsPerBuilding: 1...4)
        case .oneRoom:
            return CategoryProfile(category: c, areaMedian: 20, areaSigma: 0.25, areaMin: 10, areaMax: 40,
                                   jeonseShare: 0.10, jeonsePerM2: 700, depositMedian: 500, rentPerM2: 3.0,
                                   floors: 3...6, basementShare: 0.10, unitsPerBuilding: 2...8)
        case .twoRoom:
            return CategoryProfile(category: c, areaMedian: 40, areaSigma: 0.25, areaMin: 25, areaMax: 70,
                                   jeonseShare: 0.30, jeonsePerM2: 550, depositMedian: 1000, rentPerM2: 2.0,
                                   floors: 3...5, basementShare: 0.08, unitsPerBuilding: 1...4)
        case .store:
            return CategoryProfile(category: c, areaMedian: 60, areaSigma: 0.70, areaMin: 10, areaMax: 1000,
                                   jeonseShare: 0, jeonsePerM2: 0, depositMedian: 3000, rentPerM2: 3.5,
                                   floors: 1...5, basementShare: 0.10, unitsPerBuilding: 1...3)
        }
    }

    /// Background buildings (truth −1) by category: villa 40%, one-room 30%, two-room 15%,
    /// store 15%.
    public static let backgroundMix: [(ListingCategory, Double)] = [
        (.villa, 0.40), (.oneRoom, 0.30), (.twoRoom, 0.15), (.store, 0.15),
    ]

    /// The attributes of one unit in a building with `buildingFloors` floors at price level
    /// `level`.
    func unit(floors buildingFloors: Int, level: Double, rng: inout SplitMix64)
        -> (area: Double, deposit: Int, rent: Int, floor: Int) {
        let rawArea = rng.nextLogNormal(median: areaMedian, sigma: areaSigma)
        let area = (min(max(rawArea, areaMin), areaMax) * 100).rounded() / 100
        var deposit = 0, rent = 0
        if rng.nextBool(probability: jeonseShare) {
            let d = jeonsePerM2 * area * level * DeterministicMath.exp(0.2 * rng.nextNormal())
            deposit = Int((d / 100).rounded()) * 100
        } else {
            let d = depositMedian * level.squareRoot() * DeterministicMath.exp(0.6 * rng.nextNormal())
            deposit = Int((d / 50).rounded()) * 50
            let r = rentPerM2 * area * level * DeterministicMath.exp(0.15 * rng.nextNormal())
            rent = max(1, Int(r.rounded()))
        }
        let floor: Int
        if category == .store {
            let u = rng.nextDouble()
            if u < basementShare { floor = -1 } else if u < basementShare + 0.6 || buildingFloors < 2 { floor = 1 } else {
                floor = rng.nextInt(in: 2...buildingFloors)
            }
        } else if rng.nextBool(probability: basementShare) {
            floor = -1
        } else {
            floor = rng.nextInt(in: 1...buildingFloors)
        }
        return (area, deposit, rent, floor)
    }
}
