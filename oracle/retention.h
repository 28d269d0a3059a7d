/* oracle/retention.h — the retention oracle's verdict on a case that left heap blocks.
 *
 * A case that leaves blocks allocated is not yet a leak: real libraries initialise lazily,
 * fill caches once and keep "the latest" of something (libxml2 keeps a copy of the last
 * error and frees the previous copy when the next error comes). A leak is growth: the
 * live heap grows on every run of the same input. See docs/oracles.md for the numbers.
 */
#ifndef FG_RETENTION_H
#define FG_RETENTION_H

#include "engine/base/case.h"
#include "oracle/heap.h"

/* A warm-up run, then up to FGI_RETENTION_MEASURED measured runs; the input
 * retains when the live heap (bytes or blocks, frees of earlier runs' blocks counted)
 * grew on every measured run. */
#define FGI_RETENTION_WARMUP 1
#define FGI_RETENTION_MEASURED 2

/* One more run of the input alone under every oracle, without the retention check (the
 * harness's; a callback, so this module does not depend on the harness). */
typedef void (*fgi_retention_rerun)(void *ctx, fgi_case_result *res, fgi_heap_report *heap);

/* The retention check for an input whose first run left `first` behind: re-runs it alone
 * through rerun(ctx, ...) as above and, when it retains, fills res as a `retention`
 * finding (status FGI_CASE_ENDED). A re-run that fails another oracle leaves that finding
 * in res. */
FGI_HIDDEN void fgi_retention_check(fgi_retention_rerun rerun, void *ctx, fgi_case_result *res,
                                    const fgi_heap_report *first);

#endif
