/* test/unit/test_cmp.c — the comparison tables: what they record, and only during a case. */
#include "test/support/case.h"
#include "test/support/check.h"
#include "engine/feedback/sancov.h"

#include "engine/feedback/cmp.h"
#include "engine/base/case.h"

#include <pthread.h>
#include <stdlib.h>
#include <strings.h>

#define SEED 0xc0ffee0f6a7e2026ULL
#define DRAWS (64 * FGI_CMP_INTS) /* enough draws to see every slot of a full ring */

/* The callbacks clang and gcc emit for -fsanitize-coverage=trace-cmp (engine/feedback/cmp.c). */

/* ---- running a body as a real case: fgt_in_case (test/support/case.c) ------------------------ */

/* ---- reading the tables back ------------------------------------------------------------- */

static int by_address(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)*(const void *const *)x, b = (uintptr_t)*(const void *const *)y;
    return a < b ? -1 : a > b;
}

/* Every distinct pair the picker returns over many draws, in slot order (while the ring
 * has not wrapped, that is the order of recording). Returns how many. */
static size_t recorded_ints(const fgi_cmp_int **out, size_t cap)
{
    fgi_rng r;
    fgi_rng_case(&r, SEED, 1, 0);
    size_t n = 0;
    for (unsigned d = 0; d < DRAWS; d++) {
        const fgi_cmp_int *c = fgi_cmp_pick_int(&r);
        if (!c)
            return 0;
        size_t i = 0;
        while (i < n && out[i] != c)
            i++;
        if (i == n && n < cap)
            out[n++] = c;
    }
    qsort(out, n, sizeof *out, by_address);
    return n;
}

static size_t recorded_strs(const fgi_cmp_str **out, size_t cap)
{
    fgi_rng r;
    fgi_rng_case(&r, SEED, 2, 0);
    size_t n = 0;
    for (unsigned d = 0; d < DRAWS; d++) {
        const fgi_cmp_str *c = fgi_cmp_pick_str(&r);
        if (!c)
            return 0;
        size_t i = 0;
        while (i < n && out[i] != c)
            i++;
        if (i == n && n < cap)
            out[n++] = c;
    }
    qsort(out, n, sizeof *out, by_address);
    return n;
}

static int int_is(const fgi_cmp_int *c, uint64_t a, uint64_t b, unsigned width)
{
    return c && c->a == a && c->b == b && c->width == width;
}

static int str_is(const fgi_cmp_str *c, const char *a, size_t alen, const char *b, size_t blen)
{
    return c && c->alen == alen && c->blen == blen && memcmp(c->a, a, alen) == 0 &&
           memcmp(c->b, b, blen) == 0;
}

static int tables_empty(void)
{
    fgi_rng r;
    fgi_rng_case(&r, SEED, 3, 0);
    return fgi_cmp_pick_int(&r) == NULL && fgi_cmp_pick_str(&r) == NULL;
}

/* The memcmp family through volatile pointers: real calls to the symbols (interposed by
 * engine/feedback/strhook.c in plain builds, intercepted by the sanitizer under ASan), never
 * folded or inlined by the compiler. */
static int (*volatile memcmp_fn)(const void *, const void *, size_t) = memcmp;
static int (*volatile strcmp_fn)(const char *, const char *) = strcmp;
static int (*volatile strncmp_fn)(const char *, const char *, size_t) = strncmp;
static int (*volatile strcasecmp_fn)(const char *, const char *) = strcasecmp;
static int (*volatile strncasecmp_fn)(const char *, const char *, size_t) = strncasecmp;
static int (*volatile bcmp_fn)(const void *, const void *, size_t) = bcmp;
static char *(*volatile strstr_fn)(const char *, const char *) = strstr;
static void *(*volatile memmem_fn)(const void *, size_t, const void *, size_t) = memmem;

/* ---- the tests --------------------------------------------------------------------------- */

static void compare_all_kinds(void)
{
    static uint64_t cases[] = {2, 32, 0x1000, 0x2000};
    __sanitizer_cov_trace_cmp1(0x41, 0x42);
    __sanitizer_cov_trace_cmp2(0x1234, 0x4321);
    __sanitizer_cov_trace_cmp4(0x11223344u, 0xdeadbeefu);
    __sanitizer_cov_trace_cmp8(0x1122334455667788ULL, 0x8877665544332211ULL);
    __sanitizer_cov_trace_const_cmp4(0xcafef00du, 0x12345678u);
    __sanitizer_cov_trace_switch(0x3000, cases);
    fgi_cmp_note_bytes("MAGICKEY", 8, "abcdefgh", 8);
}

