import Pins

/// A small seeded generator (SplitMix64): the same seed gives the same city on every run and
/// platform, so the example's output is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One generated listing as the app received it from its server: true position, building,
/// attributes. (The app hands these to the index and keeps nothing else.)
struct Listing {
    var id: Int64
    var longitude: Double
    var latitude: Double
    var building: Int
    var category: ListingCategory
    var area: Double
    var deposit: Double
    var monthlyRent: Double
}

/// A generated city around Seoul's centre: neighbourhoods of buildings, each building holding
/// one to twelve listings (flats share their building's coordinate and key).
func generateCity(listings target: Int, seed: UInt64) -> [Listing] {
    var rng = SplitMix64(seed: seed)
    let centres: [(longitude: Double, latitude: Double, spread: Double)] = [
        (126.978, 37.566, 0.012), (127.027, 37.498, 0.015), (126.924, 37.556, 0.010),
        (127.100, 37.514, 0.018), (127.060, 37.620, 0.020), (126.880, 37.480, 0.025),
    ]
    var out: [Listing] = []
    out.reserveCapacity(target)
    var building = 0
    while out.count < target {
        let centre = centres[Int.random(in: 0..<centres.count, using: &rng)]
        // A point of the neighbourhood: the sum of two uniforms is a tent around its centre.
        let dx = (Double.random(in: -1...1, using: &rng) + Double.random(in: -1...1, using: &rng)) * centre.spread
        let dy = (Double.random(in: -1...1, using: &rng) + Double.random(in: -1...1, using: &rng)) * centre.spread
        let flats = Bool.random(using: &rng) ? 1 : Int.random(in: 2...12, using: &rng)
        for _ in 0..<min(flats, target - out.count) {
            let category = ListingCategory.allCases[Int.random(in: 0..<ListingCategory.allCases.count, using: &rng)]
            let area = Double(Int.random(in: 18...140, using: &rng))
            let jeonse = Bool.random(using: &rng)
            out.append(Listing(
                id: Int64(out.count + 1), longitude: centre.longitude + dx, latitude: centre.latitude + dy,
                building: building, category: category, area: area,
                deposit: jeonse ? area * Double(Int.random(in: 300...900, using: &rng)) : Double(Int.random(in: 5...50, using: &rng)) * 100,
                monthlyRent: jeonse ? 0 : Double(Int.random(in: 40...250, using: &rng))))
        }
        building += 1
    }
    return out
}
