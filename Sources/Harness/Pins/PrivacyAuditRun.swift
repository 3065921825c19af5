import Datasets
import Pins

/// What `geocluster privacy` asks: the listing file, its mask (key, offsets, mask file,
/// anonymity rule) and the k the report measures against.
public struct PrivacyRequest: Sendable {
    public var input: String
    public var source: PinSourceSettings
    /// The report's K: the share of locations with k below it is the headline.
    public var target: Int
    /// The report file: `.csv`, `.geojson` or `.html` (written whole or not at all).
    public var output: String
    public var threads: Int

    public init(input: String, source: PinSourceSettings, target: Int, output: String, threads: Int = 1) {
        self.input = input; self.source = source; self.target = target; self.output = output; self.threads = threads
    }
}

/// The anonymity audit of a listing file as `geocluster pins` would publish it: the same
/// reading, location keys and mask, with the mask file read but never written (the audit
/// publishes nothing, so a location it draws is not a published one).
public enum PrivacyAuditRun {
    /// The audit of `request.input`.
    /// - Throws: `DatasetError` reading, `HarnessError` for the key, mask file or location
    ///   keys, `PinError` for the offsets and rule.
    public static func audit(_ request: PrivacyRequest) throws -> AnonymityAudit {
        guard case var .displaced(mask) = try request.source.policy() else {
            throw HarnessError.privacy("the anonymity report measures the privacy mask; give --key-file (not --no-privacy)")
        }
        if let path = request.source.maskFile {
            guard let store = try PinsMaskFile.load(path: path, mask: mask) else {
                throw HarnessError.privacy("\(path): no such mask file; give the mask file the pins were published with, or leave out --mask")
            }
            if let what = store.mismatch(with: mask) {
                request.source.warn("\(path) was made with \(what); its stored positions are audited as published, the others as these settings would draw them")
            }
            mask = mask.keeping(store)
        }
        let source = try request.source.read(request.input)
        let audit = AnonymityAudit(listings: source.listings, mask: mask, tolerance: request.source.locationTolerance,
                                   threads: request.threads)
        // The same warning `pins` gives: listings left out are not audited either.
        var setAside = SetAside()
        setAside.conflicting = audit.conflicting
        request.source.report(setAside, source: source, input: request.input)
        return audit
    }

    /// The audit's headline, one line: locations, median k, the shares alone and not anonymous
    /// at the target, the attacker's expected success, the displacement it costs.
    public static func summary(_ audit: AnonymityAudit, target: Int) -> String {
        let L = audit.locations.count
        var line = "\(L) locations: median k \(audit.medianK), k = 1 (alone in its ring) for \(percent(audit.share(kBelow: 2))), "
            + "not anonymous at K = \(target) (fewer than \(target), or a 30 m spot holding more than 1/\(target) of them) for "
            + "\(percent(audit.share(notAnonymousAt: target))); a registry attacker naming the fullest 30 m spot of each ring is "
            + "right for \(percent(audit.expectedSpotGuesses)) (expected); displacement median "
            + "\(FormatNumber.trimmed(audit.medianDisplacement, decimals: 0)) m, 90th percentile \(FormatNumber.trimmed(audit.displacement90, decimals: 0)) m"
        if audit.heldBack > 0 {
            line += "; \(audit.heldBack) location\(audit.heldBack == 1 ? "" : "s") held back (no shared point yet), not audited"
        }
        if audit.outsideOwnRing > 0 {
            line += "; \(audit.outsideOwnRing) stored positions lie outside the ring these offsets give (drawn with other settings)"
        }
        return line
    }

    static func percent(_ share: Double) -> String { FormatNumber.fixed(100 * share, decimals: 1) + " %" }

    /// The audit as CSV: one line per location (displayed position, k, the fullest 30 m spot,
    /// ring radius, listings).
    public static func csv(_ audit: AnonymityAudit) -> String {
        var out = "longitude,latitude,k,largest_spot,ring_m,listings\n"
        for l in audit.locations {
            out += "\(FormatNumber.trimmed(l.longitude, decimals: 7)),\(FormatNumber.trimmed(l.latitude, decimals: 7)),\(l.k),\(l.largestSpot),"
                + "\(FormatNumber.trimmed(l.ringRadius, decimals: 1)),\(l.listings)\n"
        }
        return out
    }

    /// The audit as a GeoJSON FeatureCollection of displayed points (properties k, ring_m,
    /// largest_spot, ring_inner_m, listings).
    public static func writeGeoJSON(_ audit: AnonymityAudit, to path: String) throws {
        var writer = try GeoJSONWriter(path: path)
        for l in audit.locations {
            writer.beginFeature(lon: l.longitude, lat: l.latitude, decimals: 7)
            writer.property("k", l.k)
            writer.property("largest_spot", l.largestSpot)
            writer.property("ring_m", l.ringRadius, decimals: 1)
            writer.property("ring_inner_m", audit.minDistance, decimals: 1)
            writer.property("listings", l.listings)
            try writer.endFeature()
        }
        try writer.commit()
    }
}
