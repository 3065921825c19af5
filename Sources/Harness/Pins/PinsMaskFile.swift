#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Pins

/// The mask file (`--mask FILE`): a `MaskStore` on disk, written atomically with mode 0600 (it
/// is the operator's secret, like the key: its location keys include quantised true
/// coordinates). Messages name the file.
public enum PinsMaskFile {
    /// The largest mask file read, bytes: 40 bytes a location, so room for 25 million locations.
    public static let maximumBytes = 1 << 30

    /// The mask file a key file keeps beside it when no `--mask` is given: the key file's path
    /// with `.key` replaced by (or, without it, followed by) `.mask`.
    public static func defaultPath(forKeyFile key: String) -> String {
        (key.hasSuffix(".key") ? String(key.dropLast(4)) : key) + ".mask"
    }

    /// The store in the file at `path`, its MAC checked with `mask`'s key; nil when there is no
    /// such file.
    /// - Throws: `HarnessError.privacy` naming the file when it cannot be read, is not a
    ///   regular file, is larger than `maximumBytes`, or is not a mask file of this key.
    public static func load(path: String, mask: PrivacyMask) throws(HarnessError) -> MaskStore? {
        guard let bytes = try PinsKeyFile.readSecretFile(path: path, maximumBytes: maximumBytes, what: "mask file") else { return nil }
        do {
            return try MaskStore(serialized: bytes, mask: mask)
        } catch {
            throw .privacy("\(path): not a usable mask file: \(PinsKeyFile.reason(error))")
        }
    }

    /// Writes `store` to `path` atomically with mode 0600, replacing the previous version.
    /// - Throws: `HarnessError.privacy` naming the file.
    public static func save(_ store: MaskStore, path: String) throws(HarnessError) {
        try PinsKeyFile.writeSecret(store.serialized(), to: path, replace: true, what: "mask file", refusal: "")
    }

    /// Why `store` (read from `path`) cannot be used with `mask` without `--remask`, nil when
    /// it can.
    public static func refusal(_ store: MaskStore, path: String, mask: PrivacyMask) -> String? {
        guard let what = store.mismatch(with: mask) else { return nil }
        return "\(path) was made with \(what) (key fingerprint \(store.keyFingerprint.prefix(8))…, "
            + "\(MaskStore.describe(store.rule, store.minDistance, store.maxDistance)); now \(mask.keyFingerprint.prefix(8))…, "
            + "\(MaskStore.describe(mask.anonymity, mask.minDistance, mask.maxDistance))). Its \(store.count) stored positions are kept "
            + "whatever the key and rule; give the key file and options it was made with, or --remask to use these for new locations only"
    }

    /// The warning `--remask` prints: what it changes, and why published positions are never drawn again.
    public static func remaskWarning(_ store: MaskStore, path: String) -> String {
        "--remask: \(path) now records this key and rule; its \(store.count) stored positions stay as published and "
            + "only new locations are placed with the new settings\(store.isVerified ? "" : " (its integrity could not be checked: it was made with another key)"). "
            + "Never delete the mask file or publish without it: every new placement of a published location is one more sample of it, "
            + "and an attacker who intersects them finds the true position"
    }

    /// A warning when the store and the input have little in common (a mask file of another
    /// dataset), nil otherwise.
    static func strangerWarning(path: String, stored: Int, known: Int, locations: Int) -> String? {
        guard stored > 0, locations > 0, 2 * known < min(stored, locations) else { return nil }
        return "\(path) holds \(stored) locations of which only \(known) are in this input's \(locations): is it another "
            + "dataset's mask file? Keep one mask file per published dataset"
    }
}

extension PinSourceSettings {
    /// The privacy policy for `listings`: with a mask file, the stored positions are kept,
    /// the locations not yet in it are placed and added, and the file is saved (before anything
    /// is published) — a location is placed once, ever.
    /// - Throws: `HarnessError.privacy` for a mask file that cannot be read or written, or that
    ///   was made with another key or rule without `remask`; `PinError` for the options.
    public func policy(for listings: PinListings) throws -> PrivacyPolicy {
        let policy = try policy()
        guard let maskFile, case let .displaced(mask) = policy else { return policy }
        if let warning = PinsKeyFile.exposure(path: maskFile) { warn(warning) }
        var store = try PinsMaskFile.load(path: maskFile, mask: mask) ?? MaskStore(for: mask)
        if let refusal = PinsMaskFile.refusal(store, path: maskFile, mask: mask) {
            guard remask else { throw HarnessError.privacy(refusal) }
            warn(PinsMaskFile.remaskWarning(store, path: maskFile))
            store.adopt(mask)
        }
        let overlap = store.overlap(with: listings)
        if let w = PinsMaskFile.strangerWarning(path: maskFile, stored: store.count, known: overlap.known, locations: overlap.locations) { warn(w) }
        store.add(listings, mask: mask, tolerance: locationTolerance, threads: threads)
        try PinsMaskFile.save(store, path: maskFile)
        return .displaced(mask.keeping(store))
    }
}
