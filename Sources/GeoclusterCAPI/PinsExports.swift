// The pin index for C callers: one build returns a handle; each query returns its answer as
// JSON text (GeoJSON features for pins) in a text handle the caller copies and frees. The
// declarations and their documentation: GeoclusterCHeader's geocluster.h.
import GeoclusterCHeader
import Pins
import PinsQueries

/// A query's answer, owned by the C caller until `gc_text_free`.
final class TextResult {
    let bytes: [UInt8]
    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// The error of a Pins call, its message naming the caller's parameter: the one the error is
/// about, else `parameter`.
private func pinsError(_ error: PinError, parameter: String) -> CAPIError {
    var name = parameter
    switch error {
    case .invalidCoordinate: name = "lon, lat"
    case .duplicateListingID: name = "ids"
    case .unknownPin: name = "pin_id"
    case .invalidCursor: name = "cursor"
    case let .invalidParameter(swiftName, _, _):
        let python = ["radius": "radius", "minSamples": "min_samples", "locationTolerance": "location_tolerance",
                      "threads": "n_jobs", "minAnonymity": "min_anonymity", "anonymityCap": "anonymity_cap", "zoom": "zoom",
                      "limit": "limit", "key": "key", "longitude/latitude": "lon, lat"]
        name = python[swiftName] ?? (["minLongitude", "minLatitude", "maxLongitude", "maxLatitude"].contains(swiftName) ? "bbox" : parameter)
    }
    return CAPIError(error.isCoordinate ? .nonFiniteCoordinate : .invalidParameter, "\(name): \(error)")
}

extension PinError {
    var isCoordinate: Bool { if case .invalidCoordinate = self { return true } else { return false } }
}

/// Runs a Pins call, naming `parameter` in its error.
private func pinsCall<T>(_ parameter: String, _ body: () throws(PinError) -> T) throws(CAPIError) -> T {
    do throws(PinError) {
        return try body()
    } catch {
        throw pinsError(error, parameter: parameter)
    }
}

private func index(_ handle: OpaquePointer?) throws(CAPIError) -> PinIndex {
    guard let handle else { throw CAPIError(.invalidArgument, "index must not be null") }
    return Unmanaged<PinIndexBox>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue().index
}

/// One built index, owned by the C caller through an opaque handle.
final class PinIndexBox {
    let index: PinIndex
    init(_ index: PinIndex) { self.index = index }
}

/// The columns of a build call, as the C caller passed them.
extension gc_listings {
    /// The listings: ids (rows when null), location keys from the UTF-8 texts (the true
    /// coordinates when null; an empty text is refused, as the CLI refuses an empty cell).
    func listings() throws(CAPIError) -> PinListings {
        guard n >= 0 else { throw CAPIError(.invalidArgument, "n = \(n) is invalid: must be at least 0") }
        let n = Int(self.n)
        guard let lon, let lat else {
            if n == 0 { return PinListings() }
            throw CAPIError(.invalidArgument, "lon and lat must not be null when n > 0")
        }
        func column<T>(_ p: UnsafePointer<T>?) -> [T]? { p.map { Array(UnsafeBufferPointer(start: $0, count: n)) } }
        var keys: [LocationKey]? = nil
        if let keyBytes = key_bytes, let keyOffsets = key_offsets {
            var out = [LocationKey](); out.reserveCapacity(n)
            for i in 0..<n {
                let a = Int(keyOffsets[i]), b = Int(keyOffsets[i + 1])
                guard b > a else { throw CAPIError(.invalidParameter, "keys[\(i)] is empty: give every listing its building's key, or leave keys out") }
                out.append(LocationKey(string: String(decoding: UnsafeBufferPointer(start: keyBytes + a, count: b - a), as: UTF8.self)))
            }
            keys = out
        }
        return PinListings(ids: column(ids) ?? (0..<Int64(n)).map { $0 }, longitudes: column(lon)!, latitudes: column(lat)!,
                           locationKeys: keys, categories: column(categories), areas: column(areas),
                           deposits: column(deposits), monthlyRents: column(rents))
    }
}

@_cdecl("gc_pins_defaults")
public func gc_pins_defaults() -> gc_pins_params {
    gc_pins_params(secret: nil, secret_length: 0, min_anonymity: Int64(AnonymityRule.defaultMinimum),
                   anonymity_cap: AnonymityRule.defaultCap, radius: PinOptions.defaultRadius,
                   min_samples: Int64(PinOptions.defaultMinSamples), location_tolerance: PinOptions.defaultLocationTolerance,
                   threads: 1, mask: nil, mask_length: 0, remask: 0)
}

@_cdecl("gc_pins_build")
public func gc_pins_build(
    _ listings: UnsafePointer<gc_listings>?, _ params: UnsafePointer<gc_pins_params>?,
    _ maskOut: UnsafeMutablePointer<OpaquePointer?>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        out.pointee = nil
        maskOut?.pointee = nil
        guard let listings = listings?.pointee, let p = params?.pointee else {
            throw CAPIError(.invalidArgument, "listings and params must not be null")
        }
        let workers = try checkedThreads(p.threads)
        let mask = try privacyMask(p)
        let options = PinOptions(privacy: .disabled, radius: p.radius, minSamples: Int(clamping: p.min_samples),
                                 threads: workers, locationTolerance: p.location_tolerance)
        let rows = try listings.listings()
        try pinsCall("attributes") { () throws(PinError) in try options.validate() }
        var chosen = options
        guard let mask else { return try finish(rows, chosen, out) }
        guard let maskBytes = p.mask else {
            chosen.privacy = .displaced(mask)
            return try finish(rows, chosen, out)
        }
        // The stored positions are kept; new locations are drawn and stored, and the
        // store handed back (to be saved before anything is published).
        var store = try MaskStoreInput(bytes: maskBytes, count: Int(p.mask_length), remask: p.remask != 0).store(for: mask)
        store.add(rows, mask: mask, tolerance: p.location_tolerance, threads: workers)
        chosen.privacy = .displaced(mask.keeping(store))
        let bytes = store.serialized()
        try finish(rows, chosen, out)
        maskOut?.pointee = OpaquePointer(Unmanaged.passRetained(TextResult(bytes: bytes)).toOpaque())
    }
}

