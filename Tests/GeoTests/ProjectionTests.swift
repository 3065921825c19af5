import Testing
@testable import Geo
import TestSupport

/// Seoul City Hall, 37.5663 N 126.9779 E.
private let seoul = (lon: 126.9779, lat: 37.5663)
/// Sydney, 33.8688 S 151.2093 E.
private let sydney = (lon: 151.2093, lat: -33.8688)

@Suite("Projection")
struct ProjectionTests {
    // MARK: - Agreement with cs2cs (PROJ 9.1.1), within 1 mm

    @Test("Seoul City Hall in EPSG:5179 matches cs2cs")
    func seoulKorea2000() throws {
        // $ echo "37.5663 126.9779" | cs2cs -d 6 EPSG:4326 EPSG:5179
        // 1952009.941022	953892.210777 0.000000
        // cs2cs uses the CRSs' authority axis order: input lat lon, output northing easting.
        let projection = try Projection(crs: "EPSG:5179")
        let (x, y) = try projection.forward(lon: [seoul.lon], lat: [seoul.lat])
        #expect(x[0].isClose(to: 953892.210777, within: 1e-3))
        #expect(y[0].isClose(to: 1952009.941022, within: 1e-3))
        #expect(projection.crs == "EPSG:5179")
        #expect(projection.crsName == "Korea 2000 / Unified CS")
    }

    @Test("Seoul City Hall in EPSG:3857 matches cs2cs")
    func seoulWebMercator() throws {
        // $ echo "37.5663 126.9779" | cs2cs -d 6 EPSG:4326 EPSG:3857
        // 14135115.169999	4518338.421956 0.000000
        // (EPSG:3857 is easting-first, so here cs2cs prints easting northing.)
        let (x, y) = try Projection(crs: "EPSG:3857").forward(lon: seoul.lon, lat: seoul.lat)
        #expect(x.isClose(to: 14135115.169999, within: 1e-3))
        #expect(y.isClose(to: 4518338.421956, within: 1e-3))
    }

    @Test("auto picks UTM 52N for Seoul, and its coordinates match cs2cs")
    func autoSeoul() throws {
        // $ echo "37.5663 126.9779" | cs2cs -d 6 EPSG:4326 EPSG:32652
        // 321414.975893	4159618.639181 0.000000
        let lon = [seoul.lon, seoul.lon + 0.01, seoul.lon - 0.01]
        let lat = [seoul.lat, seoul.lat + 0.01, seoul.lat - 0.01]
        let projection = try Projection(target: .auto, fittingLongitudes: lon, latitudes: lat)
        #expect(projection.crs == "EPSG:32652")
        #expect(projection.crsName == "WGS 84 / UTM zone 52N")
        let (x, y) = try projection.forward(lon: seoul.lon, lat: seoul.lat)
        #expect(x.isClose(to: 321414.975893, within: 1e-3))
        #expect(y.isClose(to: 4159618.639181, within: 1e-3))
    }

    @Test("auto picks southern UTM 56S (EPSG:32756) for Sydney, matching cs2cs")
    func autoSydney() throws {
        // $ echo "-33.8688 151.2093" | cs2cs -d 6 EPSG:4326 EPSG:32756
        // 334368.633648	6250948.345385 0.000000
        #expect(try Projection.resolve(.auto, longitudes: [sydney.lon], latitudes: [sydney.lat]) == "EPSG:32756")
        let projection = try Projection(target: .auto, fittingLongitudes: [sydney.lon], latitudes: [sydney.lat])
        #expect(projection.crs == "EPSG:32756")
        let (x, y) = try projection.forward(lon: sydney.lon, lat: sydney.lat)
        #expect(x.isClose(to: 334368.633648, within: 1e-3))
        #expect(y.isClose(to: 6250948.345385, within: 1e-3))
    }

    // MARK: - UTM zone edges

