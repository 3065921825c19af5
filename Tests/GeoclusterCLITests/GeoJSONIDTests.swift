import Foundation
import Testing
import TestSupport

/// Ids and numeric-looking fields in the GeoJSON the commands write: an id is a JSON number
/// only when it is a plain integer within ±(2^53 − 1), so every reader gets back the text it
/// was given; another field is a number only when a reader holding doubles keeps its value.
@Suite("GeoJSON ids")
struct GeoJSONIDTests {
    /// The ids under test, then plain ones; `score` holds a number of each kind.
    static let specialIDs = ["12345678901234567890123", "1e3", "9007199254740993", "42", "007", "-0",
                             "9007199254740991", "-9007199254740991", "9007199254740992", "3.0"]
    static let scores = ["12.50", "1e3", "12345678901234567890123", "0.1", "-7", "x", "", "9007199254740993",
                         "0.30000000000000000001", "1e999"]

    /// Two tight groups of 20 rows around Seoul; the first rows carry `specialIDs` and `scores`.
    static func input() -> (text: String, ids: [String]) {
        var text = "id,lat,lon,score\n", ids: [String] = []
        for i in 0..<40 {
            let id = i < specialIDs.count ? specialIDs[i] : "r\(i)"
            let lat = (i < 20 ? 37.5 : 37.6) + Double(i % 5) * 0.0001
            let lon = (i < 20 ? 127.0 : 127.1) + Double(i % 20 / 5) * 0.0001
            ids.append(id)
            text += "\(id),\(String(format: "%.4f", lat)),\(String(format: "%.4f", lon)),"
                + (i < scores.count ? scores[i] : "1") + "\n"
        }
        return (text, ids)
    }

    @Test("cluster -o .geojson: 23-digit, 1e3, 2^53+1 and 007 ids as strings, 42 and ±(2^53−1) as numbers; read back as the same text")
    func clusterIDsRoundTrip() throws {
        try withTemporaryFolder { folder throws in
            let (text, ids) = Self.input()
            let input = try folder.write(text, to: "in.csv")
            let r = try folder.run("cluster", input, "--min-cluster-size", "5", "-o", "out.geojson")
            try #require(r.status == 0, "\(r)")
            let out = try folder.read("out.geojson")
            for id in ["12345678901234567890123", "1e3", "9007199254740993", "007", "-0", "9007199254740992", "3.0", "r10"] {
                #expect(out.contains(#""id":"\#(id)","#), "\(id) as a string")
            }
            for id in ["42", "9007199254740991", "-9007199254740991"] {
                #expect(out.contains(#""id":\#(id),"#), "\(id) as a number")
            }
            // Through a JSON parser, every id is the text it was given.
            let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
            let features = try #require(json["features"] as? [[String: Any]])
            let parsed = features.map { f -> String in
                let v = (f["properties"] as? [String: Any])?["id"]
                if let s = v as? String { return s }
                if let n = v as? NSNumber { return String(n.int64Value) }
                return "?"
            }
            #expect(parsed == ids)

            // Read back by geocluster itself: the ids come back as the input's text.
            let back = try folder.run("cluster", folder.path("out.geojson"), "--min-cluster-size", "5", "-o", "back.csv")
            try #require(back.status == 0, "\(back)")
            let rows = parseCSV(try folder.read("back.csv"))
            #expect(rows.dropFirst().map { $0[0] } == ids)
        }
    }

    @Test("cluster --append -o .geojson: the id column by the id rule, other columns numbers only when their value survives a double")
    func appendedColumns() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Self.input().text, to: "in.csv")
            let r = try folder.run("cluster", input, "--min-cluster-size", "5", "--append", "-o", "A.geojson")
            try #require(r.status == 0, "\(r)")
            let out = try folder.read("A.geojson")
            #expect(out.contains(#""id":"12345678901234567890123","score":12.50,"#), "\(out.prefix(400))")
            #expect(out.contains(#""id":"1e3","score":1e3,"#))
            #expect(out.contains(#""id":"9007199254740993","score":"12345678901234567890123","#))
            #expect(out.contains(#""id":42,"score":0.1,"#))
            #expect(out.contains(#""id":"007","score":-7,"#))
            #expect(out.contains(#""id":"-0","score":"x","#))
            #expect(out.contains(#""id":9007199254740991,"score":null,"#))
            #expect(out.contains(#""id":-9007199254740991,"score":"9007199254740993","#))
            #expect(out.contains(#""score":"0.30000000000000000001","#))
            #expect(out.contains(#""score":"1e999","#))
        }
    }
}