/// The privacy mask of a build with a secret (none without one): the key arrives as bytes
/// and meets PinsKey(bytes:)'s rules (32 of them, not a weak key); shared points only, the
/// weak plain annulus being the CLI's, behind a flag that says so.
private func privacyMask(_ p: gc_pins_params) throws(CAPIError) -> PrivacyMask? {
    guard let secret = p.secret else { return nil }
    guard p.secret_length >= 0 else { throw CAPIError(.invalidArgument, "secret_length = \(p.secret_length) is invalid: a key is 32 bytes") }
    let key = try pinsCall("key") { () throws(PinError) in try PinsKey(bytes: UnsafeBufferPointer(start: secret, count: Int(p.secret_length))) }
    let rule = try pinsCall("min_anonymity") { () throws(PinError) in
        try AnonymityRule(minimum: Int(clamping: p.min_anonymity), cap: p.anonymity_cap)
    }
    return PrivacyMask(key: key, sharing: rule)
}

/// Builds the index and hands it to the caller.
private func finish(_ listings: PinListings, _ options: PinOptions,
                    _ out: UnsafeMutablePointer<OpaquePointer?>) throws(CAPIError) {
    let built = try pinsCall("attributes") { () throws(PinError) in try PinIndex(listings: listings, options: options) }
    out.pointee = OpaquePointer(Unmanaged.passRetained(PinIndexBox(built)).toOpaque())
}

/// A mask store as the caller passed it (the bytes of the CLI's mask file; none for a new one).
struct MaskStoreInput {
    let bytes: [UInt8]
    let remask: Bool

    init(bytes: UnsafePointer<UInt8>, count: Int, remask: Bool) {
        self.bytes = Array(UnsafeBufferPointer(start: bytes, count: max(count, 0)))
        self.remask = remask
    }

    /// The store for `mask`: a new one for no bytes; one made with another key or rule only
    /// with `remask` (then it records this mask, its positions kept).
    func store(for mask: PrivacyMask) throws(CAPIError) -> MaskStore {
        if bytes.isEmpty { return MaskStore(for: mask) }
        var store = try pinsCall("mask") { () throws(PinError) in try MaskStore(serialized: bytes, mask: mask) }
        if let what = store.mismatch(with: mask) {
            guard remask else {
                throw CAPIError(.invalidParameter, "mask: the mask file was made with \(what) (its \(store.count) stored positions "
                                + "are kept whatever the key and rule); give the key, min_anonymity and anonymity_cap it was made "
                                + "with, or remask=True to use these for new locations only")
            }
            store.adopt(mask)
        }
        return store
    }
}

@_cdecl("gc_pins_free")
public func gc_pins_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<PinIndexBox>.fromOpaque(UnsafeRawPointer(handle)).release()
}