    @Test("UTM zone edges: ±180°, the equator, zone boundaries")
    func utmZoneEdges() throws {
        #expect(try Projection.utmCRS(longitude: 180, latitude: 10) == "EPSG:32660")   // not zone 61
        #expect(try Projection.utmCRS(longitude: -180, latitude: -10) == "EPSG:32701")
        #expect(try Projection.utmCRS(longitude: 0, latitude: 0) == "EPSG:32631")      // equator is north
        #expect(try Projection.utmCRS(longitude: -0.000001, latitude: -0.000001) == "EPSG:32730")
        #expect(try Projection.utmCRS(longitude: 126, latitude: 37) == "EPSG:32652")   // western edge of 52
        #expect(try Projection.utmCRS(longitude: 125.999999, latitude: 37) == "EPSG:32651")
        #expect(try Projection.utmCRS(longitude: 179.999999, latitude: 0) == "EPSG:32660")
        #expect(throws: GeoError.longitudeOutOfRange(index: 0, value: 181)) {
            try Projection.utmCRS(longitude: 181, latitude: 0)
        }
        #expect(throws: GeoError.nonFiniteCoordinate(index: 0)) {
            try Projection.utmCRS(longitude: .nan, latitude: 0)
        }
    }

    @Test("auto centroid straddling the antimeridian stays at 180°, not 0°")
    func autoAntimeridian() throws {
        // Fiji-like data on both sides of 180°: the arithmetic mean (0°) would pick zone 31.
        let crs = try Projection.resolve(.auto, longitudes: [179.5, -179.5, 179.8, -179.8],
                                         latitudes: [-17.8, -17.7, -17.9, -17.6])
        #expect(crs == "EPSG:32760")
    }

    @Test("the scale next to ±180°: measured westwards there, so Fiji in UTM 60S is within 1 %, not unprojectable")
    func scaleAtTheAntimeridian() throws {
        let lon = [178.44, 179.9999, 180.0, -179.9999, -179.99], lat = [-18.14, -16.81, -16.8, -16.79, -16.79]
        let utm = try Projection(crs: "EPSG:32760")
        let worst = try utm.worstScale(fittingLongitudes: lon, latitudes: lat)
        #expect(worst.scale.isFinite && abs(worst.scale - 1) < 0.01, "\(worst)")
        let atLine = try utm.scale(atLongitude: 180, latitude: -16.8)
        let justWest = try utm.scale(atLongitude: 179.998, latitude: -16.8)
        #expect(abs(atLine - justWest) < 1e-5)
    }

    @Test("Target parsing: auto in any case, everything else is a CRS")
    func targetParsing() throws {
        #expect(Projection.Target("auto") == .auto)
        #expect(Projection.Target(" AUTO ") == .auto)
        #expect(Projection.Target("EPSG:5179") == .crs("EPSG:5179"))
        #expect(Projection.Target(" EPSG:3857") == .crs("EPSG:3857"))
        #expect(Projection.Target.auto.description == "auto")
        #expect(try Projection.resolve(.crs("EPSG:5179"), longitudes: [], latitudes: []) == "EPSG:5179")
    }

    @Test("CRS identifiers are normalised to AUTHORITY:CODE")
    func normalisedIdentifier() throws {
        #expect(try Projection(crs: "epsg:3857").crs == "EPSG:3857")
    }

    // MARK: - Round trips

    @Test("inverse(forward(p)) returns p within 1e-9 degrees", arguments: ["EPSG:5179", "EPSG:3857", "EPSG:32652"])
    func roundTrip(crs: String) throws {
        var rng = SplitMix64(seed: 0x5E0_2024)
        // Points over the Korean peninsula, the project's first data set, plus fixed ones.
        var lon = [seoul.lon, 124.0, 131.9, 126.5]
        var lat = [seoul.lat, 33.0, 43.0, 33.2]
        for _ in 0..<1000 {
            lon.append(Double.random(in: 124.0...132.0, using: &rng))
            lat.append(Double.random(in: 33.0...43.0, using: &rng))
        }
        let projection = try Projection(crs: crs)
        let (x, y) = try projection.forward(lon: lon, lat: lat)
        let back = try projection.inverse(x: x, y: y)
        #expect(back.lon.count == lon.count)
        let worstLon = zip(back.lon, lon).map { abs($0 - $1) }.max() ?? .infinity
        let worstLat = zip(back.lat, lat).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worstLon <= 1e-9)
        #expect(worstLat <= 1e-9)
        // Metres really are metres: 0.01° of latitude is about 1.1 km in any of these CRSs
        // except Web Mercator, whose scale at 37.5° N is 1/cos(37.5°) ≈ 1.26.
        let (_, y2) = try projection.forward(lon: seoul.lon, lat: seoul.lat + 0.01)
        let (_, y1) = try projection.forward(lon: seoul.lon, lat: seoul.lat)
        let expected = crs == "EPSG:3857" ? 1109.0 / 0.7934 : 1109.0
        #expect((y2 - y1).isClose(to: expected, within: 0.01 * expected))
    }

    @Test("Empty arrays give empty results")
    func emptyArrays() throws {
        let projection = try Projection(crs: "EPSG:5179")
        let (x, y) = try projection.forward(lon: [], lat: [])
        #expect(x.isEmpty && y.isEmpty)
        let (lon, lat) = try projection.inverse(x: [], y: [])
        #expect(lon.isEmpty && lat.isEmpty)
    }

    @Test("Separate instances work independently on concurrent tasks")
    func independentInstances() async throws {
        let lon = (0..<2000).map { 126.0 + Double($0) * 0.001 }
        let lat = (0..<2000).map { 37.0 + Double($0) * 0.0005 }
        let reference = try Projection(crs: "EPSG:5179").forward(lon: lon, lat: lat)
        let results = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<4 {
                // Each task builds its own Projection: an instance never crosses threads.
                group.addTask { try Projection(crs: "EPSG:5179").forward(lon: lon, lat: lat).x }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        for x in results { #expect(x == reference.x) }
    }

    // MARK: - Errors

    @Test("Unknown CRS names are reported by name", arguments: ["EPSG:999999", "nonsense"])
    func unknownCRS(name: String) throws {
        let error = #expect(throws: GeoError.self) { try Projection(crs: name) }
        guard case let .unknownCRS(reported, detail)? = error else {
            Issue.record("expected .unknownCRS, got \(String(describing: error))")
            return
        }
        #expect(reported == name)
        #expect(!detail.isEmpty)
        #expect(error?.description.contains("\"\(name)\"") == true)
        // The same error through the auto/target entry point.
        #expect(throws: GeoError.self) {
            try Projection(target: .crs(name), fittingLongitudes: [seoul.lon], latitudes: [seoul.lat])
        }
    }

    @Test("A PROJ operation string is not a CRS")
    func operationIsNotCRS() {
        let error = #expect(throws: GeoError.self) { try Projection(crs: "+proj=merc") }
        guard case .unknownCRS("+proj=merc", _)? = error else {
            Issue.record("expected .unknownCRS, got \(String(describing: error))")
            return
        }
    }

    @Test("Geographic and foot-based CRSs are rejected as not metric", arguments: ["EPSG:4326", "EPSG:2263"])
    func notMetric(name: String) {
        let error = #expect(throws: GeoError.self) { try Projection(crs: name) }
        guard case .notMetricCRS(name, _)? = error else {
            Issue.record("expected .notMetricCRS, got \(String(describing: error))")
            return
        }
    }

    @Test("NaN input names its index")
    func nanInput() throws {
        let projection = try Projection(crs: "EPSG:5179")
        #expect(throws: GeoError.nonFiniteCoordinate(index: 2)) {
            try projection.forward(lon: [127, 127, 127], lat: [37, 37, .nan])
        }
        #expect(throws: GeoError.nonFiniteCoordinate(index: 1)) {
            try projection.inverse(x: [0, .infinity], y: [0, 0])
        }
        #expect(throws: GeoError.nonFiniteCoordinate(index: 1)) {
            try Projection(target: .auto, fittingLongitudes: [127, .nan], latitudes: [37, 37])
        }
    }

    @Test("Latitude 91 names its index")
    func latitudeOutOfRange() throws {
        let projection = try Projection(crs: "EPSG:5179")
        #expect(throws: GeoError.latitudeOutOfRange(index: 1, value: 91)) {
            try projection.forward(lon: [127, 127], lat: [37, 91])
        }
        #expect(throws: GeoError.latitudeOutOfRange(index: 0, value: -90.5)) {
            try Projection.resolve(.auto, longitudes: [127], latitudes: [-90.5])
        }
    }

    @Test("Longitude 181 names its index")
    func longitudeOutOfRange() throws {
        let projection = try Projection(crs: "EPSG:5179")
        #expect(throws: GeoError.longitudeOutOfRange(index: 3, value: 181)) {
            try projection.forward(lon: [127, 127, 127, 181], lat: [37, 37, 37, 37])
        }
        let error = #expect(throws: GeoError.self) { try projection.forward(lon: [181], lat: [37]) }
        #expect(error?.description.contains("index 0") == true)
    }

    @Test("Mismatched array lengths are reported with both counts")
    func countMismatch() throws {
        let projection = try Projection(crs: "EPSG:5179")
        #expect(throws: GeoError.countMismatch(first: "lon", firstCount: 2, second: "lat", secondCount: 1)) {
            try projection.forward(lon: [127, 128], lat: [37])
        }
        #expect(throws: GeoError.countMismatch(first: "x", firstCount: 1, second: "y", secondCount: 0)) {
            try projection.inverse(x: [0], y: [])
        }
    }

    @Test("auto with no points is an empty-input error")
    func autoEmpty() {
        #expect(throws: GeoError.emptyInput(operation: "choosing the UTM zone for \"auto\"")) {
            try Projection(target: .auto, fittingLongitudes: [], latitudes: [])
        }
    }

    @Test("A failing transform names the point and quotes PROJ's error string")
    func transformFailure() throws {
        // 1e30 m east of UTM 52N's origin is outside the projection's domain; PROJ returns
        // HUGE_VAL and errno PROJ_ERR_COORD_TRANSFM_OUTSIDE_PROJECTION_DOMAIN (2050).
        let projection = try Projection(crs: "EPSG:32652")
        let error = #expect(throws: GeoError.self) {
            try projection.inverse(x: [321414.975893, 1e30], y: [4159618.639181, 0])
        }
        guard case let .transformFailed(index, code, message)? = error else {
            Issue.record("expected .transformFailed, got \(String(describing: error))")
            return
        }
        #expect(index == 1)
        #expect(code == 2050)
        #expect(message == "Point outside of projection domain")
        // The instance is still usable afterwards: the error number was reset.
        let (lon, lat) = try projection.inverse(x: 321414.975893, y: 4159618.639181)
        #expect(lon.isClose(to: seoul.lon, within: 1e-8) && lat.isClose(to: seoul.lat, within: 1e-8))
    }

    @Test("Error descriptions say what to do")
    func descriptions() {
        #expect(GeoError.nonFiniteCoordinate(index: 7).description
            == "coordinate at index 7 is NaN or infinite; drop or repair that point")
        #expect(GeoError.latitudeOutOfRange(index: 3, value: 91).description.contains("swapped"))
        #expect(GeoError.unknownCRS("X", detail: "d").description.contains("\"auto\""))
    }

    // MARK: - Geometries

    @Test("Projecting a geometry equals projecting its vertices, and inverts within 1e-9°")
    func geometryProjection() throws {
        let geos = try GeometryContext()
        let lonLat = try geos.polygon(exterior: Coordinates(x: [126.9, 127.1, 127.1, 126.9],
                                                            y: [37.5, 37.5, 37.6, 37.6]))
        let projection = try Projection(crs: "EPSG:5179")
        let metric = try projection.forward(lonLat)
        let expected = try projection.forward(lon: lonLat.vertices().x, lat: lonLat.vertices().y)
        #expect(try metric.vertices().x == expected.x)
        #expect(try metric.vertices().y == expected.y)
        // About 17.7 km × 11.1 km.
        #expect(try metric.area.isClose(to: 1.96e8, within: 0.02e8))
        let back = try projection.inverse(metric).vertices()
        let original = try lonLat.vertices()
        for i in 0..<original.count {
            #expect(back.x[i].isClose(to: original.x[i], within: 1e-9))
            #expect(back.y[i].isClose(to: original.y[i], within: 1e-9))
        }
    }

    @Test("Projecting a geometry with an out-of-range vertex names the vertex")
    func geometryProjectionError() throws {
        let geos = try GeometryContext()
        let line = try geos.lineString(x: [127, 127, 127], y: [37, 38, 95])
        let projection = try Projection(crs: "EPSG:5179")
        #expect(throws: GeoError.latitudeOutOfRange(index: 2, value: 95)) { try projection.forward(line) }
        #expect(throws: GeoError.self) { try projection.inverse(geos.lineString(x: [0, 1e30], y: [0, 0])) }
    }
}
