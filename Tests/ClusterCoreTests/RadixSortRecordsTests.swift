import Testing
@_spi(Sorting) @testable import ClusterCore
import TestSupport

@Suite("Radix sort of records by a key")
struct RadixSortRecordsTests {
    struct Record: Equatable { var key: UInt64; var index: Int }

    /// Records with many equal keys (stability shows), keys below 2^`keyBits`.
    static func records(_ count: Int, keyBits: Int, seed: UInt64) -> [Record] {
        var g = SplitMix64(seed: seed)
        let distinct = max(1, count / 8)
        let values = (0..<distinct).map { _ in UInt64(g.uniform() * Double(1 << keyBits)) }
        return (0..<count).map { Record(key: values[Int(g.uniform() * Double(distinct))], index: $0) }
    }

    @Test("orders like a stable comparison sort, whatever the scratch's length",
          arguments: [0, 1, 100, 5000, 70_000], ["empty", "equal", "longer"])
    func matchesStableSort(count: Int, scratchKind: String) {
        for (bits, keyBits) in [(11, 33), (16, 52)] {
            var records = Self.records(count, keyBits: keyBits, seed: UInt64(count * 7 + bits))
            let expected = records.sorted { ($0.key, $0.index) < ($1.key, $1.index) }
            var varying: UInt64 = 0
            for r in records { varying |= r.key ^ (records.first?.key ?? 0) }
            var scratch: [Record] = switch scratchKind {
            case "equal": records
            case "longer": records + records
            default: []
            }
            RadixSort.sortRecords(&records, scratch: &scratch, bits: bits, width: UInt64(keyBits), varying: varying) { $0.key }
            #expect(records == expected, "\(bits)-bit digits, \(keyBits)-bit keys")
            #expect(scratch.count >= count)
        }
    }

    @Test("all digits passed (varying all ones) gives the same order")
    func everyDigit() {
        var records = Self.records(10_000, keyBits: 33, seed: 5)
        let expected = records.sorted { ($0.key, $0.index) < ($1.key, $1.index) }
        var scratch: [Record] = []
        RadixSort.sortRecords(&records, scratch: &scratch, bits: 11, width: 33, varying: .max) { $0.key }
        #expect(records == expected)
    }
}
