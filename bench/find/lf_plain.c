/* bench/find/lf_plain.c — the planted bugs of bench/find/plain_bugs.c as one libFuzzer target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plain_bugs.c"

/* The bug under test is named by FIND_BUG (prefix4, rungs16, ...), as in lf_main.c. The
 * signature is computed and ignored: libFuzzer has compiler coverage instead. */
static const struct {
    const char *name;
    int (*fn)(const uint8_t *d, size_t n, uint64_t *sig);
} plain_bugs[] = {
    {"prefix4", pbug_prefix4}, {"rungs16", pbug_rungs16}, {"maze", pbug_maze},
    {"tlv", pbug_tlv},         {"kv", pbug_kv},           {"keyword", pbug_keyword},
    {"fields16", pbug_fields16}, {"grid", pbug_grid},     {"config", pbug_config},
    {"records", pbug_records},
};

static int (*plain_bug)(const uint8_t *d, size_t n, uint64_t *sig);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *want = getenv("FIND_BUG");
    for (size_t i = 0; want && i < sizeof plain_bugs / sizeof plain_bugs[0]; i++)
        if (strcmp(want, plain_bugs[i].name) == 0)
            plain_bug = plain_bugs[i].fn;
    if (!plain_bug) {
        fprintf(stderr, "lf_plain: set FIND_BUG to one of:");
        for (size_t i = 0; i < sizeof plain_bugs / sizeof plain_bugs[0]; i++)
            fprintf(stderr, " %s", plain_bugs[i].name);
        fprintf(stderr, "\n");
        exit(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    uint64_t sig;
    if (plain_bug(d, n, &sig))
        abort();
    return 0;
}
