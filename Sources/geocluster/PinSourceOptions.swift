import ArgumentParser
import Datasets
import Harness
import Pins
import Reports

/// What the map-pin commands (`pins`, `nearby`, `map --zoom`) share: where listings come
/// from (location column) and the privacy mask. There is no default seed: a run gives
/// `--privacy-seed` or says `--no-privacy` (never a silent default in production).
struct PinSourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Secret seed of the privacy mask (an integer 0 to 2^64-1): every location is shown 30–80 m from its true position in a direction only this seed predicts. Keep it secret; the same seed gives the same displayed positions.", valueName: "seed"))
    var privacySeed: UInt64?

    @Flag(help: "Show true positions (no privacy mask): only for data that is public anyway.")
    var noPrivacy = false

    @Option(help: ArgumentHelp("Smallest displacement of the privacy mask, metres.", valueName: "metres"))
    var minOffset: Double = 30

    @Option(help: ArgumentHelp("Largest displacement of the privacy mask, metres.", valueName: "metres"))
    var maxOffset: Double = 80

    @Option(help: ArgumentHelp("Column (GeoJSON property) whose value makes listings one location: one building pin, one displacement. Default: building_id when the file has it, else the true coordinate.", valueName: "name"))
    var locationColumn: String?

    func validate() throws {
        guard minOffset.isFinite, minOffset >= 0 else { throw ValidationError("--min-offset must be a distance >= 0 m") }
        guard maxOffset.isFinite, maxOffset > minOffset else {
            throw ValidationError("--max-offset (\(maxOffset) m) must be above --min-offset (\(minOffset) m)")
        }
        if noPrivacy && privacySeed != nil {
            throw ValidationError("--privacy-seed and --no-privacy contradict each other; give one")
        }
    }

    /// Checks that a privacy choice was made (called by the commands that build an index,
    /// from their `validate()`, so a missing choice is a usage mistake).
    func requirePrivacyChoice() throws {
        switch (privacySeed, noPrivacy) {
        case (nil, false):
            throw ValidationError("give --privacy-seed S (a secret integer) to mask true positions, or --no-privacy to show them")
        case (.some, true):
            throw ValidationError("--privacy-seed and --no-privacy contradict each other; give one")
        default: break
        }
    }

    /// The options as Harness's settings.
    var settings: PinSourceSettings {
        PinSourceSettings(locationColumn: locationColumn, privacySeed: privacySeed, minOffset: minOffset, maxOffset: maxOffset)
    }
}

/// Turns a Pins or Reports error into the command's error (exit 1), like `reportingErrors`
/// does for the other libraries' errors. Pins' messages never repeat a true coordinate.
func reportingPinErrors<R>(input: String, _ body: () throws -> R) throws -> R {
    try reportingErrors(input: input) {
        do {
            return try body()
        } catch let e as PinError {
            switch e {
            case .invalidCoordinate, .duplicateListingID: throw fail("\(input): \(e)")
            default: throw fail(e)
            }
        } catch let e as ReportsError {
            throw fail(e)
        }
    }
}
