import CGeoLibraries

/// A GEOS context: the factory for every ``Geometry`` and the place GEOS reports errors to.
///
/// Wraps one `GEOSContextHandle_t` from the reentrant API (`GEOS_init_r`). GEOS's error and
/// notice messages are captured here through `GEOSContext_setErrorMessageHandler_r` /
/// `GEOSContext_setNoticeMessageHandler_r` and quoted in the ``GeoError/geos(operation:message:)``
/// thrown by the call that failed, instead of being printed.
///
/// Lifetime: every geometry keeps a strong reference to its context, so the handle is
/// finished (`GEOS_finish_r`) only after the last geometry made with it is destroyed.
///
/// Thread safety: GEOS requires one context per thread. A context and every geometry made
/// with it must be used from one thread at a time; separate contexts are independent. The
/// type is deliberately not `Sendable` (there is no lock); create one context per task.
public final class GeometryContext {
    /// The GEOS handle; valid until deinit.
    let handle: GEOSContextHandle_t
    /// Mailbox for GEOS's error/notice callbacks; outlives `handle` (released after deinit).
    private let messages = CapturedMessages()

    // Readers and writers are created on first use and freed with the context: they are
    // cheap but not free, and a CLI run may convert thousands of hulls.
    private var wktReaderHandle: OpaquePointer?
    private var wktWriterHandle: OpaquePointer?
    private var geoJSONReaderHandle: OpaquePointer?
    private var geoJSONWriterHandle: OpaquePointer?

    /// Whether the loaded GEOS's concave hull must be guarded against its triangulation bug
    /// (`Geometry.concaveHull`): versions before 3.11.3, and 3.12.0.
    /// Read on first use, after a context has loaded GEOS.
    static let concaveHullNeedsCheck: Bool = {
        let text = GEOS.GEOSversion().map { String(cString: $0) } ?? ""
        let version = (text.split(separator: "-").first ?? "").split(separator: ".").compactMap { Int($0) }
        guard version.count >= 3 else { return true }
        let v = (version[0], version[1], version[2])
        return v < (3, 11, 3) || v == (3, 12, 0)
    }()

