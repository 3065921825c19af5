import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder
import Pins

/// The CSV reader's number paths (`scanDecimal`, `eiselLemire`, `parseDouble`) against Swift's
/// own `Double(String)` (correctly rounded), on decimal strings of many shapes.
@Suite("Number parsing: fast paths are exact")
struct NumberFastPathTests {
    /// Checks every path on `text`: each result that is given equals `Double(text)`, bit for bit.
    static func check(_ text: String) {
        let reference = Double(text)
        var t = text
        let parsed = t.withUTF8 { parseDouble($0) }
        #expect(parsed?.bitPattern == reference?.bitPattern, "parseDouble(\(text)): \(String(describing: parsed)) vs \(String(describing: reference))")
        let scanned = t.withUTF8 { b in scanDecimal(b.baseAddress!, 0, b.count) }
        if let scanned {
            #expect(scanned.next == text.utf8.count, "scanDecimal(\(text)) stopped at \(scanned.next)")
            #expect(scanned.value.bitPattern == reference?.bitPattern, "scanDecimal(\(text)): \(scanned.value) vs \(String(describing: reference))")
        }
    }

    @Test("random digit strings: any length, leading zeros, point anywhere, exponents over the whole range")
    func randomShapes() {
        var g = Datasets.SplitMix64(seed: 15)
        for _ in 0..<60_000 {
            let digits = g.nextInt(in: 1...24)
            var s = g.nextBool(probability: 0.3) ? "-" : (g.nextBool(probability: 0.05) ? "+" : "")
            let zeros = g.nextBool(probability: 0.2) ? g.nextInt(in: 1...6) : 0
            var mantissa = String(repeating: "0", count: zeros)
            for k in 0..<digits { mantissa.append(Character(String(k == 0 ? g.nextInt(in: 1...9) : g.nextInt(in: 0...9)))) }
            if g.nextBool(probability: 0.7) {
                let point = g.nextInt(in: 0...mantissa.count)
                mantissa.insert(".", at: mantissa.index(mantissa.startIndex, offsetBy: point))
            }
            s += mantissa
            switch g.nextInt(in: 0...3) {
            case 0: break
            case 1: s += "e\(g.nextInt(in: -30...30))"
            case 2: s += "E\(g.nextBool(probability: 0.5) ? "+" : "-")\(g.nextInt(in: 0...99))"
            default: s += "e\(g.nextInt(in: -360...330))"
            }
            Self.check(s)
        }
    }

    @Test("the text of random doubles: shortest, 15 and 17 significant digits, fixed decimals")
    func doubleTexts() {
        var g = Datasets.SplitMix64(seed: 16)
        for _ in 0..<20_000 {
            let v = Double(bitPattern: g.next() & ~(0x7FF << 52) | UInt64(g.nextInt(in: 1...2046)) << 52)
            Self.check("\(v)")
            Self.check(String(format: "%.17g", v))
            Self.check(String(format: "%.15g", v))
            let local = g.nextDouble(in: -1_000_000, 1_000_000)
            Self.check(String(format: "%.\(g.nextInt(in: 0...12))f", local))
        }
    }

    @Test("exactly halfway between two doubles, on both sides of every rounding decision")
    func halfway() {
        var g = Datasets.SplitMix64(seed: 17)
        for _ in 0..<20_000 {
            // d = M·2^e with 53-bit M; the midpoint to the next double is (2M+1)·2^(e-1).
            let m = UInt64(1) << 52 | g.next() >> 12
            let e = g.nextInt(in: -3...10)
            let odd = 2 * m + 1
            let text: String
            if e - 1 >= 0 {
                text = String(odd << UInt64(e - 1))
            } else {
                var five: UInt64 = 1
                for _ in 0..<(1 - e) { five *= 5 }
                let digits = String(odd * five), k = 1 - e
                text = String(digits.dropLast(k)) + "." + String(digits.suffix(k))
            }
            Self.check(text)
            Self.check("-" + text)
            // One unit in the last digit either side of the midpoint must round away from it.
            Self.check(text + "1")
        }
        for s in ["9007199254740993", "9007199254740995", "4503599627370496.5", "4503599627370497.5",
                  "2251799813685248.25", "2251799813685248.75", "18446744073709551615", "1e23", "8.98846567431158e307",
                  "1.7976931348623157e308", "1.7976931348623159e308", "2.2250738585072014e-308", "2.2250738585072011e-308",
                  "4.9406564584124654e-324", "1e-400", "1e400", "0.000000000000000000001", "-0", "0e10", "0.0e-999"] {
            Self.check(s)
        }
    }

