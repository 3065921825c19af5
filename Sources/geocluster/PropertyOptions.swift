import ArgumentParser
import Datasets
import Pins

/// The user's own columns on `pins` and `nearby`: which are read and published (`--properties`)
/// and the conditions on them (`--where`).
struct PropertyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Your own columns to carry on listing pins and nearby answers: all, none, or name,name,… (default: all with --no-privacy; none under the privacy mask, so that an address column is never published unasked).",
                               valueName: "list"))
    var properties: String?

    @OptionGroup
    var wheres: WhereOptions

    /// The columns read, for a run with (`privacy`) or without the mask.
    /// - Parameter positions: the file's projected coordinate columns (`x`, `y` or as named):
    ///   under the mask they are never published.
    /// - Throws: `ValidationError` when a `--where` names a column not carried, or under the
    ///   mask a position column is named.
    func selection(privacy: Bool, positions: ReadOptions) throws -> PropertySelection {
        let selection: PropertySelection
        switch properties?.trimmingWhitespace() {
        case nil: selection = privacy ? .none : .all
        case "all"?: selection = .all
        case "none"?, ""?: selection = .none
        case let list?: selection = .named(list.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty })
        }
        let coordinates = Set([positions.x ?? "x", positions.y ?? "y"].map { $0.lowercased() })
        if privacy, case .named(let names) = selection, let name = names.first(where: { coordinates.contains($0.lowercased()) }) {
            throw ValidationError("--properties \(name): that column holds positions, which the privacy mask never publishes; drop it from --properties")
        }
        for condition in try wheres.propertyConditions() {
            switch selection {
            case .all: continue
            case .named(let names) where names.contains(condition.name): continue
            default:
                throw ValidationError("--where \(condition.name)=…: \(condition.name) is not among the columns carried; add it to --properties (it is then published on listing pins and nearby answers)")
            }
        }
        return selection
    }

    /// The filter `attributes` gives with the `--where` conditions added; nil when it has none.
    func filter(adding attributes: AttributeFilter?) throws -> AttributeFilter? {
        var filter = attributes ?? AttributeFilter()
        filter.properties = try wheres.propertyConditions()
        return filter.isEmpty ? nil : filter
    }
}

/// `--where NAME=a,b` / `--where NAME=MIN..MAX`: conditions on the user's own columns, for the
/// file filters (`FilterOptions`) and for pins and nearby (`PropertyOptions`).
struct WhereOptions: ParsableArguments {
    @Option(name: .customLong("where"), parsing: .singleValue,
            help: ArgumentHelp("Keep rows whose column holds one of these texts (NAME=a,b) or a number in a range (NAME=MIN..MAX, either end open). Repeatable; for pins and nearby the column must be among --properties.",
                               valueName: "name=value"))
    var conditions: [String] = []

    func validate() throws {
        for text in conditions { _ = try Self.condition(text) }
    }

    /// The conditions, in the order given.
    func propertyConditions() throws -> [PropertyCondition] { try conditions.map(Self.condition) }

    /// `NAME=MIN..MAX` (numbers, either end open) is a range; any other `NAME=a,b` a set of texts.
    static func condition(_ text: String) throws -> PropertyCondition {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--where '\(text)': write NAME=a,b (texts) or NAME=MIN..MAX (numbers)")
        }
        let name = String(text[..<equals]).trimmingWhitespace(), value = String(text[text.index(after: equals)...])
        guard !value.isEmpty else { throw ValidationError("--where '\(text)': give the values to keep after '='") }
        if value.contains(".."), let range = try? ValueRange.parse(value, option: "--where") {
            return PropertyCondition(name, .range(range))
        }
        return PropertyCondition(name, .oneOf(Set(value.split(separator: ",").map(String.init))))
    }
}
