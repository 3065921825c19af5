// Only the thread-safe `_r` functions are visible to Swift: each takes an explicit
// GEOSContextHandle_t, so two contexts on two threads never share global state.
#ifndef GEOCLUSTER_CGEOS_SHIM_H
#define GEOCLUSTER_CGEOS_SHIM_H

#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

#endif