FG_TEST(cmp_nothing_recorded_outside_a_case)
{
    fgi_cmp_reset();
    CHECK(!fgi_case_running());
    compare_all_kinds(); /* called straight from the test: no case runs */
    CHECK(tables_empty());
    static const char x[] = "left operand", y[] = "right operand";
    CHECK(memcmp_fn(x, y, 8) != 0);
    CHECK(strcmp_fn(x, y) != 0);
    CHECK(tables_empty());
    /* After a case has run and ended, the same calls still record nothing. */
    CHECK(fgt_in_case(compare_all_kinds));
    CHECK(!tables_empty());
    fgi_cmp_reset();
    compare_all_kinds();
    CHECK(tables_empty());
}

static void *compare_on_thread(void *arg)
{
    (void)arg;
    compare_all_kinds();
    return NULL;
}

/* The case's body compares nothing itself; a thread it starts does. */
static void compare_on_another_thread(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, compare_on_thread, NULL) == 0)
        pthread_join(t, NULL);
}

FG_TEST(cmp_another_thread_of_the_case_is_not_recorded)
{
    CHECK(fgt_in_case(compare_on_another_thread)); /* its tables would race the case's */
    CHECK(tables_empty());
    CHECK(fgt_in_case(compare_all_kinds)); /* the twin: the case's own thread is */
    CHECK(!tables_empty());
    fgi_cmp_reset();
}

static void compare_each_width(void)
{
    __sanitizer_cov_trace_cmp1(0x41, 0x42);
    __sanitizer_cov_trace_cmp2(0x1234, 0x4321);
    __sanitizer_cov_trace_cmp4(0x11223344u, 0xdeadbeefu);
    __sanitizer_cov_trace_cmp8(0x1122334455667788ULL, 0x8877665544332211ULL);
}

FG_TEST(cmp_pairs_recorded_in_a_case_in_order)
{
    CHECK(fgt_in_case(compare_each_width));
    const fgi_cmp_int *got[8];
    CHECK_EQ_U(recorded_ints(got, 8), 4);
    CHECK(int_is(got[0], 0x41, 0x42, 1));
    CHECK(int_is(got[1], 0x1234, 0x4321, 2));
    CHECK(int_is(got[2], 0x11223344u, 0xdeadbeefu, 4));
    CHECK(int_is(got[3], 0x1122334455667788ULL, 0x8877665544332211ULL, 8));
    fgi_rng r;
    fgi_rng_case(&r, SEED, 4, 0);
    CHECK(fgi_cmp_pick_str(&r) == NULL); /* no strings were compared */
    fgi_cmp_reset();
}

/* The compiler passes the constant first; the table keeps the input's operand in .a. */
static void compare_with_constants(void)
{
    __sanitizer_cov_trace_const_cmp1(0x7f, 0x10);
    __sanitizer_cov_trace_const_cmp2(0xbeef, 0x0102);
    __sanitizer_cov_trace_const_cmp4(0xcafef00du, 0x12345678u);
    __sanitizer_cov_trace_const_cmp8(0x0123456789abcdefULL, 0x42);
}

FG_TEST(cmp_const_cmp_keeps_the_constant_in_b)
{
    CHECK(fgt_in_case(compare_with_constants));
    const fgi_cmp_int *got[8];
    CHECK_EQ_U(recorded_ints(got, 8), 4);
    CHECK(int_is(got[0], 0x10, 0x7f, 1));
    CHECK(int_is(got[1], 0x0102, 0xbeef, 2));
    CHECK(int_is(got[2], 0x12345678u, 0xcafef00du, 4));
    CHECK(int_is(got[3], 0x42, 0x0123456789abcdefULL, 8));
    fgi_cmp_reset();
}

static void compare_useless_pairs(void)
{
    __sanitizer_cov_trace_cmp4(5, 5); /* equal */
    __sanitizer_cov_trace_cmp8(~0ULL, ~0ULL);
    __sanitizer_cov_trace_const_cmp2(0x4242, 0x4242);
    __sanitizer_cov_trace_cmp1(0, 1); /* both below 2 */
    __sanitizer_cov_trace_cmp1(1, 0);
    __sanitizer_cov_trace_cmp4(0, 0);
    __sanitizer_cov_trace_const_cmp8(1, 0);
    fgi_cmp_note_bytes("same", 4, "same", 4); /* equal bytes */
    fgi_cmp_note_bytes("", 0, "", 0);         /* both empty */
}

static void compare_useless_then_useful(void)
{
    compare_useless_pairs();
    __sanitizer_cov_trace_cmp1(1, 2); /* one operand >= 2 is enough */
    __sanitizer_cov_trace_cmp4(2, 0);
    fgi_cmp_note_bytes("ab", 2, "abc", 3); /* a prefix, but not the same string */
    /* One empty side is news: strcmp(input, "keyword") on the empty input. */
    fgi_cmp_note_bytes("", 0, "abc", 3);
}

