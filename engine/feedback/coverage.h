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
/* Calls fn(ctx, feature) for each feature the last case hit: one per (edge, bucket), the
 * buckets being 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. Returns the number of edges hit. */
FGI_HIDDEN size_t fgi_cov_features(void (*fn)(void *ctx, uint64_t feature), void *ctx);
/* The deterministic time budget: the most edges a case may execute before it is ended as
 * a `timeout` finding, counted where the instrumentation calls back per edge (gcc
 * trace-pc, clang trace-pc-guard; inline 8-bit counters have no callback to count with).
 * Unlike the watchdog's clock, the count is the same on a loaded CI machine and a laptop.
 * Set before each case; 0 = no budget. */
FGI_HIDDEN void fgi_cov_budget(uint64_t edges);

/* The default budget for an input of `size` bytes: 20 M edges + 50 k per byte.
 * Arbitrary but generous: a parser runs tens to thousands of edges per byte; a hang runs
 * 20 M edges in a fraction of a second. */
FGI_HIDDEN uint64_t fgi_cov_default_budget(size_t size);

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

/* Instrumented edges known so far (for status lines). */
FGI_HIDDEN size_t fgi_cov_edges_total(void);

#endif
