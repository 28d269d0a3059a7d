/* test/unit/test_minimize.c — delta debugging over synthetic predicates: exact minimal results
 * where 1-minimality decides them, the budget to the trial, determinism, never an
 * unconfirmed result, no candidate tried twice, and out-of-memory at every allocation. */
#include "test/support/check.h"

#include "engine/findings/minimize.h"

#include <limits.h>

#define LOG_MAX 20000 /* trials a test may log; more is a test failure */

/* A predicate and what it saw: every call's content hash, in order, and whether it said
 * yes. */
typedef struct probe {
    int (*holds)(const uint8_t *data, size_t size);
    unsigned long calls;
    uint64_t seen[LOG_MAX];
    uint8_t said[LOG_MAX];
    int overflow;
    unsigned long stop_at; /* return -1 on this call (1-based); 0 = never */
} probe;

static int ask(void *ctx, const uint8_t *data, size_t size)
{
    probe *p = ctx;
    p->calls++;
    if (p->stop_at && p->calls == p->stop_at)
        return -1;
    int yes = p->holds(data, size);
    if (p->calls <= LOG_MAX) {
        p->seen[p->calls - 1] = fg_fold(fgi_hash_bytes(data, size), size);
        p->said[p->calls - 1] = (uint8_t)yes;
    } else {
        p->overflow = 1;
    }
    return yes;
}

/* ---- the predicates ------------------------------------------------------------------ */

static int has_bug(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if (memcmp(d + i, "BUG", 3) == 0)
            return 1;
    return 0;
}

static int byte3_is_A_and_long(const uint8_t *d, size_t n)
{
    return n >= 10 && d[3] == 0x41;
}

static int sum_at_least_300(const uint8_t *d, size_t n)
{
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += d[i];
    return sum >= 300;
}

/* Not monotonic: removing an 'A' turns it off, removing another turns it back on. */
static int odd_As_and_five_long(const uint8_t *d, size_t n)
{
    size_t as = 0;
    for (size_t i = 0; i < n; i++)
        as += d[i] == 'A';
    return n >= 5 && as % 2 == 1;
}

/* Three bytes are enough once the first is 0x00, which only simplification finds. */
static int short_if_leading_zero(const uint8_t *d, size_t n)
{
    return (n >= 3 && d[0] == 0) || n >= 5;
}

static const uint8_t *original_only_bytes;
static size_t original_only_size;

static int is_the_original(const uint8_t *d, size_t n)
{
    return n == original_only_size && memcmp(d, original_only_bytes, n) == 0;
}

/* ---- helpers --------------------------------------------------------------------------- */

/* Deterministic filler: lowercase letters, so no predicate above holds by accident. */
static void fill_letters(uint8_t *d, size_t n, uint64_t salt)
{
    for (size_t i = 0; i < n; i++)
        d[i] = (uint8_t)('a' + fg_mix64(salt * 1000003 + i) % 26);
}

static int minimize_with(probe *p, const uint8_t *d, size_t n, unsigned long budget,
                         fgi_min_result *r)
{
    p->calls = 0;
    p->overflow = 0;
    fg_error e = fgi_minimize(d, n, budget, ask, p, r);
    CHECK(e == FG_OK);
    CHECK(!p->overflow);
    if (e != FG_OK)
        return 0;
    CHECK_EQ_U(r->trials, p->calls);
    return 1;
}

/* 1 when removing any one byte of d, or replacing any one by a simpler byte, fails. */
static int one_minimal(int (*holds)(const uint8_t *, size_t), const uint8_t *d, size_t n)
{
    uint8_t buf[256];
    if (n > sizeof buf)
        return 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(buf, d, i);
        memcpy(buf + i, d + i + 1, n - i - 1);
        if (holds(buf, n - 1))
            return 0;
    }
    static const uint8_t simpler[] = {0x00, '0', ' '};
    for (size_t i = 0; i < n; i++) {
        for (size_t r = 0; r < sizeof simpler && d[i] != simpler[r]; r++) {
            memcpy(buf, d, n);
            buf[i] = simpler[r];
            if (holds(buf, n))
                return 0;
        }
    }
    return 1;
}

