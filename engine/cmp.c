/* engine/cmp.c — the trace-cmp and trace-switch callbacks and the tables they fill. */
#include "cmp.h"

#include "exec.h"

#include <string.h>

/* Process-wide because the compiler's callbacks have no context. Written by the thread
 * running instrumented code during a case; read by the run thread when it mutates (between
 * cases). Counters only grow within a target's run; the slot is count % size. */
static struct {
    fgi_cmp_int ints[FGI_CMP_INTS];
    unsigned long nints;
    fgi_cmp_str strs[FGI_CMP_STRS];
    unsigned long nstrs;
} cmp;

void fgi_cmp_reset(void)
{
    fgi_strhook_link();
    cmp.nints = cmp.nstrs = 0;
}

int fgi_cmp_have_ints(void)
{
    return cmp.nints != 0;
}

int fgi_cmp_have_strs(void)
{
    return cmp.nstrs != 0;
}

const fgi_cmp_int *fgi_cmp_pick_int(fgi_rng *r)
{
    unsigned long n = cmp.nints < FGI_CMP_INTS ? cmp.nints : FGI_CMP_INTS;
    return n ? &cmp.ints[fgi_rng_below(r, n)] : NULL;
}

const fgi_cmp_str *fgi_cmp_pick_str(fgi_rng *r)
{
    unsigned long n = cmp.nstrs < FGI_CMP_STRS ? cmp.nstrs : FGI_CMP_STRS;
    return n ? &cmp.strs[fgi_rng_below(r, n)] : NULL;
}

unsigned long fgi_cmp_mark(void)
{
    return cmp.nints;
}

size_t fgi_cmp_since(unsigned long mark, fgi_cmp_int *out, size_t cap)
{
    unsigned long n = cmp.nints - mark;
    if (n > FGI_CMP_INTS)
        n = FGI_CMP_INTS;
    if (n > cap)
        n = cap;
    for (unsigned long i = 0; i < n; i++)
        out[i] = cmp.ints[(cmp.nints - n + i) % FGI_CMP_INTS];
    return (size_t)n;
}

static void note_int(uint64_t a, uint64_t b, uint8_t width)
{
    /* Equal operands teach nothing, and small constants are what byte havoc finds on its
     * own; both would crowd the table. */
    if (a == b || !fgi_exec_in_case() || (a < 2 && b < 2))
        return;
    fgi_cmp_int *slot = &cmp.ints[cmp.nints++ % FGI_CMP_INTS];
    slot->a = a;
    slot->b = b;
    slot->width = width;
}

void fgi_cmp_note_bytes(const void *a, size_t alen, const void *b, size_t blen)
{
    if (!fgi_exec_in_case() || alen == 0 || blen == 0)
        return;
    alen = alen < FGI_CMP_STR_MAX ? alen : FGI_CMP_STR_MAX;
    blen = blen < FGI_CMP_STR_MAX ? blen : FGI_CMP_STR_MAX;
    /* Not memcmp: that is interposed (strhook.c) and would come straight back here. */
    const uint8_t *x = a, *y = b;
    size_t same = 0;
    while (alen == blen && same < alen && x[same] == y[same])
        same++;
    if (alen == blen && same == alen)
        return;
    fgi_cmp_str *slot = &cmp.strs[cmp.nstrs++ % FGI_CMP_STRS];
    memcpy(slot->a, a, alen);
    memcpy(slot->b, b, blen);
    slot->alen = (uint8_t)alen;
    slot->blen = (uint8_t)blen;
}

/* The callbacks, as clang and gcc emit them for -fsanitize-coverage=trace-cmp. */
void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b);
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b);
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b);
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b);
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b);
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b);
void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases);
void __sanitizer_cov_trace_cmpf(float a, float b);
void __sanitizer_cov_trace_cmpd(double a, double b);

/* gcc also traces floating-point comparisons; their operands are not bytes a mutator can
 * usefully write, so they are accepted and ignored. */
void __sanitizer_cov_trace_cmpf(float a, float b)
{
    (void)a;
    (void)b;
}

void __sanitizer_cov_trace_cmpd(double a, double b)
{
    (void)a;
    (void)b;
}

void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) { note_int(a, b, 1); }
void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b) { note_int(a, b, 2); }
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { note_int(a, b, 4); }
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b) { note_int(a, b, 8); }
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) { note_int(b, a, 1); }
void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b) { note_int(b, a, 2); }
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { note_int(b, a, 4); }
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b) { note_int(b, a, 8); }

/* cases[0] is the number of cases, cases[1] the width in bits, then the case values. The
 * value is recorded against the nearest case values (a switch over 32-bit opcodes is a
 * ladder of equality tests the fuzzer cannot see otherwise). */
void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases)
{
    uint64_t n = cases[0];
    uint8_t width = (uint8_t)(cases[1] / 8);
    for (uint64_t i = 0; i < n && i < 16; i++)
        note_int(val, cases[2 + i], width ? width : 8);
}
