/* engine/feedback/coverage.h — compiler coverage (SanitizerCoverage) as module-relative features.
 *
 * The runtime is always linked and inert until a module compiled with coverage registers
 * itself, so one library serves instrumented and plain builds. Supported instrumentation:
 * clang's -fsanitize-coverage=inline-8bit-counters (with or without pc-table) and
 * trace-pc-guard, and gcc's -fsanitize-coverage=trace-pc. Every feature is a function of
 * (module, offset within the module, hit-count bucket) — the module named by its soname
 * ("" for the main program), never by an address — so ASLR and load order change nothing.
 */
#ifndef FG_COVERAGE_H
#define FG_COVERAGE_H

#include "engine/internal.h"

/* 1 once any instrumented module has registered (or a trace-pc callback has fired). */
FGI_HIDDEN int fgi_cov_enabled(void);
/* Clears every counter; call before a case. */
FGI_HIDDEN void fgi_cov_reset(void);
/* Writes the features the last case hit to out, as many as fit in cap: one per edge hit,
 * the edge with its hit count's bucket (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+). Returns
 * how many there are, which may be more than cap (call again with room for them all: the
 * counters are unchanged until fgi_cov_reset). A buffer, not a callback a feature: the
 * executor runs this on every case. Unless `dense` is NULL, beside each feature its dense
 * index: a small number naming the same (edge, bucket) in this process, below
 * fgi_cov_dense_size(), for tables indexed directly rather than hashed. */
FGI_HIDDEN size_t fgi_cov_features(uint64_t *out, uint32_t *dense, size_t cap);
/* One past the largest dense index a feature can have now; it grows when a module
 * registers (dlopen), and the indices already given keep their meaning. */
FGI_HIDDEN size_t fgi_cov_dense_size(void);
/* What is instrumented, for a start-up banner: modules that registered counters at load
 * (clang's inline-8bit-counters or trace-pc-guard) with their edges, and modules whose
 * trace-pc callbacks have fired so far (gcc, or clang's trace-pc: such a module names
 * itself only when its code runs, and its edges are found as they run). */
typedef struct fgi_cov_info {
    unsigned modules;    /* registered at load */
    size_t edges;        /* their edges */
    unsigned pc_modules; /* seen through trace-pc callbacks */
} fgi_cov_info;
FGI_HIDDEN void fgi_cov_describe(fgi_cov_info *out);

/* Stack depth, where clang's -fsanitize-coverage=stack-depth (part of fuzzer-no-link)
 * keeps the lowest frame its instrumented functions entered on each thread. The case's
 * body is called with that reset to the caller's frame (fgi_cov_stack_begin); after it
 * returns, how far below that frame the body went is kept (fgi_cov_stack_end, given the
 * same frame, on the case's thread)
 * and given as one feature, a bucket of it (fgi_cov_stack_feature): as libFuzzer does, an
 * input that recurses deeper than any kept one is news (a recursive-descent parser's
 * nesting, which its edges alone do not tell apart). A difference of two frames of one
 * stack, never an address: the same for an input in every run of one build. Nothing
 * without the instrumentation (the variable is never written: depth 0). */
FGI_HIDDEN void fgi_cov_stack_begin(uintptr_t frame);
FGI_HIDDEN void fgi_cov_stack_end(uintptr_t frame);
FGI_HIDDEN void fgi_cov_stack_feature(void (*fn)(void *ctx, uint64_t key), void *ctx);

/* Instrumented edges known so far (for status lines). */
FGI_HIDDEN size_t fgi_cov_edges_total(void);

#endif
