#if defined(__linux__)
#define _GNU_SOURCE  // fallocate
#include <fcntl.h>
#endif
#include "CSystemTuning.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc systems

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int geocluster_fix_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    // mallopt returns 1 on success and 0 on error. Setting M_MMAP_THRESHOLD explicitly also
    // turns off glibc's dynamic adjustment of it.
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int geocluster_keep_freed_memory(void) {
#if defined(__GLIBC__)
    // 32 MiB is the largest mmap threshold glibc accepts on 64-bit systems.
    return mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 256 << 20);
#else
    return 0;
#endif
}

int geocluster_reserve_file_space(int fd, long long offset, long long length) {
#if defined(__linux__)
    return fallocate(fd, 0, (off_t)offset, (off_t)length) == 0 ? 0 : -1;
#else
    (void)fd; (void)offset; (void)length;
    return -1;
#endif
}
