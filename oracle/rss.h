/* oracle/rss.h — the bounded-memory oracle: the resident size of the process running the
 * cases against the run's limit (rss_limit_mb), in every mode.
 *
 * libFuzzer checks its peak RSS from a thread once a second; a leak of 1 MiB a case at a
 * few thousand cases a second passes a 256 MiB limit by gigabytes in that second. So the
 * check is the harness's, after each case, and costs what a case without a probe can
 * afford: a probe (/proc/self/statm, three system calls, ~5 us here) is due when the heap
 * the cases left has grown by a step (1/16 of the limit, at least 1 MiB) since the last
 * one, so a leak through malloc is caught within a step of the limit; and every 64 cases
 * the clock is read, and a probe is due when 250 ms passed without one, for memory the
 * heap oracle does not see (mmap, a library's own allocator), as libFuzzer's thread
 * would. Once past, it stays past: every later case is told so without a probe. Which
 * case is blamed is the one that ran when it was seen, as libFuzzer blames the unit that
 * runs when its thread looks; when that happens depends on the clock and the machine, so
 * an `oom` finding is one class per target (finding.c) and never part of a determinism
 * promise.
 */
#ifndef FG_RSS_H
#define FG_RSS_H

#include "engine/internal.h"

typedef struct fgi_rss {
    uint64_t limit;     /* bytes; 0: no limit, and no probe ever */
    uint64_t step;      /* heap growth that makes a probe due */
    uint64_t grown;     /* heap growth since the last probe */
    size_t heap_last;   /* the live heap the last case reported */
    unsigned countdown; /* cases until the clock is read */
    double probed_at;   /* when the last probe was (fgi_clock_now_s) */
    uint64_t used;      /* the resident bytes the last probe read */
    int over;           /* a probe found the process past the limit */
} fgi_rss;

/* Sets the limit (bytes, 0 for none) and starts the clock. */
FGI_HIDDEN void fgi_rss_init(fgi_rss *m, uint64_t limit);
/* fgi_rss_after_case's probe, when one may be due: 1 when past the limit. */
FGI_HIDDEN int fgi_rss_probe(fgi_rss *m);

/* After a case whose live heap (registry held or not: what the heap report says) is
 * heap_live: 1 when the process is past its limit, m->used then its resident bytes.
 * Inline, every case: a compare and a decrement when no probe is due. */
static inline int fgi_rss_after_case(fgi_rss *m, size_t heap_live)
{
    size_t last = m->heap_last;
    m->heap_last = heap_live;
    if (heap_live > last) /* a window's end or a release starts it lower again */
        m->grown += heap_live - last;
    if (m->grown < m->step && --m->countdown)
        return 0;
    return fgi_rss_probe(m);
}
/* The finding's detail, libFuzzer's words first: "out-of-memory (used: 300Mb; limit:
 * 256Mb) ...". */
FGI_HIDDEN void fgi_rss_detail(const fgi_rss *m, char *out, size_t cap);

#endif
