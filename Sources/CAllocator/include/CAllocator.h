#ifndef GEOCLUSTER_CALLOCATOR_H
#define GEOCLUSTER_CALLOCATOR_H

/// Fixes glibc's mmap threshold at `bytes`, so every allocation of that size or more gets its
/// own mapping and is returned to the system when freed. Returns 1 on success, 0 where the
/// C library has no such setting (non-glibc systems), in which case nothing changes.
int geocluster_fix_mmap_threshold(int bytes);

/// For small inputs: allocations up to 32 MiB come from the heap and freed memory stays in it
/// (mmap threshold 32 MiB, trim threshold 256 MiB), so each stage reuses pages an earlier stage
/// touched instead of faulting in fresh ones. Returns 1 on success, 0 where the C library has
/// no such settings.
int geocluster_keep_freed_memory(void);

#endif
