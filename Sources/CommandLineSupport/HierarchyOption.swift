import ArgumentParser
import Pins

/// `--min-samples N` of the commands that build a pin index (`pins`, `serve`): HDBSCAN's
/// min_samples for the pins' hierarchy, the name it has everywhere else (`cluster`, `bench`,
/// Python). The value is checked by the index's own rule (`PinOptions.validate`), before the
/// file is read, and the error names the flag; the old
/// spelling `--min-points` (grid's count of points per cell) is refused with the new name.
public struct HierarchyOption: ParsableArguments {
    @Option(name: .customLong("min-samples"), parsing: .unconditional,
            help: ArgumentHelp("HDBSCAN's min_samples for the hierarchy (the location itself counted): 1 or 2 is plain single linkage; larger makes sparse locations join later.", valueName: "n"))
    public var minSamples: Int = PinOptions.defaultMinSamples

    @Option(name: .customLong("min-points"), parsing: .unconditional, help: .hidden)
    var renamed: String?

    public init() {}

    public func validate() throws {
        if renamed != nil {
            throw ValidationError("--min-points is now --min-samples for pins and serve (HDBSCAN's min_samples of the hierarchy; --min-points is grid's count per cell)")
        }
        do throws(PinError) {
            try PinOptions(privacy: .disabled, minSamples: minSamples).validate()
        } catch let .invalidParameter(_, _, requirement) {
            throw ValidationError("--min-samples \(minSamples) is invalid: \(requirement)")
        }
    }
}
