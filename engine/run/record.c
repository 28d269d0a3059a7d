/* engine/run/record.c — a finding recorded by the parent (classified, merged by class,
 * stored) or sent to it by the executor that survived it. */
#include "engine/run/record.h"

#include "engine/findings/findings.h"
#include "engine/run/control.h"
#include "engine/run/plan.h"

#include <string.h>

/* ---- findings --------------------------------------------------------------------- */

void fgi_record_init(run *r)
{
    r->place = (fgi_finding_place){
        .target = r->t->name,
        .seed = r->s->opt.seed,
        .program = r->s->program,
        .findings_dir = r->s->opt.findings,
        .artifact_prefix = r->s->opt.artifact_prefix,         /* bridge (#7) */
        .exact_artifact_path = r->s->opt.exact_artifact_path, /* bridge (#7) */
    };
}

void fgi_record_finding(run *r, fgi_finding_rec *rec)
{
    rec->at = &r->place;
    rec->origin = fgi_plan_origin(r, rec->seq);
    fg_error e = fgi_findings_record(rec, r->o, &r->snap.known, !r->probe);
    if (e != FG_OK)
        fgi_run_error(r, e);
}

static void describe_mutations(const uint8_t *applied, unsigned n, fgi_str *out)
{
    fgi_mut m = {.napplied = n};
    memcpy(m.applied, applied, n < FGI_MUT_STACK ? n : FGI_MUT_STACK);
    fgi_mutate_describe(&m, out);
}

/* The one place a finding's record is built from what an executor saw (its own case, a
 * message, or a dead executor's slot): the mutations named, then recorded. */
void fgi_record_find(run *r, const fgi_wire_find *w, const char *class_key)
{
    fgi_str muts = {0};
    describe_mutations(w->applied, w->napplied, &muts);
    fgi_finding_rec rec = {
        .kind = w->kind,
        .detail = w->detail,
        .class_key = class_key,
        .site = w->site && w->site[0] ? w->site : NULL,
        .data = w->data,
        .size = w->size,
        .case_index = w->case_index,
        .seq = w->seq,
        .mutations = fgi_str_cstr(&muts),
    };
    fgi_record_finding(r, &rec);
    fgi_str_free(&muts);
}

/* A finding the executor survived (r->ex.res says what): recorded here, or sent in the
 * outbox with the records, so it is counted before its epoch's merge. */
void fgi_record_emit(run *r, const uint8_t *data, size_t size, uint64_t seq, int64_t k,
                     const uint8_t *applied, unsigned napplied)
{
    fgi_wire_find w = {.seq = seq, .case_index = k, .data = data, .size = size,
                       .applied = applied, .napplied = napplied, .kind = r->ex.res.kind,
                       .site = r->ex.res.site, .detail = r->ex.res.detail};
    if (r->side != FGI_SIDE_EXECUTOR)
        return fgi_record_find(r, &w, NULL);
    fg_error e = fgi_wire_put_find(r->ex.link, &w);
    if (e != FG_OK)
        fgi_run_error(r, e);
}
