import ListingVocabulary

/// The real places the `world` scenario is built around: metropolitan areas, remote
/// settlements (Pacific islands on both sides of ±180°, high latitudes north and south), and
/// the land boxes its towns and background fall in.
///
/// Populations are metropolitan-area figures in millions (UN World Urbanization Prospects
/// 2018, rounded); price levels are relative to Seoul (1), a rough ordering of housing costs
/// rather than data. Coordinates are city centres, degrees.
enum WorldPlaces {
    /// A metropolitan area or a settlement.
    struct Place: Sendable {
        var name: String
        var lon: Double
        var lat: Double
        /// Millions of people (metros); the weight its share of points is apportioned by.
        var population: Double
        /// The place's price level, Seoul 1.
        var priceLevel: Double
        /// Gaussian spread, metres (settlements only; a metro's follows from its population).
        var sigma: Double = 0
    }

    /// Metropolitan areas on every inhabited continent, largest first within each.
    static let metros: [Place] = [
        // Asia
        Place(name: "Tokyo", lon: 139.6917, lat: 35.6895, population: 37.4, priceLevel: 1.10),
        Place(name: "Delhi", lon: 77.2090, lat: 28.6139, population: 31.0, priceLevel: 0.25),
        Place(name: "Shanghai", lon: 121.4737, lat: 31.2304, population: 27.1, priceLevel: 0.90),
        Place(name: "Dhaka", lon: 90.4125, lat: 23.8103, population: 21.0, priceLevel: 0.15),
        Place(name: "Beijing", lon: 116.4074, lat: 39.9042, population: 20.5, priceLevel: 0.95),
        Place(name: "Mumbai", lon: 72.8777, lat: 19.0760, population: 20.4, priceLevel: 0.45),
        Place(name: "Osaka", lon: 135.5023, lat: 34.6937, population: 19.2, priceLevel: 0.70),
        Place(name: "Karachi", lon: 67.0099, lat: 24.8607, population: 16.1, priceLevel: 0.12),
        Place(name: "Chongqing", lon: 106.5516, lat: 29.5630, population: 15.9, priceLevel: 0.35),
        Place(name: "Kolkata", lon: 88.3639, lat: 22.5726, population: 14.9, priceLevel: 0.18),
        Place(name: "Manila", lon: 120.9842, lat: 14.5995, population: 13.9, priceLevel: 0.35),
        Place(name: "Guangzhou", lon: 113.2644, lat: 23.1291, population: 13.3, priceLevel: 0.70),
        Place(name: "Jakarta", lon: 106.8456, lat: -6.2088, population: 10.8, priceLevel: 0.30),
        Place(name: "Bangkok", lon: 100.5018, lat: 13.7563, population: 10.5, priceLevel: 0.40),
        Place(name: "Seoul", lon: 126.9780, lat: 37.5665, population: 9.96, priceLevel: 1.00),
        Place(name: "Tehran", lon: 51.3890, lat: 35.6892, population: 9.1, priceLevel: 0.30),
        Place(name: "Ho Chi Minh City", lon: 106.6297, lat: 10.8231, population: 8.6, priceLevel: 0.30),
        // Africa
        Place(name: "Cairo", lon: 31.2357, lat: 30.0444, population: 20.9, priceLevel: 0.15),
        Place(name: "Lagos", lon: 3.3792, lat: 6.5244, population: 14.4, priceLevel: 0.20),
        Place(name: "Kinshasa", lon: 15.2663, lat: -4.4419, population: 14.3, priceLevel: 0.10),
        Place(name: "Johannesburg", lon: 28.0473, lat: -26.2041, population: 5.9, priceLevel: 0.30),
        Place(name: "Nairobi", lon: 36.8219, lat: -1.2921, population: 4.7, priceLevel: 0.20),
        Place(name: "Addis Ababa", lon: 38.7578, lat: 9.0054, population: 4.6, priceLevel: 0.15),
        // Europe
        Place(name: "Istanbul", lon: 28.9784, lat: 41.0082, population: 15.2, priceLevel: 0.35),
        Place(name: "Moscow", lon: 37.6173, lat: 55.7558, population: 12.5, priceLevel: 0.60),
        Place(name: "Paris", lon: 2.3522, lat: 48.8566, population: 10.9, priceLevel: 1.30),
        Place(name: "London", lon: -0.1276, lat: 51.5072, population: 9.0, priceLevel: 1.50),
        Place(name: "Madrid", lon: -3.7038, lat: 40.4168, population: 6.5, priceLevel: 0.80),
        Place(name: "Berlin", lon: 13.4050, lat: 52.5200, population: 3.6, priceLevel: 0.85),
        // North America
        Place(name: "Mexico City", lon: -99.1332, lat: 19.4326, population: 21.6, priceLevel: 0.35),
        Place(name: "New York", lon: -74.0060, lat: 40.7128, population: 18.8, priceLevel: 1.60),
        Place(name: "Los Angeles", lon: -118.2437, lat: 34.0522, population: 12.5, priceLevel: 1.40),
        Place(name: "Chicago", lon: -87.6298, lat: 41.8781, population: 8.9, priceLevel: 0.90),
        Place(name: "Toronto", lon: -79.3832, lat: 43.6532, population: 6.1, priceLevel: 1.10),
        // South America
        Place(name: "São Paulo", lon: -46.6333, lat: -23.5505, population: 21.7, priceLevel: 0.40),
        Place(name: "Buenos Aires", lon: -58.3816, lat: -34.6037, population: 15.0, priceLevel: 0.35),
        Place(name: "Rio de Janeiro", lon: -43.1729, lat: -22.9068, population: 13.3, priceLevel: 0.40),
        Place(name: "Bogotá", lon: -74.0721, lat: 4.7110, population: 10.6, priceLevel: 0.25),
        Place(name: "Lima", lon: -77.0428, lat: -12.0464, population: 10.4, priceLevel: 0.25),
        Place(name: "Santiago", lon: -70.6693, lat: -33.4489, population: 6.7, priceLevel: 0.40),
        // Oceania
        Place(name: "Sydney", lon: 151.2093, lat: -33.8688, population: 4.9, priceLevel: 1.30),
        Place(name: "Melbourne", lon: 144.9631, lat: -37.8136, population: 4.8, priceLevel: 1.00),
        Place(name: "Auckland", lon: 174.7633, lat: -36.8485, population: 1.6, priceLevel: 1.10),
    ]

