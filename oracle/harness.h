/* oracle/harness.h — the harness that runs one case with every oracle armed.
 *
 * This is the one place oracles are armed and disarmed: no crash (crash.c: fatal signals,
 * exit(), FG_CHECK/fg_fail; here: writes to the read-only input), no amplification and no
 * retention (heap.c), bounded time (timeout.c, and the watchdog the session starts),
 * bounded memory (rss.c, after each case). A
 * case ends in one of the statuses of case.h; a fatal signal does not return here at all
 * — the finding goes from the handler through the channel the run gave the crash oracle
 * (fgi_crash_channel: to the supervisor, or stored in-process), and the process dies with
 * the signal. The harness reports through what it is given and includes nothing of the
 * engine above the oracles: who a case is travels as an opaque fgi_case_id.
 */
#ifndef FG_HARNESS_H
#define FG_HARNESS_H

#include "engine/base/case.h"
#include "oracle/rss.h"

/* The per-target harness state. Owned by the session's run; one open at a time per
 * process (signals and fg_fail_at reach the running case through case.h). */
typedef struct fgi_harness {
    const fg_target *target;
    uint8_t *buf;      /* input buffer: cap bytes of input and room to align them */
    size_t cap;
    uint8_t *fenced;   /* where the span ASan was told is around the last input starts
                        * (it ends with the buffer's room; harness.c), or NULL */
    fgi_case_id id;    /* who the next case is (fgi_harness_origin) */
    unsigned time_ms;  /* the case's deadline (set by the session): the work budget's base */
    int window;        /* fgi_harness_window: retention checks wait for the window's end */
    fgi_rss rss;       /* the process's resident size against its limit (rss.h) */
} fgi_harness;

/* Arms the process for cases (crash.h, timeout.h). FG_ENOMEM or FG_EINVAL (another
 * harness is open). */
FGI_HIDDEN fg_error fgi_harness_open(fgi_harness *h, const fg_target *t);
/* Restores the handlers and stack that were there before, frees the buffer. */
FGI_HIDDEN void fgi_harness_close(fgi_harness *h);
/* Makes room for an input of size bytes (call outside a case). */
FGI_HIDDEN fg_error fgi_harness_reserve(fgi_harness *h, size_t size);
/* The process's memory limit, in bytes (0, the default: none). From then on a case after
 * which the process is past it ends as an `oom` finding (oracle/rss.h); every later case
 * too, as the memory is not given back: the caller stops running cases here. */
FGI_HIDDEN void fgi_harness_rss_limit(fgi_harness *h, uint64_t bytes);
/* Says who the next case is (copied; id->origin is borrowed until the next call). */
FGI_HIDDEN void fgi_harness_origin(fgi_harness *h, const fgi_case_id *id);
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

/* What an executor's supervisor must see of every case, whatever becomes of the process:
 * the input, published before its body runs (publish is called on the run thread, outside
 * the body), and whether a body runs and how many have started (shared memory the
 * supervisor reads). */
typedef struct fgi_harness_channel {
    void *ctx;
    void (*publish)(void *ctx, const fgi_case_id *id, const uint8_t *data, size_t size);
    volatile int *active;           /* set to 1 while a body runs */
    _Atomic unsigned long *started; /* counts the bodies started */
} fgi_harness_channel;

/* Makes this process an executor: the harness reports through ch (borrowed until undone;
 * the dying case's words go through fgi_crash_channel). NULL undoes it. */
FGI_HIDDEN void fgi_harness_attach(const fgi_harness_channel *ch);

#endif
