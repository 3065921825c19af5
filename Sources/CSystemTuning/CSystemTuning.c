#if defined(__linux__)
#define _GNU_SOURCE  // fallocate
#include <fcntl.h>
#endif
#include "CSystemTuning.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc systems
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

int geocluster_reuse_freed_memory(void) {
#if defined(__GLIBC__)
    // No allocation gets a mapping of its own (every one comes from the heap), and the heap is
    // never given back while the process runs (2 GiB - 1 is the largest trim threshold).
    return mallopt(M_MMAP_MAX, 0) && mallopt(M_TRIM_THRESHOLD, 0x7FFFFFFF);
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

// Set in the restarted process (by `geocluster_restore_environment`), so it never restarts again.
static int restarted = 0;
// Set when this process is the one started with the tunable.
static int huge_pages = 0;

#define SAVED_TUNABLES "GEOCLUSTER_SAVED_GLIBC_TUNABLES"
#define RESTARTED_MARK "GEOCLUSTER_RESTARTED_FOR_HUGE_PAGES"

int geocluster_restore_environment(void) {
    const char *mark = getenv(RESTARTED_MARK);
    if (mark == NULL) { return 0; }
    restarted = 1;
    huge_pages = 1;
    const char *saved = getenv(SAVED_TUNABLES);
    if (saved != NULL && saved[0] != 0 && strcmp(mark, "with") == 0) {
        setenv("GLIBC_TUNABLES", saved, 1);
    } else {
        unsetenv("GLIBC_TUNABLES");
    }
    unsetenv(SAVED_TUNABLES);
    unsetenv(RESTARTED_MARK);
    return 1;
}

void geocluster_restart_with_huge_pages(char *const argv[]) {
#if defined(__linux__) && defined(__GLIBC__)
    if (restarted) { return; }
    const char *off = getenv("GEOCLUSTER_HUGE_PAGES");
    if (off != NULL && strcmp(off, "0") == 0) { return; }
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f == NULL) { return; }
    char mode[128] = {0};
    size_t got = fread(mode, 1, sizeof mode - 1, f);
    fclose(f);
    mode[got] = 0;
    if (strstr(mode, "[madvise]") == NULL) { return; }
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (tunables != NULL && strstr(tunables, "glibc.malloc.hugetlb") != NULL) { return; }  // the user's choice
    static const char setting[] = "glibc.malloc.hugetlb=1";
    char *combined;
    if (tunables != NULL && tunables[0] != 0) {
        size_t length = strlen(tunables) + 1 + sizeof setting;
        combined = malloc(length);
        if (combined == NULL) { return; }
        snprintf(combined, length, "%s:%s", tunables, setting);
        setenv(SAVED_TUNABLES, tunables, 1);
        setenv(RESTARTED_MARK, "with", 1);
    } else {
        combined = strdup(setting);
        if (combined == NULL) { return; }
        setenv(RESTARTED_MARK, "without", 1);
    }
    setenv("GLIBC_TUNABLES", combined, 1);
    free(combined);
    fflush(stdout);
    fflush(stderr);
    execv("/proc/self/exe", argv);
    // Still here: the exec failed. Undo and go on in this process.
    geocluster_restore_environment();
    huge_pages = 0;
#else
    (void)argv;
#endif
}

int geocluster_huge_pages(void) {
    return huge_pages;
}