    /// Remote settlements, each a small cluster of equal share: Fiji on both sides of the
    /// antimeridian (Taveuni's Waiyevo lies on it, so its cluster straddles ±180°), the
    /// Pacific islands east and west of the line, the Arctic and the far south.
    static let settlements: [Place] = [
        Place(name: "Suva", lon: 178.4419, lat: -18.1416, population: 0.09, priceLevel: 0.35, sigma: 3000),
        Place(name: "Labasa", lon: 179.3946, lat: -16.4332, population: 0.03, priceLevel: 0.25, sigma: 2000),
        Place(name: "Taveuni (Waiyevo)", lon: -179.9900, lat: -16.7900, population: 0.01, priceLevel: 0.25, sigma: 2000),
        Place(name: "Lakeba (Lau)", lon: -178.8000, lat: -18.2300, population: 0.002, priceLevel: 0.20, sigma: 1000),
        Place(name: "Vanua Balavu (Lau)", lon: -178.9500, lat: -17.2200, population: 0.002, priceLevel: 0.20, sigma: 1000),
        Place(name: "Funafuti", lon: 179.1942, lat: -8.5211, population: 0.006, priceLevel: 0.25, sigma: 500),
        Place(name: "South Tarawa", lon: 173.0176, lat: 1.3290, population: 0.06, priceLevel: 0.20, sigma: 1500),
        Place(name: "Apia", lon: -171.7514, lat: -13.8333, population: 0.04, priceLevel: 0.30, sigma: 2000),
        Place(name: "Nuku'alofa", lon: -175.2018, lat: -21.1394, population: 0.03, priceLevel: 0.30, sigma: 2000),
        Place(name: "Mata-Utu", lon: -176.1761, lat: -13.2825, population: 0.001, priceLevel: 0.30, sigma: 800),
        Place(name: "Waitangi (Chatham)", lon: -176.5597, lat: -43.9535, population: 0.0006, priceLevel: 0.60, sigma: 500),
        Place(name: "Anadyr", lon: 177.5089, lat: 64.7337, population: 0.015, priceLevel: 0.40, sigma: 1500),
        Place(name: "Adak", lon: -176.6581, lat: 51.8800, population: 0.0003, priceLevel: 0.80, sigma: 500),
        Place(name: "Honolulu", lon: -157.8583, lat: 21.3069, population: 0.35, priceLevel: 1.40, sigma: 3000),
        Place(name: "Longyearbyen", lon: 15.6356, lat: 78.2232, population: 0.002, priceLevel: 1.20, sigma: 1000),
        Place(name: "Tromsø", lon: 18.9553, lat: 69.6492, population: 0.08, priceLevel: 1.10, sigma: 2000),
        Place(name: "Murmansk", lon: 33.0856, lat: 68.9585, population: 0.27, priceLevel: 0.30, sigma: 3000),
        Place(name: "Norilsk", lon: 88.2027, lat: 69.3558, population: 0.18, priceLevel: 0.30, sigma: 2000),
        Place(name: "Utqiagvik", lon: -156.7886, lat: 71.2906, population: 0.005, priceLevel: 0.90, sigma: 800),
        Place(name: "Nuuk", lon: -51.7216, lat: 64.1814, population: 0.019, priceLevel: 0.90, sigma: 1500),
        Place(name: "Reykjavík", lon: -21.9426, lat: 64.1466, population: 0.23, priceLevel: 1.10, sigma: 3000),
        Place(name: "Ushuaia", lon: -68.3030, lat: -54.8019, population: 0.08, priceLevel: 0.40, sigma: 2000),
        Place(name: "Punta Arenas", lon: -70.9171, lat: -53.1638, population: 0.13, priceLevel: 0.40, sigma: 2000),
        Place(name: "McMurdo Station", lon: 166.6863, lat: -77.8419, population: 0.001, priceLevel: 1.50, sigma: 500),
    ]

