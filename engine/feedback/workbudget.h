/* engine/feedback/workbudget.h — the deterministic time budget: how much work a case may do.
 *
 * The watchdog bounds a case by the clock, which a loaded machine stretches, and in one
 * process it can only end the process. Where the compiler calls back into the engine,
 * the engine can count the case's work instead and end a runaway case inside the
 * process, through the same unwinding as a check (fgi_case_end), at the same point on
 * every machine: a `timeout` finding, and the run goes on. Two counts, each with its own
 * budget, whichever runs out first:
 *   - edges, where the instrumentation calls back per edge (gcc trace-pc, clang
 *     trace-pc-guard; clang's inline 8-bit counters have no callback);
 *   - comparisons the compiler traced (trace-cmp and trace-switch, which OSS-Fuzz's and
 *     libFuzzer's clang flags add to the inline counters). A plain build's comparisons
 *     (fg_cmp_u64, the memcmp family) do not count: the budget is the instrumented
 *     build's, and a plain gate keeps the watchdog alone.
 * Each count is the case thread's own (another thread's work would spend it, and
 * decrements from two threads race), armed before each case on that thread.
 */
#ifndef FG_WORKBUDGET_H
#define FG_WORKBUDGET_H

#include "engine/internal.h"

/* The budget follows the case's deadline at a fixed rate, so a longer .time_ms/-timeout
 * is a larger budget and the same deadline is the same budget on every machine. The rate
 * is a deliberately slow machine: planted_hang under gcc's trace-pc runs 140-170 M edges
 * a CPU second here, and libiberty's demangler on its slow printer 250-300 M traced
 * comparisons (clang, callbacks that only count; with the engine's recording callbacks
 * its 100 M take ~0.6 s), so a case on its budget has used about a fifteenth of its
 * deadline, and the budget, not the watchdog, ends a hang unless the process gets less
 * than that share of a core (at 20 000 edges/ms the watchdog won on this 2-core machine
 * at load 8). */
#define FGI_WORK_PER_MS 10000u
/* The budget for a deadline of time_ms: time_ms x FGI_WORK_PER_MS of each count (10 s:
 * 100 M edges and 100 M comparisons). */
FGI_HIDDEN uint64_t fgi_budget_for(unsigned time_ms);

/* Arms both counts on the calling thread (the case's) at `work` each; 0 = no budget. */
FGI_HIDDEN void fgi_budget_arm(uint64_t work);

enum fgi_budget_count { FGI_BUDGET_EDGES, FGI_BUDGET_CMPS, FGI_BUDGET_COUNTS };

/* What each count may still spend on this thread: UINT64_MAX on a thread never armed. */
extern __attribute__((tls_model("initial-exec"))) _Thread_local uint64_t
    fgi_budget_left[FGI_BUDGET_COUNTS];

/* The unit after the budget's last: ends the case (on its own thread), else disarms. */
FGI_HIDDEN void fgi_budget_spent(enum fgi_budget_count which);

/* Counts one unit of `which` against this thread's budget. A count down, not up: one test
 * on the hot path; a thread without a budget counts down from UINT64_MAX and never gets
 * there. */
static inline void fgi_budget_count(enum fgi_budget_count which)
{
    if (__builtin_expect(fgi_budget_left[which] != 0, 1))
        fgi_budget_left[which]--;
    else
        fgi_budget_spent(which);
}

#endif
