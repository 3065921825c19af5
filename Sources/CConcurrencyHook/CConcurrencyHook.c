#include "CConcurrencyHook.h"

/// Defined by the Swift concurrency runtime (a function pointer; only its address is used here).
extern void *swift_task_enqueueGlobal_hook;

void *_Nullable *_Nonnull geocluster_global_enqueue_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}
