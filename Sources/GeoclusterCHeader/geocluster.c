// The C API's header, compiled once as C (strict prototypes, no warnings): its
// declarations are implemented by the Swift target GeoclusterCAPI.
#include "geocluster.h"