    @Test("Eisel–Lemire on random 64-bit mantissas and every power of ten of its table")
    func eiselLemireDirect() {
        var g = Datasets.SplitMix64(seed: 18)
        for _ in 0..<40_000 {
            let w = g.next() >> UInt64(g.nextInt(in: 0...60))
            let q = g.nextInt(in: -342...308)
            guard let v = eiselLemire(w, q) else { continue }
            #expect(v.bitPattern == Double("\(w)e\(q)")!.bitPattern, "\(w)e\(q)")
        }
    }

    @Test("scanDecimal stops at the first byte after the number and refuses what is not one")
    func scanStops() {
        func scan(_ s: String) -> (Double, Int)? {
            var t = s
            return t.withUTF8 { b in scanDecimal(b.baseAddress!, 0, b.count).map { ($0.value, $0.next) } }
        }
        #expect(scan("953892.12,1")! == (953892.12, 9))
        #expect(scan("-1.5e3\n")! == (-1500, 6))
        #expect(scan("5.;")! == (5, 2))
        #expect(scan(".5 ")! == (0.5, 2))
        for bad in ["", "-", ".", "e5", "1e", "1e+", "inf", "nan", " 1", "01234567890123456789"] {
            #expect(scan(bad) == nil, "\(bad)")
        }
    }
}

/// The parallel reader: a file read in parts on several threads gives exactly what one thread
/// gives, and both what the plain CSV table says, whatever falls on a split.
@Suite("CSV reading in parts")
struct ChunkedReadingTests {
    /// Everything a read produced, as text, for comparison.
    static func snapshot(_ f: PointFile) -> [String] {
        var out = ["count \(f.count) total \(f.totalRows) skipped \(f.skippedRows) empty \(f.emptyRows)",
                   "first \(String(describing: f.firstSkipped))", "header \(f.header)", "hasID \(f.hasIDColumn)"]
        for i in 0..<f.count {
            out.append("\(f.id(i)) \(f.lines[i]) \(f.coordinates.xOrLongitude[i].bitPattern) \(f.coordinates.yOrLatitude[i].bitPattern)")
        }
        return out
    }

    static func read(_ path: String, threads: Int, filter: ListingFilter? = nil, skipBadRows: Bool = false) -> Result<[String], DatasetError> {
        Result { () throws(DatasetError) in
            snapshot(try PointFile.read(path: path, filter: filter, options: ReadOptions(skipBadRows: skipBadRows, threads: threads)))
        }.mapError { $0 }
    }

    /// Reads `text` with 1, 2, 3 and 5 threads and expects the same outcome from each.
    static func sameForAnyThreads(_ text: String, filter: ListingFilter? = nil, skipBadRows: Bool = false) throws -> Result<[String], DatasetError> {
        var outcome: Result<[String], DatasetError>!
        try withTemporaryFolder { folder in
            let path = try folder.write(text, to: "p.csv")
            let one = read(path, threads: 1, filter: filter, skipBadRows: skipBadRows)
            for t in [2, 3, 5] {
                let many = read(path, threads: t, filter: filter, skipBadRows: skipBadRows)
                switch (one, many) {
                case let (.success(a), .success(b)): #expect(a == b, "threads \(t)")
                case let (.failure(a), .failure(b)): #expect("\(a)" == "\(b)", "threads \(t)")
                default: Issue.record("threads \(t): \(one) vs \(many)")
                }
            }
            outcome = one
        }
        return outcome
    }

    /// `rows` plain rows of id,lat,lon,x,y,category,note, about 60 bytes each.
    static func rows(_ range: Range<Int>, _ g: inout Datasets.SplitMix64) -> String {
        var s = ""
        for i in range {
            let cats = ["apartment", "villa", "store"]
            s += "\(i),\(String(format: "%.6f", g.nextDouble(in: 37.4, 37.7))),\(String(format: "%.6f", g.nextDouble(in: 126.8, 127.2))),"
            s += "\(String(format: "%.2f", g.nextDouble(in: 940_000, 970_000))),\(String(format: "%.2f", g.nextDouble(in: 1_940_000, 1_960_000))),"
            s += "\(cats[i % 3]),n\(i)\n"
        }
        return s
    }

    @Test("a plain 4 MB file: parts agree with one thread and with the CSV table, line numbers included")
    func plain() throws {
        var g = Datasets.SplitMix64(seed: 1)
        let text = "id,lat,lon,x,y,category,note\n" + Self.rows(0..<70_000, &g)
        let got = try Self.sameForAnyThreads(text).get()
        let table = try CSV.parse(Array(text.utf8), path: "p.csv")
        #expect(got.count == 4 + table.rows.count)
        for r in stride(from: 0, to: table.rows.count, by: 997) {
            let row = table.rows[r]
            #expect(got[4 + r] == "\(row[0]) \(table.lines[r]) \(Double(row[3])!.bitPattern) \(Double(row[4])!.bitPattern)")
        }
    }

