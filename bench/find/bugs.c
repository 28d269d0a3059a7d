/* bench/find/bugs.c — the planted bugs of `make bench-find`, one body each for every engine.
 *
 * Each bug_NAME(data, size) returns 1 when the input reaches its planted bug and 0
 * otherwise; the harness around it (fg_main.c for fuzzgate, lf_main.c for libFuzzer)
 * aborts on 1. The file is #included by both harnesses, so each engine's build compiles
 * these exact bodies once, with that engine's instrumentation, and nothing else differs.
 * Built with -fno-builtin everywhere: memcmp and strcmp stay calls (the engines hear them
 * through their hooks) and no byte ladder is folded into a memcmp.
 *
 * The bugs are chosen to need feedback, not luck, yet to be within reach of a
 * coverage-guided fuzzer with comparison feedback in well under a minute: a 4-byte magic,
 * an 8-byte memcmp magic, a strcmp keyword, a 16-step byte ladder, nested 32-bit opcode
 * switches, an off-by-one length guard and a small maze; and two that comparison feedback
 * alone does not reach: a number parsed by libc's strtod (or strtol) and compared with a
 * constant, and a magic behind a CRC-32 over the payload it sits in.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A little-endian u32 at p (the caller has checked that 4 bytes are there). */
static uint32_t find_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* (a) A 4-byte magic compared as one 32-bit integer: no partial credit from coverage. */
static int bug_magic4(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    return find_le32(d) == 0x4b4e554aU; /* "JUNK" */
}

/* (b) An 8-byte magic behind memcmp (the PNG signature). */
static int bug_memcmp8(const uint8_t *d, size_t n)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n < 8)
        return 0;
    return memcmp(d, png, sizeof png) == 0;
}

/* (c) A command line: the text prefix "cmd=", then a NUL-terminated keyword that strcmp
 * compares with "shutdown". */
static int bug_strcmp(const uint8_t *d, size_t n)
{
    if (n < 5 || memcmp(d, "cmd=", 4) != 0)
        return 0;
    const char *word = (const char *)d + 4;
    if (!memchr(word, '\0', n - 4)) /* strcmp must not run off the input */
        return 0;
    return strcmp(word, "shutdown") == 0;
}

/* (d) A ladder of 16 byte comparisons, each its own branch: coverage sees every rung. */
static int bug_ladder16(const uint8_t *d, size_t n)
{
    if (n < 16)
        return 0;
    if (d[0] == 'F')
        if (d[1] == 'U')
            if (d[2] == 'Z')
                if (d[3] == 'Z')
                    if (d[4] == '-')
                        if (d[5] == 'L')
                            if (d[6] == 'A')
                                if (d[7] == 'D')
                                    if (d[8] == 'D')
                                        if (d[9] == 'E')
                                            if (d[10] == 'R')
                                                if (d[11] == '-')
                                                    if (d[12] == '1')
                                                        if (d[13] == '6')
                                                            if (d[14] == '!')
                                                                if (d[15] == '!')
                                                                    return 1;
    return 0;
}

/* (e) Two levels of 32-bit opcodes: a switch on the LE u32 at offset 0, one of whose cases
 * switches on the LE u32 at offset 4. Only one pair is the bug. */
static int bug_switch2(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    volatile unsigned work = 0; /* keeps each case a block of its own */
    switch (find_le32(d)) {
    case 0x4f50454eU: /* "NEPO" */
        work = 1;
        break;
    case 0x434c4f53U:
        work = 2;
        break;
    case 0x52454144U:
        work = 3;
        break;
    case 0x57524954U:
        work = 4;
        break;
    case 0x9e3779b9U: /* the extended-opcode page */
        if (n < 8)
            return 0;
        switch (find_le32(d + 4)) {
        case 0x00000010U:
            work = 5;
            break;
        case 0x00c0ffeeU:
            work = 6;
            break;
        case 0x7f454c46U:
            work = 7;
            break;
        case 0xdeadbeefU:
            return 1;
        default:
            work = 8;
            break;
        }
        break;
    default:
        break;
    }
    (void)work;
    return 0;
}

/* (f) Records after a 'R' tag: a u16 LE length, then that many bytes whose last is the
 * record's type. The bounds check looks right but is off by one (`> size + 1` where it
 * should be `> size`), so a record that declares one byte more than is left passes it and
 * its type byte would be read one past the input. That read is the bug: detected here,
 * not performed. At least one well-formed record must come first. */
