/* engine/feedback/cmp.h — comparison feedback: the operands of recent comparisons, for mutation.
 *
 * Filled by the trace-cmp/trace-switch callbacks of instrumented code and by the memcmp
 * family (interposed in plain builds, observed through the sanitizer's weak hooks under
 * ASan), only while a case runs, into rings in execution order. Mutators never read the
 * rings: they draw from a pool fed with kept inputs' own pairs (see fgi_cmp_pool_add), so
 * a case's draws depend on the corpus snapshot alone — the epoch rule of parallel runs.
 * The run reads a case's own pairs after it: its candidate's comparisons (from the ring
 * and the log of the case's first wide pairs: fgi_cmp_case_pairs), and in a plain build
 * the constants it compared against (fgi_cmp_constants).
 * Each target's run starts everything empty.
 */
#ifndef FG_CMP_H
#define FG_CMP_H

#include "engine/base/rng.h"

#define FGI_CMP_INTS 256 /* integer pairs kept; arbitrary, libFuzzer keeps a few hundred */
#define FGI_CMP_STRS 64  /* byte-string pairs kept */
#define FGI_CMP_STR_MAX 32

/* What the operands of an fgi_cmp_int are: integers, or the bit patterns of floating-point
 * values (gcc's trace-cmp reports float and double comparisons; clang's does not). */
enum { FGI_CMP_INTEGER = 0, FGI_CMP_DOUBLE = 1, FGI_CMP_FLOAT = 2 };

typedef struct fgi_cmp_int {
    uint64_t a, b; /* the operands (a float's 32 bits, a double's 64) */
    uint8_t width; /* 1, 2, 4 or 8 bytes */
    uint8_t constant; /* b is the program's constant (a const-cmp callback) */
    uint8_t kind;  /* FGI_CMP_INTEGER, _DOUBLE or _FLOAT */
} fgi_cmp_int;

typedef struct fgi_cmp_str {
    uint8_t a[FGI_CMP_STR_MAX], b[FGI_CMP_STR_MAX];
    uint8_t alen, blen;
    uint8_t local; /* FGI_CMP_A_LOCAL | FGI_CMP_B_LOCAL: that operand is no constant of
                    * the program, so no plain-build feature (fgi_cmp_constants): it lay in
                    * the case's own stack frames (the target built it: a round trip's
                    * output), or it is a search's haystack (strstr, memmem) */
} fgi_cmp_str;

#define FGI_CMP_A_LOCAL 1
#define FGI_CMP_B_LOCAL 2

/* The C library's memcmp past the comparison hook (engine/feedback/strhook.c): for the
 * engine's own comparisons, which are no target's and need not pay for its bookkeeping. */
FGI_HIDDEN int fgi_memcmp_quiet(const void *a, const void *b, size_t n);

/* 1 once a trace-cmp callback has fired, in a case or not: the build has comparison
 * tracing (for a start-up banner). */
FGI_HIDDEN int fgi_cmp_traced(void);

/* An operand of c (c->a or c->b) as the number a parser produced: a float's or double's
 * value, or the integer read as signed when its top bit is set (strtol's -5 compared as
 * 0xfffffffb). */
FGI_HIDDEN double fgi_cmp_value(const fgi_cmp_int *c, uint64_t bits);

/* The width at which a comparison's operands a and b (width bytes wide) may be stored in
 * an input: a field of 2 or 4 bytes is often read into a wider variable (zlib's bit buffer
 * is a long: a stored block's length and a gzip header's CRC are compared as 8-byte
 * values under 2^16), so a pair whose operands both fit in fewer bytes than its width,
 * and need 2 or more, is looked for at 2 or 4. Operands under 2^8 keep the comparison's
 * width: one byte and a zero is in most inputs, and such a pair is what byte havoc finds
 * on its own. */
static inline unsigned fgi_cmp_field_width(uint64_t a, uint64_t b, unsigned width)
{
    uint64_t m = a | b;
    unsigned w = m >> 32 ? 8 : m >> 16 ? 4 : m >> 8 ? 2 : width;
    return w < width ? w : width;
}

/* Empties the tables (a target's run starts here). */
FGI_HIDDEN void fgi_cmp_reset(void);
/* The pool the mutators draw from: pairs made by inputs the run kept, added in the order
 * they were kept (fgi_cmp_pool_add). Whether it holds any integer / string pair: */
FGI_HIDDEN int fgi_cmp_have_ints(void);
FGI_HIDDEN int fgi_cmp_have_strs(void);
/* Whether any pooled integer pair is a floating-point one (FGI_CMP_DOUBLE or _FLOAT). */
FGI_HIDDEN int fgi_cmp_have_reals(void);
/* A random pooled pair, or NULL when the pool has none. */
FGI_HIDDEN const fgi_cmp_int *fgi_cmp_pick_int(fgi_rng *r);
FGI_HIDDEN const fgi_cmp_str *fgi_cmp_pick_str(fgi_rng *r);
/* Adds one kept input's own pairs to the pool (a ring: the latest are kept) and counts
 * their constants for the automatic dictionary. */
