/* bench/find/fg_plain.c — the planted bugs of bench/find/plain_bugs.c as fuzzgate targets. */
#include "fuzzgate.h"

#include <stdlib.h>

#include "plain_bugs.c"

/* One target per bug, named plain_NAME: the body aborts when the bug is hit (the crash
 * oracle stores the finding with `origin: case N`) and otherwise returns the bug's own
 * signature, the only guidance a build without compiler coverage has. */
#define PLAIN_TARGET(name, text)                                                           \
    static uint64_t plain_##name##_run(const uint8_t *d, size_t n)                         \
    {                                                                                      \
        uint64_t sig = 0;                                                                  \
        if (pbug_##name(d, n, &sig))                                                       \
            abort();                                                                       \
        return sig;                                                                        \
    }                                                                                      \
    FG_TARGET(plain_##name, .flags = FG_NO_CORPUS,                                         \
              .run = plain_##name##_run, .what = text, .max_len = 64)

PLAIN_TARGET(prefix4, "a 4-byte prefix; signature: bytes matched")
PLAIN_TARGET(rungs16, "16 single-byte rungs; signature: rungs climbed")
PLAIN_TARGET(maze, "an 8x8 maze; signature: the cell reached")
PLAIN_TARGET(tlv, "a TLV stream; signature: the parse state")
PLAIN_TARGET(kv, "key=value lines behind strcmp; signature: the keys seen")
PLAIN_TARGET(keyword, "a 9-letter keyword behind strcmp; no signature")
PLAIN_TARGET(fields16, "16 two-byte fields, a tag each; signature: fields accepted")
PLAIN_TARGET(grid, "an 8x8 grid walked by n/s/e/w; signature: the cell reached")
PLAIN_TARGET(config, "key = value lines, strcmp keys, a strtol level; signature: keys seen")
PLAIN_TARGET(records, "records behind a memcmp magic; signature: the parse state")