/* Addresses compared: on the stack, in a global, on the heap (a pointer against its
 * buffer's end). ASLR moves them; none may be recorded. */
static char cmp_object[64];

static void compare_addresses(void)
{
    char local[16];
    char *volatile heap = malloc(32);
    __sanitizer_cov_trace_cmp8((uintptr_t)&local[9], (uintptr_t)&local[0]);
    __sanitizer_cov_trace_cmp8((uintptr_t)&cmp_object[40], (uintptr_t)cmp_object);
    __sanitizer_cov_trace_cmp8((uintptr_t)heap + 32, (uintptr_t)heap);
    free(heap);
}

/* The twin: 64-bit values that are no addresses — a magic against the input's bytes,
 * two large values far apart, a small one against an address-sized constant. */
static void compare_addresses_then_values(void)
{
    compare_addresses();
    __sanitizer_cov_trace_cmp8(0x7f454c4600000000ULL, 0x7f454c4602010100ULL);
    __sanitizer_cov_trace_cmp8((uint64_t)1 << 33, (uint64_t)1 << 40);
    __sanitizer_cov_trace_const_cmp8(0x00007fff00001000ULL, 0x00007fff00002000ULL);
}

FG_TEST(cmp_two_addresses_are_not_recorded)
{
    CHECK(fgt_in_case(compare_addresses));
    CHECK(tables_empty());
    CHECK(fgt_in_case(compare_addresses_then_values));
    const fgi_cmp_int *got[8];
    CHECK_EQ_U(recorded_ints(got, 8), 3);
    fgi_cmp_reset();
}

FG_TEST(cmp_equal_operands_and_tiny_ints_ignored)
{
    CHECK(fgt_in_case(compare_useless_pairs));
    CHECK(tables_empty());
    CHECK(fgt_in_case(compare_useless_then_useful));
    const fgi_cmp_int *got[8];
    CHECK_EQ_U(recorded_ints(got, 8), 2);
    CHECK(int_is(got[0], 1, 2, 1));
    CHECK(int_is(got[1], 2, 0, 4));
    const fgi_cmp_str *strs[8];
    CHECK_EQ_U(recorded_strs(strs, 8), 2);
    CHECK(str_is(strs[0], "ab", 2, "abc", 3));
    CHECK(str_is(strs[1], "", 0, "abc", 3));
    fgi_cmp_reset();
}

#define OVERFLOW 44 /* pairs recorded beyond the ring's size */

static void compare_more_than_the_ring_holds(void)
{
    for (uint32_t i = 0; i < FGI_CMP_INTS + OVERFLOW; i++)
        __sanitizer_cov_trace_cmp4(1000 + i, 50000 + i);
    for (unsigned i = 0; i < FGI_CMP_STRS + OVERFLOW; i++) {
        char a[16], b[16];
        int n = snprintf(a, sizeof a, "key%u", i);
        snprintf(b, sizeof b, "val%u", i);
        fgi_cmp_note_bytes(a, (size_t)n, b, (size_t)n);
    }
}

FG_TEST(cmp_ring_keeps_the_latest_and_picks_deterministically)
{
    CHECK(fgt_in_case(compare_more_than_the_ring_holds));
    static const fgi_cmp_int *got[FGI_CMP_INTS + OVERFLOW];
    size_t n = recorded_ints(got, FGI_ARRAY_LEN(got));
    CHECK_EQ_U(n, FGI_CMP_INTS);
    /* Exactly the latest FGI_CMP_INTS pairs, each once. */
    static unsigned char seen[FGI_CMP_INTS + OVERFLOW];
    memset(seen, 0, sizeof seen);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = got[i]->a - 1000;
        if (k < OVERFLOW || k >= FGI_CMP_INTS + OVERFLOW || got[i]->b != 50000 + k ||
            got[i]->width != 4 || seen[k]++)
            bad++;
    }
    CHECK_EQ_U(bad, 0);
    static const fgi_cmp_str *strs[FGI_CMP_STRS + OVERFLOW];
    size_t ns = recorded_strs(strs, FGI_ARRAY_LEN(strs));
    CHECK_EQ_U(ns, FGI_CMP_STRS);
    bad = 0;
    for (size_t i = 0; i < ns; i++) {
        char a[16] = "";
        memcpy(a, strs[i]->a, strs[i]->alen < 15 ? strs[i]->alen : 15);
        unsigned k = (unsigned)strtoul(a + 3, NULL, 10);
        bad += k < OVERFLOW || strs[i]->b[0] != 'v';
    }
    CHECK_EQ_U(bad, 0);
    /* The same stream picks the same pairs; another stream picks differently. */
    fgi_rng r1, r2, r3;
    fgi_rng_case(&r1, SEED, 5, 7);
    r2 = r1;
    fgi_rng_case(&r3, SEED, 5, 8);
    unsigned same = 0, differ = 0;
    for (int i = 0; i < 1000; i++) {
        const fgi_cmp_int *a = fgi_cmp_pick_int(&r1), *b = fgi_cmp_pick_int(&r2);
        const fgi_cmp_int *c = fgi_cmp_pick_int(&r3);
        same += a == b;
        differ += a != c;
        const fgi_cmp_str *sa = fgi_cmp_pick_str(&r1), *sb = fgi_cmp_pick_str(&r2);
        same += sa == sb;
        (void)fgi_cmp_pick_str(&r3);
    }
    CHECK_EQ_U(same, 2000);
    CHECK(r1.state == r2.state);
    CHECK(differ > 900);
    fgi_cmp_reset();
}

