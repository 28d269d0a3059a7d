/* engine/run/record.c — a finding recorded by the parent (classified, merged by class,
 * stored) or sent to it by the executor that survived it. */
#include "engine/run/record.h"

#include "engine/base/errout.h"
#include "engine/base/safeio.h"
#include "engine/findings/findings.h"
#include "engine/findings/store.h"
#include "engine/run/control.h"
#include "engine/run/plan.h"
#include "oracle/frames.h"
#include "oracle/symbolize.h"

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

/* Copies what s holds into out (capacity cap), cut to fit, NUL-terminated. Signal-safe. */
static void sink_text(const fgi_sink *s, char *out, size_t cap)
{
    size_t n = s->len < cap - 1 ? s->len : cap - 1;
    memcpy(out, s->buf, n);
    out[n] = '\0';
}

void fgi_record_dying(void *ctx, const fgi_dying *d, const char *ending)
{
    run *r = ctx;
    const fgi_case_state *c = &fgi_case_now;
    char muts[512];
    fgi_sink m = {.fd = -1};
    for (unsigned i = 0; i < c->id->napplied; i++) {
        if (i)
            fgi_sink_put(&m, ",");
        fgi_sink_put(&m, fgi_mutators[c->id->applied[i]].name);
    }
    sink_text(&m, muts, sizeof muts);
    char key[sizeof d->what + 3 * 48], detail[sizeof d->what + 3 * 160];
    fgi_sink kk = {.fd = -1}, dd = {.fd = -1};
    fgi_sink_put(&kk, d->what);
    fgi_sink_put(&dd, d->what);
    if (d->nframes) {
        /* Naming frames is not signal-safe, but the process is ending anyway and there is
         * no supervisor to do it: dladdr's names only, no symbolizer run from a handler
         * (oracle/symbolize.h). */
        char where[3 * 48], named[3 * 160];
        fgi_frames_describe(d->frames, d->nframes, (int)d->from_sanitizer, where,
                            sizeof where);
        fgi_symbolize(d->frames, d->nframes, (int)d->from_sanitizer, 0, named, sizeof named);
        if (where[0]) {
            fgi_sink_put(&kk, " at ");
            fgi_sink_put(&kk, where);
            fgi_sink_put(&dd, " at ");
            fgi_sink_put(&dd, named);
        }
    }
    sink_text(&kk, key, sizeof key);
    sink_text(&dd, detail, sizeof detail);
    fgi_finding_rec f = {
        .at = &r->place,
        .kind = d->kind,
        .detail = detail,
        .class_key = key,
        .data = c->data,
        .size = c->size,
        .case_index = c->id->case_index,
        .seq = c->id->seq,
        .origin = c->id->origin,
        .mutations = muts,
    };
    fgi_finding_classify(&f);
    char path[1];
    fgi_store_finding(&f, path, 0);
    fgi_sink k = {.fd = fgi_errout_fd()};
    fgi_sink_put(&k, "fuzzgate: ");
    fgi_sink_put(&k, r->place.target);
    fgi_sink_put(&k, ": ");
    fgi_sink_put(&k, ending);
    fgi_sink_put(&k, "\n");
    fgi_sink_flush(&k);
}
