import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Pins
import Testing
import TestSupport

/// One listing of datasets/seoul-5k.csv (or a file the test wrote), as the test reads it.
struct TrueListing {
    var id: String
    var lat: Double, lon: Double
    var category: String, area: Double, deposit: Double, rent: Double
    var building: String
}

/// One feature of a `pins` output.
struct PinFeature {
    var lon: Double, lat: Double
    var properties: [String: Any]
    var zoom: Int { properties["zoom"] as! Int }
    var count: Int { properties["count"] as! Int }
    var kind: String { properties["kind"] as! String }
    var diameter: Double { (properties["diameter"] as! NSNumber).doubleValue }
    var bbox: [Double] { (properties["bbox"] as! [NSNumber]).map(\.doubleValue) }
    var leaves: [String] { (properties["leaves"] as? [Any] ?? []).map { "\($0)" } }
}

@Suite("geocluster pins, nearby, map --zoom")
struct PinsCommandTests {
    static let seoul = TestPaths.packageRoot.appendingPathComponent("datasets/seoul-5k.csv").path
    static let seoulGeoJSON = TestPaths.packageRoot.appendingPathComponent("datasets/seoul-1k.geojson").path

    static func listings(_ path: String) throws -> [TrueListing] {
        let rows = parseCSV(try String(contentsOfFile: path, encoding: .utf8))
        let h = rows[0]
        func col(_ name: String) -> Int { h.firstIndex(of: name)! }
        return rows.dropFirst().map { r in
            TrueListing(id: r[col("id")], lat: Double(r[col("lat")])!, lon: Double(r[col("lon")])!, category: r[col("category")],
                        area: Double(r[col("area_m2")])!, deposit: Double(r[col("deposit")])!,
                        rent: Double(r[col("monthly_rent")])!, building: r[col("building_id")])
        }
    }