    @Test("quotes, CRLF, blank and empty rows, spaces and long numbers on and around the splits")
    func awkward() throws {
        var g = Datasets.SplitMix64(seed: 2)
        var text = "\u{FEFF}id,lat,lon,x,y,category,note\r\n"
        for block in 0..<40 {
            if block == 20 {
                // A quoted field with many line breaks, long enough to hold the split of any
                // part count (an LF inside quotes looks like a row end to the splitter).
                text += "big,37.5,127.0,1,2,villa,\"" + String(repeating: "line\n", count: 600_000) + "\"\n"
            }
            text += Self.rows((block * 2000)..<(block * 2000 + 1900), &g)
            text += "q\(block),37.5,127.0,\" 955000.5 \",1950000.25,\"villa\",\"a, \"\"quoted\"\"\nnote\"\r\n"
            text += "\n\r\n,,,,,,\n"
            text += "l\(block),37.5,127.0,126.97796919000001,1950000.123456789012345,store,x\r\n"
            text += "e\(block),37.5,127.0,1.5e5,-2E-3, store ,\n"
        }
        text += Self.rows(100_000..<110_000, &g)
        text += "last,37.5,127.0,3,4,villa,no line end"
        let got = try Self.sameForAnyThreads(text).get()
        let table = try CSV.parse(Array(text.utf8), path: "p.csv")
        let kept = table.rows.indices.filter { !table.rows[$0].allSatisfy(\.isEmpty) }
        #expect(got.count == 4 + kept.count)
        for (k, r) in kept.enumerated() where k % 101 == 0 || table.rows[r][0].count < 4 || k == kept.count - 1 {
            let row = table.rows[r]
            let x = Double(row[3].trimmingCharacters(in: .whitespaces))!, y = Double(row[4])!
            #expect(got[4 + k] == "\(row[0]) \(table.lines[r]) \(x.bitPattern) \(y.bitPattern)")
        }
    }

    @Test("an error in a later part names its true line; skipped rows and row-number ids are counted across parts")
    func errorsAndRowNumbers() throws {
        var g = Datasets.SplitMix64(seed: 3)
        var text = "lat,lon,x,y,category\n"
        for i in 0..<60_000 {
            let bad = i == 50_001 ? "abc" : String(format: "%.2f", g.nextDouble(in: 0, 1000))
            let ragged = i == 20_000 || i == 55_555 ? ",extra" : ""
            text += "37.5,127.0,\(bad),\(String(format: "%.2f", g.nextDouble(in: 0, 1000))),\(["villa", "store"][i % 2])\(ragged)\n"
        }
        guard case .failure(let e) = try Self.sameForAnyThreads(text) else { Issue.record("no error"); return }
        #expect("\(e)".contains("p.csv:20002"), "the first bad row (ragged), in the first part: \(e)")
        let cut = text.range(of: ",extra")!
        var second = text
        second.removeSubrange(cut)
        guard case .failure(let e2) = try Self.sameForAnyThreads(second) else { Issue.record("no error"); return }
        #expect("\(e2)".contains("p.csv:50003") && "\(e2)".contains("'abc'"), "\(e2)")
        // Skipping: both bad rows counted, the first named; ids are row numbers across parts.
        let skipped = try Self.sameForAnyThreads(text, skipBadRows: true).get()
        #expect(skipped[0] == "count 59997 total 60000 skipped 3 empty 0")
        #expect(skipped[1].contains("p.csv:20002"))
        #expect(skipped[4 + 50_000].hasPrefix("50002 50004 "), "\(skipped[4 + 50_000])")
        // A filter: ids are row numbers too.
        let clean = text.replacingOccurrences(of: ",extra", with: "").replacingOccurrences(of: "abc", with: "1")
        let villas = try Self.sameForAnyThreads(clean, filter: ListingFilter(attributes: AttributeFilter(categories: CategorySet([.villa] as [ListingCategory])))).get()
        #expect(villas[0] == "count 30000 total 60000 skipped 0 empty 0")
        #expect(villas[4 + 29_000].hasPrefix("58000 58002 "), "\(villas[4 + 29_000])")
    }

    @Test("an unterminated quote at the end is reported at the line it opens, with any number of threads")
    func unterminatedQuote() throws {
        var g = Datasets.SplitMix64(seed: 4)
        let text = "id,lat,lon,x,y,category,note\n" + Self.rows(0..<50_000, &g) + "z,1,2,3,4,villa,\"open\nmore\n"
        guard case .failure(let e) = try Self.sameForAnyThreads(text) else { Issue.record("no error"); return }
        #expect("\(e)".contains("50002"), "\(e)")
    }
}
