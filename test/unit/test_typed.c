/* test/unit/test_typed.c — read-aware mutation (engine/mutate/typed.c): edits stay inside
 * the reads or move whole operations, so what is left still reads as operations. */
#include "test/support/check.h"

#include "engine/mutate/typed.h"

#include <stdlib.h>

/* A format read as the reader would: pick(3); op 0 then a u16, op 1 nothing more, op 2 a
 * range(10, 20). The record of data into rd (as fg_read_* would write it); its count. */
static size_t decode(const uint8_t *d, size_t n, fgi_read *rd)
{
    size_t at = 0, k = 0;
    while (at < n) {
        unsigned op = d[at] % 3, w = op == 0 ? 2 : op == 2 ? 1 : 0;
        rd[k++] = (fgi_read){.off = (uint32_t)at, .width = 1, .kind = FGI_READ_PICK, .hi = 2};
        at++;
        if (!w)
            continue;
        if (at + w > n) {
            rd[k++] = (fgi_read){.off = (uint32_t)at, .width = (uint32_t)(n - at),
                                 .short_ = 1, .kind = op ? FGI_READ_RANGE : FGI_READ_INT,
                                 .lo = op ? 10 : 0, .hi = op ? 20 : 0xffff};
            break;
        }
        rd[k++] = (fgi_read){.off = (uint32_t)at, .width = w,
                             .kind = op ? FGI_READ_RANGE : FGI_READ_INT,
                             .lo = op ? 10 : 0, .hi = op ? 20 : 0xffff};
        at += w;
    }
    return k;
}

/* The operations (pick and arguments) of data, as byte strings: 1 when every operation of
 * out is one of base's or other's (whole and aligned). */
static int ops_from(const uint8_t *out, size_t n, const uint8_t *base, size_t bn,
                    const uint8_t *other, size_t on)
{
    static fgi_read ro[1024], rb[1024], rt[1024];
    size_t ko = decode(out, n, ro), kb = decode(base, bn, rb), kt = decode(other, on, rt);
    for (size_t i = 0; i < ko; i++) {
        if (ro[i].kind != FGI_READ_PICK)
            continue;
        size_t len = (i + 1 < ko && ro[i + 1].kind != FGI_READ_PICK ? ro[i + 1].width : 0) + 1;
        int found = 0;
        for (int side = 0; side < 2 && !found; side++) {
            const fgi_read *r = side ? rt : rb;
            size_t k = side ? kt : kb;
            const uint8_t *d = side ? other : base;
            for (size_t j = 0; j < k && !found; j++) {
                if (r[j].kind != FGI_READ_PICK)
                    continue;
                size_t l2 = (j + 1 < k && r[j + 1].kind != FGI_READ_PICK ? r[j + 1].width : 0) + 1;
                found = l2 == len && memcmp(d + r[j].off, out + ro[i].off, len) == 0;
            }
        }
        if (!found)
            return 0;
    }
    return 1;
}

FG_TEST(typed_edits_keep_operations_whole)
{
    static const uint8_t base[] = {0, 0x34, 0x12, 1, 2, 15, 0, 0xff, 0xff, 1, 2, 11};
    static const uint8_t other[] = {2, 20, 1, 0, 7, 7};
    static fgi_read rb[64], ro[64];
    size_t nb = decode(base, sizeof base, rb), no = decode(other, sizeof other, ro);
    static uint8_t buf[256], scratch[256];
    unsigned seen_value = 0, seen_dup = 0, seen_delete = 0, seen_op = 0, seen_splice = 0;
    for (uint64_t k = 0; k < 4000; k++) {
        fgi_rng rng;
        fgi_rng_case(&rng, 7, 11, k);
        fgi_mut m = {.rng = &rng, .scratch = scratch, .other = other,
                     .other_size = sizeof other};
        memcpy(buf, base, sizeof base);
        size_t max = sizeof base + (size_t)(k % 40);
        size_t n = fgi_typed_mutate(&m, rb, nb, ro, no, buf, sizeof base, max);
        if (n == FGI_MUT_SKIP) {
            CHECK(memcmp(buf, base, sizeof base) == 0 && m.step == NULL);
            continue;
        }
        CHECK(n <= max && m.step != NULL && m.napplied == 0);
        if (m.step && strcmp(m.step, "read_value") == 0) {
            seen_value++;
            CHECK_EQ_U(n, sizeof base);
            /* a changed byte was written by the edit of its read: a pick as its choice
             * (0..2), a range's as value - lo (0..10) */
            for (size_t i = 0; i < nb; i++)
                if (rb[i].width == 1 && buf[rb[i].off] != base[rb[i].off])
                    CHECK(buf[rb[i].off] <= (rb[i].kind == FGI_READ_PICK ? 2 : 10));
        } else if (m.step && strcmp(m.step, "read_op") == 0) {
            seen_op++; /* a bare pick may make its own arguments of what follows */
        } else {
            seen_dup += strcmp(m.step, "read_dup") == 0;
            seen_delete += strcmp(m.step, "read_delete") == 0;
            seen_splice += strcmp(m.step, "read_splice") == 0;
            CHECK(ops_from(buf, n, base, sizeof base, other, sizeof other));
        }
    }
    CHECK(seen_value > 100 && seen_dup > 100 && seen_delete > 50 && seen_op > 100 &&
          seen_splice > 20);
}