@_cdecl("gc_pins_counts")
public func gc_pins_counts(_ handle: OpaquePointer?, _ listings: UnsafeMutablePointer<Int64>?,
                           _ locations: UnsafeMutablePointer<Int64>?) {
    guard let built = try? index(handle) else { return }
    listings?.pointee = Int64(built.listingCount)
    locations?.pointee = Int64(built.locationCount)
}

/// The listings the build left out, as JSON: `{"conflicting": [id, …], "held_back": [id, …],
/// "merged_units": [[id, …], …]}` (`PinIndex.setAside`).
@_cdecl("gc_pins_set_aside")
public func gc_pins_set_aside(
    _ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        out?.pointee = nil
        let s = try index(handle).setAside
        func list(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }
        try give("{\"conflicting\":\(list(s.conflicting)),\"held_back\":\(list(s.heldBack)),"
                 + "\"merged_units\":[\(s.mergedUnits.map(list).joined(separator: ","))]}", out)
    }
}

/// Hands `text` to the caller as a text handle.
func give(_ text: String, _ out: UnsafeMutablePointer<OpaquePointer?>?) throws(CAPIError) {
    guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
    out.pointee = OpaquePointer(Unmanaged.passRetained(TextResult(text)).toOpaque())
}

/// The endpoint named `name` (the server's route names), for the pin `id` where it needs one.
private func endpoint(_ name: String, id: String) throws(CAPIError) -> PinsCall.Endpoint {
    switch name {
    case "pins": return .pins
    case "pin": return .pin(id)
    case "children": return .children(id)
    case "leaves": return .leaves(id)
    case "nearby": return .nearby
    default: throw CAPIError(.invalidArgument, "endpoint: '\(name)' is not one of pins, pin, children, leaves, nearby")
    }
}

/// The `count` name and value pairs of the C arrays, as text.
private func pairs(_ names: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
                   _ count: Int64) throws(CAPIError) -> [(String, String)] {
    guard count >= 0, count == 0 || (names != nil && values != nil) else {
        throw CAPIError(.invalidArgument, "names and values must hold count (\(count)) texts")
    }
    return try (0..<Int(count)).map { (k: Int) throws(CAPIError) -> (String, String) in
        guard let name = names?[k], let value = values?[k] else { throw CAPIError(.invalidArgument, "names[\(k)] and values[\(k)] must not be null") }
        return (String(cString: name), String(cString: value))
    }
}

/// A failed request as the Python package reports it: the parameter's name first.
private func requestError(_ failure: PinsCall.Failure) -> CAPIError {
    switch failure {
    case .badQuery(let e): CAPIError(.invalidParameter, e.description)
    case .unknownPin(let id): CAPIError(.invalidParameter, "pin_id: no pin has id \(id) in this index (ids change when the index is rebuilt)")
    }
}

@_cdecl("gc_pins_request")
public func gc_pins_request(
    _ handle: OpaquePointer?, _ endpointName: UnsafePointer<CChar>?, _ pin: UnsafePointer<CChar>?,
    _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int64,
    _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        out?.pointee = nil
        let built = try index(handle)
        guard let endpointName else { throw CAPIError(.invalidArgument, "endpoint must not be null") }
        let call = try endpoint(String(cString: endpointName), id: pin.map { String(cString: $0) } ?? "")
        let text = try pairs(names, values, count)
        let answer: PinsCall.Answer
        do throws(PinsCall.Failure) {
            answer = try PinsCall.answer(call, try PinsCall.query(text, for: call), index: built)
        } catch {
            throw requestError(error)
        }
        try give(try PinsJSON.answer(answer, index: built), out)
    }
}

@_cdecl("gc_text_length")
public func gc_text_length(_ text: OpaquePointer?) -> Int64 {
    guard let text else { return 0 }
    return Int64(Unmanaged<TextResult>.fromOpaque(UnsafeRawPointer(text)).takeUnretainedValue().bytes.count)
}

@_cdecl("gc_text_copy")
public func gc_text_copy(_ text: OpaquePointer?, _ destination: UnsafeMutablePointer<UInt8>?) {
    guard let text else { return }
    copy(Unmanaged<TextResult>.fromOpaque(UnsafeRawPointer(text)).takeUnretainedValue().bytes, to: destination)
}

@_cdecl("gc_text_free")
public func gc_text_free(_ text: OpaquePointer?) {
    guard let text else { return }
    Unmanaged<TextResult>.fromOpaque(UnsafeRawPointer(text)).release()
}

@_cdecl("gc_pins_category_names")
public func gc_pins_category_names(_ out: UnsafeMutablePointer<OpaquePointer?>?) {
    try? give(ListingCategory.allCases.map(\.rawValue).joined(separator: ","), out)
}
