/* bench/find/plain_bugs.c — planted bugs with honest signatures, for plain (uncovered) builds.
 *
 * Each pbug_NAME(data, size, &sig) returns 1 when the input reaches its planted bug and 0
 * otherwise, and sets sig to the behaviour a target author would return: how far a parse
 * got, the cell a walk reached, which keys a config held. fuzzgate's plain build sees only
 * that signature and the interposed string comparisons; libFuzzer's build (lf_plain.c)
 * ignores it and has full compiler coverage. The file is #included by both harnesses, so
 * both engines run these exact bodies.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* (1) A 4-byte prefix checked byte by byte; the signature is how many bytes matched. */
static int pbug_prefix4(const uint8_t *d, size_t n, uint64_t *sig)
{
    static const uint8_t want[4] = {'F', 'G', 0x7e, 'Z'};
    size_t m = 0;
    while (m < 4 && m < n && d[m] == want[m])
        m++;
    *sig = m + 1;
    return m == 4;
}

/* (2) 16 single-byte rungs: rung i is byte i equal to its key; the signature is the number
 * of rungs climbed. */
static int pbug_rungs16(const uint8_t *d, size_t n, uint64_t *sig)
{
    static const uint8_t key[16] = {0x13, 'r', 0xc4, '0', 0x7f, 'u', 0x00, 0xe9,
                                    'n', 0x5a, 0x88, 'g', 0x21, 0xfe, 's', 0x3c};
    size_t m = 0;
    while (m < 16 && m < n && d[m] == key[m])
        m++;
    *sig = m + 1;
    return m == 16;
}

/* (3) An 8x8 maze walked by 'u', 'd', 'l', 'r' (other bytes are skipped); a wall or the
 * edge ends the walk. The signature is the cell the walk reached; X is the bug. The
 * shortest way is 18 moves. */
static int pbug_maze(const uint8_t *d, size_t n, uint64_t *sig)
{
    static const char maze[8][9] = {
        "S #     ",
        "  # ### ",
        "# #   # ",
        "  ### # ",
        " ##   # ",
        "    # # ",
        "### # ##",
        "    #  X",
    };
    int x = 0, y = 0;
    for (size_t i = 0; i < n; i++) {
        int nx = x, ny = y;
        switch (d[i]) {
        case 'u': ny--; break;
        case 'd': ny++; break;
        case 'l': nx--; break;
        case 'r': nx++; break;
        default: continue;
        }
        if (nx < 0 || nx > 7 || ny < 0 || ny > 7 || maze[ny][nx] == '#')
            break;
        x = nx;
        y = ny;
        if (maze[y][x] == 'X')
            return 1;
    }
    *sig = 1 + (uint64_t)(y * 8 + x);
    return 0;
}

/* (4) A TLV stream: records of [type][len][len bytes]. 'H' must come first (a header),
 * 'S' opens a section, 'D' is data (at most 16 bytes, checked), and 'E' after a section
 * copies its value into an 8-byte field without checking: the overflow. The signature is
 * the parse state: where the parser stopped and why (the end, a cut record, an unknown or
 * misplaced type, an oversized 'D'), the last record type, whether a section is open and
 * how many records were read (capped): what a parser's result code and position say. */
static int pbug_tlv(const uint8_t *d, size_t n, uint64_t *sig)
{
    enum { END, CUT, BAD_TYPE, NO_HEADER, TOO_LONG } why = END;
    size_t off = 0;
    unsigned records = 0, last = 0, section = 0, header = 0;
    while (off < n) {
        if (off + 2 > n || off + 2 + d[off + 1] > n) {
            why = CUT;
            break;
        }
        unsigned type = d[off], len = d[off + 1];
        off += 2 + len;
        if (!header) {
            if (type != 'H') {
                why = NO_HEADER;
                break;
            }
            header = 1;
        } else if (type == 'S') {
            section = 1;
        } else if (type == 'D') {
            if (len > 16) {
                why = TOO_LONG;
                break;
            }
        } else if (type == 'E') {
            if (section && len > 8)
                return 1;
        } else {
            why = BAD_TYPE;
            break;
        }
        last = type;
        records++;
    }
    *sig = 1 + ((uint64_t)why << 16 | (uint64_t)last << 8 | section << 4 |
                (records > 7 ? 7 : records));
    return 0;
}

/* (5) key=value lines compared with strcmp: "mode" takes "fast" or "safe", "size" takes a
 * decimal number, "name" anything. With mode=fast a size over 65535 is the bug. The
 * signature is the set of keys seen (and whether mode was fast). */
static int pbug_kv(const uint8_t *d, size_t n, uint64_t *sig)
{
    char line[64];
    unsigned seen = 0, fast = 0;
    unsigned long size = 0;
    size_t off = 0;
    while (off < n) {
        size_t len = 0;
        while (off + len < n && d[off + len] != '\n')
            len++;
        size_t take = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, d + off, take);
        line[take] = '\0';
        off += len + 1;
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        const char *key = line, *val = eq + 1;
        if (strcmp(key, "mode") == 0) {
            seen |= 1;
            if (strcmp(val, "fast") == 0)
                fast = 1;
            else if (strcmp(val, "safe") == 0)
                fast = 0;
        } else if (strcmp(key, "size") == 0) {
            seen |= 2;
            size = 0;
            for (const char *p = val; *p >= '0' && *p <= '9' && size < 100000000; p++)
                size = size * 10 + (unsigned long)(*p - '0');
        } else if (strcmp(key, "name") == 0) {
            seen |= 4;
        }
    }
    *sig = 1 + (seen | fast << 3);
    return fast && size > 65535;
}

/* (6) The whole input, as a string, compared with a 9-letter keyword; no signature. */
static int pbug_keyword(const uint8_t *d, size_t n, uint64_t *sig)
{
    char s[65];
    size_t take = n < 64 ? n : 64;
    memcpy(s, d, take);
    s[take] = '\0';
    *sig = 0;
    return strcmp(s, "blueberry") == 0;
}
