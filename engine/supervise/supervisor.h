/* engine/supervise/supervisor.h — forked executors and the parent that outlives them.
 *
 * The supervisor owns N executor processes. Each is a fork of the parent taken when it is
 * started, so it begins from the parent's state exactly (the corpus snapshot, the novelty
 * tables, the epoch's records so far); it runs cases and sends messages back (wire.h). The
 * supervisor reads every message and hands it to the caller's handlers, forwards a bounded
 * share of the executors' stdout to stderr (a target that floods stdout cannot wedge
 * anything), and watches each executor: no progress past the deadline (a case stuck where
 * the executor's own watchdog cannot reach it) or resident memory past the limit, and the
 * executor's process group is killed. Any death that was not an orderly end is reported with its wait status and the
 * last dying message, so the caller can record the finding from the slot's input and
 * start a new executor further on. Policy — what to run where, when to merge — is the
 * caller's (engine/run/supervised.c).
 */
#ifndef FG_SUPERVISOR_H
#define FG_SUPERVISOR_H

#include "engine/base/resident.h"
#include "engine/supervise/wire.h"

typedef struct fgi_sup fgi_sup;

typedef struct fgi_sup_ops {
    void *ctx;
    /* In the new executor process: run executor j from position `from`, its records into
     * link (wire.h), its input into slot. Its return value is the process's exit status
     * (0 after an orderly goodbye). */
    int (*child)(void *ctx, unsigned j, uint64_t from, fgi_wire_link *link, fgi_slot *slot);
    /* In the parent: the executors' messages, every handler but dying and drain set (the
     * supervisor keeps those two for itself); error is also told of records lost on the
     * way. Borrowed for the supervisor's life. */
    const fgi_wire_handlers *on;
    /* In the parent: executor j died without an orderly end. status is its wait status;
     * dying its last dying message or NULL; killed_for is "timeout" or "oom" when the
     * supervisor killed it, "stop" when it killed it for not stopping (fgi_sup_stop),
     * else NULL; slot holds the input it was running. */
    void (*died)(void *ctx, unsigned j, int status, const fgi_dying *dying,
                 const char *killed_for, const fgi_slot *slot);
} fgi_sup_ops;

/* jobs executors, each slot with `cap` input bytes. time_ms: the per-case deadline (the
 * supervisor's backstop waits longer); rss_limit_mb: 0 = none. NULL on failure. */
FGI_HIDDEN fgi_sup *fgi_sup_new(unsigned jobs, size_t cap, unsigned time_ms,
                                uint64_t rss_limit_mb, const fgi_sup_ops *ops);
/* Kills any executor still running and frees everything. Prints how much target output
 * was dropped, if any. */
FGI_HIDDEN void fgi_sup_free(fgi_sup *s);
FGI_HIDDEN fgi_slot *fgi_sup_slot(fgi_sup *s, unsigned j);
/* Starts executor j at position from. FG_EIO when fork fails. */
FGI_HIDDEN fg_error fgi_sup_start(fgi_sup *s, unsigned j, uint64_t from);
/* How many executors are running. */
FGI_HIDDEN unsigned fgi_sup_running(const fgi_sup *s);
/* Waits (at most ~100 ms) and handles what happened: messages, ends, deaths, deadlines. */
FGI_HIDDEN void fgi_sup_step(fgi_sup *s);
/* Sends executor j the merged epoch: log's records, then its end (wire.h). FG_ENOMEM, or
 * FG_EIO when the executor is gone (its death is handled as any other). */
FGI_HIDDEN fg_error fgi_sup_send_epoch(fgi_sup *s, unsigned j, const fgi_epoch_log *log,
                                       uint64_t end);
/* Closes executor j's command pipe: it reads end of file (and ends, by convention). */
FGI_HIDDEN void fgi_sup_close_cmd(fgi_sup *s, unsigned j);
/* Whether executor j is running. */
FGI_HIDDEN int fgi_sup_is_running(const fgi_sup *s, unsigned j);

/* After a step that read messages, wait `us` microseconds before the next, so messages
 * are read in batches (fewer wake-ups for the supervisor's core). Only for runs where no
 * executor waits on the supervisor (one executor: it merges its epochs itself). */
FGI_HIDDEN void fgi_sup_batch(fgi_sup *s, unsigned us);

/* The resident bytes of process pid (0 when they cannot be read): engine/base/resident.h's,
 * under the name the supervisor's callers know. */
FGI_HIDDEN uint64_t fgi_sup_rss(int pid);

/* Asks every executor to stop before its next case (the slot's stop). One still in a case
 * a moment later, or still running much later, is killed: reported to `died` with
 * killed_for "stop". */
FGI_HIDDEN void fgi_sup_stop(fgi_sup *s);

#endif
