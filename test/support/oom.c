/* test/support/oom.c — the out-of-memory loop every string renderer's test runs. */
#include "test/support/oom.h"

#include "test/support/check.h"

void fgt_render_oom_loop(fgt_render_fn *render, void *ctx, unsigned long limit)
{
    unsigned long n;
    for (n = 1; n < limit; n++) {
        fgi_str s = {0};
        fgi_mem_fail_nth(n);
        render(&s, ctx);
        int fired = fgi_mem_fail_nth(0) >= n;
        CHECK(s.failed == fired);
        fgi_str_free(&s);
        if (!fired)
            break;
    }
    CHECK(n < limit);
}