    /// Boxes (min lon, min lat, max lon, max lat) that hold mostly land on each continent:
    /// the towns are placed in them and the background is uniform over them. Coarse on
    /// purpose (they take in coasts, lakes and inland seas); every metro lies in one.
    static let land: [BoundingBox] = [
        // North America: the contiguous US, southern Canada, Mexico, Alaska
        box(-125, 25, -67, 49), box(-140, 49, -60, 62), box(-117, 15, -87, 25), box(-165, 60, -141, 70),
        // South America: the north and Brazil, the southern cone, Patagonia
        box(-81, -24, -35, 10), box(-73, -42, -48, -24), box(-75, -55, -64, -42),
        // Europe: the mainland, Scandinavia
        box(-10, 36, 40, 60), box(5, 60, 32, 71),
        // Africa: the north and the Sahel, the centre and the south
        box(-17, 4, 40, 32), box(10, -35, 41, 4),
        // Asia: Russia and Central Asia, the Middle East, South Asia, China, South-East Asia,
        // the Philippines, Indonesia, Korea and Japan
        box(40, 38, 135, 68), box(44, 12, 60, 38), box(60, 8, 92, 38), box(92, 18, 123, 38),
        box(96, 5, 110, 18), box(117, 5, 127, 19), box(95, -9, 126, 5), box(124, 31, 142, 43),
        // Oceania: Australia, New Zealand
        box(113, -39, 154, -12), box(166, -47, 179, -34),
    ]

    private static func box(_ minLon: Double, _ minLat: Double, _ maxLon: Double, _ maxLat: Double) -> BoundingBox {
        BoundingBox(minLongitude: minLon, minLatitude: minLat, maxLongitude: maxLon, maxLatitude: maxLat)
    }
}
