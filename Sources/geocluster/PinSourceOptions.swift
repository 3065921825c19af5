import ArgumentParser
import Datasets
import Harness
import Pins
import Reports

/// The secret key of the privacy mask: a key file (`--key-file`, written by `geocluster
/// pins-key`), else `GEOCLUSTER_PINS_KEY`, or for tests an insecure key made from an integer
/// (`--insecure-test-seed`, with a warning on every run). The key is never printed.
struct PinKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Secret key of the privacy mask: a file of 64 hexadecimal digits written by `geocluster pins-key -o FILE` (or set \(PinsKeyFile.environmentVariable) to the digits). Every location is shown 30–80 m from its true position in a direction only this key predicts. Keep it, and never change it once pins are published.", valueName: "file"))
    var keyFile: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("INSECURE, for tests only: a mask key made from this integer, which anyone can guess (a warning is printed on every run).", valueName: "n", visibility: .hidden))
    var insecureTestSeed: UInt64?

    func validate() throws {
        if keyFile != nil && insecureTestSeed != nil {
            throw ValidationError("--key-file and --insecure-test-seed are two keys; give one (--key-file for real data)")
        }
    }

    /// Whether a key was given (an option, or the environment variable).
    var isGiven: Bool { keyFile != nil || insecureTestSeed != nil || PinsKeyFile.environmentHasKey }

    /// The key given, nil when none; warns on standard error for an insecure test key.
    /// - Throws: `ExitCode(1)` after a message naming the file or variable that is not a key.
    func key() throws -> PinsKey? {
        do {
            if let keyFile {
                let key = try PinsKeyFile.read(path: keyFile)
                if let warning = PinsKeyFile.exposure(path: keyFile) { note("geocluster: warning: " + warning) }
                return key
            }
            if let insecureTestSeed {
                note("geocluster: warning: --insecure-test-seed makes a mask key anyone can guess, so the displayed positions hide nothing; for real data use --key-file (make one with `geocluster pins-key -o pins.key`)")
                return .insecureTestKey(seed: insecureTestSeed)
            }
            return try PinsKeyFile.fromEnvironment()
        } catch {
            throw fail(error)
        }
    }
}

/// What the map-pin commands (`pins`, `nearby`, `map --zoom`, `privacy`) share: where listings
/// come from (location column) and the privacy mask. Their input columns are `ColumnOptions`,
/// which each command declares itself (`map` has them in its `InputOptions`). There is no default key: a run gives
/// `--key-file` (or `GEOCLUSTER_PINS_KEY`) or says `--no-privacy` (never a silent default).
struct PinSourceOptions: ParsableArguments {
    @OptionGroup
    var keyOptions: PinKeyOptions

    @Flag(help: "Show true positions (no privacy mask): only for data that is public anyway.")
    var noPrivacy = false

    @Option(help: ArgumentHelp("Keep every location's displayed position in this file (created if missing, mode 0600; as secret as the key): a location in it is never drawn again, whatever the key or offsets; new locations are added.", valueName: "file"))
    var mask: String?