    /// Parses a FeatureCollection of Points strictly (JSONSerialization), or fails the test.
    static func features(_ text: String) throws -> [PinFeature] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "FeatureCollection")
        let features = try #require(json["features"] as? [[String: Any]])
        return try features.map { f in
            #expect(f["type"] as? String == "Feature")
            let g = try #require(f["geometry"] as? [String: Any])
            #expect(g["type"] as? String == "Point")
            let c = try #require(g["coordinates"] as? [NSNumber])
            return PinFeature(lon: c[0].doubleValue, lat: c[1].doubleValue, properties: try #require(f["properties"] as? [String: Any]))
        }
    }

    /// The listings `pins` says it showed ("N listings shown at …").
    static func shownCount(_ stderr: String) -> Int? {
        guard let r = stderr.range(of: " listings shown at ") else { return nil }
        return Int(stderr[..<r.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "")
    }

    /// The listings `pins` held back ("N listings held back"), 0 when it says nothing.
    static func heldBackCount(_ stderr: String) -> Int {
        guard let r = stderr.range(of: " listings held back") ?? stderr.range(of: " listing held back") else { return 0 }
        return Int(stderr[..<r.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "") ?? 0
    }

    /// Ground distance in metres, as Pins measures it (WGS 84 metres per degree at the mean latitude).
    /// Metres on the WGS 84 ellipsoid's local scale, as the privacy mask offsets positions.
    static func metres(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let m = WebMercator.metresPerDegree(latitude: (lat1 + lat2) / 2)
        let dx = (lon1 - lon2) * m.longitude, dy = (lat1 - lat2) * m.latitude
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Whether true positions ("lon,lat") are one place: within `PrivacyMask.unitRadius` of one
    /// of them, so pairwise within twice that (locations that close are merged into one).
    static func onePlace(_ positions: some Collection<String>) -> Bool {
        let p = positions.map { $0.split(separator: ",").map { Double($0)! } }
        return p.allSatisfy { a in p.allSatisfy { b in metres(a[0], a[1], b[0], b[1]) <= 2 * PrivacyMask.unitRadius + 1e-6 } }
    }

    /// Great-circle metres (the haversine formula, the C library's functions), as `nearby` measures.
    static func greatCircle(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let r = Double.pi / 180, φ1 = lat1 * r, φ2 = lat2 * r
        let h = pow(sin((φ2 - φ1) / 2), 2) + cos(φ1) * cos(φ2) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * asin(min(1, h.squareRoot())) * 6_371_008.8
    }

    /// Every published position (pin centres and bbox corners) of `features`.
    static func published(_ features: [PinFeature]) -> [(Double, Double)] {
        features.flatMap { f in [(f.lon, f.lat), (f.bbox[0], f.bbox[1]), (f.bbox[2], f.bbox[3])] }
    }

    /// The smallest distance from a published position to a true position, and how many
    /// same-location pins lie within 29.9 m of their own listings' true position.
    static func exposure(_ features: [PinFeature], _ truth: [TrueListing]) -> (nearest: Double, closeOwn: Int) {
        var nearest = Double.infinity
        // True positions in bands of 0.001° latitude (111 m): a published position within
        // 100 m of a true one finds it in its own band or a neighbour.
        let bands = Dictionary(grouping: truth) { Int(($0.lat * 1000).rounded(.down)) }
        for (lon, lat) in published(features) {
            let band = Int((lat * 1000).rounded(.down))
            for t in (band - 1...band + 1).flatMap({ bands[$0] ?? [] }) { nearest = min(nearest, metres(lon, lat, t.lon, t.lat)) }
        }
        let byID = Dictionary(uniqueKeysWithValues: truth.map { ($0.id, $0) })
        var closeOwn = 0
        for f in features where f.kind != "cluster" {
            for id in f.leaves where metres(f.lon, f.lat, byID[id]!.lon, byID[id]!.lat) < 29.9 { closeOwn += 1 }
        }
        return (nearest, closeOwn)
    }

    @Test("pins at zooms 10–16: valid GeoJSON, every listing in exactly one pin per zoom, no overlapping discs, listing pins carry their attributes")
    func pinsEndToEnd() throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("pins", Self.seoul, "--zooms", "10-16", "--insecure-test-seed", "7", "--leaves", "-o", "pins.geojson")
            try #require(r.status == 0, "\(r)")
            let truth = try Self.listings(Self.seoul)
            let byID = Dictionary(uniqueKeysWithValues: truth.map { ($0.id, $0) })
            let features = try Self.features(try folder.read("pins.geojson"))
            #expect(Set(features.map(\.zoom)) == Set(10...16))
            // Every listing shown is in exactly one pin per zoom; the others are held back (too
            // few locations near them to share a point with), as standard error says.
            let shown = try #require(Self.shownCount(r.stderr), "\(r.stderr)")
            #expect(shown > truth.count / 2 && shown + Self.heldBackCount(r.stderr) == truth.count, "\(r.stderr)")
            for z in 10...16 {
                let pins = features.filter { $0.zoom == z }
                #expect(pins.reduce(0) { $0 + $1.count } == shown, "zoom \(z)")
                let leaves = pins.flatMap(\.leaves)
                #expect(leaves.count == shown && Set(leaves).count == shown && Set(leaves).isSubset(of: Set(byID.keys)), "zoom \(z): every listing shown exactly once")
                for p in pins { #expect(p.leaves.count == p.count) }
                // Discs in pixels at zoom z: centre distance at least the mean of the diameters.
                let world = 256 * pow(2, Double(z))
                let xy = pins.map { (WebMercator.x(longitude: $0.lon) * world, WebMercator.y(latitude: $0.lat) * world) }
                var overlaps = 0
                for i in pins.indices {
                    for j in pins.indices where j > i {
                        let dx = xy[i].0 - xy[j].0, dy = xy[i].1 - xy[j].1
                        let need = (pins[i].diameter + pins[j].diameter) / 2 - 0.1   // diameters are rounded to 0.1 pt
                        if dx * dx + dy * dy < need * need { overlaps += 1 }
                    }
                }
                #expect(overlaps == 0, "zoom \(z): \(overlaps) overlapping pairs")
            }
            // Buildings are one pin: all listings of a building_id share a pin at zoom 16 (or are
            // all held back together).
            var pinOf: [String: Int] = [:]
            for (k, p) in features.enumerated() where p.zoom == 16 { for id in p.leaves { pinOf[id] = k } }
            for group in Dictionary(grouping: truth, by: \.building).values {
                let pins = group.map { pinOf[$0.id] ?? -1 }
                #expect(Set(pins).count == 1, "building \(group[0].building) split")
            }
            // Listing pins carry the listing's attributes: a shared point holds several listings,
            // so they come from a filter under which one listing of a point passes.
            let villas = try folder.run("pins", Self.seoul, "--zoom", "16", "--insecure-test-seed", "7", "--category", "villa", "-o", "villas.geojson")
            try #require(villas.status == 0, "\(villas)")
            let listingPins = try Self.features(try folder.read("villas.geojson")).filter { $0.kind == "listing" }
            #expect(!listingPins.isEmpty)
            for p in listingPins {
                let t = try #require(byID["\(p.properties["listing_id"]!)"])
                #expect(p.properties["category"] as? String == t.category)
                #expect((p.properties["deposit"] as? NSNumber)?.doubleValue == t.deposit)
                #expect((p.properties["monthly_rent"] as? NSNumber)?.doubleValue == t.rent)
                #expect(abs(((p.properties["area_m2"] as? NSNumber)?.doubleValue ?? -1) - t.area) < 0.006)
                #expect(p.properties["expansion_zoom"] is NSNull && p.properties["same_location"] as? Bool == true)
            }
            for p in features where p.kind == "cluster" {
                let e = try #require(p.properties["expansion_zoom"] as? Int)
                #expect(e > p.zoom && e <= 23)
                let cats = try #require(p.properties["categories"] as? [String: Int])
                #expect(cats.values.reduce(0, +) == p.count)
            }
        }
    }

    @Test("--disc-sizing view: every pin 50 pt across and at least 50 pt from every other, so discs sized by the counts in view never overlap; fewer pins than the default cut; a bad rule is exit 64")
    func discSizingView() throws {
        try withTemporaryFolder { folder throws in
            let view = try folder.run("pins", Self.seoul, "--zooms", "11-15", "--insecure-test-seed", "7", "--disc-sizing", "view", "-o", "view.geojson")
            try #require(view.status == 0, "\(view)")
            let count = try folder.run("pins", Self.seoul, "--zooms", "11-15", "--insecure-test-seed", "7", "-o", "count.geojson")
            try #require(count.status == 0, "\(count)")
            let pins = try Self.features(try folder.read("view.geojson")), defaults = try Self.features(try folder.read("count.geojson"))
            var relativeOverlapsOfDefault = 0
            for z in 11...15 {
                let world = 256 * pow(2, Double(z))
                func overlaps(_ pins: [PinFeature], _ diameter: (PinFeature) -> Double) -> Int {
                    let xy = pins.map { (WebMercator.x(longitude: $0.lon) * world, WebMercator.y(latitude: $0.lat) * world) }
                    var hits = 0
                    for i in pins.indices {
                        for j in pins.indices where j > i {
                            let need = (diameter(pins[i]) + diameter(pins[j])) / 2 - 1e-3
                            if pow(xy[i].0 - xy[j].0, 2) + pow(xy[i].1 - xy[j].1, 2) < need * need { hits += 1 }
                        }
                    }
                    return hits
                }
                let atZoom = pins.filter { $0.zoom == z }, defaultAtZoom = defaults.filter { $0.zoom == z }
                #expect(atZoom.allSatisfy { $0.diameter == 50 }, "zoom \(z)")
                #expect(atZoom.reduce(0) { $0 + $1.count } == defaultAtZoom.reduce(0) { $0 + $1.count }, "zoom \(z): the same listings")
                #expect(overlaps(atZoom) { _ in 50 } == 0, "zoom \(z)")
                // As an app sizes them: 25–50 pt by the square root of the count relative to the largest.
                func relative(_ pins: [PinFeature]) -> (PinFeature) -> Double {
                    let most = Double(pins.map(\.count).max() ?? 1)
                    return { 25 + 25 * (Double($0.count) / most).squareRoot() }
                }
                #expect(overlaps(atZoom, relative(atZoom)) == 0, "zoom \(z)")
                relativeOverlapsOfDefault += overlaps(defaultAtZoom, relative(defaultAtZoom))
                #expect(atZoom.count <= defaultAtZoom.count, "zoom \(z)")
            }
            #expect(relativeOverlapsOfDefault > 0, "the default cut is for discs sized by their own count")
            let bad = try folder.run("pins", Self.seoul, "--zoom", "12", "--insecure-test-seed", "7", "--disc-sizing", "screen", "-o", "bad.geojson")
            #expect(bad.status == 64 && bad.stderr.contains("--disc-sizing screen: give count or view"), "\(bad)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("bad.geojson")))
        }
    }

    @Test("no true coordinate in the output under the privacy mask; with --no-privacy the same check finds them")
    func noTrueCoordinates() throws {
        try withTemporaryFolder { folder throws in
            let truth = try Self.listings(Self.seoul)
            let masked = try folder.run("pins", Self.seoul, "--zooms", "14-18", "--insecure-test-seed", "99", "--leaves", "-o", "masked.geojson")
            try #require(masked.status == 0, "\(masked)")
            let m = Self.exposure(try Self.features(try folder.read("masked.geojson")), truth)
            #expect(m.nearest > 0.1, "a published position within \(m.nearest) m of a true one")
            // A shared point is within 30 m of at most one of the true places it shows.
            let byID = Dictionary(uniqueKeysWithValues: truth.map { ($0.id, $0) })
            for f in try Self.features(try folder.read("masked.geojson")) where f.kind != "cluster" {
                let near = Set(f.leaves.map { byID[$0]! }.filter { Self.metres(f.lon, f.lat, $0.lon, $0.lat) < 30 }.map { "\($0.lon),\($0.lat)" })
                #expect(Self.onePlace(near), "\(near.count) locations in several places within 30 m of one shared point")
            }
            #expect(m.closeOwn * 5 < Self.shownCount(masked.stderr)!, "\(m.closeOwn) listings within 30 m of the point they are shown at")
            let open = try folder.run("pins", Self.seoul, "--zooms", "14-18", "--no-privacy", "--leaves", "-o", "open.geojson")
            try #require(open.status == 0, "\(open)")
            let o = Self.exposure(try Self.features(try folder.read("open.geojson")), truth)
            #expect(o.nearest < 0.01 && o.closeOwn > 1000, "the check must see true positions when they are published")
            // Messages carry no coordinates either.
            #expect(!(masked.stdout + masked.stderr).contains("37.") && !(masked.stdout + masked.stderr).contains("127."))
        }
    }

    @Test("the output is the same bytes for shuffled input rows; another seed gives every pin another id")
    func deterministic() throws {
        try withTemporaryFolder { folder throws in
            var lines = try String(contentsOfFile: Self.seoul, encoding: .utf8).split(separator: "\n").map(String.init)
            let header = lines.removeFirst()
            var g = SplitMix64(seed: 5)
            for i in stride(from: lines.count - 1, to: 0, by: -1) { lines.swapAt(i, Int(g.next() % UInt64(i + 1))) }
            try folder.write(([header] + lines).joined(separator: "\n") + "\n", to: "shuffled.csv")
            for (input, out) in [(Self.seoul, "a.geojson"), ("shuffled.csv", "b.geojson")] {
                let r = try folder.run("pins", input, "--zooms", "11-15", "--insecure-test-seed", "3", "--leaves", "-o", out)
                try #require(r.status == 0, "\(r)")
            }
            #expect(try folder.data("a.geojson") == folder.data("b.geojson"))
            let other = try folder.run("pins", Self.seoul, "--zoom", "18", "--insecure-test-seed", "4", "-o", "c.geojson")
            let same = try folder.run("pins", Self.seoul, "--zoom", "18", "--insecure-test-seed", "3", "-o", "d.geojson")
            try #require(other.status == 0 && same.status == 0)
            // Shared points depend on the true positions, not the key; pin ids depend on the key.
            let c = try Self.features(try folder.read("c.geojson")).map { $0.properties["id"] as! String }
            let d = Set(try Self.features(try folder.read("d.geojson")).map { $0.properties["id"] as! String })
            #expect(!c.isEmpty && c.allSatisfy { !d.contains($0) })
        }
    }

    @Test("filters at query time: pin counts add up to the brute-force count of passing listings; --bbox keeps pins whose centre is inside")
    func filtersAndBox() throws {
        try withTemporaryFolder { folder throws in
            let truth = try Self.listings(Self.seoul)
            let r = try folder.run("pins", Self.seoul, "--zooms", "12-13", "--insecure-test-seed", "7", "--category", "villa,one-room",
                                   "--deposit", "500..20000", "--rent", "..80", "--leaves", "-o", "f.geojson")
            try #require(r.status == 0, "\(r)")
            // The listings shown at all (the others are held back), then those passing the filter.
            let every = try folder.run("pins", Self.seoul, "--zoom", "12", "--insecure-test-seed", "7", "--leaves", "-o", "every.geojson")
            try #require(every.status == 0, "\(every)")
            let shown = Set(try Self.features(try folder.read("every.geojson")).flatMap(\.leaves))
            let passing = truth.filter { shown.contains($0.id) && ["villa", "one-room"].contains($0.category) && (500...20000).contains($0.deposit) && $0.rent <= 80 }
            #expect(passing.count > 100)
            let features = try Self.features(try folder.read("f.geojson"))
            for z in 12...13 {
                let pins = features.filter { $0.zoom == z }
                #expect(pins.reduce(0) { $0 + $1.count } == passing.count)
                #expect(Set(pins.flatMap(\.leaves)) == Set(passing.map(\.id)))
            }
            let box = [127.0, 37.5, 127.1, 37.6]
            let b = try folder.run("pins", Self.seoul, "--zoom", "13.7", "--insecure-test-seed", "7", "--bbox", "127.0,37.5,127.1,37.6", "-o", "b.geojson")
            let all = try folder.run("pins", Self.seoul, "--zoom", "13", "--insecure-test-seed", "7", "-o", "all.geojson")
            try #require(b.status == 0 && all.status == 0, "\(b)\(all)")
            let inBox = try Self.features(try folder.read("b.geojson"))
            let expected = try Self.features(try folder.read("all.geojson"))
                .filter { $0.lon >= box[0] && $0.lon <= box[2] && $0.lat >= box[1] && $0.lat <= box[3] }
            #expect(!inBox.isEmpty && inBox.allSatisfy { $0.zoom == 13 })
            #expect(inBox.map { $0.properties["id"] as! String } == expected.map { $0.properties["id"] as! String })
        }
    }

    @Test("GeoJSON input and an explicit location column")
    func geoJSONInput() throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("pins", Self.seoulGeoJSON, "--zoom", "12", "--insecure-test-seed", "1", "--location-column", "building_id",
                                   "-o", "g.geojson")
            try #require(r.status == 0, "\(r)")
            let shown = try #require(Self.shownCount(r.stderr), "\(r.stderr)")
            #expect(try Self.features(try folder.read("g.geojson")).reduce(0) { $0 + $1.count } == shown)
            #expect(shown + Self.heldBackCount(r.stderr) == 1000)
        }
    }

    @Test("bad input: a clear error, exit status 64 or 1, and no output file", arguments: [
        (["--zoom", "23", "--insecure-test-seed", "1"], 64, "--zoom 23.0 is outside 0–22"),
        (["--zoom=-1", "--insecure-test-seed", "1"], 64, "outside 0–22"),
        (["--zooms", "5-30", "--insecure-test-seed", "1"], 64, "0 <= A <= B <= 22"),
        (["--insecure-test-seed", "1"], 64, "give --zoom Z or --zooms A-B"),
        (["--zoom", "12"], 64, "give --key-file FILE"),
        (["--zoom", "12", "--insecure-test-seed", "1", "--no-privacy"], 64, "contradict"),
        (["--zoom", "12", "--insecure-test-seed", "1", "--bbox", "127.0,37.6,127.1,37.5"], 64, "minLat 37.6 is greater than maxLat 37.5"),
        (["--zoom", "12", "--insecure-test-seed", "1", "--radius", "0"], 64, "--radius must be a number of pixels > 0"),
        (["--zoom", "12", "--insecure-test-seed", "1", "--weak-plain-mask", "--min-offset", "80", "--max-offset", "30"], 64, "must be above --min-offset"),
        (["--zoom", "12", "--insecure-test-seed", "1", "--location-column", "house"], 1, "the location column 'house'"),
    ] as [([String], Int32, String)])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run(["pins", Self.seoul] + arguments + ["-o", "out.geojson"])
            #expect(r.status == status, "\(r)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(try folder.contents().isEmpty)
        }
    }

    @Test("a bad row is named by its line, without its coordinates")
    func badRow() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,lat,lon\n1,37.512345,127.012345\n2,86.123456,127.0\n", to: "in.csv")
            let r = try folder.run("pins", "in.csv", "--zoom", "3", "--insecure-test-seed", "1", "-o", "out.geojson")
            #expect(r.status == 1)
            #expect(r.stderr.contains("in.csv: listing row 1: the latitude is beyond ±85°"), "\(r.stderr)")
            #expect(!r.stderr.contains("86.12") && !r.stderr.contains("37.51"))
            #expect(try folder.contents() == ["in.csv"])
        }
    }

    @Test("nearby without the mask equals brute force (distances rounded to 100 m, then by id); with it, distances move by at most 80 m before rounding")
    func nearby() throws {
        try withTemporaryFolder { folder throws in
            let truth = try Self.listings(Self.seoul)
            // Around the first listing (an apartment complex).
            let (lat, lon) = (truth[0].lat, truth[0].lon)
            let r = try folder.run("nearby", Self.seoul, "--lat", "\(lat)", "--lon", "\(lon)", "--radius", "3km", "--no-privacy",
                                   "--limit", "100000", "--category", "apartment")
            try #require(r.status == 0, "\(r)")
            let rows = parseCSV(r.stdout)
            // Without the mask every column of the user's is carried, but the projected x, y.
            #expect(rows[0] == ["id", "distance_m", "lat", "lon", "category", "area_m2", "deposit", "monthly_rent", "truth", "floor"])
            let expected = truth.filter { $0.category == "apartment" }
                .map { ($0.id, (Self.greatCircle($0.lon, $0.lat, lon, lat) / 100).rounded(.toNearestOrAwayFromZero) * 100, Self.greatCircle($0.lon, $0.lat, lon, lat)) }
                .filter { $0.2 <= 3000 }
                .sorted { ($0.1, Int64($0.0)!) < ($1.1, Int64($1.0)!) }
            #expect(expected.count > 20)
            #expect(rows.dropFirst().map { $0[0] } == expected.map(\.0))
            #expect(rows.dropFirst().map { Double($0[1])! } == expected.map(\.1))

            let m = try folder.run("nearby", Self.seoul, "--lat", "\(lat)", "--lon", "\(lon)", "--radius", "3km", "--insecure-test-seed", "11",
                                   "--limit", "100000", "-o", "near.csv")
            try #require(m.status == 0, "\(m)")
            #expect(m.stdout.isEmpty)
            let byID = Dictionary(uniqueKeysWithValues: truth.map { ($0.id, $0) })
            let masked = parseCSV(try folder.read("near.csv")).dropFirst()
            #expect(masked.count > 100)
            // The default rule: every shown point is shared by at least 5 true locations (all of
            // them in the answer, at one distance), at most one of them within 30 m of it, and
            // none farther than the 1,500 m cap.
            var shared: [String: Set<String>] = [:]
            for row in masked {
                let t = byID[row[0]]!
                let d = Double(row[1])!
                #expect(d.truncatingRemainder(dividingBy: 100) == 0)
                #expect(abs(d - Self.greatCircle(t.lon, t.lat, lon, lat)) <= 1_500 * 1.005 + 50 + 1e-6)
                #expect(Self.metres(Double(row[3])!, Double(row[2])!, t.lon, t.lat) <= 1_500 * 1.005)
                shared["\(row[2]),\(row[3])", default: []].insert("\(t.lon),\(t.lat)")
            }
            for (point, members) in shared {
                #expect(members.count >= 5, "\(point) shows \(members.count) locations")
                let parts = point.split(separator: ",").map { Double($0)! }
                let near = members.filter { m in
                    let q = m.split(separator: ",").map { Double($0)! }
                    return Self.metres(parts[1], parts[0], q[0], q[1]) <= 30
                }
                #expect(Self.onePlace(near))
            }
            let bad = try folder.run("nearby", Self.seoul, "--lat", "37.55", "--lon", "127.0", "--radius", "0km", "--insecure-test-seed", "1", "-o", "x.csv")
            #expect(bad.status == 64 && bad.stderr.contains("--radius must be above 0"))
            #expect(try !folder.contents().contains("x.csv"))
        }
    }

    @Test("map --zoom draws the pins of that zoom at their diameters; rsvg-convert renders it")
    func mapZoom() throws {
        try withTemporaryFolder { folder throws in
            let box = "126.9,37.45,127.1,37.6"
            let p = try folder.run("pins", Self.seoul, "--zoom", "14", "--bbox", box, "--insecure-test-seed", "5", "-o", "p.geojson")
            let m = try folder.run("map", Self.seoul, "--zoom", "14", "--bbox", box, "--insecure-test-seed", "5", "-o", "m.svg")
            try #require(p.status == 0 && m.status == 0, "\(p)\(m)")
            let pins = try Self.features(try folder.read("p.geojson"))
            let svg = try folder.read("m.svg")
            let parser = XMLParser(data: Data(svg.utf8))
            #expect(parser.parse())
            // Pin discs are the circles with a white 2 pt rim; their radius is the last r="…" before it.
            var radii: [Double] = []
            for chunk in svg.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"2\"").dropLast() {
                let r = try #require(chunk.range(of: " r=\"", options: .backwards))
                radii.append(try #require(Double(String(chunk[r.upperBound...].prefix { $0 != "\"" }))))
            }
            #expect(radii.count == pins.count && pins.count > 5)
            let drawn = radii.map { 2 * $0 }.sorted(), given = pins.map(\.diameter).sorted()
            #expect(zip(drawn, given).allSatisfy { abs($0 - $1) <= 0.11 }, "\(drawn) vs \(given)")
            let noSeed = try folder.run("map", Self.seoul, "--zoom", "14", "-o", "n.svg")
            #expect(noSeed.status == 64 && noSeed.stderr.contains("give --key-file FILE"))
            #expect(try !folder.contents().contains("n.svg"))
        }
    }
}
