import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder

@Suite("Coordinate columns and ids")
struct CoordinateColumnTests {
    /// Reads `text` both ways (whole table and streaming) and returns both results.
    private func readBoth(_ text: String, prefer: CoordinateKind? = nil) throws -> (table: TableCoordinates, points: PointFile) {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "IN.csv")
            return (try CSV.read(path: path).coordinates(prefer: prefer), try PointFile.read(path: path, prefer: prefer))
        }
    }

    @Test("latitude and longitude columns are found by any accepted name, any case, any order",
          arguments: [
              ("lat", "lon"), ("latitude", "longitude"), ("lat", "lng"), ("LAT", "Lon"),
              (" Latitude ", "LNG"), ("Lat", "Longitude"),
          ])
    func latLonNames(names: (String, String)) throws {
        let (latName, lonName) = names
        let expected = TableCoordinates(kind: .lonlat, xOrLongitude: [127.0276, 126.9779], yOrLatitude: [37.4979, 37.5663])
        let latFirst = try readBoth("id,\(latName),\(lonName)\n1,37.4979,127.0276\n2,37.5663,126.9779\n")
        #expect(latFirst.table == expected)
        #expect(latFirst.points.coordinates == expected)
        let lonFirst = try readBoth("\(lonName),note,\(latName)\n127.0276,a,37.4979\n126.9779,b,37.5663\n")
        #expect(lonFirst.table == expected)
        #expect(lonFirst.points.coordinates == expected)
    }

    @Test("x and y columns give planar coordinates, in either order and any case")
    func xyColumns() throws {
        let expected = TableCoordinates(kind: .xy, xOrLongitude: [953892.211, 1.5], yOrLatitude: [1952009.941, -2.5])
        #expect(try readBoth("id,x,y\na,953892.211,1952009.941\nb,1.5,-2.5\n").table == expected)
        #expect(try readBoth("Y,X\n1952009.941,953892.211\n-2.5,1.5\n").points.coordinates == expected)
    }

    @Test("with both kinds present, prefer picks one; nil picks x,y (no projection needed)")
    func preference() throws {
        let text = "id,lat,lon,x,y\n1,37.5,127.0,1000,2000\n2,37.6,127.1,3000,4000\n"
        let xy = TableCoordinates(kind: .xy, xOrLongitude: [1000, 3000], yOrLatitude: [2000, 4000])
        let lonlat = TableCoordinates(kind: .lonlat, xOrLongitude: [127.0, 127.1], yOrLatitude: [37.5, 37.6])
        for (prefer, expected) in [(nil, xy), (.xy, xy), (.lonlat, lonlat)] as [(CoordinateKind?, TableCoordinates)] {
            let both = try readBoth(text, prefer: prefer)
            #expect(both.table == expected, "prefer: \(String(describing: prefer))")
            #expect(both.points.coordinates == expected, "prefer: \(String(describing: prefer))")
        }
    }

    @Test("when several accepted names are present, the first in the list of names wins")
    func namePriority() throws {
        // "lat" is tried before "latitude", "lon" before "lng" before "longitude".
        let both = try readBoth("latitude,longitude,lng,lat,lon\n1,2,3,4,5\n")
        let expected = TableCoordinates(kind: .lonlat, xOrLongitude: [5], yOrLatitude: [4])
        #expect(both.table == expected)
        #expect(both.points.coordinates == expected)
    }

    @Test("coordinate fields may carry spaces around the number")
    func spacesAroundNumbers() throws {
        let both = try readBoth("x,y\n 1.5 ,  -2\n")
        #expect(both.table == TableCoordinates(kind: .xy, xOrLongitude: [1.5], yOrLatitude: [-2]))
        #expect(both.points.coordinates == both.table)
    }

    @Test("an id column gives the ids as written; without one, ids are 0-based row numbers")
    func ids() throws {
        try withTemporaryFolder { folder throws in
            let withIDs = try folder.write("ID,x,y\nA-7,1,2\n\"a,b\",3,4\n,5,6\n강남-1,7,8\n", to: "ids.csv")
            let p = try PointFile.read(path: withIDs)
            #expect(p.hasIDColumn)
            #expect((0..<p.count).map(p.id) == ["A-7", "a,b", "", "강남-1"])
            #expect(try CSV.read(path: withIDs).ids() == ["A-7", "a,b", "", "강남-1"])

            let without = try folder.write("x,y,name\n1,2,a\n3,4,b\n5,6,c\n", to: "noids.csv")
            let q = try PointFile.read(path: without)
            #expect(!q.hasIDColumn)
            #expect((0..<q.count).map(q.id) == ["0", "1", "2"])
            #expect(try CSV.read(path: without).ids() == ["0", "1", "2"])
        }
    }

    @Test("a point file keeps the header, the row count and each row's file line")
    func pointFileShape() throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write("id,name,x,y\n1,\"two\nlines\",1,2\n\n2,b,3,4\n", to: "p.csv")
            let p = try PointFile.read(path: path)
            #expect(p.path == path)
            #expect(p.header == ["id", "name", "x", "y"])
            #expect(p.count == 2)
            #expect(p.lines == [2, 5])
        }
    }
}

@Suite("CSV writing")
struct CSVWritingTests {
    static let awkward = [
        "plain", "", "a,b", "say \"hi\"", "\"", "\"\"", "line1\nline2", "cr\r\nlf", "lone\rcr",
        "강남구", " leading and trailing ", "trailing,", ",", "\"quoted\"", "mixed, \"all\"\nof it\r\n",
    ]

    @Test("escape quotes only fields that need it")
    func escape() {
        #expect(CSV.escape("plain") == "plain")
        #expect(CSV.escape("") == "")
        #expect(CSV.escape("강남구") == "강남구")
        #expect(CSV.escape("a,b") == "\"a,b\"")
        #expect(CSV.escape("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.escape("a\nb") == "\"a\nb\"")
        #expect(CSV.escape("a\rb") == "\"a\rb\"")
        // "\r\n" is a single Character in Swift; it must still be quoted.
        #expect(CSV.escape("a\r\nb") == "\"a\r\nb\"")
    }

    @Test("format then parse gives back every awkward field", arguments: awkward)
    func roundTripOne(field: String) throws {
        let header = ["id", "field", "tail"]
        let rows = [["1", field, "end"], [field, field, field]]
        let text = CSV.format(header: header, rows: rows)
        let t = try CSV.parse(bytes(text), path: "rt.csv")
        #expect(t.header == header)
        #expect(t.rows == rows)
    }

    @Test("format then parse round-trips a whole table of awkward fields, header included")
    func roundTripTable() throws {
        let header = Self.awkward.filter { !$0.isEmpty }
        let rows = (0..<Self.awkward.count).map { r in
            (0..<header.count).map { c in Self.awkward[(r + c) % Self.awkward.count] }
        }
        let text = CSV.format(header: header, rows: rows)
        #expect(text.hasSuffix("\n"))
        let t = try CSV.parse(bytes(text), path: "rt.csv")
        #expect(t.header == header)
        #expect(t.rows == rows)
        try withTemporaryFolder { folder throws in
            let path = folder.path("rt.csv")
            try AtomicFile.write(text, to: path)
            #expect(try CSV.read(path: path).rows == rows)
        }
    }

    @Test("a one-column table whose field is empty keeps that row")
    func singleEmptyField() throws {
        let rows = [["a"], [""], ["b"]]
        let t = try CSV.parse(bytes(CSV.format(header: ["name"], rows: rows)), path: "one.csv")
        #expect(t.rows == rows)
    }
}
