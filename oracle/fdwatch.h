/* oracle/fdwatch.h — the descriptor-retention oracle: sampled probes over recent cases.
 *
 * Probing the lowest free descriptor costs two syscalls (~2.5 us on these machines), more
 * than a whole case of a fast target, so it is not done per case. Instead the last
 * FGI_FD_WINDOW inputs are kept in a ring and the descriptor table is probed once per
 * window (and at the end of a run). When the lowest free descriptor rose, each input of
 * the window is re-run alone between two probes; the first that leaves a descriptor open,
 * and does so again on a second run, is the finding. One that opened a descriptor only
 * once (a library opening /dev/urandom lazily) is let go, as lazy heap state is. The probe
 * points depend on the case count only, so the finding is the same on every machine.
 *
 * The same window serves the heap retention oracle: its cases run with the heap registry
 * held across them (fgi_harness_window), so a block a case leaves and a later case of the
 * window frees ("keep the latest": libxml2's last error) needs no re-run at all; only the
 * inputs whose blocks are still there at the window's end are re-run alone, with the
 * retention check. The window is the executor's chunk, which runs in one process in the
 * same order whatever the number of executors: the same re-runs, the same findings.
 */
#ifndef FG_FDWATCH_H
#define FG_FDWATCH_H

#include "oracle/harness.h"

#define FGI_FD_WINDOW 64 /* arbitrary: amortises the probe to a few ns per case */

typedef struct fgi_fd_slot {
    uint8_t *data;       /* owned copy of the input */
    size_t size, cap;
    fgi_case_id id;      /* who it was; id.origin an owned copy, or NULL (generated) */
    unsigned heap_run;   /* fgi_heap_run after it: its runs are those after the slot before */
} fgi_fd_slot;

typedef struct fgi_fdwatch {
    fgi_fd_slot slots[FGI_FD_WINDOW];
    unsigned count;      /* inputs in the window */
    int ours;            /* a descriptor of ours to duplicate when probing */
    int base;            /* the lowest free descriptor at the last probe */
} fgi_fdwatch;

/* Opens the watch (one descriptor of its own). FG_EIO if none can be opened. */
FGI_HIDDEN fg_error fgi_fdwatch_open(fgi_fdwatch *w);
FGI_HIDDEN void fgi_fdwatch_close(fgi_fdwatch *w);

/* Records an input that just passed. Returns 1 when the window is full and
 * fgi_fdwatch_check is due, 0 otherwise, -1 when out of memory. */
FGI_HIDDEN int fgi_fdwatch_note(fgi_fdwatch *w, const uint8_t *data, size_t size,
                                const fgi_case_id *id);

/* The probe at a window's end: the lowest free descriptor when it is at most the last
 * probe's (w->base), else w->base + 1 (it rose). Exposed for its test. */
FGI_HIDDEN int fgi_fdwatch_probe(const fgi_fdwatch *w);

/* Probes; when a descriptor was left open, finds the input that leaves one on every run
 * and returns its slot (valid until the next note), with res filled as a `retention`
 * finding. NULL when nothing was retained. Empties the window. */
FGI_HIDDEN const fgi_fd_slot *fgi_fdwatch_check(fgi_fdwatch *w, fgi_harness *e,
                                                fgi_case_result *res);

/* The heap half of the window (the harness in window mode, fgi_harness_window): sets
 * again[i] for each input i of the window some of whose runs left a block no later case
 * freed. Call at the window's end, before the window is turned off. */
FGI_HIDDEN void fgi_fdwatch_heap_left(const fgi_fdwatch *w, uint8_t again[FGI_FD_WINDOW]);
/* Runs input i of the window alone, as a case of its own (the retention check included),
 * and returns its slot, with res filled. Call with the window off. */
FGI_HIDDEN const fgi_fd_slot *fgi_fdwatch_rerun(fgi_fdwatch *w, fgi_harness *e, unsigned i,
                                                fgi_case_result *res);

#endif
