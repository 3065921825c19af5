import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder
import Pins

/// Text encodings: UTF-8 is checked everywhere a file is read (whole mapped files, streamed
/// blocks, the parts of the parallel reader), other encodings are converted before parsing,
/// and decimal commas are read when asked for.
@Suite("Encodings and number formats")
struct EncodingTests {
    static func check(_ bytes: [UInt8]) -> UTF8Check.Outcome {
        bytes.withUnsafeBufferPointer { UTF8Check.check($0.baseAddress!, $0.count) }
    }

    @Test("the UTF-8 check: well-formed text of every length passes; ill-formed bytes are found where they start")
    func utf8Check() {
        let good = Array("ascii 0123456789 abcdefghijklmnopqrstuvwxyz, Düsseldorf 서울 😀 €".utf8)
        #expect(Self.check(good) == .valid)
        for k in 0..<good.count where Self.check(Array(good[..<k])) != .valid {
            // Only a cut inside a multi-byte character is unfinished.
            #expect(Self.check(Array(good[..<k])) == .incomplete(offset: Array(good[..<k]).lastIndex { $0 >= 0xC0 }!))
        }
        let prefix = Array(repeating: UInt8(ascii: "a"), count: 37)
        let bad: [[UInt8]] = [[0xE4, 0x6E], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                              [0xFF], [0x80], [0xC3, 0x28], [0xE2, 0x82, 0x28]]
        for b in bad {
            #expect(Self.check(prefix + b + prefix) == .invalid(offset: 37), "\(b)")
        }
    }

    @Test("what bytes that are not UTF-8 look like: Latin-1 letters between ASCII ones, CP949 Hangul pairs")
    func guess() {
        func guess(_ bytes: [UInt8]) -> TextEncoding { bytes.withUnsafeBufferPointer { UTF8Check.guess($0.baseAddress!, from: 0, $0.count) } }
        #expect(guess([0x4C, 0xE4, 0x6E, 0x67, 0x65]) == .latin1)                 // Länge
        #expect(guess([0x44, 0xFC, 0x73, 0x73, 0x65, 0x6C]) == .latin1)           // Düssel
        #expect(guess([0xBC, 0xAD, 0xBF, 0xEF, 0x2C, 0xBA, 0xCE, 0xBB, 0xEA]) == .cp949) // 서울,부산
        #expect(guess([0xE9, 0x2C, 0xE8]) == .latin1)                             // é,è
    }

