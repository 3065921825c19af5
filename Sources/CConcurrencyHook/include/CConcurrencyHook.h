#ifndef GEOCLUSTER_CCONCURRENCYHOOK_H
#define GEOCLUSTER_CCONCURRENCYHOOK_H

/// The address of the Swift concurrency runtime's global-enqueue hook
/// (`swift_task_enqueueGlobal_hook`): a function pointer, null until someone installs one,
/// that the runtime calls for every job sent to the global executor.
///
/// Taken by the linker rather than looked up with `dlsym`: a binary linked with the Swift
/// runtime statically (`--static-swift-stdlib`) has the symbol but not in its dynamic table,
/// where `dlsym` looks.
void *_Nullable *_Nonnull geocluster_global_enqueue_hook(void);

#endif
