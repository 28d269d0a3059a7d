/* test/unit/test_input.c — the bytes a case's body gets: where they lie, and that a read
 * outside them is caught under ASan. */
#include "test/support/check.h"
#include "test/support/proc.h"
#include "oracle/harness.h"

#include <stdint.h>
#include <string.h>

static uintptr_t seen_offsets; /* the OR of every input's address mod 16 */

static uint64_t note_alignment(const uint8_t *data, size_t size)
{
    (void)size;
    seen_offsets |= (uintptr_t)data & 15;
    return 0;
}

static const fg_target alignment_target = {.name = "test_alignment", .run = note_alignment};

/* Every input starts 16-aligned, as a block from malloc does (and libFuzzer's copy of each
 * input): code whose path depends on an address's alignment (zlib's crc32 steps to a word
 * boundary first) then takes, for an input, the same path in every run of it — here, after
 * any largest input so far, and in a replay under another engine. The input used to end
 * at the buffer's end, so its start moved with the buffer's size, and a corpus kept its
 * alignment variants under addresses no replay gave them. */
FG_TEST(input_starts_16_aligned_whatever_ran_before)
{
    static uint8_t bytes[5000];
    static const size_t sizes[] = {100, 1, 7, 33, 0, 99, 16, 17, 4097, 3, 4096, 5000, 2};
    fgi_harness h;
    CHECK(fgi_harness_open(&h, &alignment_target) == FG_OK);
    seen_offsets = 0;
    for (size_t i = 0; i < FGI_ARRAY_LEN(sizes); i++) {
        CHECK(fgi_harness_reserve(&h, sizes[i]) == FG_OK);
        fgi_case_result res;
        fgi_harness_run(&h, bytes, sizes[i], &res);
        CHECK(res.status == FGI_CASE_OK);
        CHECK_EQ_U(seen_offsets, 0);
    }
    fgi_harness_close(&h);
}

#ifdef FGT_ASAN
static long read_at; /* where the body reads, from the input's start (may be outside it) */

static uint64_t read_one(const uint8_t *data, size_t size)
{
    (void)size;
    volatile uint8_t b = data[read_at];
    return b;
}

static const fg_target reader_target = {.name = "test_reader", .run = read_one};

/* Runs reader_target over 13 bytes in a buffer reserved for 100 (so there is room on
 * both sides of the input) and exits 0 when the case ended normally. */
static int read_in_child(void *ctx)
{
    read_at = *(const long *)ctx;
    static const uint8_t bytes[13] = {1, 2, 3};
    fgi_harness h;
    if (fgi_harness_open(&h, &reader_target) != FG_OK ||
        fgi_harness_reserve(&h, 100) != FG_OK)
        return 3;
    fgi_case_result res;
    fgi_harness_run(&h, bytes, sizeof bytes, &res);
    int ok = res.status == FGI_CASE_OK;
    fgi_harness_close(&h);
    return ok ? 0 : 4;
}
#endif

/* Under ASan, a read one past the input's end is caught, as is one just before its start,
 * and reads of its first and last bytes are not. Planted and clean twins, each in a child
 * (ASan's report ends the process). */
FG_TEST(input_read_outside_is_caught_under_asan)
{
#ifndef FGT_ASAN
    printf("  skipped: not an ASan build (SANITIZE=address)\n");
#else
    static const long outside[] = {13, 15, -1, -16}, inside[] = {0, 12};
    for (size_t i = 0; i < FGI_ARRAY_LEN(outside); i++) {
        fgt_run r;
        CHECK(fgt_call_in_child(read_in_child, (void *)&outside[i], &r) == 0);
        CHECK(!(r.exited && r.code == 0));
        CHECK(strstr(r.err, "AddressSanitizer") != NULL);
        fgt_run_free(&r);
    }
    for (size_t i = 0; i < FGI_ARRAY_LEN(inside); i++) {
        fgt_run r;
        CHECK(fgt_call_in_child(read_in_child, (void *)&inside[i], &r) == 0);
        CHECK(r.exited && r.code == 0);
        fgt_run_free(&r);
    }
#endif
}