    @Test("a Latin-1 TSV: refused with the line, column and encoding; read with latin1, the header in UTF-8")
    func latin1() throws {
        try withTemporaryFolder { folder in
            let text: [UInt8] = Array("name\tBreite\tL".utf8) + [0xE4] + Array("nge\nD".utf8) + [0xFC] + Array("sseldorf\t51.2277\t6.7735\n".utf8)
            let path = try folder.write(bytes: text, to: "d.tsv")
            let options = ReadOptions(latitude: "Breite", longitude: "Länge")
            #expect(throws: DatasetError.notUTF8(path: path, line: 1, column: 14, byte: 0xE4, looksLike: .latin1)) {
                try PointFile.read(path: path, options: options)
            }
            var latin1 = options
            latin1.encoding = .latin1
            let file = try PointFile.read(path: path, options: latin1)
            #expect(file.header == ["name", "Breite", "Länge"])
            #expect(file.coordinates.yOrLatitude == [51.2277])
            let table = try CSV.read(path: path, encoding: .latin1)
            #expect(table.rows[0][0] == "Düsseldorf" && table.delimiter == UInt8(ascii: "\t"))
            #expect(throws: DatasetError.notUTF8(path: path, line: 1, column: 14, byte: 0xE4, looksLike: .latin1)) {
                try CSV.read(path: path)
            }
        }
    }

    /// 이름,위도,경도 / 서울 / 부산 in CP949 (Python's `'서울'.encode('cp949')`).
    static let cp949: [UInt8] = [0xC0, 0xCC, 0xB8, 0xA7, 0x2C, 0xC0, 0xA7, 0xB5, 0xB5, 0x2C, 0xB0, 0xE6, 0xB5, 0xB5, 0x0A]
        + [0xBC, 0xAD, 0xBF, 0xEF] + Array(",37.5665,126.9780\n".utf8)
        + [0xBA, 0xCE, 0xBB, 0xEA] + Array(",35.1796,129.0756\n".utf8)

    @Test("a CP949 CSV: refused as CP949-looking; read with cp949 (through iconv), Korean column names found")
    func cp949() throws {
        try withTemporaryFolder { folder in
            let path = try folder.write(bytes: Self.cp949, to: "k.csv")
            #expect(throws: DatasetError.notUTF8(path: path, line: 1, column: 1, byte: 0xC0, looksLike: .cp949)) {
                try PointFile.read(path: path)
            }
            let file = try PointFile.read(path: path, options: ReadOptions(encoding: .cp949))
            #expect(file.header == ["이름", "위도", "경도"])
            #expect(file.coordinates.xOrLongitude == [126.9780, 129.0756])
            let table = try CSV.read(path: path, encoding: .cp949)
            #expect(table.rows.map { $0[0] } == ["서울", "부산"])
            // A lead byte followed by no valid trail byte: named where it is.
            let bad = try folder.write(bytes: Array("a,lat,lon\n1,2,3\n".utf8) + [0xBC, 0xFF] + Array(",1,2\n".utf8), to: "bad.csv")
            #expect(throws: DatasetError.invalidEncoding(path: bad, line: 3, column: 1, byte: 0xBC, encoding: .cp949)) {
                try PointFile.read(path: bad, options: ReadOptions(encoding: .cp949))
            }
            #expect(throws: DatasetError.invalidEncoding(path: bad, line: 3, column: 1, byte: 0xBC, encoding: .cp949)) {
                try CSV.read(path: bad, encoding: .cp949)
            }
        }
    }

    @Test("a GeoJSON file in Latin-1: refused; read with latin1, its properties in UTF-8")
    func geoJSON() throws {
        try withTemporaryFolder { folder in
            let before = Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[6.77,51.22]},"properties":{"name":"D"#.utf8)
            let text = before + [0xFC] + Array(#"sseldorf"}}]}"#.utf8)
            let path = try folder.write(bytes: text, to: "d.geojson")
            #expect(throws: DatasetError.notUTF8(path: path, line: 1, column: before.count + 1, byte: 0xFC, looksLike: .latin1)) {
                try GeoJSON.readTable(path: path)
            }
            #expect(try GeoJSON.readTable(path: path, encoding: .latin1).rows[0][2] == "Düsseldorf")
        }
    }

    /// Where `CSVScanning.split` cuts `bytes` (after a header of `headerEnd` bytes) into `parts`.
    static func cuts(_ bytes: [UInt8], headerEnd: Int, parts: Int) -> [Int] {
        bytes.withUnsafeBufferPointer { b in
            CSVScanning.split(b.baseAddress!, headerEnd, b.count, parts: parts).dropFirst().map(\.lowerBound)
        }
    }

    @Test("a bad byte right at a split of the parallel reader, and on either side of it, is found with any number of threads")
    func atPartBoundary() throws {
        var g = Datasets.SplitMix64(seed: 28)
        let header = "id,lat,lon,x,y,category,note\n"
        let text = Array((header + ChunkedReadingTests.rows(0..<60_000, &g)).utf8)
        for parts in [2, 3] {
            let cut = Self.cuts(text, headerEnd: header.utf8.count, parts: parts)[0]
            for offset in [cut - 2, cut, cut + 1] {   // the last field before the cut's LF, the first byte after it
                var bytes = text
                bytes[offset] = 0xE9
                try withTemporaryFolder { folder in
                    let path = try folder.write(bytes: bytes, to: "p.csv")
                    let line = bytes[..<offset].filter { $0 == 0x0A }.count + 1
                    let column = offset - (bytes[..<offset].lastIndex(of: 0x0A) ?? -1)
                    for threads in [1, 2, 3, 5] {
                        #expect(throws: DatasetError.notUTF8(path: path, line: line, column: column, byte: 0xE9, looksLike: .latin1),
                                "parts \(parts) offset \(offset) threads \(threads)") {
                            try PointFile.read(path: path, options: ReadOptions(threads: threads))
                        }
                    }
                    #expect(throws: DatasetError.notUTF8(path: path, line: line, column: column, byte: 0xE9, looksLike: .latin1)) {
                        try CSV.read(path: path)
                    }
                }
            }
        }
    }

    @Test("streamed blocks: a character split between two blocks reads whole, a bad byte at a block's start is named")
    func atStreamBlockBoundary() throws {
        let block = CSVStreamParser.blockSize
        let header = Array("name,lat,lon\n".utf8)
        let row = Array("abcdefghijklmnopqrst,37.5,127.0\n".utf8)
        var body = header
        while body.count < block - 40 { body += row }
        // "ü" (C3 BC) or "서" in CP949 (BC AD) with its first byte the last of the first block.
        func file(_ name: [UInt8]) -> [UInt8] {
            let pad = Array(repeating: UInt8(ascii: "x"), count: block - 1 - body.count)
            return body + pad + name + Array(",37.5,127.0\n".utf8) + row
        }
        try withTemporaryFolder { folder in
            let utf8 = try folder.write(bytes: file([0xC3, 0xBC]), to: "u.csv")
            let table = try CSV.read(path: utf8)
            #expect(table.rows[table.rows.count - 2][0].hasSuffix("xü"))
            let korean = try folder.write(bytes: file([0xBC, 0xAD]), to: "k.csv")
            let converted = try CSV.read(path: korean, encoding: .cp949)
            #expect(converted.rows[converted.rows.count - 2][0].hasSuffix("x서"))
            // A bad byte as the first byte of the second block, and as the last of the first.
            for (name, column) in [([UInt8(ascii: "y"), 0xE9], 2), ([0xE9, UInt8(ascii: "y")], 1)] {
                let bytes = file(name)
                let at = block - 1 + column - 1
                #expect(bytes[at] == 0xE9)
                let path = try folder.write(bytes: bytes, to: "b.csv")
                let line = bytes[..<at].filter { $0 == 0x0A }.count + 1
                let col = at - bytes[..<at].lastIndex(of: 0x0A)!
                let expected = DatasetError.notUTF8(path: path, line: line, column: col, byte: 0xE9, looksLike: .latin1)
                #expect(throws: expected) { try CSV.read(path: path) }       // streamed
                #expect(throws: expected) { try PointFile.read(path: path) } // mapped
            }
        }
    }

    @Test("--decimal-comma: a semicolon file with 37,5 reads as the dot file; a comma separator is refused")
    func decimalComma() throws {
        try withTemporaryFolder { folder in
            let dot = try folder.write("id;lat;lon;area_m2\na;37.5;126.25;84.5\nb;-37.125;-126;1e3\nc;37;127.75;12\n", to: "dot.csv")
            let comma = try folder.write("id;lat;lon;area_m2\na;37,5;126,25;84,5\nb;-37,125;-126;1e3\nc;37;127.75;12\n", to: "comma.csv")
            let options = ReadOptions(decimalComma: true)
            let filter = ListingFilter(attributes: AttributeFilter(area: ValueRange(lower: 50, upper: 2000)))
            let a = try PointFile.read(path: dot, filter: filter), b = try PointFile.read(path: comma, filter: filter, options: options)
            #expect(a.coordinates == b.coordinates && a.count == 2)
            #expect(throws: DatasetError.self) { try PointFile.read(path: comma) }
            let listings = try ListingFile.read(path: comma, locationColumn: nil, required: false, options: options)
            #expect(listings.latitudes == [37.5, -37.125, 37])
            let table = try CSV.read(path: comma, decimalComma: true)
            #expect(try table.coordinates(options: options).yOrLatitude == [37.5, -37.125, 37])
            let commas = try folder.write("id,lat,lon\na,37.5,126.25\n", to: "commas.csv")
            let reads: [() throws -> Void] = [
                { _ = try PointFile.read(path: commas, options: options) },
                { _ = try ListingFile.read(path: commas, locationColumn: nil, required: false, options: options) },
            ]
            for read in reads {
                #expect(throws: DatasetError.self) { try read() }
                do { try read() } catch { #expect("\(error)".contains("--decimal-comma")) }
            }
        }
    }
}
