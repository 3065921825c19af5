// The PROJ 6+ C API: contexts, proj_create_crs_to_crs and proj_trans_generic.
#ifndef GEOCLUSTER_CPROJ_SHIM_H
#define GEOCLUSTER_CPROJ_SHIM_H

#include <proj.h>

#endif
