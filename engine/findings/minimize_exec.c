/* engine/findings/minimize_exec.c — minimisation's in-process predicate: run a candidate through
 * the harness and compare the class it lands in. */
#include "engine/findings/minimize_exec.h"

#include <string.h>

int fgi_case_class(const fg_target *t, const fgi_case_result *res,
                   char out[FGI_CLASS_ID_MAX])
{
    if (res->status == FGI_CASE_OK)
        return 0;
    fgi_finding_rec rec = {
        .target = t->name,
        .kind = res->kind,
        .detail = res->detail,
        .site = res->site[0] ? res->site : NULL,
    };
    fgi_finding_classify(&rec);
    memcpy(out, rec.class_id, FGI_CLASS_ID_MAX);
    return 1;
}

int fgi_min_exec_reproduces(void *ctx, const uint8_t *data, size_t size)
{
    fgi_min_exec *m = ctx;
    fg_error e = fgi_exec_reserve(m->exec, size);
    if (e != FG_OK) {
        m->err = e;
        return -1;
    }
    fgi_exec_run(m->exec, data, size, &m->res);
    char id[FGI_CLASS_ID_MAX];
    if (!fgi_case_class(m->exec->target, &m->res, id))
        return 0;
    if (strcmp(id, m->class_id) == 0)
        return 1;
    m->elsewhere++;
    return 0;
}
