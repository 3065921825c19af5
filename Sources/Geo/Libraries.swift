import CGeoLibraries

// PROJ and GEOS are loaded on first use, not linked: see Sources/CGeoLibraries for why and
// how. Every call into them goes through `PROJ.name(...)` or `GEOS.name(...)`.

/// Loads PROJ if it is not loaded yet.
/// - Throws: `.libraryUnavailable` naming the libraries tried, when none loads.
func loadPROJ() throws(GeoError) {
    var error: UnsafePointer<CChar>?
    if gc_load_proj(&error) == nil {
        throw .libraryUnavailable(library: "PROJ", message: error.map { String(cString: $0) } ?? "cannot load PROJ")
    }
}

/// Loads GEOS's C API if it is not loaded yet.
/// - Throws: `.libraryUnavailable` naming the libraries tried, when none loads.
func loadGEOS() throws(GeoError) {
    var error: UnsafePointer<CChar>?
    if gc_load_geos(&error) == nil {
        throw .libraryUnavailable(library: "GEOS", message: error.map { String(cString: $0) } ?? "cannot load GEOS")
    }
}

/// PROJ's functions. Every PROJ call needs a context or an object made in one, and
/// `ProjContext.init` loads the library first, so reaching this unloaded is a programming error.
var PROJ: gc_proj_functions {
    var error: UnsafePointer<CChar>?
    guard let functions = gc_load_proj(&error) else {
        preconditionFailure("PROJ called before a ProjContext loaded it")
    }
    return functions.pointee
}

/// GEOS's functions; `GeometryContext.init` loads the library first (see `PROJ`).
var GEOS: gc_geos_functions {
    var error: UnsafePointer<CChar>?
    guard let functions = gc_load_geos(&error) else {
        preconditionFailure("GEOS called before a GeometryContext loaded it")
    }
    return functions.pointee
}