/* Every call the probe logged was for distinct bytes. */
static int no_repeats(const probe *p)
{
    for (unsigned long i = 0; i < p->calls && i < LOG_MAX; i++)
        for (unsigned long j = i + 1; j < p->calls && j < LOG_MAX; j++)
            if (p->seen[i] == p->seen[j])
                return 0;
    return 1;
}

/* ---- exact results ------------------------------------------------------------------- */

FG_TEST(minimize_substring_to_exactly_the_substring)
{
    static probe p = {.holds = has_bug};
    uint8_t in[3000];
    fill_letters(in, sizeof in, 1);
    memcpy(in + 1777, "BUG", 3);
    fgi_min_result r;
    if (!minimize_with(&p, in, sizeof in, ULONG_MAX, &r))
        return;
    CHECK(r.stop == FGI_MIN_FIXED_POINT);
    CHECK_EQ_U(r.size, 3);
    CHECK(r.size == 3 && memcmp(r.data, "BUG", 3) == 0);
    CHECK(no_repeats(&p));
    CHECK(r.trials < 400); /* ddmin's ~2 log2(3000) per kept byte, not a byte-by-byte crawl */
    fgi_free(r.data);
}

FG_TEST(minimize_position_and_length_to_zeros_around_the_byte)
{
    static probe p = {.holds = byte3_is_A_and_long};
    uint8_t in[777];
    fill_letters(in, sizeof in, 2);
    in[3] = 0x41;
    fgi_min_result r;
    if (!minimize_with(&p, in, sizeof in, ULONG_MAX, &r))
        return;
    /* 1-minimal forces size 10 (the last byte of a longer one can go); simpler bytes
     * turn all but byte 3 into 0x00 */
    static const uint8_t want[10] = {0, 0, 0, 0x41, 0, 0, 0, 0, 0, 0};
    CHECK(r.stop == FGI_MIN_FIXED_POINT);
    CHECK_EQ_U(r.size, 10);
    CHECK(r.size == 10 && memcmp(r.data, want, 10) == 0);
    CHECK(no_repeats(&p));
    fgi_free(r.data);
}

FG_TEST(minimize_sum_takes_the_simplest_byte_that_still_adds_up)
{
    static probe p = {.holds = sum_at_least_300};
    uint8_t in[100];
    memset(in, 0xff, sizeof in);
    fgi_min_result r;
    if (!minimize_with(&p, in, sizeof in, ULONG_MAX, &r))
        return;
    /* two 0xff are 1-minimal (one is 255); the first then takes '0' (48 + 255 = 303),
     * 0x00 being too little; nothing simpler works for the second */
    CHECK(r.stop == FGI_MIN_FIXED_POINT);
    CHECK_EQ_U(r.size, 2);
    CHECK(r.size == 2 && r.data[0] == '0' && r.data[1] == 0xff);
    CHECK(no_repeats(&p));
    fgi_free(r.data);
}

FG_TEST(minimize_non_monotonic_predicate_ends_one_minimal)
{
    static probe p = {.holds = odd_As_and_five_long};
    uint8_t in[200];
    fill_letters(in, sizeof in, 3);
    for (size_t i = 0; i < sizeof in; i += 13)
        in[i] = 'A'; /* 16 of them: even, so one more */
    in[100] = 'A';
    CHECK(odd_As_and_five_long(in, sizeof in));
    fgi_min_result r;
    if (!minimize_with(&p, in, sizeof in, ULONG_MAX, &r))
        return;
    CHECK(r.stop == FGI_MIN_FIXED_POINT);
    CHECK(odd_As_and_five_long(r.data, r.size));
    CHECK(one_minimal(odd_As_and_five_long, r.data, r.size));
    /* 1-minimal here means five bytes whose non-'A's are 0x00, or an odd run of 'A's
     * (one fewer is even) */
    size_t as = 0, zeros = 0;
    for (size_t i = 0; i < r.size; i++) {
        as += r.data[i] == 'A';
        zeros += r.data[i] == 0;
    }
    CHECK(as + zeros == r.size);
    CHECK(r.size == 5 || as == r.size);
    CHECK(no_repeats(&p));
    fgi_free(r.data);
}

