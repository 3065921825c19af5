import ArgumentParser
import Pins

/// `--disc-sizing count|view` of the commands that publish pins (`pins`, `serve`, `pins-cell`):
/// how the app draws the discs, which decides how far apart the pins are cut.
public struct DiscSizingOption: ParsableArguments {
    @Option(help: ArgumentHelp("How the app sizes the pins' discs: count (by each pin's own count, its `diameter` property; the default) or view (by the count relative to the others in view, or any size up to 50 pt: pins are cut 50 pt apart so no such disc overlaps another).", valueName: "rule"),
            transform: DiscSizingOption.parse)
    public var discSizing: DiscSizing = .count

    public init() {}

    /// The rule named `text`.
    /// - Throws: `ValidationError` naming the flag and the choices.
    public static func parse(_ text: String) throws -> DiscSizing {
        guard let rule = DiscSizing(rawValue: text) else {
            throw ValidationError("--disc-sizing \(text): give count or view")
        }
        return rule
    }
}
