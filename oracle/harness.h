/* oracle/harness.h — the harness that runs one case with every oracle armed.
 *
 * This is the one place oracles are armed and disarmed: no crash (crash.c: fatal signals,
 * exit(), FG_CHECK/fg_fail; here: writes to the read-only input), no amplification and no
 * retention (heap.c), bounded time (timeout.c, and the watchdog the session starts). A
 * case ends in one of the statuses of case.h; a fatal signal does not return here at all
 * — the finding goes from the handler to the supervisor (an executor, fgi_harness_attach)
 * or through the one store path (finding.h, --no-fork), and the process dies with the
 * signal.
 */
#ifndef FG_HARNESS_H
#define FG_HARNESS_H

#include "engine/findings/finding.h"
#include "engine/mutate/mutate.h"
#include "oracle/case.h"

/* The per-target harness state. Owned by the session's run; one open at a time per
 * process (signals and fg_fail_at reach the running case through case.h). */
typedef struct fgi_harness {
    const fg_target *target;
    uint8_t *buf;      /* input buffer; a case's bytes end exactly at buf + cap */
    size_t cap;
    /* What the crash path needs to store a finding from a signal handler. The session
     * fills target, seed, program and findings_dir once, and before each case calls
     * fgi_harness_origin.
     * crash.data/size are set by fgi_harness_run to the caller's pristine copy. */
    fgi_finding_rec crash;
    const fgi_mut *mut;
    unsigned time_ms;  /* the case's deadline (set by the session): the edge budget's base */
    int window;        /* fgi_harness_window: retention checks wait for the window's end */
} fgi_harness;

/* Arms the process for cases (crash.h, timeout.h). FG_ENOMEM or FG_EINVAL (another
 * harness is open). */
FGI_HIDDEN fg_error fgi_harness_open(fgi_harness *h, const fg_target *t);
/* Restores the handlers and stack that were there before, frees the buffer. */
FGI_HIDDEN void fgi_harness_close(fgi_harness *h);
/* Makes room for an input of size bytes (call outside a case). */
FGI_HIDDEN fg_error fgi_harness_reserve(fgi_harness *h, size_t size);
/* Says where the next input comes from, for a finding the crash path stores: a generated
 * case (origin NULL; mut's applied list names its mutations) or a replayed one. */
FGI_HIDDEN void fgi_harness_origin(fgi_harness *h, int64_t case_index, const char *origin,
                                   const fgi_mut *mut);
/* Runs one case over a copy of data[0..size) (size <= cap) and fills res. data itself is
 * the pristine copy the write oracle compares against and the crash path stores. */
FGI_HIDDEN void fgi_harness_run(fgi_harness *h, const uint8_t *data, size_t size,
                                fgi_case_result *res);

/* Window mode (on = 1), for a run of consecutive cases (the executor's chunk): the heap
 * registry is held across the cases, so a block one case leaves and a later case frees is
 * counted as freed, and no case is re-run for retention as it passes. Which cases' blocks
 * are still there at the end, fgi_heap_live_runs says (by fgi_heap_run after each case);
 * those are re-run alone, with the check, once the window is off (oracle/fdwatch.c).
 * on = 0 ends the window and forgets its blocks. */
FGI_HIDDEN void fgi_harness_window(fgi_harness *h, int on);

struct fgi_slot;
/* Makes this process an executor: every input is published into `slot` before its body
 * runs (the dying case's words go through fgi_crash_channel). NULL undoes it. */
FGI_HIDDEN void fgi_harness_attach(struct fgi_slot *slot);
/* The run position of the next input (published with it). */
FGI_HIDDEN void fgi_harness_seq(uint64_t seq);

#endif
