/* test/unit/test_symbolize.c — frames named for people (oracle/symbolize.c): a frame of
 * this -g test binary gets its function and file:line from the system's symbolizer,
 * dladdr's names alone give neither for a static function, the class key is the same
 * either way, and the cache asks once a frame set. */
#include "test/support/check.h"

#include "oracle/frames.h"
#include "oracle/symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static uint64_t return_address(void)
{
    return (uint64_t)(uintptr_t)__builtin_return_address(0);
}

static int probe_line;

/* The frames of a crash in this function: a C library frame first (skipped, as raise is
 * under every abort), then the return address into here. */
__attribute__((noinline)) static void symbolize_probe_here(uint64_t pcs[2])
{
    pcs[0] = (uint64_t)(uintptr_t)&abort;
    pcs[1] = return_address(); probe_line = __LINE__; /* one line: the call's */
    __asm__ volatile("" ::: "memory");
}

FG_TEST(symbolize_names_a_frame_by_function_and_line)
{
    uint64_t pcs[2];
    symbolize_probe_here(pcs);
    char named[1024], key[256], want[64];
    fgi_symbolize(pcs, 2, 0, 1, named, sizeof named);
    snprintf(want, sizeof want, "test_symbolize.c:%d)", probe_line);
    if (system("command -v addr2line >/dev/null 2>&1 || "
               "command -v llvm-symbolizer >/dev/null 2>&1") != 0) {
        printf("  skipped: no addr2line or llvm-symbolizer on PATH\n");
        return;
    }
    CHECK(strncmp(named, "symbolize_probe_here (", 22) == 0);
    CHECK(strstr(named, want) != NULL);
    if (!strstr(named, want))
        printf("  named: %s\n", named);
    /* The class key is the module offset whatever names the frame gets. */
    fgi_frames_describe(pcs, 2, 0, key, sizeof key);
    CHECK(strncmp(key, "exe+0x", 6) == 0 && !strchr(key, ' '));
}

FG_TEST(symbolize_without_the_tool_falls_back_to_the_key)
{
    uint64_t pcs[2];
    symbolize_probe_here(pcs);
    char named[1024], key[256];
    fgi_symbolize(pcs, 2, 0, 0, named, sizeof named); /* as from a signal handler */
    fgi_frames_describe(pcs, 2, 0, key, sizeof key);
    /* a static function of a program: no exported symbol for dladdr, so its key */
    CHECK(strcmp(named, key) == 0);
}

FG_TEST(symbolize_cache_names_a_frame_set_once)
{
    uint64_t pcs[2];
    symbolize_probe_here(pcs);
    char key[256];
    fgi_frames_describe(pcs, 2, 0, key, sizeof key);
    fgi_symcache c = {0};
    const char *a = fgi_symcache_name(&c, key, pcs, 2, 0);
    const char *b = fgi_symcache_name(&c, key, pcs, 2, 0);
    CHECK(a != NULL && a == b);
    CHECK_EQ_U(c.n, 1);
    const char *other = fgi_symcache_name(&c, "exe+0x1", pcs, 1, 0);
    CHECK(other != NULL && other != a);
    CHECK_EQ_U(c.n, 2);
    fgi_symcache_free(&c);
    CHECK_EQ_U(c.n, 0);
}
