import ArgumentParser
import Foundation
import Datasets
import Harness
import Pins

/// The secret key of the privacy mask: a key file (`--key-file`, written by `geocluster
/// pins-key`), else `GEOCLUSTER_PINS_KEY`, or for tests an insecure key made from an integer
/// (`--insecure-test-seed`, with a warning on every run). The key is never printed.
public struct PinKeyOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Secret key of the privacy mask: a file of 64 hexadecimal digits written by `geocluster pins-key -o FILE` (or set \(PinsKeyFile.environmentVariable) to the digits). It keys the order shared points are founded in, the mask file's integrity check and the pin ids (and, with --weak-plain-mask, each location's offset). Keep it, and never change it once pins are published.", valueName: "file"))
    public var keyFile: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("INSECURE, for tests only: a mask key made from this integer, which anyone can guess (a warning is printed on every run).", valueName: "n", visibility: .hidden))
    public var insecureTestSeed: UInt64?

    public func validate() throws {
        if keyFile != nil && insecureTestSeed != nil {
            throw ValidationError("--key-file and --insecure-test-seed are two keys; give one (--key-file for real data)")
        }
    }

    /// Whether a key was given (an option, or the environment variable).
    public var isGiven: Bool { keyFile != nil || insecureTestSeed != nil || PinsKeyFile.environmentHasKey }

    /// The key given, nil when none; warns on standard error for an insecure test key.
    /// - Throws: `ExitCode(1)` after a message naming the file or variable that is not a key.
    public func key() throws -> PinsKey? {
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
/// The default mask is the safe one: points shared by at least 5 locations, kept in a mask
/// file beside the key file; anything weaker is a flag whose name says so.
public struct PinSourceOptions: ParsableArguments {
    public init() {}

    @OptionGroup
    public var keyOptions: PinKeyOptions

    @Flag(help: "Show true positions (no privacy mask): only for data that is public anyway.")
    public var noPrivacy = false

    @Option(help: ArgumentHelp("The mask file: every published location's group and displayed point, kept so that a rebuild never places a published location again (created if missing, mode 0600; as secret as the key). Default: beside the key file, its name ending in .mask (pins.key → pins.mask).", valueName: "file"))
    public var mask: String?

    @Flag(help: "WEAK: publish without a mask file: each run groups the locations afresh, so two publications of changed listings put a location in two groups whose intersection can name it.")
    public var weakNoMaskFile = false

    @Flag(help: "Use a mask file made with another key or rule: its stored positions stay, new locations are placed with this key and rule.")
    public var remask = false

    @Option(parsing: .unconditional, help: ArgumentHelp("k-anonymity: every displayed point is shared by at least K locations lying pairwise more than 60 m apart, so an attacker who knows every building — or posts listings at buildings of its choice — comes within 30 m of a listing's true location for at most 1 in K (default \(AnonymityRule.defaultMinimum)).", valueName: "K"))
    public var minAnonymity: Int = AnonymityRule.defaultMinimum

    @Option(parsing: .unconditional, help: ArgumentHelp("The farthest a shared point may lie from the true position of any of its locations, metres (default \(Int(AnonymityRule.defaultCap)), at most \(Int(PrivacyMask.maximumDistance))); a location with too few compatible neighbours within it is held back.", valueName: "metres"))
    public var anonymityCap: Double = AnonymityRule.defaultCap

    @Flag(help: "WEAK: instead of shared points, show each location alone 30–80 m (--min-offset, --max-offset) from its true position. An attacker who knows every building's position recovers most of them within 30 m, and one who posts a listing at a building sees which point is that building's.")
    public var weakPlainMask = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --weak-plain-mask: smallest displacement, metres (at least \(Int(PrivacyMask.minimumDistance))).", valueName: "metres"))
    public var minOffset: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --weak-plain-mask: largest displacement, metres (at most \(Int(PrivacyMask.maximumDistance))).", valueName: "metres"))
    public var maxOffset: Double?

    @Option(parsing: .unconditional, help: "Worker threads for the index build (default 1; `map --labels`: for the outlines, default every core), 1...\(ThreadsOption.range.upperBound) (the output is the same for any number).")
    public var threads: Int?

    /// The index build's workers.
    public var buildThreads: Int { threads ?? 1 }

    @Option(help: ArgumentHelp("Column (GeoJSON property) whose value makes listings one location (one building). Default: building_id when the file has it, else the true coordinate.", valueName: "name"))
    public var locationColumn: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How far apart, in metres (0...\(Int(Self.largestTolerance))), the listings of one location (building id) may lie; a listing farther from its building's other listings, or from where a published building is shown, is left out on its own and named.", valueName: "metres"))
    public var locationTolerance: Double = PinOptions.defaultLocationTolerance

    /// The largest `--location-tolerance`: twice the spot an attacker's guess covers.
    public static var largestTolerance: Double { 2 * AnonymityRule.defaultSpot }

    public func validate() throws {
        if let threads { try ThreadsOption.validate(threads) }
        guard locationTolerance.isFinite, (0...Self.largestTolerance).contains(locationTolerance) else {
            throw ValidationError("--location-tolerance \(locationTolerance) must be a distance of 0...\(Int(Self.largestTolerance)) metres (default 30)")
        }
        if !weakPlainMask && (minOffset != nil || maxOffset != nil) {
            throw ValidationError("--min-offset and --max-offset set the weak plain annulus; they go with --weak-plain-mask")
        }
        let (lowest, highest) = (PrivacyMask.minimumDistance, PrivacyMask.maximumDistance)
        let low = minOffset ?? 30, high = maxOffset ?? 80
        guard low.isFinite, low >= lowest, low < highest else {
            throw ValidationError("--min-offset \(low) must be a distance of at least \(Int(lowest)) m and below \(Int(highest)) m")
        }
        guard high.isFinite, high > low, high <= highest else {
            throw ValidationError("--max-offset \(high) must be above --min-offset (\(low) m) and at most \(Int(highest)) m")
        }
        guard (2...AnonymityRule.largestMinimum).contains(minAnonymity) else {
            throw ValidationError("--min-anonymity \(minAnonymity) must be 2...\(AnonymityRule.largestMinimum) locations")
        }
        guard anonymityCap.isFinite, anonymityCap > 4 * AnonymityRule.defaultSpot, anonymityCap <= highest else {
            throw ValidationError("--anonymity-cap \(anonymityCap) must be a distance above \(Int(4 * AnonymityRule.defaultSpot)) m and at most \(Int(highest)) m")
        }
        if noPrivacy && mask != nil { throw ValidationError("--mask keeps masked positions; it does not go with --no-privacy") }
        if mask != nil && weakNoMaskFile { throw ValidationError("--mask and --weak-no-mask-file contradict each other; give one") }
        if remask && mask == nil && keyOptions.keyFile == nil { throw ValidationError("--remask goes with a mask file (--mask FILE, or the one beside --key-file)") }
        if noPrivacy && (keyOptions.keyFile != nil || keyOptions.insecureTestSeed != nil) {
            throw ValidationError("--no-privacy and a mask key contradict each other; give one")
        }
    }

    /// Checks that a privacy choice was made (called by the commands that build an index,
    /// from their `validate()`, so a missing choice is a usage mistake).
    public func requirePrivacyChoice() throws {
        if !noPrivacy && !keyOptions.isGiven {
            throw ValidationError("give --key-file FILE (a secret key; make one with `geocluster pins-key -o pins.key`, or set \(PinsKeyFile.environmentVariable)) to mask true positions, or --no-privacy to show them")
        }
        if !noPrivacy && mask == nil && keyOptions.keyFile == nil && keyOptions.insecureTestSeed == nil && !weakNoMaskFile {
            throw ValidationError("give --mask FILE: the mask file keeps every published location's shared point (with a key from \(PinsKeyFile.environmentVariable) there is no key file to keep it beside), or --weak-no-mask-file to publish without one")
        }
    }

    /// The mask file in use: `--mask`, else the one beside the key file (for a command that
    /// only reads it, only when it exists), nil with `--weak-no-mask-file` or no key file.
    public func maskFile(publishing: Bool) -> String? {
        if let mask { return mask }
        guard !noPrivacy, !weakNoMaskFile, let keyFile = keyOptions.keyFile else { return nil }
        let beside = PinsMaskFile.defaultPath(forKeyFile: keyFile)
        return publishing || FileManager.default.fileExists(atPath: beside) ? beside : nil
    }

    /// What a run gives up, said on standard error every time (the weak flags, --no-privacy
    /// with a key in the environment).
    public func warnAboutWeakness() {
        if noPrivacy && PinsKeyFile.environmentHasKey {
            note("geocluster: warning: --no-privacy shows TRUE positions although \(PinsKeyFile.environmentVariable) holds a key; unset it or drop --no-privacy")
        }
        if weakPlainMask && !noPrivacy {
            note("geocluster: warning: --weak-plain-mask shows each location alone 30–80 m from its truth: an attacker who knows every "
                 + "building's position recovers most of them within 30 m (about 70–80 % on generated Seoul listings), and one who posts a "
                 + "listing at a building learns its point; the default shared points keep that to 1 in --min-anonymity (docs/pins.md)")
        }
        if weakNoMaskFile && !noPrivacy {
            note("geocluster: warning: --weak-no-mask-file: nothing keeps the groups from one run to the next, so a location published "
                 + "twice in different groups can be named by intersecting them; publish with a mask file (docs/pins.md)")
        }
    }

    /// The options as Harness's settings, the key read from its file or the environment.
    /// - Parameter skipBadRows: drop the listings of an empty building id with a warning (the
    ///   command's `--skip-bad-rows`) instead of refusing the file.
    /// - Parameter columns: the command's `--lat-column`, `--lon-column`, `--id-column` and
    ///   `--delimiter`.
    /// - Parameter publishing: the command publishes positions (`pins`, `nearby`, `map`) and
    ///   so writes the mask file; `privacy` only reads it.
    /// - Throws: `ExitCode(1)` after a message naming a key file that is not a key.
    public func settings(skipBadRows: Bool, columns: ColumnOptions, publishing: Bool = true) throws -> PinSourceSettings {
        warnAboutWeakness()
        var settings = PinSourceSettings(locationColumn: locationColumn, key: noPrivacy ? nil : try keyOptions.key(),
                                         maskFile: maskFile(publishing: publishing), remask: remask)
        settings.rule = weakPlainMask ? nil : try AnonymityRule(minimum: minAnonymity, cap: anonymityCap)
        settings.minOffset = minOffset ?? 30
        settings.maxOffset = maxOffset ?? 80
        settings.columns = columns.readOptions
        settings.locationTolerance = locationTolerance
        settings.threads = buildThreads
        settings.skipBadRows = skipBadRows
        settings.warn = { note("geocluster: warning: " + $0) }
        return settings
    }
}
