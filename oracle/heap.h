/* oracle/heap.h — heap accounting for the amplification and retention oracles.
 *
 * The malloc family is interposed in every binary that links libfuzzgate. Outside a case
 * each call forwards to the real allocator after one flag test. Between fgi_heap_arm and
 * fgi_heap_disarm (one case) every allocation, from any thread, is recorded in a registry
 * of the case's live blocks (size and calling site); a free of a recorded block removes
 * it, a free of older memory is forwarded untouched. An allocation that would take the
 * case's live bytes past its allowance is refused: on the case's thread the case is ended
 * at once as an `amplification` finding; on another thread it returns NULL and the finding
 * is reported when the case ends.
 *
 * The oracle is in parts: the interposed family and the switches every call of it reads
 * (heap_malloc.c: fgi_heap_interposed, _arm, _disarm, _hold), the registry and the rest of
 * this API (heap.c), the other threads' table (heap_table.c), the quarantine of ended cases' blocks
 * (heap_quarantine.c), and the hot helpers they all inline (heap_block.h, heap_registry.h).
 */
#ifndef FG_HEAP_H
#define FG_HEAP_H

#include "engine/internal.h"

#define FGI_HEAP_SITES 64 /* distinct allocation sites collected for a retention report */

typedef struct fgi_heap_report {
    size_t live_bytes;   /* bytes the case allocated and did not free */
    size_t live_blocks;
    size_t peak_bytes;   /* the case's peak live bytes */
    uintptr_t sites[FGI_HEAP_SITES]; /* distinct return addresses of live blocks, in no
                                      * meaningful order: name them, then sort the names.
                                      * Filled by fgi_heap_held_sites only. */
    unsigned nsites;
    int refused;         /* another thread's allocation was refused (amplification) */
    size_t refused_size; /* what it asked for */
} fgi_heap_report;

/* 1 when the program's malloc is the interposed one, 0 when another definition won (a
 * -static link against libc.a): then the amplification and heap retention oracles see
 * nothing. Arms and disarms the registry: never during a case. */
FGI_HIDDEN int fgi_heap_interposed(void);
/* NULL when the heap oracles and the program's sanitizer (if any) both see every block;
 * else what is wrong and what to do, as a sentence for a warning (the libFuzzer driver's
 * banner and the gate print it): the program's malloc is not fuzzgate's, or it is but
 * bypasses the sanitizer's allocator (a libfuzzgate built without a sanitizer other than
 * ASan, whose allocator a plain build finds at run time: real_alloc.h). Arms and disarms
 * the registry as fgi_heap_interposed does. */
FGI_HIDDEN const char *fgi_heap_warning(void);
/* Starts recording for one case with the given allowance (peak live bytes). */
FGI_HIDDEN void fgi_heap_arm(size_t allowance);
/* Stops recording allocations and reports what the case left. The live blocks stay
 * allocated (the target may still own them) and recorded, their frees still counted, as
 * run 0 of a retention check if fgi_heap_hold(1) comes next; the next arm without it, or
 * fgi_heap_hold(0), empties the registry. */
FGI_HIDDEN void fgi_heap_disarm(fgi_heap_report *r);
/* Holds the registry across runs (on = 1) for the retention check, starting with the
 * blocks the last disarmed run left: every disarm keeps what its run left recorded, with
 * the run that allocated it, so a later run's free of one is counted; the report's live
 * bytes and blocks are everything held. Each arm starts a new run whose allowance counts
 * only its own blocks. on = 0 empties the registry (the blocks stay allocated) and stops
 * counting frees: the state outside any case, until the next arm. */
FGI_HIDDEN void fgi_heap_hold(int on);
/* The sites of the held blocks still live that the run `runs_ago` runs before the last
 * one allocated (0: the last run). */
FGI_HIDDEN void fgi_heap_held_sites(fgi_heap_report *r, unsigned runs_ago);
/* The run last armed (counted from 1 after fgi_heap_hold(1); 0 after hold(0)). */
FGI_HIDDEN unsigned fgi_heap_run(void);
/* Sets live[i] to 1 when run first + i (i < n) of a held registry still has a block
 * recorded, else 0. */
FGI_HIDDEN void fgi_heap_live_runs(unsigned first, uint8_t *live, unsigned n);
/* Takes every block of this run still in the registry out of it (a case ended by the
 * engine: its frames are gone), then disarms. The blocks go to a bounded quarantine, not
 * back to the allocator at once: the target may still reach one (a global it set during
 * the case), and its later free or realloc of one is done as asked. */
FGI_HIDDEN void fgi_heap_release(void);

#endif