static void compare_in_switches(void)
{
    static uint64_t word[] = {3, 32, 3000, 1000, 2000}; /* unsorted: gcc's need not be */
    static uint64_t half[] = {2, 16, 0x0a0a, 0x0b0b};
    static uint64_t quad[] = {1, 64, 0x0102030405060708ULL};
    static uint64_t byte[] = {4, 8, 0, 1, 'A', 'Z'};
    static uint64_t small[] = {3, 32, 1, 2, 3};
    static uint64_t many[2 + 20];
    many[0] = 20;
    many[1] = 32;
    for (int i = 0; i < 20; i++)
        many[2 + i] = 0x1000 + (uint64_t)i;
    __sanitizer_cov_trace_switch(2000, word);   /* against 1000 and 3000: 2000 is no news */
    __sanitizer_cov_trace_switch(0x0c0c, half); /* nothing above it */
    __sanitizer_cov_trace_switch(7, quad);      /* nothing below it */
    __sanitizer_cov_trace_switch(1, byte);      /* a byte's switch: byte havoc's */
    __sanitizer_cov_trace_switch(2, small);     /* every value fits a byte: likewise */
    __sanitizer_cov_trace_switch(300, small);   /* but the input's 300 does not */
    __sanitizer_cov_trace_switch(0x1008, many); /* its two neighbours of twenty */
}

FG_TEST(cmp_trace_switch_records_the_value_against_its_neighbours)
{
    CHECK(fgt_in_case(compare_in_switches));
    const fgi_cmp_int *got[64];
    size_t n = recorded_ints(got, 64);
    CHECK_EQ_U(n, 2 + 1 + 1 + 1 + 2);
    if (n != 7)
        return;
    CHECK(int_is(got[0], 2000, 1000, 4));
    CHECK(int_is(got[1], 2000, 3000, 4));
    CHECK(int_is(got[2], 0x0c0c, 0x0b0b, 2));
    CHECK(int_is(got[3], 7, 0x0102030405060708ULL, 8));
    CHECK(int_is(got[4], 300, 3, 4));
    CHECK(int_is(got[5], 0x1008, 0x1007, 4));
    CHECK(int_is(got[6], 0x1008, 0x1009, 4));
    fgi_cmp_reset();
}