FGI_HIDDEN void fgi_cmp_pool_add(const fgi_cmp_int *ints, size_t nints,
                                 const fgi_cmp_str *strs, size_t nstrs);
/* The automatic dictionary: constants that keep appearing in pooled comparisons (a string
 * operand, the constant side of an integer comparison of 2+ bytes, little-endian, or either
 * side of a floating-point comparison as the shortest text that reads back as it) are
 * promoted to words once seen FGI_CMP_AUTO_AFTER times. At most FGI_CMP_AUTO words, in
 * promotion order.
 * fgi_cmp_auto_word returns word i (0 <= i < fgi_cmp_auto_count()). */
#define FGI_CMP_AUTO 64
#define FGI_CMP_AUTO_AFTER 16
FGI_HIDDEN size_t fgi_cmp_auto_count(void);
FGI_HIDDEN const uint8_t *fgi_cmp_auto_word(size_t i, size_t *len);

/* A case begins: a mark in the integer ring (fgi_cmp_mark), and the log of the case's
 * first FGI_CMP_WIDE pairs of 2+ bytes starts empty. */
#define FGI_CMP_WIDE 2048
FGI_HIDDEN unsigned long fgi_cmp_begin(void);
/* The pairs to keep with a case's input in (size bytes) that began at mark: among the
 * case's first FGI_CMP_WIDE pairs of 2+ bytes, the distinct ones with an operand in the
 * input (in either byte order, at fgi_cmp_field_width; for a comparison against a
 * constant, the other operand):
 * input-to-state, wherever in the case they were made, at most cap less the latest's
 * share, spread evenly over the order they were first made; then the latest pairs
 * (fgi_cmp_since), at most cap / 2 of them or what room is left. Written to out; returns
 * how many (<= cap). Depends on the comparisons and the input alone. */
FGI_HIDDEN size_t fgi_cmp_case_pairs(const uint8_t *in, size_t size, unsigned long mark,
                                     fgi_cmp_int *out, size_t cap);
/* A mark in the integer ring: how many pairs have been recorded so far. */
FGI_HIDDEN unsigned long fgi_cmp_mark(void);
/* The integer and floating-point comparisons the case thread has made (every callback,
 * kept or not), a running count: the difference across a case is its work, a measure of
 * its cost that, unlike its time, is the same on every machine (engine/search/schedule.h).
 * Compiler instrumentation only counts here; a plain build's is the target's fg_cmp_u64. */
FGI_HIDDEN unsigned long fgi_cmp_work(void);
/* Copies the pairs recorded since mark (the most recent, at most cap) to out; returns how
 * many. This is one input's own comparisons: its input-to-state correspondence. */
FGI_HIDDEN size_t fgi_cmp_since(unsigned long mark, fgi_cmp_int *out, size_t cap);

/* The same for the string ring. */
FGI_HIDDEN unsigned long fgi_cmp_mark_strs(void);
FGI_HIDDEN size_t fgi_cmp_strs_since(unsigned long mark, fgi_cmp_str *out, size_t cap);

/* The pairs fgi_cmp_since and fgi_cmp_strs_since would copy, as pointers into the rings
 * (valid until the next comparison is recorded): for a caller that reads them in place
 * and copies only some. */
FGI_HIDDEN size_t fgi_cmp_since_ptrs(unsigned long mark, const fgi_cmp_int **out, size_t cap);
FGI_HIDDEN size_t fgi_cmp_strs_since_ptrs(unsigned long mark, const fgi_cmp_str **out,
                                          size_t cap);

/* The program's side of the comparisons recorded since the marks, as feature keys: an
 * operand that does not occur in the case's input (in either byte order, for integers)
 * and, for bytes, did not lie in the case's own stack frames (what the target built from
 * its input: a round trip's printed text would make every input new) is taken for the
 * program's constant, and fn(ctx, key) is called for it, at most
 * FGI_CMP_FEATS times a case. A plain build keeps the first input that makes a comparison
 * against a constant it has not met: the nearest it has to new coverage. */
#define FGI_CMP_FEATS 8
FGI_HIDDEN void fgi_cmp_constants(const uint8_t *in, size_t n, unsigned long mark,
                                  unsigned long smark, void (*fn)(void *ctx, uint64_t key),
                                  void *ctx);

/* Records a comparison of two integers of width bytes (fg_cmp_u64); only during a case. */
FGI_HIDDEN void fgi_cmp_note_int(uint64_t a, uint64_t b, uint8_t width);


/* Records a comparison of two byte strings (memcmp and friends); only during a case. */
FGI_HIDDEN void fgi_cmp_note_bytes(const void *a, size_t alen, const void *b, size_t blen);

#endif
