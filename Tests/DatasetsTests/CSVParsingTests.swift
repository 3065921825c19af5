import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder

@Suite("CSV parsing")
struct CSVParsingTests {
    @Test("quoted fields keep commas, doubled quotes and line breaks; rows keep their start lines")
    func quotedFields() throws {
        let text = "id,name,note\n"
            + "1,\"Gangnam, Seoul\",\"say \"\"hi\"\"\"\n"
            + "2,\"line one\nline two\",x\n"
            + "3,plain,\n"
            + "4,\"\",\"\"\"\"\n"
        let t = try CSV.parse(bytes(text), path: "q.csv")
        #expect(t.header == ["id", "name", "note"])
        #expect(t.rows == [
            ["1", "Gangnam, Seoul", "say \"hi\""],
            ["2", "line one\nline two", "x"],
            ["3", "plain", ""],
            ["4", "", "\""],
        ])
        // Row 2 spans lines 3-4, so row 3 starts on line 5.
        #expect(t.lines == [2, 3, 5, 6])
        #expect(t.path == "q.csv")
    }

    @Test("CRLF line ends are not part of fields; a CRLF inside quotes is kept")
    func crlf() throws {
        let t = try CSV.parse(bytes("a,b\r\n1,2\r\n\"x\r\ny\",3\r\n4,5\r\n"), path: "crlf.csv")
        #expect(t.header == ["a", "b"])
        #expect(t.rows == [["1", "2"], ["x\r\ny", "3"], ["4", "5"]])
        #expect(t.lines == [2, 3, 5])
    }

    @Test("a lone CR (not followed by LF) outside quotes is data, not a line end")
    func loneCR() throws {
        let t = try CSV.parse(bytes("a,b\n1\r2,3\n"), path: "cr.csv")
        #expect(t.rows == [["1\r2", "3"]])
        #expect(t.lines == [2])
    }

    @Test("a UTF-8 byte-order mark is skipped, so the first header name still matches")
    func byteOrderMark() throws {
        let data = [0xEF, 0xBB, 0xBF] + bytes("lat,lon\n37.5,127.0\n")
        let t = try CSV.parse(data, path: "bom.csv")
        #expect(t.header == ["lat", "lon"])
        #expect(t.column(named: ["lat"]) == 0)
        try withTemporaryFolder { folder throws in
            let path = try folder.write(bytes: data, to: "bom.csv")
            #expect(try CSV.read(path: path).header == ["lat", "lon"])
            let points = try PointFile.read(path: path)
            #expect(points.header == ["lat", "lon"])
            #expect(points.coordinates == TableCoordinates(kind: .lonlat, xOrLongitude: [127.0], yOrLatitude: [37.5]))
        }
    }

    @Test("a BOM is only skipped at the very start: one later in the file is data")
    func byteOrderMarkOnlyAtStart() throws {
        let t = try CSV.parse(bytes("a\n\u{FEFF}x\n"), path: "bom2.csv")
        #expect(t.rows == [["\u{FEFF}x"]])
    }

    @Test("missing final line end, a trailing empty line and blank lines at the end give the same table",
          arguments: [
              "id,x,y\n1,2,3\n4,5,6",
              "id,x,y\n1,2,3\n4,5,6\n",
              "id,x,y\n1,2,3\n4,5,6\n\n",
              "id,x,y\n1,2,3\n4,5,6\n\n\n\n",
              "id,x,y\r\n1,2,3\r\n4,5,6\r\n\r\n\r\n",
              "id,x,y\r\n1,2,3\r\n4,5,6\r",
          ])
    func trailingLines(text: String) throws {
        let t = try CSV.parse(bytes(text), path: "t.csv")
        #expect(t == CSVTable(path: "t.csv", header: ["id", "x", "y"], rows: [["1", "2", "3"], ["4", "5", "6"]], lines: [2, 3]))
    }

    @Test("blank lines between rows are skipped but still counted in line numbers")
    func blankLinesBetweenRows() throws {
        let t = try CSV.parse(bytes("\n\nid,x\n1,2\n\n\n3,4\n"), path: "b.csv")
        #expect(t.header == ["id", "x"])
        #expect(t.rows == [["1", "2"], ["3", "4"]])
        #expect(t.lines == [4, 7])
    }

    @Test("unicode text (Korean) survives in fields, headers and ids")
    func unicode() throws {
        let text = "id,구,lat,lon\n강남-1,강남구,37.4979,127.0276\n종로-2,\"종로구, 서울\",37.5729,126.9794\n"
        let t = try CSV.parse(bytes(text), path: "ko.csv")
        #expect(t.header == ["id", "구", "lat", "lon"])
        #expect(t.rows[0][1] == "강남구")
        #expect(t.rows[1][1] == "종로구, 서울")
        #expect(t.ids() == ["강남-1", "종로-2"])
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "강남구.csv")
            #expect(try CSV.read(path: path) == CSVTable(path: path, header: t.header, rows: t.rows, lines: t.lines))
            let points = try PointFile.read(path: path)
            #expect(points.id(0) == "강남-1")
            #expect(points.id(1) == "종로-2")
            #expect(points.coordinates.yOrLatitude == [37.4979, 37.5729])
        }
    }

    @Test("empty fields, empty quoted fields and spaces are kept as written")
    func emptyAndSpaces() throws {
        let t = try CSV.parse(bytes("a,b,c\n,,\n\"\", b ,\"\"\n"), path: "e.csv")
        #expect(t.rows == [["", "", ""], ["", " b ", ""]])
    }

    @Test("reading a file and parsing its bytes give the same table", arguments: [
        "a,b\n1,2\n",
        "a,b\r\n\"1\r\n2\",\"x,\"\"y\"\"\"\r\n\r\n",
        "\u{FEFF}a,b\n강,남\n\n",
        "a\n\"\"\nz",
    ])
    func readMatchesParse(text: String) throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "same.csv")
            #expect(try CSV.read(path: path) == CSV.parse(bytes(text), path: path))
        }
    }

    /// A file of about 3 MiB with CRLF line ends, built so that three awkward spots fall exactly
    /// on the parser's block boundaries: a quoted field with an embedded line break (opened in
    /// block 1, the break the first byte of block 2), a record's CRLF (CR the last byte of block
    /// 2, LF the first of block 3) and a doubled quote inside a quoted field (split between
    /// blocks 3 and 4).
    struct BlockStraddlingFile {
        var bytes: [UInt8] = []
        var rows: [[String]] = []
        var lines: [Int] = []
        var xs: [Double] = [], ys: [Double] = []
        private var nextLine = 2
        /// Long ordinary names keep the row count (and the test's time) down.
        private let filler = String(repeating: "n", count: 240)

        init() {
            let block = CSVStreamParser.blockSize
            bytes = Array("id,name,x,y\r\n".utf8)
            // 1: the LF inside `"before⏎after, comma"` lands on offset `block`.
            append(name: "before\nafter, comma", written: "\"before\nafter, comma\"", byteOffsetInField: 7, at: block)
            // 2: the record's CR is the last byte of block 2.
            appendCRLFStraddling(at: 2 * block)
            // 3: the second quote of a `""` pair is the first byte of block 4.
            append(name: "say \"hi\"", written: "\"say \"\"hi\"\"\"", byteOffsetInField: 6, at: 3 * block)
            for _ in 0..<50 { appendRow(name: "tail") }
            bytes += Array("\r\n".utf8)   // a blank line at the end
        }

        private mutating func appendRow(name: String, written: String? = nil) {
            let i = rows.count
            let x = Double(i) * 0.5, y = -Double(i) * 0.25
            let id = "r\(i)"
            bytes += Array("\(id),\(written ?? name),\(x),\(y)\r\n".utf8)
            rows.append([id, name, "\(x)", "\(y)"])
            lines.append(nextLine)
            nextLine += 1 + name.filter { $0 == "\n" }.count
            xs.append(x); ys.append(y)
        }

        /// Appends ordinary rows, then one padding row sized so that the byte of interest in the
        /// row after it (row `i`, preceded in its row by `prefixLength(i)` bytes) lands at
        /// file offset `target`.
        private mutating func padUntil(_ target: Int, prefixLength: (Int) -> Int) {
            while target - bytes.count > 600 { appendRow(name: filler) }
            let i = rows.count
            // Padding row: "r<i>,<p…p>,x,y\r\n"; choose the p count to land on target.
            let x = Double(i) * 0.5, y = -Double(i) * 0.25
            let fixed = "r\(i),".utf8.count + ",\(x),\(y)\r\n".utf8.count
            let pad = target - bytes.count - fixed - prefixLength(i + 1)
            precondition(pad >= 1)
            appendRow(name: String(repeating: "p", count: pad))
        }

        /// Appends a row whose name field, `written` as it appears in the file, has its byte
        /// `byteOffsetInField` at file offset `target`.
        private mutating func append(name: String, written: String, byteOffsetInField: Int, at target: Int) {
            padUntil(target) { i in "r\(i),".utf8.count + byteOffsetInField }
            let before = bytes.count
            appendRow(name: name, written: written)
            precondition(before + "r\(rows.count - 1),".utf8.count + byteOffsetInField == target)
        }

        private mutating func appendCRLFStraddling(at target: Int) {
            // The CR of the next row sits at target - 1.
            padUntil(target) { i in
                let x = Double(i) * 0.5, y = -Double(i) * 0.25
                return "r\(i),crlf,\(x),\(y)".utf8.count + 1
            }
            appendRow(name: "crlf")
        }
    }

    @Test("a file over 1 MiB with a quoted line break, a CRLF and a doubled quote on block boundaries parses exactly")
    func blockBoundaries() throws {
        let file = BlockStraddlingFile()
        let block = CSVStreamParser.blockSize
        #expect(block == 1 << 20)
        // The awkward bytes really are where the test means them to be.
        try #require(file.bytes.count > 3 * block)
        #expect(file.bytes[block] == UInt8(ascii: "\n"))
        #expect(file.bytes[block - 7] == UInt8(ascii: "\""))
        #expect(file.bytes[2 * block - 1] == UInt8(ascii: "\r"))
        #expect(file.bytes[2 * block] == UInt8(ascii: "\n"))
        #expect(file.bytes[3 * block - 1] == UInt8(ascii: "\""))
        #expect(file.bytes[3 * block] == UInt8(ascii: "\""))

        try withTemporaryFolder { folder throws in
            let path = try folder.write(bytes: file.bytes, to: "big.csv")
            let t = try CSV.read(path: path)
            #expect(t.header == ["id", "name", "x", "y"])
            #expect(t.rows.count == file.rows.count)
            // Compare row by row so a failure names the first row that differs.
            for (r, row) in t.rows.enumerated() where row != file.rows[r] {
                Issue.record("row \(r): parsed \(row), wrote \(file.rows[r])")
                break
            }
            #expect(t.rows == file.rows)
            #expect(t.lines == file.lines)

            let points = try PointFile.read(path: path)
            #expect(points.count == file.rows.count)
            #expect(points.coordinates == TableCoordinates(kind: .xy, xOrLongitude: file.xs, yOrLatitude: file.ys))
            #expect(points.lines == file.lines.map { Int32($0) })
            #expect((0..<points.count).allSatisfy { points.id($0) == file.rows[$0][0] })
        }
    }
}
