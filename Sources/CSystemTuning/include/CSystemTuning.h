#ifndef GEOCLUSTER_CSYSTEMTUNING_H
#define GEOCLUSTER_CSYSTEMTUNING_H

/// Fixes glibc's mmap threshold at `bytes`, so every allocation of that size or more gets its
/// own mapping and is returned to the system when freed. Returns 1 on success, 0 where the
/// C library has no such setting (non-glibc systems), in which case nothing changes.
int geocluster_fix_mmap_threshold(int bytes);

/// For small inputs: allocations up to 32 MiB come from the heap and freed memory stays in it
/// (mmap threshold 32 MiB, trim threshold 256 MiB), so each stage reuses pages an earlier stage
/// touched instead of faulting in fresh ones. Returns 1 on success, 0 where the C library has
/// no such settings.
int geocluster_keep_freed_memory(void);

/// Allocates disk blocks for `length` bytes at `offset` of the open file `fd` before they are
/// written (Linux `fallocate`, mode 0: the file grows to cover the range). Returns 0 on
/// success, -1 where the system or file system cannot (the caller then just writes).
///
/// Why: on ext4 (with its default `auto_da_alloc`), renaming a file whose blocks are not yet
/// allocated over an existing file makes `rename` itself allocate them and start writing the
/// file out, 2.5-3.5 ms for a 4 MB file; with the blocks allocated first it does not.
int geocluster_reserve_file_space(int fd, long long offset, long long length);

#endif
