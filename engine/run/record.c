/* engine/run/record.c — a finding recorded by the parent (classified, merged by class,
 * stored) or sent to it by the executor that survived it. */
#include "engine/run/run.h"


#include <string.h>

/* ---- findings --------------------------------------------------------------------- */

/* Records a finding (merged by class) and stores it when it is new or smaller than the
 * one kept. The parent's (or the in-process run's) side of every finding. */
void fgi_record_finding(run *r, fgi_finding_rec *rec)
{
    rec->target = r->t->name;
    rec->seed = r->s->opt.seed;
    rec->program = r->s->program;
    rec->findings_dir = r->s->opt.findings;
    rec->artifact_prefix = r->s->opt.artifact_prefix;         /* bridge (#7) */
    rec->exact_artifact_path = r->s->opt.exact_artifact_path; /* bridge (#7) */
    rec->origin = fgi_plan_origin(r, rec->seq);
    fgi_finding_classify(rec);
    int changed = 0;
    fg_finding *f = fgi_outcome_add(r->o, rec, &changed);
    if (!f) {
        fgi_run_error(r, FG_ENOMEM);
    } else if (changed && !r->probe) {
        char path[4096];
        if (fgi_finding_store(rec, path, sizeof path) != 0)
            r->o->store_failed = 1;
        if (fgi_outcome_set_path(f, path, r->s->program) != 0 ||
            fgi_outcome_set_known(f, fgi_known_reason(&r->snap.known, f->class_id)) != 0)
            fgi_run_error(r, FG_ENOMEM);
    }
}

void fgi_record_mutations(const uint8_t *applied, unsigned n, fgi_str *out)
{
    fgi_mut m = {.napplied = n};
    memcpy(m.applied, applied, n < FGI_MUT_STACK ? n : FGI_MUT_STACK);
    fgi_mutate_describe(&m, out);
}

/* A finding the executor survived (r->ex.res says what): recorded here, or sent. */
void fgi_record_emit(run *r, const uint8_t *data, size_t size, uint64_t seq, int64_t k,
                         const uint8_t *applied, unsigned napplied)
{
    if (r->ex.msg_fd < 0) {
        fgi_str muts = {0};
        fgi_record_mutations(applied, napplied, &muts);
        fgi_finding_rec rec = {
            .kind = r->ex.res.kind,
            .detail = r->ex.res.detail,
            .site = r->ex.res.site[0] ? r->ex.res.site : NULL,
            .data = data,
            .size = size,
            .case_index = k,
            .seq = seq,
            .mutations = fgi_str_cstr(&muts),
        };
        fgi_record_finding(r, &rec);
        fgi_str_free(&muts);
        return;
    }
    fgi_find_head h = {.seq = seq, .case_index = k, .size = size, .napplied = napplied};
    memcpy(h.applied, applied, napplied);
    h.kindlen = (uint32_t)strlen(r->ex.res.kind);
    h.sitelen = (uint32_t)strlen(r->ex.res.site);
    h.detaillen = (uint32_t)strlen(r->ex.res.detail);
    fgi_str b = {0};
    fgi_str_addn(&b, (const char *)&h, sizeof h);
    if (size)
        fgi_str_addn(&b, (const char *)data, size);
    fgi_str_addn(&b, r->ex.res.kind, h.kindlen);
    fgi_str_addn(&b, r->ex.res.site, h.sitelen);
    fgi_str_addn(&b, r->ex.res.detail, h.detaillen);
    if (b.failed || fgi_wire_send(r->ex.msg_fd, FGI_MSG_FIND, b.buf, b.len) != 0)
        fgi_run_error(r, b.failed ? FG_ENOMEM : FG_EIO);
    fgi_str_free(&b);
}

/* The kinds an executor may name, as the parent's own static strings. */
const char *fgi_record_kind(const char *k, size_t n)
{
    static const char *const kinds[] = {"check", "crash", "write", "exit", "amplification",
                                        "retention", "timeout", "oom"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(kinds); i++)
        if (strlen(kinds[i]) == n && memcmp(kinds[i], k, n) == 0)
            return kinds[i];
    return "crash";
}

void fgi_record_received(run *r, const uint8_t *p, size_t n)
{
    fgi_find_head h;
    if (n < sizeof h)
        return fgi_run_error(r, FG_EIO);
    memcpy(&h, p, sizeof h);
    if (h.napplied > FGI_MUT_STACK || h.sitelen >= 256 || h.detaillen >= 1024 ||
        sizeof h + h.size + h.kindlen + h.sitelen + h.detaillen != n)
        return fgi_run_error(r, FG_EIO);
    const uint8_t *data = p + sizeof h;
    const char *kind = (const char *)data + h.size;
    char site[256], detail[1024];
    memcpy(site, kind + h.kindlen, h.sitelen);
    site[h.sitelen] = '\0';
    memcpy(detail, kind + h.kindlen + h.sitelen, h.detaillen);
    detail[h.detaillen] = '\0';
    fgi_str muts = {0};
    fgi_record_mutations(h.applied, h.napplied, &muts);
    fgi_finding_rec rec = {
        .kind = fgi_record_kind(kind, h.kindlen),
        .detail = detail,
        .site = site[0] ? site : NULL,
        .data = data,
        .size = h.size,
        .case_index = h.case_index,
        .seq = h.seq,
        .mutations = fgi_str_cstr(&muts),
    };
    fgi_record_finding(r, &rec);
    fgi_str_free(&muts);
}

