// Loads PROJ and GEOS with dlopen on first use; see include/CGeoLibraries.h for why.
#include "CGeoLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Names tried in order. The unversioned name is the development link (libproj-dev,
// libgeos-dev), present wherever the package was built, and it points at the library the
// headers describe. Without it, PROJ's versioned names are tried newest first and accepted
// only when the library's major version is the headers' (PROJ changes its soname often;
// GEOS's C API has kept soname 1 since it began).
#if defined(__APPLE__)
static const char *const projNames[] = {
    "libproj.dylib", "/opt/homebrew/lib/libproj.dylib", "/usr/local/lib/libproj.dylib", NULL
};
static const char *const geosNames[] = {
    "libgeos_c.dylib", "/opt/homebrew/lib/libgeos_c.dylib", "/usr/local/lib/libgeos_c.dylib", NULL
};
#else
static const char *const projNames[] = {
    "libproj.so", "libproj.so.40", "libproj.so.35", "libproj.so.30", "libproj.so.26",
    "libproj.so.25", "libproj.so.22", "libproj.so.19", "libproj.so.15", NULL
};
static const char *const geosNames[] = { "libgeos_c.so", "libgeos_c.so.1", NULL };
#endif

static gc_proj_functions projFunctions;
static const gc_proj_functions *projLoaded;
static char projError[512];
static pthread_once_t projOnce = PTHREAD_ONCE_INIT;

static gc_geos_functions geosFunctions;
static const gc_geos_functions *geosLoaded;
static char geosError[512];
static pthread_once_t geosOnce = PTHREAD_ONCE_INIT;

// Resolves every listed function from `handle` into `functions`; on a missing symbol writes
// the error and returns 0.
#define GC_RESOLVE(name)                                                              \
    {                                                                                  \
        void *symbol = dlsym(handle, #name);                                           \
        if (symbol == NULL) {                                                          \
            snprintf(error, errorSize, "%s has no function %s", library, #name);      \
            return 0;                                                                  \
        }                                                                              \
        /* dlsym returns an object pointer; POSIX guarantees it converts. */           \
        memcpy((void *)&functions->name, &symbol, sizeof symbol);                      \
    }

static int resolveProj(void *handle, const char *library, gc_proj_functions *functions,
                       char *error, size_t errorSize) {
    GC_PROJ_FUNCTIONS(GC_RESOLVE)
    PJ_INFO info = functions->proj_info();
    if (info.major != PROJ_VERSION_MAJOR) {
        snprintf(error, errorSize, "%s is PROJ %d.%d.%d; geocluster was built against PROJ %d",
                 library, info.major, info.minor, info.patch, PROJ_VERSION_MAJOR);
        return 0;
    }
    return 1;
}

static int resolveGeos(void *handle, const char *library, gc_geos_functions *functions,
                       char *error, size_t errorSize) {
    GC_GEOS_FUNCTIONS(GC_RESOLVE)
    return 1;
}

static void loadProj(void) {
    char reason[256] = "not found";
    for (const char *const *name = projNames; *name != NULL; name++) {
        void *handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) continue;
        gc_proj_functions functions;
        if (resolveProj(handle, *name, &functions, reason, sizeof reason)) {
            projFunctions = functions;
            projLoaded = &projFunctions;
            return;
        }
        dlclose(handle);
    }
    snprintf(projError, sizeof projError,
             "cannot load the PROJ library (%s; tried %s and its versioned names); "
             "install PROJ (Debian: apt-get install libproj-dev; Homebrew: brew install proj)",
             reason, projNames[0]);
}

static void loadGeos(void) {
    char reason[256] = "not found";
    for (const char *const *name = geosNames; *name != NULL; name++) {
        void *handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) continue;
        gc_geos_functions functions;
        if (resolveGeos(handle, *name, &functions, reason, sizeof reason)) {
            geosFunctions = functions;
            geosLoaded = &geosFunctions;
            return;
        }
        dlclose(handle);
    }
    snprintf(geosError, sizeof geosError,
             "cannot load the GEOS library (%s; tried %s and %s); "
             "install GEOS (Debian: apt-get install libgeos-dev; Homebrew: brew install geos)",
             reason, geosNames[0], geosNames[1]);
}

const gc_proj_functions *gc_load_proj(const char **error) {
    pthread_once(&projOnce, loadProj);
    if (projLoaded == NULL) *error = projError;
    return projLoaded;
}

const gc_geos_functions *gc_load_geos(const char **error) {
    pthread_once(&geosOnce, loadGeos);
    if (geosLoaded == NULL) *error = geosError;
    return geosLoaded;
}