FG_TEST(minimize_repeats_rounds_when_simpler_bytes_open_removals)
{
    static probe p = {.holds = short_if_leading_zero};
    uint8_t in[5]; /* no byte can go until the first one is 0x00 */
    fill_letters(in, sizeof in, 8);
    fgi_min_result r;
    if (!minimize_with(&p, in, sizeof in, ULONG_MAX, &r))
        return;
    CHECK(r.stop == FGI_MIN_FIXED_POINT);
    CHECK_EQ_U(r.size, 3);
    CHECK(r.size == 3 && memcmp(r.data, "\0\0\0", 3) == 0);
    CHECK(one_minimal(short_if_leading_zero, r.data, r.size));
    fgi_free(r.data);
}

FG_TEST(minimize_only_the_original_reproduces)
{
    static probe p = {.holds = is_the_original};
    uint8_t in[64];
    fill_letters(in, sizeof in, 4);
    original_only_bytes = in;
    original_only_size = sizeof in;
    fgi_min_result r;
    if (!minimize_with(&p, in, sizeof in, ULONG_MAX, &r))
        return;
    CHECK(r.stop == FGI_MIN_FIXED_POINT);
    CHECK_EQ_U(r.size, sizeof in);
    CHECK(r.size == sizeof in && memcmp(r.data, in, sizeof in) == 0);
    CHECK(r.data != in); /* an owned copy */
    CHECK(r.trials > 0);
    for (unsigned long i = 0; i < p.calls; i++)
        CHECK_EQ_U(p.said[i], 0);
    CHECK(no_repeats(&p));
    fgi_free(r.data);
}

FG_TEST(minimize_empty_and_tiny_inputs)
{
    static probe p = {.holds = sum_at_least_300};
    fgi_min_result r;
    /* nothing to remove or simplify in the empty input: no trial at all */
    if (minimize_with(&p, NULL, 0, ULONG_MAX, &r)) {
        CHECK_EQ_U(r.size, 0);
        CHECK_EQ_U(r.trials, 0);
        CHECK(r.data != NULL);
        CHECK(r.stop == FGI_MIN_FIXED_POINT);
        fgi_free(r.data);
    }
    const uint8_t two[2] = {0xff, 0xff};
    if (minimize_with(&p, two, 2, ULONG_MAX, &r)) {
        CHECK(r.size == 2 && r.data[0] == '0' && r.data[1] == 0xff);
        fgi_free(r.data);
    }
    CHECK(fgi_minimize(two, 2, 10, NULL, NULL, &r) == FG_EINVAL);
    CHECK(fgi_minimize(two, 2, 10, ask, &p, NULL) == FG_EINVAL);
    CHECK(fgi_minimize(NULL, 2, 10, ask, &p, &r) == FG_EINVAL);
}

/* ---- budget, determinism, confirmation ------------------------------------------------- */

/* For budgets 0, 1, 2, ... up to past the unbounded run's trial count: exactly
 * min(budget, full) trials, each run's calls a prefix of the full run's, and the result
 * always the original or an input the predicate said yes to. */
FG_TEST(minimize_budget_is_exact_and_trials_are_a_prefix)
{
    static probe full = {.holds = sum_at_least_300};
    static probe part = {.holds = sum_at_least_300};
    uint8_t in[300];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(fg_mix64(i + 77) % 64); /* sum about 9450: far above 300 */
    fgi_min_result fr;
    if (!minimize_with(&full, in, sizeof in, ULONG_MAX, &fr))
        return;
    CHECK(fr.stop == FGI_MIN_FIXED_POINT);
    CHECK(sum_at_least_300(fr.data, fr.size));
    CHECK(one_minimal(sum_at_least_300, fr.data, fr.size));
    unsigned long total = fr.trials;
    CHECK(total > 50);
    unsigned long budgets[] = {0, 1, 2, 3, 7, 40, total / 2, total - 1, total, total + 1,
                               total * 3};
    for (size_t b = 0; b < FGI_ARRAY_LEN(budgets); b++) {
        fgi_min_result r;
        if (!minimize_with(&part, in, sizeof in, budgets[b], &r))
            continue;
        unsigned long want = FGI_MIN(budgets[b], total);
        CHECK_EQ_U(r.trials, want);
        CHECK(r.stop == (budgets[b] < total ? FGI_MIN_BUDGET : FGI_MIN_FIXED_POINT));
        CHECK(memcmp(part.seen, full.seen, want * sizeof full.seen[0]) == 0);
        /* the result is the last input said yes to, or the original */
        uint64_t key = fg_fold(fgi_hash_bytes(r.data, r.size), r.size);
        long last_yes = -1;
        for (unsigned long i = 0; i < want; i++)
            if (part.said[i])
                last_yes = (long)i;
        if (last_yes < 0)
            CHECK(r.size == sizeof in && memcmp(r.data, in, sizeof in) == 0);
        else
            CHECK(part.seen[last_yes] == key);
        if (budgets[b] >= total)
            CHECK(r.size == fr.size && memcmp(r.data, fr.data, fr.size) == 0);
        fgi_free(r.data);
    }
    fgi_free(fr.data);
}

