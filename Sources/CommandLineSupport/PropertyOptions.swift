import ArgumentParser
import Datasets
import Pins

/// The user's own columns on `pins` and `nearby`: which are read and published (`--properties`)
/// and the conditions on them (`--where`).
public struct PropertyOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Your own columns to carry on listing pins and nearby answers: all, none, or name,name,… (default: all with --no-privacy; none under the privacy mask, so that an address column is never published unasked).",
                               valueName: "list"))
    public var properties: String?

    @OptionGroup
    public var wheres: WhereOptions

    /// The columns read, for a run with (`privacy`) or without the mask.
    /// - Parameter positions: the file's projected coordinate columns (`x`, `y` or as named):
    ///   under the mask they are never published.
    /// - Throws: `ValidationError` when a `--where` names a column not carried, or under the
    ///   mask a position column is named.
    public func selection(privacy: Bool, positions: ReadOptions) throws -> PropertySelection {
        try Self.selection(properties, privacy: privacy, positions: positions, conditions: try wheres.propertyConditions())
    }

    /// The columns `--properties TEXT` reads (see `selection(privacy:positions:)`), for the
    /// conditions `--where` gives.
    public static func selection(_ text: String?, privacy: Bool, positions: ReadOptions,
                                 conditions: [PropertyCondition]) throws -> PropertySelection {
        let selection: PropertySelection
        switch text?.trimmingWhitespace() {
        case nil: selection = privacy ? .none : .all
        case "all"?: selection = .all
        case "none"?, ""?: selection = .none
        case let list?: selection = .named(list.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty })
        }
        let coordinates = Set([positions.x ?? "x", positions.y ?? "y"].map { $0.lowercased() })
        if privacy, case .named(let names) = selection, let name = names.first(where: { coordinates.contains($0.lowercased()) }) {
            throw ValidationError("--properties \(name): that column holds positions, which the privacy mask never publishes; drop it from --properties")
        }
        for condition in conditions {
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
    public func filter(adding attributes: AttributeFilter?) throws -> AttributeFilter? {
        var filter = attributes ?? AttributeFilter()
        filter.properties = try wheres.propertyConditions()
        return filter.isEmpty ? nil : filter
    }
}

/// `--where NAME=a,b` / `--where NAME=MIN..MAX`: conditions on the user's own columns, for the
/// file filters (`FilterOptions`) and for pins and nearby (`PropertyOptions`).
public struct WhereOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("where"), parsing: .singleValue,
            help: ArgumentHelp("Keep rows whose column holds one of these texts (NAME=a,b) or a number in a range (NAME=MIN..MAX, either end open). Repeatable; for pins and nearby the column must be among --properties.",
                               valueName: "name=value"))
    public var conditions: [String] = []

    public func validate() throws {
        for text in conditions { _ = try Self.condition(text) }
    }

    /// The conditions, in the order given.
    public func propertyConditions() throws -> [PropertyCondition] { try conditions.map(Self.condition) }

    /// `NAME=MIN..MAX` (numbers, either end open) is a range; any other `NAME=a,b` a set of texts
    /// (`PropertyCondition.parse`); a malformed one is a usage error.
    public static func condition(_ text: String) throws -> PropertyCondition {
        try usage { () throws(DatasetError) in try PropertyCondition.parse(text) }
    }
}
