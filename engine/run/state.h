/* engine/run/state.h — the state of one target's run, in parts each owned by one file.
 *
 * The order of a run, which the determinism contract depends on. Every input has a
 * position (seq):
 *   1. every file of <corpus>/<target>/ in sorted name order, then those of
 *      <corpus_out>/<target>/ (a resumed run), then the target's .seed inputs, then the
 *      empty input: the replay epoch;
 *   2. generated cases k = 0, 1, 2, ... at seq = replayed + k, in epochs of 256, 512, then
 *      1024 cases: case k draws from the stream of (seed, target, k), picks a corpus entry
 *      (and a crossover partner) from the epoch's snapshot, mutates a copy and runs it.
 * Within an epoch nothing changes the snapshot: what cases find is written down as records
 * (epoch.h) and merged in seq order at the epoch's end, which decides the kept inputs. So
 * the result is the same whether one process runs every case, or N executors run 64-case
 * chunks of each epoch (chunk c of an epoch goes to executor c mod N), or an executor dies
 * at some case and a new one goes on from the next.
 *
 * Process layout: with `fork` (the default) the parent owns the snapshot, the outcome and
 * the files, and forked executors (engine/supervise/supervisor.h) run the cases, under the
 * policy of supervised.c; --no-fork runs them here.
 *
 * Who owns what (each part has its init and free in its file):
 *   control.c   r->err and r->prog: the run's error, whether it should stop, its status
 *               lines and the interrupt: the services every file below calls down into
 *   plan.c      r->plan: the positions (replay items, epochs, chunks), fixed before cases run
 *   record.c    findings, recorded by the parent or sent by an executor
 *   snapshot.c  r->snap: what every case of an epoch sees; changed only by fgi_snapshot_merge
 *   executor.c  r->ex: the side that runs cases (this process with --no-fork, else a fork)
 *   supervised.c r->sv: the parent's side of a supervised run
 *   run.c       the lifecycle: open, run (supervised or here), close
 *   modes.c     single-input runs: replay, minimise, merge, known-class checks
 * Calls go down this list, never up: a file includes this layout and the headers of the
 * files above it, no other of this folder.
 */
#ifndef FG_RUN_STATE_H
#define FG_RUN_STATE_H

#include "engine/findings/finding.h"
#include "engine/findings/known.h"
#include "engine/mutate/mutate.h"
#include "engine/search/corpus.h"
#include "engine/search/schedule.h"
#include "engine/search/epoch.h"
#include "engine/search/covcount.h"
#include "engine/search/novelty.h"
#include "engine/run/session.h"
#include "engine/supervise/supervisor.h"
#include "oracle/harness.h"
#include "oracle/fdwatch.h"
#include "oracle/symbolize.h"
#include "oracle/watchdog.h"

#include <signal.h>

#define FGI_RUN_CHUNK FGI_FD_WINDOW /* cases per chunk: the unit of work and of fd probes */

/* An input of the replay epoch. */
typedef struct fgi_item {
    char *origin;   /* file path, "seed #n" or "empty input" (owned) */
    uint8_t *data;  /* owned; NULL for the empty input */
    size_t size;
    int always;     /* kept whatever it does (the empty input: the base of mutation) */
} fgi_item;

/* What a replayed item covered (NULL keys: not run); for merge and the corpus check. */
typedef struct fgi_eval {
    uint64_t sig;
    uint64_t *keys;
    size_t nkeys;
    int ran;
} fgi_eval;

/* Which side of a run this process is: fixed when the run opens, and in a forked executor
 * when it starts. The parent keeps the run's files, outcome and progress lines; an
 * executor runs cases and sends what they found. */
enum fgi_run_side {
    FGI_SIDE_ALONE,    /* --no-fork: one process is both */
    FGI_SIDE_PARENT,   /* supervises forked executors (supervised.c) */
    FGI_SIDE_EXECUTOR  /* a forked executor (executor.c) */
};

/* Everything one target's run owns. Invariants: plan.nitems <= plan.total; prog.reached
 * <= plan.total; the snapshot changes only in fgi_snapshot_merge, at an epoch's end. */