FG_TEST(minimize_is_deterministic)
{
    static probe a = {.holds = odd_As_and_five_long};
    static probe b = {.holds = odd_As_and_five_long};
    uint8_t in[500];
    fill_letters(in, sizeof in, 5);
    in[17] = in[250] = in[499] = 'A';
    fgi_min_result ra, rb;
    if (!minimize_with(&a, in, sizeof in, ULONG_MAX, &ra))
        return;
    if (minimize_with(&b, in, sizeof in, ULONG_MAX, &rb)) {
        CHECK_EQ_U(ra.trials, rb.trials);
        CHECK_EQ_U(ra.repeats, rb.repeats);
        CHECK(ra.size == rb.size && memcmp(ra.data, rb.data, ra.size) == 0);
        CHECK(memcmp(a.seen, b.seen, a.calls * sizeof a.seen[0]) == 0);
        fgi_free(rb.data);
    }
    fgi_free(ra.data);
}

FG_TEST(minimize_stops_when_the_predicate_says_so)
{
    static probe p = {.holds = has_bug};
    uint8_t in[1000];
    fill_letters(in, sizeof in, 6);
    memcpy(in + 10, "BUG", 3);
    p.stop_at = 5;
    fgi_min_result r;
    if (minimize_with(&p, in, sizeof in, ULONG_MAX, &r)) {
        CHECK(r.stop == FGI_MIN_STOPPED);
        CHECK_EQ_U(r.trials, 5);
        CHECK(has_bug(r.data, r.size));
        CHECK(r.size < sizeof in); /* the first trials (halves) already shrank it */
        fgi_free(r.data);
    }
    p.stop_at = 0;
}

/* Every allocation failing in turn: FG_ENOMEM with *out zeroed, or the full result. */
FG_TEST(minimize_out_of_memory_at_each_allocation)
{
    static probe p = {.holds = has_bug};
    uint8_t in[2000];
    fill_letters(in, sizeof in, 7);
    memcpy(in + 1500, "BUG", 3);
    unsigned long nth;
    for (nth = 1; nth < 100; nth++) {
        fgi_min_result r;
        p.calls = 0;
        fgi_mem_fail_nth(nth);
        fg_error e = fgi_minimize(in, sizeof in, ULONG_MAX, ask, &p, &r);
        int fired = fgi_mem_fail_nth(0) >= nth;
        if (e == FG_OK) {
            CHECK(!fired);
            CHECK(r.size == 3 && memcmp(r.data, "BUG", 3) == 0);
            fgi_free(r.data);
            break;
        }
        CHECK(e == FG_ENOMEM);
        CHECK(r.data == NULL && r.size == 0 && r.trials == 0);
    }
    CHECK(nth > 3 && nth < 100); /* two buffers, and the tried set grew more than once */
}

/* ---- structural passes over a read record -------------------------------------------- */

/* Operations of the form pick(4): 0 push(u16), 1 pop, 2 check, 3 note(range 0..1000).
 * The record of d as the reader writes it, into rd; its count. */
