// PROJ and GEOS, loaded with dlopen on first use instead of linked.
//
// Why: libproj pulls about forty shared libraries into the process (curl, gnutls, kerberos,
// sqlite, tiff ...), and every symbol the dynamic loader resolves at start-up then searches
// that longer list: linked with -lproj -lgeos_c, a program that never calls either library
// starts several times slower, a noticeable share of a whole `geocluster cluster` run on
// planar x,y input (measured: docs/performance.md). Loading them on first use keeps that cost
// for the commands that project or build geometry, where it is small next to their work.
//
// How: the headers give every type and function declaration; `gc_proj_functions` and
// `gc_geos_functions` hold a pointer for each function Geo calls, with the function's own
// name and exact type (`__typeof__`). Geo calls `PROJ.proj_create(...)` rather than
// `proj_create(...)`: a direct call would not link, because the package no longer links the
// libraries, so a forgotten call site fails the build rather than the run.
#ifndef GEOCLUSTER_CGEOLIBRARIES_H
#define GEOCLUSTER_CGEOLIBRARIES_H

#include <proj.h>
// PROJ's geodesic routines (Karney's algorithms), part of its C API and in the same library.
#include <geodesic.h>
// Only the thread-safe `_r` functions of GEOS: each takes an explicit GEOSContextHandle_t,
// so two contexts on two threads never share global state.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

// The PROJ functions Geo calls (proj_info checks the loaded library's major version).
#define GC_PROJ_FUNCTIONS(X) \
    X(geod_init) \
    X(geod_inverse) \
    X(geod_inverseline) \
    X(geod_polygonarea) \
    X(geod_genposition) \
    X(proj_context_create) \
    X(proj_context_destroy) \
    X(proj_context_errno) \
    X(proj_context_errno_string) \
    X(proj_context_set_enable_network) \
    X(proj_create) \
    X(proj_create_crs_to_crs) \
    X(proj_crs_get_coordinate_system) \
    X(proj_cs_get_axis_count) \
    X(proj_cs_get_axis_info) \
    X(proj_destroy) \
    X(proj_errno) \
    X(proj_errno_reset) \
    X(proj_get_id_auth_name) \
    X(proj_get_id_code) \
    X(proj_get_name) \
    X(proj_get_type) \
    X(proj_info) \
    X(proj_is_crs) \
    X(proj_log_func) \
    X(proj_normalize_for_visualization) \
    X(proj_trans_generic)

// The GEOS functions Geo calls.
#define GC_GEOS_FUNCTIONS(X) \
    X(GEOSArea_r) \
    X(GEOSConcaveHull_r) \
    X(GEOSContext_setErrorMessageHandler_r) \
    X(GEOSContext_setNoticeMessageHandler_r) \
    X(GEOSConvexHull_r) \
    X(GEOSCoordSeq_copyFromArrays_r) \
    X(GEOSCoordSeq_copyToArrays_r) \
    X(GEOSCoordSeq_getSize_r) \
    X(GEOSDelaunayTriangulation_r) \
    X(GEOSFree_r) \
    X(GEOSGeoJSONReader_create_r) \
    X(GEOSGeoJSONReader_destroy_r) \
    X(GEOSGeoJSONReader_readGeometry_r) \
    X(GEOSGeoJSONWriter_create_r) \
    X(GEOSGeoJSONWriter_destroy_r) \
    X(GEOSGeoJSONWriter_writeGeometry_r) \
    X(GEOSGeomGetX_r) \
    X(GEOSGeomGetY_r) \
    X(GEOSGeomTypeId_r) \
    X(GEOSGeom_createCollection_r) \
    X(GEOSGeom_createLineString_r) \
    X(GEOSGeom_createLinearRing_r) \
    X(GEOSGeom_createPointFromXY_r) \
    X(GEOSGeom_createPolygon_r) \
    X(GEOSGeom_destroy_r) \
    X(GEOSGeom_getCoordSeq_r) \
    X(GEOSGeom_setPrecision_r) \
    X(GEOSGeom_transformXY_r) \
    X(GEOSGetCentroid_r) \
    X(GEOSGetExteriorRing_r) \
    X(GEOSGetGeometryN_r) \
    X(GEOSGetInteriorRingN_r) \
    X(GEOSGetNumCoordinates_r) \
    X(GEOSGetNumGeometries_r) \
    X(GEOSGetNumInteriorRings_r) \
    X(GEOSIntersection_r) \
    X(GEOSMakeValidParams_create_r) \
    X(GEOSMakeValidParams_destroy_r) \
    X(GEOSMakeValidParams_setKeepCollapsed_r) \
    X(GEOSMakeValidParams_setMethod_r) \
    X(GEOSMakeValidWithParams_r) \
    X(GEOSPrepare_r) \
    X(GEOSPreparedContains_r) \
    X(GEOSPreparedCovers_r) \
    X(GEOSPreparedGeom_destroy_r) \
    X(GEOSWKTReader_create_r) \
    X(GEOSWKTReader_destroy_r) \
    X(GEOSWKTReader_read_r) \
    X(GEOSWKTWriter_create_r) \
    X(GEOSWKTWriter_destroy_r) \
    X(GEOSWKTWriter_setOutputDimension_r) \
    X(GEOSWKTWriter_setRoundingPrecision_r) \
    X(GEOSWKTWriter_setTrim_r) \
    X(GEOSWKTWriter_write_r) \
    X(GEOS_finish_r) \
    X(GEOS_init_r) \
    X(GEOSisEmpty_r) \
    X(GEOSisValid_r) \
    X(GEOSversion)

#define GC_FUNCTION_FIELD(name) __typeof__(name) *_Nonnull name;

/// Pointers to PROJ's functions, named after them.
typedef struct gc_proj_functions {
    GC_PROJ_FUNCTIONS(GC_FUNCTION_FIELD)
} gc_proj_functions;

/// Pointers to GEOS's functions, named after them.
typedef struct gc_geos_functions {
    GC_GEOS_FUNCTIONS(GC_FUNCTION_FIELD)
} gc_geos_functions;

/// Loads PROJ once (thread-safe; later calls return the first result). Returns the functions,
/// or NULL with a sentence saying what failed (libraries tried, missing symbol) in `*error`.
const gc_proj_functions *_Nullable gc_load_proj(const char *_Nullable *_Nonnull error);

/// Loads GEOS's C API once, as `gc_load_proj` does for PROJ.
const gc_geos_functions *_Nullable gc_load_geos(const char *_Nullable *_Nonnull error);

#endif