static const char long_a[] = "0123456789abcdefghijklmnopqrstuvwxyz!"; /* 37 bytes */
static const char long_b[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?";
static const char long_c[] = "0123456789abcdefghijklmnopqrstuvwxyz?"; /* long_a but its last */

static void compare_long_strings(void)
{
    fgi_cmp_note_bytes(long_a, sizeof long_a - 1, long_b, sizeof long_b - 1);
    fgi_cmp_note_bytes("short", 5, long_b, sizeof long_b - 1);
    /* These differ only past FGI_CMP_STR_MAX: truncated, they are equal, so dropped. */
    fgi_cmp_note_bytes(long_a, sizeof long_a - 1, long_c, sizeof long_c - 1);
}

FG_TEST(cmp_note_bytes_truncates_to_the_maximum)
{
    CHECK(sizeof long_a - 1 > FGI_CMP_STR_MAX);
    CHECK(fgt_in_case(compare_long_strings));
    const fgi_cmp_str *got[8];
    CHECK_EQ_U(recorded_strs(got, 8), 2);
    CHECK(str_is(got[0], long_a, FGI_CMP_STR_MAX, long_b, FGI_CMP_STR_MAX));
    CHECK(str_is(got[1], "short", 5, long_b, FGI_CMP_STR_MAX));
    fgi_cmp_reset();
}

FG_TEST(cmp_reset_empties_both_tables)
{
    CHECK(fgt_in_case(compare_all_kinds));
    CHECK(!tables_empty());
    fgi_rng r;
    fgi_rng_case(&r, SEED, 6, 0);
    CHECK(fgi_cmp_pick_int(&r) != NULL);
    CHECK(fgi_cmp_pick_str(&r) != NULL);
    fgi_cmp_reset();
    CHECK(tables_empty());
    CHECK_EQ_U(fgi_cmp_mark(), 0);
}

static void compare_three_then_three(void)
{
    __sanitizer_cov_trace_cmp4(0x100, 0x200);
    __sanitizer_cov_trace_cmp4(0x101, 0x201);
    __sanitizer_cov_trace_cmp4(0x102, 0x202);
}

FG_TEST(cmp_since_a_mark_copies_the_latest_pairs)
{
    CHECK(fgt_in_case(compare_three_then_three));
    unsigned long mark = fgi_cmp_mark();
    CHECK_EQ_U(mark, 3);
    fgi_cmp_int out[4];
    CHECK_EQ_U(fgi_cmp_since(mark, out, 4), 0);
    CHECK_EQ_U(fgi_cmp_since(0, out, 4), 3);
    CHECK(int_is(&out[0], 0x100, 0x200, 4) && int_is(&out[2], 0x102, 0x202, 4));
    CHECK_EQ_U(fgi_cmp_since(0, out, 2), 2); /* the most recent two, in order */
    CHECK(int_is(&out[0], 0x101, 0x201, 4) && int_is(&out[1], 0x102, 0x202, 4));
    fgi_cmp_reset();
}

/* ---- the pairs kept with an input ------------------------------------------------------- */

/* A file format's reader: its magic number checked first (the input holds 7f 45 where
 * 64 86 is wanted), then a long read of the rest, the same few comparisons over and over
 * and many that have nothing to do with the input's bytes. */
static const uint8_t header_input[] = {0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00,
                                       0x10, 0x00, 0x00, 0x00, 0x3e, 0x00, 0x00, 0x00};

static void check_magic_then_read_long(void)
{
    __sanitizer_cov_trace_const_cmp2(0x8664, 0x457f); /* is it COFF for x86-64? */
    for (int i = 0; i < 100; i++)
        __sanitizer_cov_trace_const_cmp4(0x3e, 0x10); /* a field, tested again and again */
    for (uint32_t i = 0; i < 3 * FGI_CMP_INTS; i++) /* more than the ring holds */
        __sanitizer_cov_trace_cmp4(1000 + i, 50000 + i);
}

static int holds_pair(const fgi_cmp_int *out, size_t n, uint64_t a, uint64_t b, unsigned w)
{
    for (size_t i = 0; i < n; i++)
        if (int_is(&out[i], a, b, w))
            return 1;
    return 0;
}

FG_TEST(cmp_kept_pairs_hold_a_header_check_the_ring_has_lost)
{
    CHECK(fgt_in_case(check_magic_then_read_long));
    fgi_cmp_int out[32];
    /* The ring's latest are the long read's: the magic's pair is long gone from it. */
    size_t n = fgi_cmp_since(0, out, 32);
    CHECK_EQ_U(n, 32);
    CHECK(!holds_pair(out, n, 0x457f, 0x8664, 2));
    n = fgi_cmp_case_pairs(header_input, sizeof header_input, 0, out, 32);
    CHECK_EQ_U(n, 32);
    CHECK(holds_pair(out, n, 0x457f, 0x8664, 2));
    /* First made, first: the magic, then the field (its operand 0x10 is in the input),
     * once however often it was made; then the ring's latest, in order. */
    CHECK(int_is(&out[0], 0x457f, 0x8664, 2) && out[0].constant);
    CHECK(out[0].kind == FGI_CMP_INTEGER);
    size_t repeats = 0;
    for (size_t i = 0; i < n; i++)
        repeats += int_is(&out[i], 0x10, 0x3e, 4);
    CHECK_EQ_U(repeats, 1);
    CHECK(int_is(&out[1], 0x10, 0x3e, 4));
    size_t bad = 0;
    for (size_t j = 2; j < n; j++)
        bad += !int_is(&out[j], 1000 + 3 * FGI_CMP_INTS - n + j, 50000 + 3 * FGI_CMP_INTS - n + j,
                       4);
    CHECK_EQ_U(bad, 0);
    /* A pair with neither operand in the input is not taken for a distinct one: an input
     * holding neither side finds only the ring's latest, the table's own share unused. */
    static const uint8_t other[] = {0xaa, 0xbb, 0xcc};
    n = fgi_cmp_case_pairs(other, sizeof other, 0, out, 32);
    CHECK(!holds_pair(out, n, 0x457f, 0x8664, 2));
    CHECK_EQ_U(n, 32);
    fgi_cmp_reset();
}

/* Many pairs with the input's operand: more than the share, spread over the whole case. */
static uint8_t spread_input[2 * 200];

static void compare_two_hundred_fields(void)
{
    for (uint32_t i = 0; i < 200; i++)
        __sanitizer_cov_trace_const_cmp2(0x9000 + i, 0x0100 + i); /* input: 00 01, 01 01.. */
    for (uint32_t i = 0; i < FGI_CMP_INTS; i++)
        __sanitizer_cov_trace_cmp4(70000 + i, 90000 + i);
}

static void compare_nothing_wide(void)
{
    __sanitizer_cov_trace_cmp1(0x41, 0x42);
}

FG_TEST(cmp_kept_pairs_spread_over_the_case_and_start_empty_each_case)
{
    for (uint32_t i = 0; i < 200; i++) {
        spread_input[2 * i] = (uint8_t)(0x0100 + i);
        spread_input[2 * i + 1] = (uint8_t)((0x0100 + i) >> 8);
    }
    CHECK(fgt_in_case(compare_two_hundred_fields));
    fgi_cmp_int out[32];
    size_t n = fgi_cmp_case_pairs(spread_input, sizeof spread_input, 0, out, 32);
    CHECK_EQ_U(n, 32);
    /* 16 of the 200, in the order they were made, from the first to near the last. */
    size_t bad = 0;
    for (size_t j = 0; j < 16; j++) {
        uint64_t want = 0x0100 + j * 200 / 16;
        bad += !int_is(&out[j], want, 0x9000 + want - 0x0100, 2);
    }
    CHECK_EQ_U(bad, 0);
    for (size_t j = 16; j < 32; j++) /* then the 16 latest */
        bad += !int_is(&out[j], 70000 + FGI_CMP_INTS - 32 + j, 90000 + FGI_CMP_INTS - 32 + j, 4);
    CHECK_EQ_U(bad, 0);
    /* The same again gives the same (a function of the comparisons and the input). */
    fgi_cmp_int again[32];
    CHECK_EQ_U(fgi_cmp_case_pairs(spread_input, sizeof spread_input, 0, again, 32), 32);
    for (size_t j = 0; j < 32; j++)
        bad += !int_is(&again[j], out[j].a, out[j].b, out[j].width) ||
               again[j].constant != out[j].constant;
    CHECK_EQ_U(bad, 0);
    /* The next case starts with none of them. */
    CHECK(fgt_in_case(compare_nothing_wide));
    n = fgi_cmp_case_pairs(spread_input, sizeof spread_input, 0, out, 32);
    CHECK_EQ_U(n, 1);
    CHECK(int_is(&out[0], 0x41, 0x42, 1));
    fgi_cmp_reset();
}

/* A 2-byte field read into a long and compared with a computed value as 8 bytes (zlib's
 * stored-block length against its complement, a gzip header's CRC): the input holds the
 * field's 2 bytes, never its 8. Small operands at a wider width are looked for at theirs. */
static const uint8_t short_field_input[] = {0x00, 0x34, 0x12, 0x09, 0x05, 0x00, 0x77};

static void compare_short_fields_wide(void)
{
    __sanitizer_cov_trace_cmp8(0x1234, 0xbeef);   /* found as 34 12 */
    __sanitizer_cov_trace_cmp8(0x05, 0x07);       /* under 2^8: 05 00 x 8 only */
    __sanitizer_cov_trace_cmp4(0x123456, 0x9999); /* 4 bytes wide: 56 34 12 00 absent */
    for (uint32_t i = 0; i < 3 * FGI_CMP_INTS; i++) /* the ring's latest: none of them */
        __sanitizer_cov_trace_cmp4(1000 + i, 50000 + i);
}

FG_TEST(cmp_kept_pairs_find_a_short_field_compared_wide)
{
    CHECK(fgt_in_case(compare_short_fields_wide));
    fgi_cmp_int out[32];
    size_t n = fgi_cmp_case_pairs(short_field_input, sizeof short_field_input, 0, out, 32);
    CHECK_EQ_U(n, 32);
    CHECK(int_is(&out[0], 0x1234, 0xbeef, 8));
    CHECK(!holds_pair(out, n, 0x05, 0x07, 8));
    CHECK(!holds_pair(out, n, 0x123456, 0x9999, 4));
    CHECK(holds_pair(out, n, 1000 + 3 * FGI_CMP_INTS - 1, 50000 + 3 * FGI_CMP_INTS - 1, 4));
    /* The width a field may have: the operands' own, never wider than the comparison. */
    CHECK_EQ_U(fgi_cmp_field_width(0x1234, 0xbeef, 8), 2);
    CHECK_EQ_U(fgi_cmp_field_width(0x12345678, 0x10, 8), 4);
    CHECK_EQ_U(fgi_cmp_field_width(0x05, 0x07, 8), 8);
    CHECK_EQ_U(fgi_cmp_field_width(0x1234, 0xbeef, 2), 2);
    CHECK_EQ_U(fgi_cmp_field_width(0x1234, 1ull << 40, 8), 8);
    fgi_cmp_reset();
}

/* ---- the memcmp family ------------------------------------------------------------------- */

static const char mem_x[] = "PK\x03\x04header", mem_y[] = "PK\x05\x06trailer";

static void call_the_string_functions(void)
{
    (void)memcmp_fn(mem_x, mem_y, 8);          /* differ: recorded */
    (void)memcmp_fn(mem_x, mem_x, 8);          /* equal: not */
    (void)strcmp_fn("content-type", "content-length");
    (void)strncmp_fn("GET /index", "POST /form", 4);
    (void)strcmp_fn("same", "same");
    (void)strcasecmp_fn("Host", "hOST");       /* equal but for case: not */
    (void)strcasecmp_fn("Host", "Port");
    (void)strncasecmp_fn("Accept: x", "ACCEPT-Encoding", 7);
    (void)strncasecmp_fn("Accept: x", "ACCEPT: y", 7); /* equal but for case: not */
    (void)bcmp_fn(mem_y, mem_x, 4);            /* clang's memcmp(...) == 0 */
    (void)strstr_fn("a haystack", "needle");   /* not found: recorded */
    (void)strstr_fn("a haystack", "hay");      /* found: not */
    (void)memmem_fn("binary\0blob", 11, "\x7f" "ELF", 4);
}

static int asan_build(void)
{
#ifdef FGT_ASAN
    return 1;
#else
    const char *san = getenv("FGT_SANITIZE");
    return san && strstr(san, "address") != NULL;
#endif
}

/* Plain builds interpose memcmp and friends (engine/feedback/strhook.c); under ASan the sanitizer
 * owns them and calls its weak hooks, which strhook.c defines. Either way, a comparison
 * a case body makes reaches the string table. */
FG_TEST(cmp_memcmp_family_in_a_case_reaches_the_string_table)
{
    CHECK(fgt_in_case(call_the_string_functions));
    const fgi_cmp_str *got[8];
    size_t n = recorded_strs(got, 8);
    if (n == 0 && asan_build()) {
        /* The sanitizer runtime defines weak default hooks, so nothing makes the linker
         * take strhook.o out of libfuzzgate.a: the engine's hooks are not in this binary.
         * Checked in full once they are. */
        printf("  skipped: under ASan the memcmp hooks (engine/strhook.o) are not linked\n");
        return;
    }
    CHECK_EQ_U(n, 8);
    if (n != 8)
        return;
    CHECK(str_is(got[0], mem_x, 8, mem_y, 8));
    CHECK(str_is(got[1], "content-type", 12, "content-length", 14));
    CHECK(str_is(got[2], "GET ", 4, "POST", 4));
    CHECK(str_is(got[3], "Host", 4, "Port", 4));
    CHECK(str_is(got[4], "Accept:", 7, "ACCEPT-", 7));
    CHECK(str_is(got[5], mem_y, 4, mem_x, 4));
    CHECK(str_is(got[6], "a haystack", 10, "needle", 6));
    CHECK(str_is(got[7], "binary\0blob", 11, "\x7f" "ELF", 4));
    /* The engine's own comparisons outside the case (the write check after the body)
     * added nothing. */
    fgi_rng r;
    fgi_rng_case(&r, SEED, 7, 0);
    CHECK(fgi_cmp_pick_int(&r) == NULL);
    fgi_cmp_reset();
}

/* The automatic dictionary: a constant compared again and again is promoted to a word;
 * varying input bytes compared once each are not. */
static void compare_a_keyword_often(void)
{
    for (unsigned i = 0; i < FGI_CMP_AUTO_AFTER + 4; i++) {
        uint8_t input[8] = {'x', (uint8_t)i, (uint8_t)(i * 7), 'y', 'z', 'w', 'v', 'u'};
        fgi_cmp_note_bytes(input, sizeof input, "KEYWORD!", 8);
        __sanitizer_cov_trace_const_cmp4(0xC0FFEE42u, 0x1000u + i);
    }
}

FG_TEST(cmp_auto_dictionary_promotes_constants_that_keep_appearing)
{
    fgi_cmp_reset();
    CHECK_EQ_U(fgi_cmp_auto_count(), 0);
    CHECK(fgt_in_case(compare_a_keyword_often));
    CHECK_EQ_U(fgi_cmp_auto_count(), 2);
    int keyword = 0, word = 0;
    for (size_t i = 0; i < fgi_cmp_auto_count(); i++) {
        size_t len;
        const uint8_t *w = fgi_cmp_auto_word(i, &len);
        keyword |= len == 8 && memcmp(w, "KEYWORD!", 8) == 0;
        word |= len == 4 && memcmp(w, "\x42\xee\xff\xc0", 4) == 0; /* little-endian */
    }
    CHECK(keyword && word);
    fgi_cmp_reset();
    CHECK_EQ_U(fgi_cmp_auto_count(), 0);
}

/* A plain build's comparison features: the operand the input does not hold is the
 * program's constant; the input's own side, and a comparison of two input parts, say
 * nothing. */
static const char constants_input[] = "mode=x";
static unsigned long constants_mark, constants_smark;

static void compare_against_constants(void)
{
    constants_mark = fgi_cmp_mark();
    constants_smark = fgi_cmp_mark_strs();
    (void)strcmp_fn("mode", "size");                 /* "mode" is in the input, "size" not */
    (void)memcmp_fn(constants_input, constants_input + 1, 2); /* both in the input */
    __sanitizer_cov_trace_const_cmp4(0x1badb002u, 0x78); /* the constant is not there */
}

static uint64_t constant_keys[16];
static unsigned nconstant_keys;

static void collect_key(void *ctx, uint64_t key)
{
    (void)ctx;
    if (nconstant_keys < 16)
        constant_keys[nconstant_keys++] = key;
}

/* Runs body in a case; 0 (said, and the tables emptied) when the build has no string
 * hooks to record it. */
static int constants_case(void (*body)(void))
{
    CHECK(fgt_in_case(body));
    if (fgi_cmp_mark_strs() == constants_smark && asan_build()) {
        printf("  skipped: under ASan the memcmp hooks (engine/strhook.o) are not linked\n");
        fgi_cmp_reset();
        return 0;
    }
    return 1;
}

FG_TEST(cmp_constants_are_the_operands_the_input_does_not_hold)
{
    if (!constants_case(compare_against_constants))
        return;
    nconstant_keys = 0;
    fgi_cmp_constants((const uint8_t *)constants_input, sizeof constants_input - 1,
                      constants_mark, constants_smark, collect_key, NULL);
    CHECK_EQ_U(nconstant_keys, 2); /* "size" and 0x1badb002 */
    uint64_t first = constant_keys[0];
    /* The same comparisons with "size" in the input: only the integer is a constant. */
    static const char holds[] = "size=mode";
    nconstant_keys = 0;
    fgi_cmp_constants((const uint8_t *)holds, sizeof holds - 1, constants_mark,
                      constants_smark, collect_key, NULL);
    CHECK_EQ_U(nconstant_keys, 1);
    CHECK(nconstant_keys == 1 && constant_keys[0] != first);
    /* Nothing compared since the marks: nothing said. */
    nconstant_keys = 0;
    fgi_cmp_constants((const uint8_t *)holds, sizeof holds - 1, fgi_cmp_mark(),
                      fgi_cmp_mark_strs(), collect_key, NULL);
    CHECK_EQ_U(nconstant_keys, 0);
    fgi_cmp_reset();
}

/* Operands no constant of the program, whatever the input holds: what the target built in
 * its own stack frames (a round trip's printed text, compared with the input it came
 * from: as constants, every input would be new) and a search's haystack. The constant
 * each is compared with still counts. */
static void compare_built_text(void)
{
    constants_mark = fgi_cmp_mark();
    constants_smark = fgi_cmp_mark_strs();
    char printed[16];
    snprintf(printed, sizeof printed, "%d", 4000 + (int)fgi_cmp_mark()); /* built here */
    (void)strcmp_fn(printed, "0x1p4");          /* built against a constant: one key */
    (void)strstr_fn("header: none", "gzip");    /* haystack, needle: one key (the needle) */
    (void)strcmp_fn(printed, constants_input);  /* built against the input: nothing */
}

FG_TEST(cmp_constants_leave_out_what_the_case_built_and_haystacks)
{
    if (!constants_case(compare_built_text))
        return;
    CHECK_EQ_U(fgi_cmp_mark_strs() - constants_smark, 3); /* all three were recorded */
    nconstant_keys = 0;
    fgi_cmp_constants((const uint8_t *)constants_input, sizeof constants_input - 1,
                      constants_mark, constants_smark, collect_key, NULL);
    CHECK_EQ_U(nconstant_keys, 2); /* "0x1p4" and "gzip" */
    fgi_cmp_reset();
}