typedef struct run {
    fg_session *s;
    const fg_target *t;
    fg_outcome *o;
    fg_error err;           /* the first engine error; ends the run */
    enum fgi_run_side side;
    int probe;              /* a trial run: classify findings, store and print nothing */
    fgi_finding_place place; /* record.c: where the run's findings go (filled once) */
    struct run_plan {       /* plan.c: the positions, fixed before any case runs */
        fgi_item *items;    /* the replay epoch */
        size_t nitems;
        size_t ncommitted;  /* items from the committed corpus directory (the first) */
        uint64_t total;     /* positions in the run; UINT64_MAX for a timed run */
        fgi_eval *evals;    /* per replayed item, parent side */
        unsigned jobs;
        size_t max_len, slot_cap;
        uint64_t name_hash;
        unsigned time_ms;
    } plan;
    struct run_snapshot {   /* snapshot.c: what every case of an epoch sees */
        fgi_novelty nov;        /* signatures and how often each was produced */
        fgi_novelty features;   /* coverage features, likewise (instrumented builds) */
        fgi_corpus corpus;
        fgi_sched sched;        /* length limit; the executor's shorter-input notes */
        fgi_epoch_log log;      /* the current epoch's records */
        fgi_known known;        /* corpus/<target>/known.txt (parent side) */
    } snap;
    struct run_progress {   /* control.c; reached is also the executor's and supervised.c's */
        uint64_t reached;       /* the position the run got to */
        uint64_t sampled_to;    /* the report series has points up to this case */
        double start, last_status;
        unsigned long slow;     /* cases past the soft threshold (from the watchdogs) */
        unsigned slowest_ms;
    } prog;
    struct run_executor {   /* executor.c: this process with --no-fork, else a fork */
        fgi_harness exec;
        int exec_open;
        fgi_mut mut;
        fgi_rng rng;
        fgi_case_result res;
        fgi_watchdog *watchdog;
        fgi_fdwatch fds;
        int fds_open;
        fgi_novelty dsig, dfeat; /* this chunk's hit counts */
        fgi_novelty sent;        /* keys this executor already sent this epoch */
        fgi_covcount cc;         /* coverage hit counts and known bits (covcount.h) */
        uint64_t *feat, *feat_mixed; /* the current case's features to look up, and
                                      * fg_mix64 of each past the coverage ones */
        uint32_t *feat_dense;    /* the coverage ones' dense indices */
        size_t nfeat, ncov, feat_cap; /* features; the first ncov are coverage ones (those
                                       * collect_coverage left to look up) */
        uint64_t *ckeys;         /* the current case's candidate features */
        size_t nckeys, ckeys_cap;
        int blocked;             /* the current case may not be kept (unguided; a rejected one
                                  * counts nothing at all) */
        int full;                /* the current case is replayed: send all its features */
        uint64_t fhash;          /* the current case's feature hash (schedule.h) */
        size_t base;             /* the corpus entry the current generated case came from */
        uint8_t *work;           /* the case being built: the slot's bytes in an executor */
        uint8_t *own_work;
        uint8_t *scratch;
        fgi_wire_link *link;     /* an executor's channels to its supervisor (wire.h) */
        fgi_slot *slot;          /* an executor's shared slot */
        volatile int *halt;      /* set: run no further case (the slot's stop, or
                                  * control.c's flag with --no-fork) */
        int over_limit;          /* past its memory limit (oracle/rss.h): no more cases */
    } ex;
    struct run_supervisor { /* supervised.c */
        fgi_sup *sup;
        uint64_t epoch_done;     /* bit j: executor j finished the current epoch, or died
                                  * with nothing of it left to run (jobs > 1, at most 64) */
        uint64_t epoch_start, epoch_end; /* the epoch the executors are on (jobs > 1) */
        int sup_stopping;        /* the executors were asked to stop */
        unsigned rehit_ms;       /* executors' deadline once a timeout is confirmed (0: the
                                  * full one; read by executors forked after it is set) */
        unsigned ended_ms;       /* the slowest case seen to end, from the slots */
        unsigned long rehits;    /* cases abandoned past the re-hit deadline */
        fgi_symcache syms;       /* crash frames named for people, once a frame set */
    } sv;
} run;

#endif
