import Foundation
import Pins
import Testing
import TestSupport

/// A store finder's file (name, brand, hours, price, a postcode with a leading zero) through
/// `nearby` and `pins`: the columns come out with their types, `--where` filters on them, and
/// under the privacy mask nothing is published that was not named.
@Suite("your own columns on pins and nearby")
struct OwnColumnsTests {
    static let brands = ["Starbucks", "Ediya", "Mega Coffee", "Paik's"]

    /// 120 stores around Seoul's city hall, store i of brand i % 4, price missing for every
    /// 10th, postcode `0` followed by four digits.
    static func stores() -> String {
        var rows = ["id,lat,lon,name,brand,hours,price,zip"]
        for i in 0..<120 {
            let (lat, lon) = (37.56 + Double(i % 11) * 0.0009, 126.97 + Double(i / 11) * 0.0011)
            let price = i % 10 == 0 ? "" : String(1500 + 37 * i)
            rows.append("\(500 + i),\(lat),\(lon),\"\(brands[i % 4]) #\(i)\",\(brands[i % 4]),07:00-22:00,\(price),0\(1000 + i)")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    static let query = ["--lat", "37.565", "--lon", "126.975", "--radius", "3km", "--limit", "500"]

    @Test("nearby carries every column with --no-privacy: numbers as numbers, a postcode with its leading zero as text, a missing price as null")
    func nearbyCarriesTheColumns() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.stores(), to: "stores.csv")
            let r = try folder.run(["nearby", "stores.csv", "--no-privacy", "-o", "n.geojson"] + Self.query)
            try #require(r.status == 0, "\(r)")
            let json = try JSONSerialization.jsonObject(with: folder.data("n.geojson")) as! [String: Any]
            let features = json["features"] as! [[String: Any]]
            #expect(features.count == 120)
            for f in features {
                let p = f["properties"] as! [String: Any]
                let i = (p["id"] as! Int) - 500
                #expect(p["name"] as? String == "\(Self.brands[i % 4]) #\(i)" && p["brand"] as? String == Self.brands[i % 4])
                #expect(p["zip"] as? String == "0\(1000 + i)", "\(p)")
                if i % 10 == 0 { #expect(p["price"] is NSNull) } else { #expect(p["price"] as? Int == 1500 + 37 * i, "\(p)") }
            }
        }
    }

