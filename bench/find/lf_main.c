/* bench/find/lf_main.c — the planted bugs of bench/find/bugs.c as one libFuzzer target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bugs.c"

/* The bug under test is named by FIND_BUG in the environment (magic4, memcmp8, ...): one
 * binary holds every body, as the fuzzgate build does, and runs one of them. */
/* mazesig is the maze: fuzzgate hears the cell reached as a signature, libFuzzer has no
 * such channel. */
static const struct {
    const char *name;
    int (*fn)(const uint8_t *d, size_t n);
} find_bugs[] = {
    {"magic4", bug_magic4},     {"memcmp8", bug_memcmp8}, {"strcmp", bug_strcmp},
    {"ladder16", bug_ladder16}, {"switch2", bug_switch2}, {"lenfield", bug_lenfield},
    {"maze", bug_maze},         {"mazesig", bug_maze},    {"strtod", bug_strtod},
    {"strtol", bug_strtol},
    {"crc32", bug_crc32},
};

static int (*find_bug)(const uint8_t *d, size_t n);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *want = getenv("FIND_BUG");
    for (size_t i = 0; want && i < sizeof find_bugs / sizeof find_bugs[0]; i++)
        if (strcmp(want, find_bugs[i].name) == 0)
            find_bug = find_bugs[i].fn;
    if (!find_bug) {
        fprintf(stderr, "lf_main: set FIND_BUG to one of:");
        for (size_t i = 0; i < sizeof find_bugs / sizeof find_bugs[0]; i++)
            fprintf(stderr, " %s", find_bugs[i].name);
        fprintf(stderr, "\n");
        exit(2);
    }
    return 0;
}

/* Aborts on the bug: libFuzzer reports a deadly signal and writes the crash input. */
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (find_bug(d, n))
        abort();
    return 0;
}
