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

/// For very large inputs: every allocation comes from the heap, and freed memory stays there
/// for later stages to reuse, whatever its size (mmap disabled, trim threshold 2 GiB). A page
/// the kernel hands out is zeroed first; reused, it is not. The peak then includes the heap's
/// fragmentation. Returns 1 on success, 0 where the C library has no such settings.
int geocluster_reuse_freed_memory(void);

/// Allocates disk blocks for `length` bytes at `offset` of the open file `fd` before they are
/// written (Linux `fallocate`, mode 0: the file grows to cover the range). Returns 0 on
/// success, -1 where the system or file system cannot (the caller then just writes).
///
/// Why: on ext4 (with its default `auto_da_alloc`), renaming a file whose blocks are not yet
/// allocated over an existing file makes `rename` itself allocate them and start writing the
/// file out, a stall in every run that replaces its previous output; with the blocks
/// allocated first it does not (measured: docs/performance.md).
int geocluster_reserve_file_space(int fd, long long offset, long long length);

/// Transparent huge pages for the large arrays of a big input. Where the kernel gives huge
/// pages only to memory that asks for them (`/sys/kernel/mm/transparent_hugepage/enabled` is
/// `madvise`, as on this project's machines), glibc asks for them on every mapping it makes
/// when started with the tunable `glibc.malloc.hugetlb=1`, and tunables are read only at
/// start: so this starts the program again (`execv` of `/proc/self/exe` with the same
/// arguments) with the tunable added to `GLIBC_TUNABLES`. It returns, doing nothing, when the kernel mode is
/// another, when the process already was started again, when `GEOCLUSTER_HUGE_PAGES=0` is set,
/// on systems other than Linux with glibc, or if the exec fails.
void geocluster_restart_with_huge_pages(char *const argv[]);

/// To be called first thing in `main`: in a process started by
/// `geocluster_restart_with_huge_pages`, puts `GLIBC_TUNABLES` back as it was (the tunable is
/// already in effect, and child processes — peers, bench cells — must get the user's
/// environment). Returns 1 in such a process, 0 otherwise.
int geocluster_restore_environment(void);

/// 1 in a process started again by `geocluster_restart_with_huge_pages` (glibc then asks for
/// huge pages on its mappings), else 0.
int geocluster_huge_pages(void);

#endif