    @Test("--where keeps a brand set and a price range, in nearby and in pins (--leaves lists only the passing stores)")
    func whereFilters() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.stores(), to: "stores.csv")
            let conditions = ["--where", "brand=Ediya,Paik's", "--where", "price=2000..4000"]
            func passes(_ i: Int) -> Bool {
                let price = 1500 + 37 * i
                return (i % 4 == 1 || i % 4 == 3) && i % 10 != 0 && price >= 2000 && price <= 4000
            }
            let expected = Set((0..<120).filter(passes).map { 500 + $0 })
            let r = try folder.run(["nearby", "stores.csv", "--no-privacy", "-o", "n.csv"] + Self.query + conditions)
            try #require(r.status == 0, "\(r)")
            let ids = try folder.read("n.csv").split(separator: "\n").dropFirst().map { Int($0.split(separator: ",")[0])! }
            #expect(Set(ids) == expected && ids.count == expected.count)
            let p = try folder.run(["pins", "stores.csv", "--no-privacy", "--zoom", "12", "--leaves", "-o", "p.geojson"] + conditions)
            try #require(p.status == 0, "\(p)")
            let json = try JSONSerialization.jsonObject(with: folder.data("p.geojson")) as! [String: Any]
            let leaves = (json["features"] as! [[String: Any]]).flatMap { ($0["properties"] as! [String: Any])["leaves"] as! [Int] }
            #expect(Set(leaves) == expected && leaves.count == expected.count)
            // Each pin summarises what passed: its brands counted, its prices' range and median.
            for feature in json["features"] as! [[String: Any]] {
                let p = feature["properties"] as! [String: Any]
                let ids = (p["leaves"] as! [Int]).map { $0 - 500 }
                var brands: [String: Int] = [:]
                for i in ids { brands[Self.brands[i % 4], default: 0] += 1 }
                #expect(p["brand_counts"] as? [String: Int] == brands, "\(p)")
                let prices = ids.map { 1500 + 37 * $0 }
                #expect(p["price_min"] as? Int == prices.min() && p["price_max"] as? Int == prices.max(), "\(p)")
                #expect(p["name_counts"] == nil, "120 names are too many to count")
            }
        }
    }

    @Test("under the privacy mask nothing of the user's own is published unless named; --where on an unnamed column is a usage error")
    func privateByDefault() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.stores(), to: "stores.csv")
            try folder.write(PinsKey.generate().hexEncoded() + "\n", to: "k")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.path("k"))
            let masked = try folder.run(["nearby", "stores.csv", "--key-file", "k", "-o", "m.csv"] + Self.query)
            try #require(masked.status == 0, "\(masked)")
            let text = try folder.read("m.csv")
            #expect(text.hasPrefix("id,distance_m,lat,lon,category,area_m2,deposit,monthly_rent\n"), "\(text.prefix(200))")
            #expect(!text.contains("Ediya") && !text.contains("07:00"))
            let named = try folder.run(["nearby", "stores.csv", "--key-file", "k", "--properties", "brand", "-o", "b.csv"] + Self.query)
            try #require(named.status == 0, "\(named)")
            let b = try folder.read("b.csv")
            #expect(b.hasPrefix("id,distance_m,lat,lon,category,area_m2,deposit,monthly_rent,brand\n") && !b.contains("07:00") && !b.contains("#"))
            let unnamed = try folder.run(["nearby", "stores.csv", "--key-file", "k", "--where", "brand=Ediya", "-o", "x.csv"] + Self.query)
            #expect(unnamed.status == 64 && unnamed.stderr.contains("add it to --properties"), "\(unnamed)")
            let missing = try folder.run(["pins", "stores.csv", "--no-privacy", "--zoom", "12", "--properties", "name,colour", "-o", "y.geojson"])
            #expect(missing.status == 1 && missing.stderr.contains("'colour' (named by --properties)"), "\(missing)")
            let position = try folder.run(["nearby", PinsCommandTests.seoul, "--key-file", "k", "--properties", "truth,x", "-o", "x.csv"] + Self.query)
            #expect(position.status == 64 && position.stderr.contains("holds positions"), "\(position)")
            let kind = try folder.run(["nearby", "stores.csv", "--no-privacy", "--where", "brand=1..2", "-o", "z.csv"] + Self.query)
            #expect(kind.status == 1 && kind.stderr.contains("brand holds texts"), "\(kind)")
            // Nothing written by the refused runs (k.mask is the mask file the published runs keep).
            #expect(try folder.contents().sorted() == ["b.csv", "k", "k.mask", "m.csv", "stores.csv"])
        }
    }

    @Test("GeoJSON input: its properties are the columns (true/false as text), the same answers as the CSV")
    func geoJSONInput() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.stores(), to: "stores.csv")
            var features: [String] = []
            for i in 0..<120 {
                let (lat, lon) = (37.56 + Double(i % 11) * 0.0009, 126.97 + Double(i / 11) * 0.0011)
                let price = i % 10 == 0 ? "null" : String(1500 + 37 * i)
                features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"id":\#(500 + i),"name":"\#(Self.brands[i % 4]) #\#(i)","brand":"\#(Self.brands[i % 4])","hours":"07:00-22:00","price":\#(price),"zip":"0\#(1000 + i)"}}"#)
            }
            try folder.write(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", to: "stores.geojson")
            for input in ["stores.csv", "stores.geojson"] {
                let r = try folder.run(["nearby", input, "--no-privacy", "--where", "brand=Mega Coffee", "-o", "\(input).out.csv"] + Self.query)
                try #require(r.status == 0, "\(r)")
            }
            #expect(try folder.read("stores.csv.out.csv") == folder.read("stores.geojson.out.csv"))
        }
    }

    @Test("a column named like a built-in property (count, distance_m) is written as own_NAME, with a warning, never over the built-in one")
    func clashingNames() throws {
        try withTemporaryFolder { folder throws in
            let text = Self.stores().split(separator: "\n").enumerated().map { k, line in
                line + (k == 0 ? ",count,distance_m" : ",\(k * 1000),\(k)")
            }.joined(separator: "\n") + "\n"
            try folder.write(text, to: "stores.csv")
            let p = try folder.run(["pins", "stores.csv", "--no-privacy", "--zoom", "22", "-o", "p.geojson"])
            try #require(p.status == 0, "\(p)")
            #expect(p.stderr.contains("your column 'count' has the name of a property the output has already; written as 'own_count'"), "\(p.stderr)")
            let json = try JSONSerialization.jsonObject(with: folder.data("p.geojson")) as! [String: Any]
            for feature in json["features"] as! [[String: Any]] {
                let props = feature["properties"] as! [String: Any]
                #expect(props["count"] as? Int == 1 && props["own_count"] is Int && props["distance_m"] is Int, "\(props)")
            }
            let n = try folder.run(["nearby", "stores.csv", "--no-privacy", "-o", "n.csv"] + Self.query)
            try #require(n.status == 0, "\(n)")
            #expect(try folder.read("n.csv").hasPrefix("id,distance_m,lat,lon,category,area_m2,deposit,monthly_rent,name,brand,hours,price,zip,count,own_distance_m\n"))
        }
    }

    @Test("filter and cluster take --where on any column too: the rows brute force keeps, CSV or GeoJSON; a missing or taken column is refused")
    func fileFilters() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.stores(), to: "stores.csv")
            let conditions = ["--where", "brand=Starbucks,Mega Coffee", "--where", "price=..4000", "--where", "zip=01010..01090"]
            func passes(_ i: Int) -> Bool {
                let price = 1500 + 37 * i, zip = 1000 + i
                return (i % 4 == 0 || i % 4 == 2) && i % 10 != 0 && price <= 4000 && zip >= 1010 && zip <= 1090
            }
            let expected = (0..<120).filter(passes).map { String(500 + $0) }
            let f = try folder.run(["filter", "stores.csv", "-o", "f.csv"] + conditions)
            try #require(f.status == 0, "\(f)")
            let kept = try folder.read("f.csv").split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
            #expect(kept == expected && !expected.isEmpty, "\(kept)")
            let g = try folder.run(["filter", "stores.csv", "--bbox", "-180,-85,180,85", "-o", "all.geojson"])
            try #require(g.status == 0, "\(g)")
            let fg = try folder.run(["filter", "all.geojson", "-o", "f.geojson"] + conditions)
            try #require(fg.status == 0, "\(fg)")
            let json = try JSONSerialization.jsonObject(with: folder.data("f.geojson")) as! [String: Any]
            let ids = (json["features"] as! [[String: Any]]).map { "\(($0["properties"] as! [String: Any])["id"]!)" }
            #expect(ids == expected)
            let c = try folder.run(["cluster", "stores.csv", "--algorithm", "grid", "--cell-size", "300", "-o", "L.csv"] + conditions)
            let d = try folder.run(["cluster", "f.csv", "--algorithm", "grid", "--cell-size", "300", "-o", "M.csv"])
            try #require(c.status == 0 && d.status == 0, "\(c)\(d)")
            #expect(try folder.read("L.csv") == folder.read("M.csv"))
            let missing = try folder.run(["filter", "stores.csv", "--where", "colour=red", "-o", "x.csv"])
            #expect(missing.status == 1 && missing.stderr.contains("--where needs the colour column"), "\(missing)")
            let taken = try folder.run(["filter", "stores.csv", "--where", "lat=1..2", "-o", "x.csv"])
            #expect(taken.status == 1 && taken.stderr.contains("filter it with its own option"), "\(taken)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("x.csv")))
        }
    }
}
