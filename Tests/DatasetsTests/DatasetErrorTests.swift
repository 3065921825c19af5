import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder

/// Every malformed input gives its exact `DatasetError`, naming the file and, where there is
/// one, the 1-based file line (header = line 1) and the column. Each file is read both ways:
/// whole (`CSV.read` + `coordinates()`) and streaming (`PointFile.read`).
@Suite("Dataset errors")
struct DatasetErrorTests {
    /// Reads `text` from a file both ways and expects `error(path)` from each.
    private func expectBothReaders(
        _ text: String, prefer: CoordinateKind? = nil,
        throw error: (String) -> DatasetError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "IN.csv")
            let expected = error(path)
            #expect(throws: expected, "PointFile.read", sourceLocation: sourceLocation) {
                try PointFile.read(path: path, prefer: prefer)
            }
            #expect(throws: expected, "CSV.read + coordinates", sourceLocation: sourceLocation) {
                try CSV.read(path: path).coordinates(prefer: prefer)
            }
        }
    }

    // MARK: - Files that cannot be read

    @Test("a missing file is .fileNotFound with the path as given")
    func missingFile() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.path("nope.csv")
            #expect(throws: DatasetError.fileNotFound(path: path)) { try CSV.read(path: path) }
            #expect(throws: DatasetError.fileNotFound(path: path)) { try PointFile.read(path: path) }
            #expect(try folder.contents().isEmpty)
        }
    }

    @Test("a folder given as the file is .unreadable saying it is a folder")
    func folderAsFile() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.url.path
            let expected = DatasetError.unreadable(path: path, reason: "it is a folder")
            #expect(throws: expected) { try CSV.read(path: path) }
            #expect(throws: expected) { try PointFile.read(path: path) }
            #expect(expected.description.contains(path))
        }
    }

    @Test("an empty file (or one holding only a BOM or blank lines) is .empty",
          arguments: ["", "\u{FEFF}", "\n", "\r\n\r\n", "\n\n\n"])
    func emptyFile(text: String) throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "IN.csv")
            #expect(throws: DatasetError.empty(path: path)) { try CSV.read(path: path) }
            #expect(throws: DatasetError.empty(path: path)) { try PointFile.read(path: path) }
            #expect(throws: DatasetError.empty(path: "mem.csv")) { try CSV.parse(bytes(text), path: "mem.csv") }
        }
    }

    @Test("a header without data rows is .headerOnly", arguments: ["x,y", "x,y\n", "x,y\r\n", "x,y\n\n\n", "\u{FEFF}x,y\n"])
    func headerOnly(text: String) throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "IN.csv")
            #expect(throws: DatasetError.headerOnly(path: path)) { try CSV.read(path: path) }
            #expect(throws: DatasetError.headerOnly(path: path)) { try PointFile.read(path: path) }
        }
    }

    // MARK: - Columns

    @Test("no coordinate columns is .missingColumns listing the header")
    func noCoordinateColumns() throws {
        try expectBothReaders("id,name,east\n1,a,2\n") {
            .missingColumns(path: $0, wanted: "coordinate (x,y or lat,lon; name others with --lat-column, --lon-column or --x-column, --y-column)", found: ["id", "name", "east"])
        }
        // Half a pair is not a pair.
        try expectBothReaders("x,lat\n1,2\n") {
            .missingColumns(path: $0, wanted: "coordinate (x,y or lat,lon; name others with --lat-column, --lon-column or --x-column, --y-column)", found: ["x", "lat"])
        }
    }

    @Test("asking for a kind of coordinates the file lacks is .missingColumns naming that kind")
    func preferredKindMissing() throws {
        try expectBothReaders("id,lat,lon\n1,37.5,127\n", prefer: .xy) {
            .missingColumns(path: $0, wanted: "x and y (name others with --x-column, --y-column)", found: ["id", "lat", "lon"])
        }
        try expectBothReaders("id,x,y\n1,2,3\n", prefer: .lonlat) {
            .missingColumns(path: $0, wanted: "lat/latitude/위도 and lon/lng/long/longitude/경도 (name others with --lat-column, --lon-column)", found: ["id", "x", "y"])
        }
    }

    @Test("a header-only file with no coordinate columns reports the columns, not the missing rows")
    func headerOnlyWithoutCoordinates() throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write("a,b\n", to: "IN.csv")
            #expect(throws: DatasetError.missingColumns(path: path, wanted: "coordinate (x,y or lat,lon; name others with --lat-column, --lon-column or --x-column, --y-column)", found: ["a", "b"])) {
                try PointFile.read(path: path)
            }
        }
    }

    // MARK: - Values

    @Test("a non-numeric coordinate is .invalidNumber with line, column name and text")
    func nonNumeric() throws {
        try expectBothReaders("id,x,y\n1,1,2\n2,abc,3\n") {
            .invalidNumber(path: $0, line: 3, column: "x", text: "abc")
        }
        try expectBothReaders("id,lat,lon\n1,37.5,127\n2,37.5,\n") {
            .invalidNumber(path: $0, line: 3, column: "lon", text: "")
        }
        try expectBothReaders("id,x,y\n1,1,2\n2,3,1.5.2\n") {
            .invalidNumber(path: $0, line: 3, column: "y", text: "1.5.2")
        }
        // The column is named as the header spells it.
        try expectBothReaders("id,Latitude,LNG\n1,37.5,127\n2,N37,127\n") {
            .invalidNumber(path: $0, line: 3, column: "Latitude", text: "N37")
        }
    }

    @Test("NaN and infinity are .nonFinite with the text as written",
          arguments: ["nan", "NaN", "inf", "-inf", "Infinity", "1e999"])
    func nonFinite(text: String) throws {
        try expectBothReaders("id,x,y\n1,1,2\n2,3,\(text)\n") {
            .nonFinite(path: $0, line: 3, column: "y", text: text)
        }
        try expectBothReaders("id,lat,lon\n1,37.5,127\n2,\(text),127\n") {
            .nonFinite(path: $0, line: 3, column: "lat", text: text)
        }
    }

    @Test("a latitude beyond ±90 is .outOfRange naming the line and column", arguments: [91.0, -90.5, 90.000001])
    func latitudeOutOfRange(lat: Double) throws {
        try expectBothReaders("id,lat,lon\n1,37.5,127\n2,\(lat),127\n") {
            .outOfRange(path: $0, line: 3, column: "lat", value: lat, limit: "latitude must be within ±90")
        }
    }

    @Test("a longitude beyond ±180 is .outOfRange naming the line and column; in 180…360 the message offers the 0…360 fix",
          arguments: [(180.5, true), (-181.0, false), (360.0, true), (360.5, false), (-200, false)])
    func longitudeOutOfRange(lon: Double, looksLike0To360: Bool) throws {
        let limit = looksLike0To360
            ? "longitude must be within ±180; if your data uses 0…360, subtract 360 from values above 180"
            : "longitude must be within ±180"
        try expectBothReaders("id,latitude,longitude\n1,37.5,127\n2,37.5,\(lon)\n") {
            .outOfRange(path: $0, line: 3, column: "longitude", value: lon, limit: limit)
        }
    }

    @Test("the limits themselves are accepted, and x,y values are not range-checked")
    func limitsAccepted() throws {
        try withTemporaryFolder { folder throws in
            let ll = try folder.write("lat,lon\n90,180\n-90,-180\n", to: "ll.csv")
            #expect(try PointFile.read(path: ll).coordinates == TableCoordinates(kind: .lonlat, xOrLongitude: [180, -180], yOrLatitude: [90, -90]))
            #expect(try CSV.read(path: ll).coordinates() == TableCoordinates(kind: .lonlat, xOrLongitude: [180, -180], yOrLatitude: [90, -90]))
            let xy = try folder.write("x,y\n953892.2,1952009.9\n-500,-1000\n", to: "xy.csv")
            #expect(try PointFile.read(path: xy).coordinates.xOrLongitude == [953892.2, -500])
        }
    }

    @Test("both readers report the first bad value in file order")
    func firstBadValueInFileOrder() throws {
        // Line 2 has a latitude out of range; line 3 a longitude that is not a number.
        try expectBothReaders("lat,lon\n91,0\n0,abc\n") {
            .outOfRange(path: $0, line: 2, column: "lat", value: 91, limit: "latitude must be within ±90")
        }
        // Line 2's y is bad; line 3's x is bad: line 2 comes first.
        try expectBothReaders("x,y\n1,abc\nxyz,1\n") {
            .invalidNumber(path: $0, line: 2, column: "y", text: "abc")
        }
        // Within a row, the earlier column comes first (here lon precedes lat in the header).
        try expectBothReaders("lon,lat\n200,abc\n") {
            .outOfRange(path: $0, line: 2, column: "lon", value: 200,
                        limit: "longitude must be within ±180; if your data uses 0…360, subtract 360 from values above 180")
        }
    }

    // MARK: - Structure

    @Test("a row with too few or too many fields is .raggedRow with both counts")
    func raggedRows() throws {
        try expectBothReaders("id,x,y\n1,2,3\n4,5\n") {
            .raggedRow(path: $0, line: 3, expected: 3, found: 2)
        }
        try expectBothReaders("id,x,y\n1,2,3\n4,5,6,7\n") {
            .raggedRow(path: $0, line: 3, expected: 3, found: 4)
        }
        // A trailing comma is one more (empty) field.
        try expectBothReaders("id,x,y\n1,2,3,\n") {
            .raggedRow(path: $0, line: 2, expected: 3, found: 4)
        }
        // CSV.parse checks rows even when no coordinates are wanted.
        #expect(throws: DatasetError.raggedRow(path: "m.csv", line: 2, expected: 2, found: 1)) {
            try CSV.parse(bytes("a,b\nonly\n"), path: "m.csv")
        }
    }

    @Test("an unterminated quote is .unterminatedQuote naming the line where the quote opened")
    func unterminatedQuote() throws {
        try expectBothReaders("id,x,y\n1,2,3\n2,\"abc,3\n4,5,6\n") {
            .unterminatedQuote(path: $0, line: 3)
        }
        // Opened after an earlier multi-line field: still the opening line.
        try expectBothReaders("id,name,x,y\n1,\"a\nb\nc\",1,2\n2,ok,1,2\n3,\"open,1,2\n\n") {
            .unterminatedQuote(path: $0, line: 6)
        }
        // A doubled quote inside does not close it.
        #expect(throws: DatasetError.unterminatedQuote(path: "m.csv", line: 2)) {
            try CSV.parse(bytes("a\n\"x\"\"y\n"), path: "m.csv")
        }
    }

    @Test("line numbers are file lines: they count lines inside quoted fields, blank lines, CRLF files and a BOM")
    func lineNumbersAfterMultilineFields() throws {
        // Row 1's name spans lines 2-4, so row 2 is on line 5.
        try expectBothReaders("id,name,x,y\n1,\"a\nb\nc\",1,2\n2,ok,abc,3\n") {
            .invalidNumber(path: $0, line: 5, column: "x", text: "abc")
        }
        try expectBothReaders("id,name,x,y\r\n1,\"a\r\nb\",1,2\r\n\r\n2,ok,1\r\n") {
            .raggedRow(path: $0, line: 5, expected: 4, found: 3)
        }
        try expectBothReaders("\u{FEFF}id,x,y\n1,\"2\",3\n\n\n2,3,nan\n") {
            .nonFinite(path: $0, line: 5, column: "y", text: "nan")
        }
        try expectBothReaders("lat,lon,note\n37,127,\"x\n\ny\"\n38,127,\"p\nq\"\n99,127,z\n") {
            .outOfRange(path: $0, line: 7, column: "lat", value: 99, limit: "latitude must be within ±90")
        }
    }

    @Test("the table records the line each row starts on")
    func tableLines() throws {
        let t = try CSV.parse(bytes("id,name\n1,\"a\nb\"\n\n2,c\n3,\"\n\n\"\n4,d\n"), path: "m.csv")
        #expect(t.lines == [2, 5, 6, 9])
    }

    // MARK: - Messages

    @Test("messages name file:line and the column, and say what to do")
    func messages() {
        #expect(DatasetError.invalidNumber(path: "IN.csv", line: 3, column: "x", text: "abc").description
            == "IN.csv:3: column 'x': 'abc' is not a number")
        #expect(DatasetError.unterminatedQuote(path: "IN.csv", line: 7).description.hasPrefix("IN.csv:7: "))
        #expect(DatasetError.raggedRow(path: "IN.csv", line: 4, expected: 3, found: 2).description
            .hasPrefix("IN.csv:4: row has 2 field(s) but the header has 3"))
        #expect(DatasetError.outOfRange(path: "IN.csv", line: 2, column: "lat", value: 91, limit: "latitude must be within ±90").description
            .contains("IN.csv:2: column 'lat'"))
        #expect(DatasetError.outputFolderMissing(path: "out/x.csv").description.contains("create it first"))
        #expect(DatasetError.fileNotFound(path: "a.csv").description.hasPrefix("a.csv: "))
    }
}
