/* engine/findings/findings.c — a run's finding recorded: classified, merged by class,
 * stored, marked known (findings.h). */
#include "engine/findings/findings.h"

#include "engine/findings/store.h"

#include <string.h>
#include <unistd.h>

int fgi_findings_path_in_use(const fg_outcome *o, const fg_finding *f, const char *path)
{
    for (size_t i = 0; i < o->nfindings; i++)
        if (&o->findings[i] != f && o->findings[i].path &&
            strcmp(o->findings[i].path, path) == 0)
            return 1;
    return 0;
}

fg_error fgi_findings_record(fgi_finding_rec *rec, fg_outcome *o, const fgi_known *known,
                             int store)
{
    fgi_finding_classify(rec);
    int changed = 0;
    size_t classes = o->nfindings;
    fg_finding *f = fgi_outcome_add(o, rec, &changed);
    if (!f)
        return FG_ENOMEM;
    if (!changed || !store)
        return FG_OK;
    /* A smaller input of a class stored before: said once (store.h), and one file a
     * class. A class's .bin/.txt keep their name; an artifact is named by its bytes, so
     * the previous one goes once the new one is written (unless another class's finding
     * is that very file: the same bytes). */
    rec->again = o->nfindings == classes;
    char old[4096] = "";
    if (rec->again && f->path && strlen(f->path) < sizeof old)
        memcpy(old, f->path, strlen(f->path) + 1);
    char path[4096];
    if (fgi_store_finding(rec, path, sizeof path) != 0)
        o->store_failed = 1;
    if (old[0] && path[0] && strcmp(old, path) != 0 && !fgi_findings_path_in_use(o, f, old))
        unlink(old);
    if (fgi_outcome_set_path(f, path, rec->at->program) != 0 ||
        fgi_outcome_set_known(f, fgi_known_reason(known, f->class_id)) != 0)
        return FG_ENOMEM;
    return FG_OK;
}
