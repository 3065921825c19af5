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
    /// The largest mask file read, bytes: 32 bytes a location, so room for 30 million locations.
    public static let maximumBytes = 1 << 30

    /// The store in the file at `path`, nil when there is no such file.
    /// - Throws: `HarnessError.privacy` naming the file when it cannot be read or is not a
    ///   mask file.
    public static func load(path: String) throws(HarnessError) -> MaskStore? {
        guard let bytes = try PinsKeyFile.readSecretFile(path: path, maximumBytes: maximumBytes, what: "mask file") else { return nil }
        do {
            return try MaskStore(serialized: bytes)
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
        return "\(path) was made with \(what) (key fingerprint \(store.keyFingerprint.prefix(8))…, offsets "
            + "\(FormatNumber.trimmed(store.minDistance, decimals: 1))–\(FormatNumber.trimmed(store.maxDistance, decimals: 1)) m; "
            + "now \(mask.keyFingerprint.prefix(8))…, \(FormatNumber.trimmed(mask.minDistance, decimals: 1))–"
            + "\(FormatNumber.trimmed(mask.maxDistance, decimals: 1)) m). Its \(store.count) stored positions are kept whatever the key "
            + "and offsets; give the key file and offsets it was made with, or --remask to use these for new locations only"
    }

    /// The warning `--remask` prints: what it changes, and why published positions are never drawn again.
    public static func remaskWarning(_ store: MaskStore, path: String) -> String {
        "--remask: \(path) now records this key and offset range; its \(store.count) stored positions stay as published and "
            + "only new locations are drawn with the new settings. Never delete the mask file or publish without it: every "
            + "new draw of a published location is one more sample of it, and an attacker who averages the draws (or "
            + "intersects their rings) finds the true position (5 draws put most locations within 30 m of it)"
    }
}

extension PinSourceSettings {
    /// The privacy policy for `listings`: with a mask file, the stored positions are kept,
    /// the locations not yet in it are drawn and added, and the file is saved (before anything
    /// is published) — a location is drawn once, ever.
    /// - Throws: `HarnessError.privacy` for a mask file that cannot be read or written, or that
    ///   was made with another key or range without `remask`; `PinError` for the offsets.
    public func policy(for listings: PinListings) throws -> PrivacyPolicy {
        let policy = try policy()
        guard let maskFile, case let .displaced(mask) = policy else { return policy }
        if let warning = PinsKeyFile.exposure(path: maskFile) { warn(warning) }
        var store = try PinsMaskFile.load(path: maskFile) ?? MaskStore(for: mask)
        if let refusal = PinsMaskFile.refusal(store, path: maskFile, mask: mask) {
            guard remask else { throw HarnessError.privacy(refusal) }
            warn(PinsMaskFile.remaskWarning(store, path: maskFile))
            store.adopt(mask)
        }
        try store.add(listings, mask: mask, tolerance: locationTolerance, threads: threads)
        try PinsMaskFile.save(store, path: maskFile)
        return .displaced(mask.keeping(store))
    }
}
