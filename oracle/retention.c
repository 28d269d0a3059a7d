/* oracle/retention.c — the retention oracle: a leak is live heap that grows on every run.
 *
 * The first run of an input that left blocks is followed by FGI_RETENTION_WARMUP more runs
 * and up to FGI_RETENTION_MEASURED measured ones, all alone and with the heap registry
 * held from the first run's blocks on (fgi_heap_hold), so a run that frees a block an
 * earlier run left is counted against the growth. Why these numbers:
 *   - the first run is already a warm-up for lazy initialisation (encoding tables, locale
 *     data, zlib's CRC table), but not for "keep the latest": it frees what the *previous
 *     case* left (a different input's last error, of another size), which the registry
 *     never held. The warm-up run frees the first run's latest, held, and keeps its own:
 *     when it leaves the held total no larger than the first run left, nothing grew.
 *   - a cache keyed by the input fills on the warm-up runs; one measured run that grows
 *     can still be a second-level structure filling late (a table grown on the second use),
 *     so a finding needs growth on two measured runs in a row; a leak grows on every run.
 * A clean case pays nothing; a case that left blocks pays one more run when nothing grows
 * (lazy initialisation, libxml2's last error), three for a leak.
 */
#include "oracle/retention.h"

#include "oracle/frames.h"

#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Fills res as the retention finding: the class names the first sites in sorted
 * module+offset order, never in table order, so it is the same from run to run. */
static void report(fgi_case_result *res, const fgi_heap_report *sites, size_t grew_bytes,
                   size_t grew_blocks, const fgi_heap_report *first)
{
    static char names[FGI_HEAP_SITES][96]; /* run thread only; too big for the stack */
    for (unsigned i = 0; i < sites->nsites; i++)
        fgi_frames_site_name(sites->sites[i], names[i], sizeof names[i]);
    qsort(names, sites->nsites, sizeof names[0], by_name);
    char where[4 * 96 + 8] = "";
    size_t used = 0;
    for (unsigned i = 0; i < sites->nsites && i < 4; i++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%s", i ? ", " : "",
                                 names[i]);
    res->status = FGI_CASE_ENDED;
    res->kind = "retention";
    snprintf(res->site, sizeof res->site, "%s", where);
    snprintf(res->detail, sizeof res->detail,
             "the live heap grew by %zu bytes in %zu blocks on each of %d runs of the input "
             "after %d warm-up runs (the first run left %zu bytes in %zu blocks; what the "
             "measured runs left is allocated at %s%s)",
             grew_bytes, grew_blocks, FGI_RETENTION_MEASURED, 1 + FGI_RETENTION_WARMUP,
             first->live_bytes, first->live_blocks, where, sites->nsites > 4 ? ", ..." : "");
}

void fgi_retention_check(fgi_retention_rerun rerun, void *ctx, fgi_case_result *res,
                         const fgi_heap_report *first)
{
    fgi_heap_report r;
    fgi_heap_hold(1);
    for (int w = 0; w < FGI_RETENTION_WARMUP; w++) {
        rerun(ctx, res, &r);
        if (res->status != FGI_CASE_OK)
            goto done; /* the re-run failed an oracle itself: that is the finding */
    }
    /* The registry held the first run's blocks too: a leak grows past them on every
     * run. A warm-up run that left none (lazy initialisation, done on the first run), or
     * that freed the first run's "latest" and kept its own, settles it. */
    size_t bytes = r.live_bytes, blocks = r.live_blocks, gb = 0, gn = 0;
    if (bytes <= first->live_bytes && blocks <= first->live_blocks)
        goto done;
    for (int m = 0; m < FGI_RETENTION_MEASURED; m++) {
        rerun(ctx, res, &r);
        if (res->status != FGI_CASE_OK)
            goto done;
        if (r.live_bytes <= bytes && r.live_blocks <= blocks)
            goto done; /* no growth on this run: not a leak */
        gb = r.live_bytes > bytes ? r.live_bytes - bytes : 0;
        gn = r.live_blocks > blocks ? r.live_blocks - blocks : 0;
        bytes = r.live_bytes;
        blocks = r.live_blocks;
    }
    /* What the first measured run allocated and no later run freed: the leak's own
     * blocks, without the "latest" ones a later run replaced. */
    fgi_heap_held_sites(&r, FGI_RETENTION_MEASURED - 1);
    if (r.nsites == 0)
        fgi_heap_held_sites(&r, 0);
    report(res, &r, gb, gn, first);
done:
    fgi_heap_hold(0);
}