FG_TEST(typed_pick_becomes_another_valid_choice)
{
    /* One pick of 5 choices and nothing else: a value edit makes it another choice. */
    static const uint8_t base[] = {3};
    fgi_read rd = {.off = 0, .width = 1, .kind = FGI_READ_PICK, .hi = 4};
    uint8_t buf[8], scratch[8];
    unsigned hits[5] = {0};
    for (uint64_t k = 0; k < 3000; k++) {
        fgi_rng rng;
        fgi_rng_case(&rng, 1, 2, k);
        fgi_mut m = {.rng = &rng, .scratch = scratch};
        buf[0] = base[0];
        size_t n = fgi_typed_mutate(&m, &rd, 1, NULL, 0, buf, 1, 1);
        if (n == 1 && strcmp(m.step, "read_value") == 0) {
            CHECK(buf[0] <= 4 && buf[0] != 3);
            hits[buf[0] % 5]++;
        }
    }
    CHECK(hits[0] && hits[1] && hits[2] && hits[4] && !hits[3]);
}

FG_TEST(typed_range_values_reach_both_bounds)
{
    static const uint8_t base[] = {0, 0x10, 0x00}; /* pick 0, then a range(100, 5000): 16 */
    fgi_read rd[2] = {{.off = 0, .width = 1, .kind = FGI_READ_PICK, .hi = 0},
                      {.off = 1, .width = 2, .kind = FGI_READ_RANGE, .lo = 100, .hi = 5000}};
    uint8_t buf[8], scratch[8];
    int lo = 0, hi = 0, next = 0;
    for (uint64_t k = 0; k < 2000; k++) {
        fgi_rng rng;
        fgi_rng_case(&rng, 3, 4, k);
        fgi_mut m = {.rng = &rng, .scratch = scratch};
        memcpy(buf, base, sizeof base);
        size_t n = fgi_typed_mutate(&m, rd, 2, NULL, 0, buf, sizeof base, sizeof base);
        if (n != sizeof base || strcmp(m.step, "read_value") != 0)
            continue;
        unsigned w = (unsigned)(buf[1] | buf[2] << 8), v = 100 + w % 4901;
        CHECK(w <= 4900); /* written as value - lo, never past the range */
        lo |= v == 100;
        hi |= v == 5000;
        next |= v == 100 + 16 + 1 || v == 100 + 16 - 1;
    }
    CHECK(lo && hi && next);
}

FG_TEST(typed_without_operations_or_room_changes_nothing)
{
    static const uint8_t base[] = {9, 9, 9};
    fgi_read rd = {.off = 0, .width = 3, .kind = FGI_READ_BYTES};
    uint8_t buf[8], scratch[8];
    for (uint64_t k = 0; k < 200; k++) {
        fgi_rng rng;
        fgi_rng_case(&rng, 5, 6, k);
        fgi_mut m = {.rng = &rng, .scratch = scratch};
        memcpy(buf, base, sizeof base);
        CHECK(fgi_typed_mutate(&m, &rd, 1, NULL, 0, buf, 3, 3) == FGI_MUT_SKIP);
        CHECK(memcmp(buf, base, 3) == 0);
    }
}

FG_TEST(typed_groups_are_the_picks)
{
    static const uint8_t d[] = {0, 1, 2, 1, 2, 12, 0, 5};
    fgi_read rd[16];
    size_t n = decode(d, sizeof d, rd);
    uint32_t starts[17], end;
    CHECK_EQ_U(fgi_typed_groups(rd, n, sizeof d, starts, &end), 4);
    CHECK(starts[0] == 0 && starts[1] == 3 && starts[2] == 4 && starts[3] == 6);
    CHECK_EQ_U(end, 8); /* the last one's short read ends the input */
    CHECK_EQ_U(fgi_typed_groups(rd, n, 5, starts, &end), 3); /* cut at 5: the pick at 4 */
    CHECK_EQ_U(end, 5);
}

/* The partner may be longer than max (a corpus file, a seed): its operations never reach
 * the scratch whole, which is max bytes (an overrun is ASan's, or the canary's, to see);
 * and an operation of no bytes (a pick of one choice) leaves the input as it was. */
FG_TEST(typed_partner_longer_than_max_or_empty_operations)
{
    enum { MAX = 32 };
    static const uint8_t base[] = {1, 0, 0x34, 0x12, 2, 15};
    static uint8_t other[300];
    static fgi_read rb[16], ro[8];
    size_t nb = decode(base, sizeof base, rb);
    /* partner: pick(3) 2, then 250 bytes as one fg_read_bytes-like read; then a pick of one
     * choice (width 0) twice at its end */
    other[0] = 2;
    memset(other + 1, 0xab, 250);
    size_t no = 0;
    ro[no++] = (fgi_read){.off = 0, .width = 1, .kind = FGI_READ_PICK, .hi = 2};
    ro[no++] = (fgi_read){.off = 1, .width = 250, .kind = FGI_READ_BYTES};
    ro[no++] = (fgi_read){.off = 251, .width = 0, .kind = FGI_READ_PICK, .hi = 0};
    ro[no++] = (fgi_read){.off = 251, .width = 0, .kind = FGI_READ_PICK, .hi = 0};
    uint8_t *scratch = malloc(MAX + 8);
    CHECK(scratch != NULL);
    if (!scratch)
        return;
    uint8_t buf[MAX];
    for (uint64_t k = 0; k < 4000; k++) {
        fgi_rng rng;
        fgi_rng_case(&rng, 9, 13, k);
        memset(scratch + MAX, 0x5a, 8); /* a canary past the scratch's MAX bytes */
        fgi_mut m = {.rng = &rng, .scratch = scratch, .other = other, .other_size = 251};
        memcpy(buf, base, sizeof base);
        size_t n = fgi_typed_mutate(&m, rb, nb, ro, no, buf, sizeof base, MAX);
        for (int i = 0; i < 8; i++)
            CHECK(scratch[MAX + i] == 0x5a);
        if (n == FGI_MUT_SKIP)
            CHECK(memcmp(buf, base, sizeof base) == 0);
        else
            CHECK(n <= MAX);
    }
    free(scratch);
}
