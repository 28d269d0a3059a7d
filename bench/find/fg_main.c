/* bench/find/fg_main.c — the planted bugs of bench/find/bugs.c as fuzzgate targets. */
#include "fuzzgate.h"

#include <stdlib.h>

#include "bugs.c"

/* One target per bug, named find_NAME: the body aborts when the bug is hit, so the crash
 * oracle stores the finding (its .txt says `origin: case N`) and the process dies of
 * SIGABRT. It returns no signature: coverage and comparisons are all the guidance, as
 * they are for libFuzzer. */
#define FIND_TARGET(name, text)                                                            \
    static uint64_t find_##name##_run(const uint8_t *d, size_t n)                          \
    {                                                                                      \
        if (bug_##name(d, n))                                                              \
            abort();                                                                       \
        return 0;                                                                          \
    }                                                                                      \
    FG_TARGET(find_##name, .flags = FG_NO_CORPUS,                                         \
              .run = find_##name##_run, .what = text, .max_len = 64)

FIND_TARGET(magic4, "a 4-byte magic compared as one integer")
FIND_TARGET(memcmp8, "an 8-byte magic behind memcmp")
FIND_TARGET(strcmp, "a keyword behind strcmp after a text prefix")
FIND_TARGET(ladder16, "16 nested byte comparisons")
FIND_TARGET(switch2, "two levels of 32-bit opcode switches")
FIND_TARGET(lenfield, "an off-by-one u16 length guard")
FIND_TARGET(maze, "an 8x8 maze walked by the input")
/* The maze with the cell reached as the signature: each new cell is a new behaviour. */
static uint64_t find_mazesig_run(const uint8_t *d, size_t n)
{
    int cell;
    if (maze_walk(d, n, &cell))
        abort();
    return fg_sig((uint64_t)cell + 1, 0);
}
FG_TARGET(find_mazesig, .flags = FG_NO_CORPUS, .run = find_mazesig_run, .max_len = 64,
          .what = "the maze, the cell reached as the signature")
FIND_TARGET(strtod, "a strtod value compared with a constant")
FIND_TARGET(strtol, "a strtol value compared with a constant")
FIND_TARGET(crc32, "an 8-byte magic behind a CRC-32 over the payload")