    @Flag(help: "Use a mask file made with another key or offset range: its stored positions stay, new locations are drawn with this key and these offsets.")
    var remask = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Smallest displacement of the privacy mask, metres (at least \(Int(PrivacyMask.minimumDistance))).", valueName: "metres"))
    var minOffset: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("Largest displacement of the privacy mask, metres (at most \(Int(PrivacyMask.maximumDistance))).", valueName: "metres"))
    var maxOffset: Double = 80

    @Option(parsing: .unconditional, help: ArgumentHelp("k-anonymity: grow a location's ring of offsets (by √2 steps up to --anonymity-cap) until the ring around its displayed point holds the true positions of at least K locations and no 30 m spot holds more than 1/K of them, so an attacker who knows every building comes within 30 m for at most 1 in K. Needs --mask (each ring depends on the other locations).", valueName: "K"))
    var minAnonymity: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Largest ring of --min-anonymity, metres (default \(Int(AnonymityRule.defaultCap)); above --max-offset, at most \(Int(PrivacyMask.maximumDistance))).", valueName: "metres"))
    var anonymityCap: Double = AnonymityRule.defaultCap

    @Option(parsing: .unconditional, help: "Worker threads for the mask's draws and the index build (the output is the same for any number).")
    var threads: Int = 1

    @Option(help: ArgumentHelp("Column (GeoJSON property) whose value makes listings one location: one building pin, one displacement. Default: building_id when the file has it, else the true coordinate.", valueName: "name"))
    var locationColumn: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How far apart, in metres, the listings of one location (building id) may lie; a building id whose listings lie farther apart, or an empty one, is refused naming its lines (or dropped with --skip-bad-rows).", valueName: "metres"))
    var locationTolerance: Double = PinOptions.defaultLocationTolerance

    func validate() throws {
        try ThreadsOption.validate(threads)
        guard locationTolerance.isFinite, locationTolerance >= 0 else {
            throw ValidationError("--location-tolerance \(locationTolerance) must be a distance >= 0 metres (default 30)")
        }
        let (lowest, highest) = (PrivacyMask.minimumDistance, PrivacyMask.maximumDistance)
        guard minOffset.isFinite, minOffset >= lowest, minOffset < highest else {
            throw ValidationError("--min-offset \(minOffset) must be a distance of at least \(Int(lowest)) m and below \(Int(highest)) m")
        }
        guard maxOffset.isFinite, maxOffset > minOffset, maxOffset <= highest else {
            throw ValidationError("--max-offset \(maxOffset) must be above --min-offset (\(minOffset) m) and at most \(Int(highest)) m")
        }
        if let k = minAnonymity {
            guard (2...AnonymityRule.largestMinimum).contains(k) else {
                throw ValidationError("--min-anonymity \(k) must be 2...\(AnonymityRule.largestMinimum) locations")
            }
            guard !noPrivacy else { throw ValidationError("--min-anonymity grows the privacy mask; it does not go with --no-privacy") }
        }
        guard anonymityCap.isFinite, anonymityCap > maxOffset, anonymityCap <= highest else {
            throw ValidationError("--anonymity-cap \(anonymityCap) must be above --max-offset (\(maxOffset) m) and at most \(Int(highest)) m")
        }
        if noPrivacy && mask != nil { throw ValidationError("--mask keeps masked positions; it does not go with --no-privacy") }
        if remask && mask == nil { throw ValidationError("--remask goes with --mask FILE") }
        if noPrivacy && (keyOptions.keyFile != nil || keyOptions.insecureTestSeed != nil) {
            throw ValidationError("--no-privacy and a mask key contradict each other; give one")
        }
    }

    /// Checks that a privacy choice was made (called by the commands that build an index,
    /// from their `validate()`, so a missing choice is a usage mistake).
    func requirePrivacyChoice() throws {
        if minAnonymity != nil && mask == nil {
            throw ValidationError("--min-anonymity needs --mask FILE: each location's ring depends on the other locations, so without the file a rebuild with other listings could draw a published location again")
        }
        if !noPrivacy && !keyOptions.isGiven {
            throw ValidationError("give --key-file FILE (a secret key; make one with `geocluster pins-key -o pins.key`, or set \(PinsKeyFile.environmentVariable)) to mask true positions, or --no-privacy to show them")
        }
    }

    /// The options as Harness's settings, the key read from its file or the environment.
    /// - Parameter skipBadRows: drop the listings of an empty or inconsistent building id with
    ///   a warning (the command's `--skip-bad-rows`) instead of refusing the file.
    /// - Parameter columns: the command's `--lat-column`, `--lon-column`, `--id-column` and
    ///   `--delimiter`.
    /// - Throws: `ExitCode(1)` after a message naming a key file that is not a key.
    /// - Parameter publishing: the command publishes positions (`pins`, `nearby`, `map`): without
    ///   a mask file it warns that nothing keeps them from one run to the next.
    func settings(skipBadRows: Bool, columns: ColumnOptions, publishing: Bool = true) throws -> PinSourceSettings {
        if publishing && !noPrivacy && mask == nil {
            note("geocluster: warning: no --mask file: each run draws the displayed positions afresh from the listings, so a "
                 + "building's position moves when its listings change (a listing added to a one-listing building tells how far) "
                 + "and another key or offset range draws every location again; publish with --mask FILE (docs/pins.md, Privacy model)")
        }
        var settings = PinSourceSettings(locationColumn: locationColumn, key: noPrivacy ? nil : try keyOptions.key(),
                                         minOffset: minOffset, maxOffset: maxOffset, maskFile: mask, remask: remask)
        settings.columns = columns.readOptions
        settings.locationTolerance = locationTolerance
        settings.minAnonymity = minAnonymity
        settings.anonymityCap = anonymityCap
        settings.threads = threads
        settings.skipBadRows = skipBadRows
        settings.warn = { note("geocluster: warning: " + $0) }
        return settings
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
            case .invalidCoordinate, .duplicateListingID, .inconsistentLocation: throw fail("\(input): \(e)")
            default: throw fail(e)
            }
        } catch let e as ReportsError {
            throw fail(e)
        }
    }
}
