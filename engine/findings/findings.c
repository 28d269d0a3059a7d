/* engine/findings/findings.c — a run's finding recorded: classified, merged by class,
 * stored, marked known (findings.h). */
#include "engine/findings/findings.h"

#include "engine/findings/store.h"

fg_error fgi_findings_record(fgi_finding_rec *rec, fg_outcome *o, const fgi_known *known,
                             int store)
{
    fgi_finding_classify(rec);
    int changed = 0;
    fg_finding *f = fgi_outcome_add(o, rec, &changed);
    if (!f)
        return FG_ENOMEM;
    if (!changed || !store)
        return FG_OK;
    char path[4096];
    if (fgi_store_finding(rec, path, sizeof path) != 0)
        o->store_failed = 1;
    if (fgi_outcome_set_path(f, path, rec->at->program) != 0 ||
        fgi_outcome_set_known(f, fgi_known_reason(known, f->class_id)) != 0)
        return FG_ENOMEM;
    return FG_OK;
}
