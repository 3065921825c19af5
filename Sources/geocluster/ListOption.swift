import ArgumentParser
import CommandLineSupport

/// A comma-separated list option (`--sizes 10k,100k`), each item parsed by `parse`; an item it
/// refuses is a usage error naming the flag and the item.
func listOption<T>(_ flag: String, _ what: String, _ parse: @escaping @Sendable (String) -> T?) -> @Sendable (String) throws -> [T] {
    { text in
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        return try items.map { item in
            guard !item.isEmpty, let v = parse(item) else {
                throw ValidationError("\(flag): '\(item)' is not \(what)")
            }
            return v
        }
    }
}