static size_t ops_record(const uint8_t *d, size_t n, fgi_read *rd)
{
    size_t at = 0, k = 0;
    while (at < n) {
        unsigned op = d[at] % 4, w = op == 0 || op == 3 ? 2 : 0;
        rd[k++] = (fgi_read){.off = (uint32_t)at++, .width = 1, .kind = FGI_READ_PICK, .hi = 3};
        if (w && at + w <= n)
            rd[k++] = (fgi_read){.off = (uint32_t)at, .width = w,
                                 .kind = op ? FGI_READ_RANGE : FGI_READ_INT,
                                 .hi = op ? 1000 : 0xffff};
        at += w;
    }
    return k;
}

/* Holds when a check follows at least 6 pushes of a value of 3 or more (pops do not
 * matter); and how many operations and pushes d has. */
static int six_pushes_then_check(const uint8_t *d, size_t n)
{
    unsigned pushes = 0;
    for (size_t at = 0; at < n;) {
        unsigned op = d[at++] % 4;
        if (op == 0 && at + 2 <= n)
            pushes += (unsigned)(d[at] | d[at + 1] << 8) >= 3;
        if (op == 2 && pushes >= 6)
            return 1;
        at += op == 0 || op == 3 ? 2 : 0;
    }
    return 0;
}

static unsigned count_ops(const uint8_t *d, size_t n)
{
    fgi_read rd[512];
    size_t k = ops_record(d, n, rd);
    unsigned ops = 0;
    for (size_t i = 0; i < k; i++)
        ops += rd[i].kind == FGI_READ_PICK;
    return ops;
}

FG_TEST(minimize_reads_drops_whole_operations_then_lowers_values)
{
    /* 30 notes and pops around 6 pushes (values 500) and the check: 7 operations matter. */
    uint8_t d[256];
    size_t n = 0;
    for (unsigned i = 0; i < 36; i++) {
        if (i % 6 == 5) {
            d[n++] = 0; /* push(500) */
            d[n++] = 0xf4;
            d[n++] = 0x01;
        } else if (i % 2) {
            d[n++] = 1; /* pop */
        } else {
            d[n++] = 3; /* note(777) */
            d[n++] = 0x09;
            d[n++] = 0x03;
        }
    }
    d[n++] = 2; /* check */
    d[n++] = 3; /* and a note after it */
    d[n++] = 0;
    d[n++] = 0;
    CHECK(six_pushes_then_check(d, n));
    fgi_read rd[512];
    size_t k = ops_record(d, n, rd);
    static probe p;
    memset(&p, 0, sizeof p);
    p.holds = six_pushes_then_check;
    fgi_min_result res;
    /* A budget the byte passes alone do not finish in: the structure does. */
    CHECK(fgi_minimize_reads(d, n, rd, k, 150, ask, &p, &res) == FG_OK);
    CHECK(six_pushes_then_check(res.data, res.size));
    CHECK_EQ_U(count_ops(res.data, res.size), 7);
    /* each push's value lowered to the least that still counts: 500 -> 250 -> ... -> 3 */
    for (size_t i = 0; i + 2 < res.size; i += 3)
        CHECK(res.data[i] % 4 != 0 || (res.data[i + 1] | res.data[i + 2] << 8) < 500);
    fgi_free(res.data);
    /* the same search without the record leaves more operations in that budget */
    memset(&p, 0, sizeof p);
    p.holds = six_pushes_then_check;
    CHECK(fgi_minimize(d, n, 150, ask, &p, &res) == FG_OK);
    CHECK(count_ops(res.data, res.size) > 7);
    fgi_free(res.data);
}

FG_TEST(minimize_reads_ignores_a_record_that_does_not_fit)
{
    static const uint8_t d[] = "xxBUGxx";
    fgi_read bad = {.off = 5, .width = 8, .kind = FGI_READ_INT, .hi = 1}; /* past the end */
    static probe p;
    memset(&p, 0, sizeof p);
    p.holds = has_bug;
    fgi_min_result res;
    CHECK(fgi_minimize_reads(d, 7, &bad, 1, 1000, ask, &p, &res) == FG_OK);
    CHECK(res.size == 3 && memcmp(res.data, "BUG", 3) == 0);
    fgi_free(res.data);
}