static int bug_lenfield(const uint8_t *d, size_t n)
{
    if (n < 1 || d[0] != 'R')
        return 0;
    size_t off = 1;
    unsigned records = 0;
    while (off + 2 <= n) {
        size_t len = (size_t)d[off] | (size_t)d[off + 1] << 8;
        off += 2;
        if (len == 0 || len > 48)
            return 0;
        if (off + len > n + 1) /* the planted off-by-one */
            return 0;
        if (off + len - 1 >= n) /* the type byte lies past the input */
            return records > 0;
        if (d[off + len - 1] > 3) /* types 0..3 */
            return 0;
        off += len;
        records++;
    }
    return 0;
}

/* (g) An 8x8 maze walked from S by the input's bytes: 'w' up, 's' down, 'a' left,
 * 'd' right. Any other byte, a wall or the edge ends the walk; reaching X is the bug.
 * The shortest way out is 18 moves (sdssassdddwddsssdd). Every cell the walk enters
 * passes through a case of its own, so a new cell is new coverage: with the grid lookup
 * alone the position is invisible, and neither fuzzgate nor libFuzzer got out in 50 M
 * cases. */
#define FIND_CELL(k)                                                                       \
    case k:                                                                                \
        trail = k;                                                                         \
        break;
#define FIND_ROW(r)                                                                        \
    FIND_CELL(8 * r + 0) FIND_CELL(8 * r + 1) FIND_CELL(8 * r + 2) FIND_CELL(8 * r + 3)    \
    FIND_CELL(8 * r + 4) FIND_CELL(8 * r + 5) FIND_CELL(8 * r + 6) FIND_CELL(8 * r + 7)

/* The walk: 1 when it reaches X; *cell is the last cell it stood on (y * 8 + x). */
static int maze_walk(const uint8_t *d, size_t n, int *cell)
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
    volatile int trail = 0; /* a store per case: the optimiser cannot fold them together */
    int x = 0, y = 0;
    *cell = 0;
    for (size_t i = 0; i < n; i++) {
        switch (d[i]) {
        case 'w': y--; break;
        case 's': y++; break;
        case 'a': x--; break;
        case 'd': x++; break;
        default: return 0;
        }
        if (x < 0 || x > 7 || y < 0 || y > 7 || maze[y][x] == '#')
            return 0;
        *cell = y * 8 + x;
        if (maze[y][x] == 'X')
            return 1;
        switch (y * 8 + x) {
            FIND_ROW(0) FIND_ROW(1) FIND_ROW(2) FIND_ROW(3)
            FIND_ROW(4) FIND_ROW(5) FIND_ROW(6) FIND_ROW(7)
        default: break;
        }
    }
    (void)trail;
    return 0;
}

static int bug_maze(const uint8_t *d, size_t n)
{
    int cell;
    return maze_walk(d, n, &cell);
}

/* (h) A number read by strtod (uninstrumented libc: its digits are no comparisons the
 * engines see) and compared as a double with a constant that no byte mutation of a short
 * number is likely to hit. Only a fuzzer that hears the floating-point comparison (gcc's
 * trace-cmp reports it as __sanitizer_cov_trace_cmpd) can write the constant back. */
static int bug_strtod(const uint8_t *d, size_t n)
{
    char text[65];
    if (n == 0 || n >= sizeof text)
        return 0;
    memcpy(text, d, n);
    text[n] = '\0';
    char *end;
    double v = strtod(text, &end);
    if (end == text)
        return 0;
    return v == 2718.5;
}

/* (i) The same with strtol and an integer: the comparison is an integer one, which both
 * compilers' trace-cmp report; the value is text in the input, not bytes, so writing the
 * operand as binary (input-to-state on bytes) does not reach it. */
static int bug_strtol(const uint8_t *d, size_t n)
{
    char text[65];
    if (n == 0 || n >= sizeof text)
        return 0;
    memcpy(text, d, n);
    text[n] = '\0';
    char *end;
    long v = strtol(text, &end, 0);
    if (end == text)
        return 0;
    return v == 73291;
}

/* The CRC-32 of zlib and PNG (reflected, polynomial 0xedb88320), bit by bit. */
static uint32_t find_crc32(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffU;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1)));
    }
    return ~crc;
}

/* (j) A record: a little-endian CRC-32 of the payload, then the payload, which must open
 * with an 8-byte magic (memcmp). A payload mutated to hold the magic fails the CRC in the
 * same case, and a case that fails the CRC is like every other that did. */
static int bug_crc32(const uint8_t *d, size_t n)
{
    if (n < 4 + 8)
        return 0;
    if (find_crc32(d + 4, n - 4) != find_le32(d))
        return 0;
    return memcmp(d + 4, "CRCMAGIC", 8) == 0;
}
