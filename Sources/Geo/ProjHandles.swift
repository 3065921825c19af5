import CGeoLibraries

/// Owns one `PJ_CONTEXT`: PROJ's per-thread state (error number, logger, database handle).
///
/// Every `ProjObject` created in this context holds a strong reference to it, so the
/// context is destroyed only after the last object that might use it.
final class ProjContext {
    let pointer: OpaquePointer
    /// Receives PROJ's log lines (errors such as "crs not found") instead of stderr.
    let messages = CapturedMessages()

    init() throws(GeoError) {
        try loadPROJ()
        // proj_context_create: NULL only when out of memory.
        guard let pointer = PROJ.proj_context_create() else {
            throw .proj(operation: "proj_context_create", message: "PROJ could not allocate a context")
        }
        self.pointer = pointer
        // Route PROJ's log into `messages`. The callback gets the mailbox back through the
        // app_data pointer; it is unretained because `messages` is a stored property of
        // self and so outlives the context, which dies in deinit below.
        PROJ.proj_log_func(pointer, Unmanaged.passUnretained(messages).toOpaque()) { appData, level, message in
            guard let appData else { return }
            let box = Unmanaged<CapturedMessages>.fromOpaque(appData).takeUnretainedValue()
            if level == Int32(PJ_LOG_ERROR.rawValue) { box.recordError(message) } else { box.recordNotice(message) }
        }
        // No grid downloads: results must not depend on the network or on a CDN's files
        // (PROJ_NETWORK=ON in the environment would otherwise switch them on).
        // Returns 1 on success, 0 when PROJ was built without network support; either way
        // the network is off afterwards, so the result needs no check.
        _ = PROJ.proj_context_set_enable_network(pointer, 0)
    }

    /// The explanation for the failure that just happened in this context: PROJ's last
    /// logged error, else the text for `proj_context_errno`.
    func failureMessage() -> String {
        let code = PROJ.proj_context_errno(pointer)
        // proj_context_errno_string never returns NULL for a valid context (it falls back
        // to "Unknown error (code N)"), but the optional must still be unwrapped.
        let errnoText = PROJ.proj_context_errno_string(pointer, code).map { String(cString: $0) }
        return messages.take(fallback: errnoText ?? "PROJ error \(code)")
    }

    deinit {
        // proj_context_destroy returns NULL; nothing to check.
        _ = PROJ.proj_context_destroy(pointer)
    }
}

/// Owns one `PJ*` (a CRS, coordinate system or coordinate operation) and keeps its context
/// alive until after `proj_destroy`.
final class ProjObject {
    let pointer: OpaquePointer
    let context: ProjContext

    /// Takes ownership of `pointer`, a non-NULL result of a `proj_create*` call in `context`.
    init(owning pointer: OpaquePointer, context: ProjContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit {
        // proj_destroy returns NULL; nothing to check.
        _ = PROJ.proj_destroy(pointer)
    }
}
