import ListingVocabulary

/// Property conditions compiled against an index's columns: column positions, text sets as
/// code sets, so testing a row looks nothing up by name.
struct CompiledConditions: Sendable {
    enum Test: Sendable {
        case range(column: Int, lower: Double, upper: Double)
        case codes(column: Int, Set<UInt32>)
    }

    let tests: [Test]

    var isEmpty: Bool { tests.isEmpty }

    /// - Throws: `.invalidParameter` for a column the listings do not have, or a test of the
    ///   wrong kind for it (a range on texts, texts on numbers).
    init(_ conditions: [PropertyCondition], properties p: ListingProperties) throws(PinError) {
        var tests: [Test] = []
        for condition in conditions {
            guard let c = p.names.firstIndex(of: condition.name) else {
                throw .invalidParameter(name: "property filter", value: condition.name,
                                        requirement: "must name a property of the listings (\(p.names.isEmpty ? "they have none" : p.names.joined(separator: ", ")))")
            }
            switch (condition.test, p.columns[c]) {
            case let (.range(r), .numbers):
                tests.append(.range(column: c, lower: r.lower ?? -.infinity, upper: r.upper ?? .infinity))
            case let (.oneOf(wanted), .texts(_, values)):
                tests.append(.codes(column: c, Set(values.indices.filter { wanted.contains(values[$0]) }.map(UInt32.init))))
            case (.range, .texts):
                throw .invalidParameter(name: "property filter", value: condition.description,
                                        requirement: "\(condition.name) holds texts: give the values to keep (name=a,b)")
            case (.oneOf, .numbers):
                throw .invalidParameter(name: "property filter", value: condition.description,
                                        requirement: "\(condition.name) holds numbers: give a range (name=MIN..MAX)")
            }
        }
        self.tests = tests
    }

    /// Whether row `r` passes every test.
    @inline(__always)
    func passes(_ r: Int, _ p: ListingProperties) -> Bool {
        for test in tests {
            switch test {
            case let .range(c, lo, hi):
                guard case .numbers(let v) = p.columns[c], v[r] >= lo && v[r] <= hi else { return false }
            case let .codes(c, codes):
                guard case .texts(let k, _) = p.columns[c], codes.contains(k[r]) else { return false }
            }
        }
        return true
    }
}
