/* engine/feedback/workbudget.c — the deterministic time budget (workbudget.h). */
#include "engine/feedback/workbudget.h"

#include "engine/base/case.h"

_Thread_local uint64_t fgi_budget_left[FGI_BUDGET_COUNTS] = {UINT64_MAX, UINT64_MAX};

/* The armed budget, for the finding; 0 = none. Written and read on the case's thread. */
static _Thread_local uint64_t armed;

uint64_t fgi_budget_for(unsigned time_ms)
{
    return (uint64_t)(time_ms ? time_ms : 1) * FGI_WORK_PER_MS;
}

void fgi_budget_arm(uint64_t work)
{
    armed = work;
    for (int i = 0; i < FGI_BUDGET_COUNTS; i++)
        fgi_budget_left[i] = work ? work : UINT64_MAX;
}

__attribute__((noinline, cold)) void fgi_budget_spent(enum fgi_budget_count which)
{
    uint64_t budget = armed;
    fgi_budget_arm(0); /* once: the unwinding below, or a thread with no case, is done */
    if (budget && fgi_case_on_thread())
        fgi_case_end("timeout", which == FGI_BUDGET_EDGES ? "edge budget" : "comparison budget",
                     "the case executed more than %llu %s, its deterministic budget",
                     (unsigned long long)budget,
                     which == FGI_BUDGET_EDGES ? "edges" : "traced comparisons");
}
