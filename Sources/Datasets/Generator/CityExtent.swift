import ListingVocabulary

/// Where a scenario's listings lie and how prices vary over that area.
///
/// The extent is a longitude/latitude box, optionally narrowed by a polygon (a coastline).
/// Distances inside the generator use a local plane: metres per degree of latitude and of
/// longitude at the city's reference latitude (WGS 84 meridian and parallel radii of
/// curvature). Over a city 0.3° tall this scale is off by at most 0.3% at the edges, so
/// spreads and lengths given in metres hold to that accuracy.
///
/// The price level multiplies deposits and rents. It is the city's base level times
/// `0.8 + Σ a·exp(-d² / 2s²)` over its price centres (distance d from centre, amplitude a,
/// width s), a smooth stand-in for district price differences: in Seoul it runs from 0.8
/// far from any centre to about 1.8 in Gangnam.
public struct CityExtent: Sendable {
    /// A place where prices peak.
    public struct PriceCentre: Sendable {
        public var name: String
        /// The centre, degrees.
        public var lon: Double
        public var lat: Double
        /// Added to the level at the centre.
        public var amplitude: Double
        /// Gaussian width, metres.
        public var width: Double
    }

    /// The city's name, for messages.
    public var name: String
    /// The box every point lies in (degrees).
    public var box: BoundingBox
    /// When set, points must also lie inside this ring (longitude, latitude pairs, not
    /// repeated at the end).
    public var polygon: [(lon: Double, lat: Double)]?
    /// Latitude at which the metre scale is taken (degrees).
    public var referenceLatitude: Double
    /// Metres per degree of latitude and longitude at `referenceLatitude`.
    public var metresPerDegreeLat: Double
    public var metresPerDegreeLon: Double
    /// The city's overall price level (Seoul 1).
    public var basePriceLevel: Double
    public var priceCentres: [PriceCentre]

    /// Seoul: lat 37.41–37.70, lon 126.76–127.18 (the city and its inner ring).
    public static let seoul = CityExtent(
        name: "Seoul",
        box: BoundingBox(minLongitude: 126.76, minLatitude: 37.41, maxLongitude: 127.18, maxLatitude: 37.70),
        polygon: nil,
        referenceLatitude: 37.555,
        // WGS 84 at 37.555°N.
        metresPerDegreeLat: 110_988.07, metresPerDegreeLon: 88_360.55,
        basePriceLevel: 1.0,
        priceCentres: [
            PriceCentre(name: "Gangnam", lon: 127.0276, lat: 37.4979, amplitude: 1.0, width: 3000),
            PriceCentre(name: "Jamsil", lon: 127.1001, lat: 37.5133, amplitude: 0.6, width: 2500),
            PriceCentre(name: "Yongsan", lon: 127.0057, lat: 37.5326, amplitude: 0.6, width: 2500),
            PriceCentre(name: "Yeouido", lon: 126.9245, lat: 37.5219, amplitude: 0.5, width: 2000),
            PriceCentre(name: "Jongno", lon: 126.9920, lat: 37.5700, amplitude: 0.4, width: 2500),
        ])

    /// Busan: a simplified hand-drawn outline of the city's land (21 vertices) from the
    /// Nakdong estuary and Gadeok in the west, along the south coast past Yeongdo and
    /// Haeundae, to Gijang in the north-east; lat 35.045–35.39, lon 128.80–129.30. Not an
    /// administrative boundary: its job is a non-rectangular extent with a coastline.
    public static let busan = CityExtent(
        name: "Busan",
        box: BoundingBox(minLongitude: 128.80, minLatitude: 35.045, maxLongitude: 129.30, maxLatitude: 35.39),
        polygon: [
            (128.860, 35.200), (128.960, 35.250), (129.010, 35.330), (129.080, 35.390),
            (129.190, 35.390), (129.300, 35.340), (129.260, 35.270), (129.225, 35.215),
            (129.180, 35.170), (129.130, 35.150), (129.120, 35.110), (129.090, 35.110),
            (129.070, 35.060), (129.030, 35.080), (129.000, 35.060), (128.965, 35.045),
            (128.940, 35.090), (128.900, 35.060), (128.830, 35.070), (128.800, 35.120),
            (128.830, 35.170),
        ],
        referenceLatitude: 35.17,
        // WGS 84 at 35.17°N.
        metresPerDegreeLat: 110_943.69, metresPerDegreeLon: 91_098.96,
        basePriceLevel: 0.55,
        priceCentres: [
            PriceCentre(name: "Haeundae", lon: 129.1635, lat: 35.1631, amplitude: 0.7, width: 3000),
            PriceCentre(name: "Suyeong", lon: 129.1186, lat: 35.1532, amplitude: 0.4, width: 2000),
            PriceCentre(name: "Seomyeon", lon: 129.0597, lat: 35.1578, amplitude: 0.4, width: 2500),
        ])

    /// The whole globe, for the `world` scenario, whose components carry their own scale
    /// (``DegreeScale``) and price level: the scale here is the equator's, and the level is 1.
    public static let world = CityExtent(
        name: "World", box: .world, polygon: nil, referenceLatitude: 0,
        // WGS 84 at the equator.
        metresPerDegreeLat: 110_574.27, metresPerDegreeLon: 111_319.49,
        basePriceLevel: 1.0, priceCentres: [])

    /// Whether the point lies in the box and, if there is one, inside the polygon (even-odd
    /// ray casting in plain Swift, so the generator needs no GEOS and stays deterministic).
    /// - Complexity: O(polygon vertices).
    public func contains(lon: Double, lat: Double) -> Bool {
        guard box.contains(longitude: lon, latitude: lat) else { return false }
        guard let ring = polygon else { return true }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let (xi, yi) = ring[i], (xj, yj) = ring[j]
            if (yi > lat) != (yj > lat) && lon < (xj - xi) * (lat - yi) / (yj - yi) + xi {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// The price level at a point (see the type's documentation).
    public func priceLevel(lon: Double, lat: Double) -> Double {
        var level = 0.8
        for c in priceCentres {
            let dx = (lon - c.lon) * metresPerDegreeLon, dy = (lat - c.lat) * metresPerDegreeLat
            level += c.amplitude * DeterministicMath.exp(-(dx * dx + dy * dy) / (2 * c.width * c.width))
        }
        return basePriceLevel * level
    }
}