    /// Creates a GEOS context with message capture installed.
    /// - Throws: `.libraryUnavailable` if the GEOS library cannot be loaded, `.geos` if it cannot
    ///   allocate a context.
    public init() throws(GeoError) {
        try loadGEOS()
        // GEOS_init_r: NULL only when out of memory.
        guard let handle = GEOS.GEOS_init_r() else {
            throw .geos(operation: "GEOS_init_r", message: "GEOS could not allocate a context")
        }
        self.handle = handle
        // The handlers receive the mailbox back as userdata (unretained: it is a stored
        // property, so it lives until after GEOS_finish_r in deinit). Both setters return
        // the previous handler (NULL here), which we do not need.
        let box = Unmanaged.passUnretained(messages).toOpaque()
        _ = GEOS.GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let userdata else { return }
            Unmanaged<CapturedMessages>.fromOpaque(userdata).takeUnretainedValue().recordError(message)
        }, box)
        _ = GEOS.GEOSContext_setNoticeMessageHandler_r(handle, { message, userdata in
            guard let userdata else { return }
            Unmanaged<CapturedMessages>.fromOpaque(userdata).takeUnretainedValue().recordNotice(message)
        }, box)
    }

    deinit {
        // Writers/readers belong to the handle and must go before it. All return void.
        if let wktReaderHandle { GEOS.GEOSWKTReader_destroy_r(handle, wktReaderHandle) }
        if let wktWriterHandle { GEOS.GEOSWKTWriter_destroy_r(handle, wktWriterHandle) }
        if let geoJSONReaderHandle { GEOS.GEOSGeoJSONReader_destroy_r(handle, geoJSONReaderHandle) }
        if let geoJSONWriterHandle { GEOS.GEOSGeoJSONWriter_destroy_r(handle, geoJSONWriterHandle) }
        // GEOS_finish_r returns void. Every Geometry holds this context strongly, so none
        // is left that could still use the handle.
        GEOS.GEOS_finish_r(handle)
    }

    // MARK: - Internal helpers shared by the geometry files

    /// The error for a GEOS call that just failed, quoting GEOS's message.
    func failure(_ operation: String) -> GeoError {
        .geos(operation: operation, message: messages.take(fallback: "GEOS reported no message"))
    }

    /// Forgets messages from earlier calls, so the next failure quotes only its own.
    func clearMessages() {
        messages.clear()
    }

    /// Interprets a GEOS predicate result: 1 true, 0 false, 2 exception (anything else is
    /// treated as an exception too).
    func predicate(_ result: CChar, _ operation: @autoclosure () -> String) throws(GeoError) -> Bool {
        switch result {
        case 1: return true
        case 0: return false
        default: throw failure(operation())
        }
    }

    /// Wraps a GEOS result that the caller now owns; NULL means GEOS threw.
    func adopt(_ pointer: OpaquePointer?, _ operation: @autoclosure () -> String) throws(GeoError) -> Geometry {
        guard let pointer else { throw failure(operation()) }
        return try Geometry(owning: pointer, context: self)
    }

    /// Converts a Swift count to the `unsigned int` sizes of the GEOS API.
    func cCount(_ n: Int, _ operation: String) throws(GeoError) -> UInt32 {
        guard let count = UInt32(exactly: n) else {
            throw .geos(operation: operation, message: "\(n) coordinates exceed GEOS's limit of \(UInt32.max)")
        }
        return count
    }

    func wktReader() throws(GeoError) -> OpaquePointer {
        if let wktReaderHandle { return wktReaderHandle }
        // GEOSWKTReader_create_r: NULL on exception.
        guard let reader = GEOS.GEOSWKTReader_create_r(handle) else { throw failure("GEOSWKTReader_create_r") }
        wktReaderHandle = reader
        return reader
    }

    func wktWriter() throws(GeoError) -> OpaquePointer {
        if let wktWriterHandle { return wktWriterHandle }
        // GEOSWKTWriter_create_r: NULL on exception.
        guard let writer = GEOS.GEOSWKTWriter_create_r(handle) else { throw failure("GEOSWKTWriter_create_r") }
        // Shortest text that reads back to the same doubles: GEOS 3.11's default is a
        // fixed 16 decimal places without trimming ("1.1" comes out as
        // "1.1000000000000001"), which is longer and no more exact.
        // The setters return void.
        GEOS.GEOSWKTWriter_setTrim_r(handle, writer, 1)
        GEOS.GEOSWKTWriter_setRoundingPrecision_r(handle, writer, -1)
        GEOS.GEOSWKTWriter_setOutputDimension_r(handle, writer, 2)
        wktWriterHandle = writer
        return writer
    }

    func geoJSONReader() throws(GeoError) -> OpaquePointer {
        if let geoJSONReaderHandle { return geoJSONReaderHandle }
        // GEOSGeoJSONReader_create_r: NULL on exception.
        guard let reader = GEOS.GEOSGeoJSONReader_create_r(handle) else { throw failure("GEOSGeoJSONReader_create_r") }
        geoJSONReaderHandle = reader
        return reader
    }

    func geoJSONWriter() throws(GeoError) -> OpaquePointer {
        if let geoJSONWriterHandle { return geoJSONWriterHandle }
        // GEOSGeoJSONWriter_create_r: NULL on exception.
        guard let writer = GEOS.GEOSGeoJSONWriter_create_r(handle) else { throw failure("GEOSGeoJSONWriter_create_r") }
        geoJSONWriterHandle = writer
        return writer
    }

    /// Copies a GEOS-allocated C string into Swift and frees it with `GEOSFree_r`.
    func takeString(_ pointer: UnsafeMutablePointer<CChar>?, _ operation: String) throws(GeoError) -> String {
        guard let pointer else { throw failure(operation) }
        // GEOSFree_r returns void; GEOS strings must go back to GEOS's allocator, not free().
        defer { GEOS.GEOSFree_r(handle, pointer) }
        return String(cString: pointer)
    }
}

// Explicitly not Sendable: a GEOS context is single-threaded state and there is no lock.
@available(*, unavailable, message: "a GeometryContext must stay on one thread; create one per task")
extension GeometryContext: Sendable {}
