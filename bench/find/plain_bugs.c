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
#include <stdlib.h>
#include <string.h>

/* A signature of two small values, never 0 (0 is "nothing to say"). */
static uint64_t psig(uint64_t a, uint64_t b)
{
    return 1 + (a << 40 ^ b);
}

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

/* The rows below are the shapes above written another way each, as a user would write them
 * outside the project (issue 33): the search must not depend on how one planted test is
 * spelled. */

/* (7) A ladder of 16 fixed-width fields: each is a tag byte and a filler byte the parser
 * does not read, and tag i must be key[i]. The signature is the number of fields accepted:
 * the next byte that matters is two past the last one that did. */
static int pbug_fields16(const uint8_t *d, size_t n, uint64_t *sig)
{
    static const uint8_t key[16] = {'#', 0x91, 'q', 0x04, 'L', 0xd7, '=', 'e',
                                    0x6b, 'W', 0x00, 0xa3, '8', 'k', 0xf0, '/'};
    unsigned ok = 0;
    for (size_t at = 0; ok < 16 && at + 2 <= n; at += 2) {
        if (d[at] != key[ok])
            break;
        ok++;
    }
    *sig = psig(1, ok);
    return ok == 16;
}

/* (8) An 8x8 grid walked by 'n', 's', 'e', 'w'; any other byte, a wall or the edge ends the
 * walk. The signature is the cell the walk stopped on; G is the bug (21 moves at least). */
static int pbug_grid(const uint8_t *d, size_t n, uint64_t *sig)
{
    static const char grid[8][9] = {
        ".....#..",
        ".###.#.#",
        ".#...#..",
        ".#.###.#",
        "...#...#",
        "##.#.#..",
        "...#.##.",
        ".#...#G.",
    };
    int x = 0, y = 0;
    for (size_t i = 0; i < n; i++) {
        int dx = d[i] == 'e' ? 1 : d[i] == 'w' ? -1 : 0;
        int dy = d[i] == 's' ? 1 : d[i] == 'n' ? -1 : 0;
        if ((dx | dy) == 0)
            break;
        if (x + dx < 0 || x + dx > 7 || y + dy < 0 || y + dy > 7 ||
            grid[y + dy][x + dx] == '#')
            break;
        x += dx;
        y += dy;
        if (grid[y][x] == 'G')
            return 1;
    }
    *sig = psig(2, (uint64_t)(y * 8 + x));
    return 0;
}

/* (9) A config of "key = value" lines ('\n' or ';' between them, spaces around '='
 * allowed): keys and the mode's words compared with strcmp, the level read with strtol.
 * With mode "turbo" a level above 9000 is the bug. The signature is which keys were seen
 * and whether the mode was turbo; what the level was is not said. */
static int pbug_config(const uint8_t *d, size_t n, uint64_t *sig)
{
    char text[129], *save = NULL;
    size_t take = n < sizeof text - 1 ? n : sizeof text - 1;
    memcpy(text, d, take);
    text[take] = '\0';
    unsigned keys = 0, turbo = 0;
    long level = 0;
    for (char *line = strtok_r(text, "\n;", &save); line;
         line = strtok_r(NULL, "\n;", &save)) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        char *k = line, *v = eq + 1, *e = eq;
        while (*k == ' ')
            k++;
        while (e > k && e[-1] == ' ')
            e--;
        *e = '\0';
        while (*v == ' ')
            v++;
        if (strcmp(k, "mode") == 0) {
            keys |= 1;
            turbo = strcmp(v, "turbo") == 0;
        } else if (strcmp(k, "level") == 0) {
            keys |= 2;
            level = strtol(v, NULL, 10);
        } else if (strcmp(k, "user") == 0) {
            keys |= 4;
        } else if (strcmp(k, "retries") == 0) {
            keys |= 8;
        }
    }
    *sig = psig(3, keys | turbo << 4);
    return turbo && level > 9000;
}

/* (10) A record stream behind a 4-byte memcmp magic: records of a type byte, a big-endian
 * 2-byte length and that many bytes. 'S' opens a section (its name at most 8 bytes), 'N' is
 * a note (at most 32 bytes, checked), 'C' closes the section; 'B' in an open section copies
 * its bytes into a 24-byte buffer, checking the length against what is present but not
 * against the buffer: the overflow. The signature is where and why the parse stopped, the
 * last record type, whether a section is open and the records read (capped). */
static int pbug_records(const uint8_t *d, size_t n, uint64_t *sig)
{
    enum { DONE, NO_MAGIC, SHORT, BAD_TYPE, TOO_LONG, NESTED } why = DONE;
    unsigned count = 0, open = 0;
    uint8_t last = 0;
    size_t at = 4;
    if (n < 4 || memcmp(d, "\x89REC", 4) != 0) {
        *sig = psig(4, NO_MAGIC);
        return 0;
    }
    while (at < n) {
        if (n - at < 3) {
            why = SHORT;
            break;
        }
        uint8_t type = d[at];
        size_t len = (size_t)d[at + 1] << 8 | d[at + 2];
        if (len > n - at - 3) {
            why = SHORT;
            break;
        }
        if (type == 'S') {
            if (open || len > 8) {
                why = open ? NESTED : TOO_LONG;
                break;
            }
            open = 1;
        } else if (type == 'N') {
            if (len > 32) {
                why = TOO_LONG;
                break;
            }
        } else if (type == 'C') {
            open = 0;
        } else if (type == 'B' && open) {
            if (len > 24)
                return 1;
        } else {
            why = BAD_TYPE;
            break;
        }
        last = type;
        count++;
        at += 3 + len;
    }
    *sig = psig(4, (uint64_t)why << 16 | (uint64_t)last << 8 | open << 4 |
                               (count > 7 ? 7 : count));
    return 0;
}
