/* engine/base/case.c — the running case's state (case.h), and ending a case from inside it.
 *
 * A case ends early by siglongjmp to the sigsetjmp in the harness. The jump buffer is set
 * with savemask = 0 so a case costs no signal-mask syscall; that is sound because
 * fgi_case_end is called from ordinary code (a check, the allocator, an edge callback),
 * never from a signal handler.
 */
#include "engine/base/case.h"

#include <stdio.h>

_Thread_local int fgi_case_here;

fgi_case_state fgi_case_now = {
    .started = &fgi_case_now.own_started,
};

unsigned long fgi_case_started(int *active)
{
    *active = fgi_case_running();
    return atomic_load_explicit(fgi_case_now.started, memory_order_relaxed);
}

void fgi_case_endv(const char *kind, const char *site, const char *prefix, const char *fmt,
                   va_list ap)
{
    FG_ASSERT(fgi_case_on_thread());
    fgi_case_set_active(0);
    fgi_case_here = 0;
    fgi_case_result *res = fgi_case_now.res;
    res->kind = kind;
    snprintf(res->site, sizeof res->site, "%s", site ? site : "");
    int n = snprintf(res->detail, sizeof res->detail, "%s", prefix);
    if (n >= 0 && (size_t)n < sizeof res->detail)
        vsnprintf(res->detail + n, sizeof res->detail - (size_t)n, fmt, ap);
    siglongjmp(fgi_case_now.jump, 1);
}

void fgi_case_end(const char *kind, const char *site, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fgi_case_endv(kind, site, "", fmt, ap);
}

void fg_reject(void)
{
    if (fgi_case_on_thread())
        fgi_case_now.rejected = 1;
}
