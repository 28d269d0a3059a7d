/* engine/findings/outcome.c — what one target's run produced: counts, findings by class, and its
 * series over cases. */
#include "engine/findings/outcome.h"

#include "engine/base/hex.h"

#include <string.h>

fg_outcome *fgi_outcome_new(const char *target)
{
    fg_outcome *o = fgi_calloc(1, sizeof *o);
    if (!o)
        return NULL;
    if (!(o->target = fgi_strdup(target))) {
        fgi_free(o);
        return NULL;
    }
    return o;
}

fg_outcome *fgi_outcome_skipped(const fg_target *t)
{
    fg_outcome *o = fgi_outcome_new(t->name);
    if (o && !(o->skip = fgi_strdup(t->skip))) {
        fg_outcome_free(o);
        return NULL;
    }
    return o;
}

static void finding_clear(fg_finding *f)
{
    fgi_free((void *)f->target);
    fgi_free((void *)f->kind);
    fgi_free((void *)f->class_id);
    fgi_free((void *)f->detail);
    fgi_free((void *)f->data);
    fgi_free((void *)f->hex);
    fgi_free((void *)f->origin);
    fgi_free((void *)f->mutations);
    fgi_free((void *)f->path);
    fgi_free((void *)f->replay);
    fgi_free((void *)f->known);
    memset(f, 0, sizeof *f);
}

/* Fills the input-dependent fields (bytes, hex, origin, mutations, detail) from rec. */
int fgi_outcome_set_input(fg_finding *f, const fgi_finding_rec *rec)
{
    fgi_str origin = {0};
    if (rec->origin)
        fgi_str_add(&origin, rec->origin);
    else
        fgi_str_addf(&origin, "case %lld", (long long)rec->case_index);
    uint8_t *data = fgi_memdup(rec->data, rec->size);
    char *hex = fgi_malloc(2 * rec->size + 1);
    char *org = fgi_str_take(&origin);
    char *muts = fgi_strdup(rec->mutations ? rec->mutations : "");
    char *detail = fgi_strdup(rec->detail);
    if (!data || !hex || !org || !muts || !detail) {
        fgi_free(data);
        fgi_free(hex);
        fgi_free(org);
        fgi_free(muts);
        fgi_free(detail);
        return -1;
    }
    fgi_hex_encode(rec->data, rec->size, hex);
    fgi_free((void *)f->data);
    fgi_free((void *)f->hex);
    fgi_free((void *)f->origin);
    fgi_free((void *)f->mutations);
    fgi_free((void *)f->detail);
    f->data = data;
    f->size = rec->size;
    f->hex = hex;
    f->origin = org;
    f->mutations = muts;
    f->detail = detail;
    return 0;
}

fg_finding *fgi_outcome_add(fg_outcome *o, const fgi_finding_rec *rec, int *changed)
{
    *changed = 0;
    for (size_t i = 0; i < o->nfindings; i++) {
        fg_finding *f = &o->findings[i];
        if (strcmp(f->class_id, rec->class_id) != 0)
            continue;
        f->count++;
        if (rec->case_index < o->first_case[i]) /* arrival order is the executors' */
            o->first_case[i] = rec->case_index;
        if (rec->size < f->size || (rec->size == f->size && rec->seq < o->seqs[i])) {
            o->seqs[i] = rec->seq;
            if (fgi_outcome_set_input(f, rec) != 0)
                return NULL;
            *changed = 1;
        }
        return f;
    }
    if (o->nfindings == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4;
        /* first_case may end up larger than cap when the second realloc fails: harmless */
        int64_t *fc = fgi_realloc(o->first_case, cap * sizeof *fc);
        if (!fc)
            return NULL;
        o->first_case = fc;
        fg_finding *v = fgi_realloc(o->findings, cap * sizeof *v);
        if (!v)
            return NULL;
        o->findings = v;
        uint64_t *q = fgi_realloc(o->seqs, cap * sizeof *q);
        if (!q)
            return NULL;
        o->seqs = q;
        o->cap = cap;
    }
    o->first_case[o->nfindings] = rec->case_index;
    fg_finding *f = &o->findings[o->nfindings];
    memset(f, 0, sizeof *f);
    f->target = fgi_strdup(rec->at->target);
    f->kind = fgi_strdup(rec->kind);
    f->class_id = fgi_strdup(rec->class_id);
    f->count = 1;
    if (!f->target || !f->kind || !f->class_id || fgi_outcome_set_input(f, rec) != 0) {
        finding_clear(f);
        return NULL;
    }
    o->seqs[o->nfindings] = rec->seq;
    o->nfindings++;
    *changed = 1;
    return f;
}

void fgi_outcome_sort(fg_outcome *o)
{
    /* Insertion sort: a run has a handful of classes. */
    for (size_t i = 1; i < o->nfindings; i++) {
        fg_finding f = o->findings[i];
        uint64_t q = o->seqs[i];
        int64_t fc = o->first_case[i];
        size_t j = i;
        for (; j > 0 && strcmp(o->findings[j - 1].class_id, f.class_id) > 0; j--) {
            o->findings[j] = o->findings[j - 1];
            o->seqs[j] = o->seqs[j - 1];
            o->first_case[j] = o->first_case[j - 1];
        }
        o->findings[j] = f;
        o->seqs[j] = q;
        o->first_case[j] = fc;
    }
}

int fgi_outcome_set_known(fg_finding *f, const char *reason)
{
    if (!reason || f->known)
        return 0;
    return (f->known = fgi_strdup(reason)) ? 0 : -1;
}

int fgi_outcome_set_path(fg_finding *f, const char *path, const char *program)
{
    fgi_str replay = {0};
    if (path && *path)
        fgi_str_addf(&replay, "%s %s %s", program, f->target, path);
    else
        fgi_str_addf(&replay, "(not stored: write the hex to a file, then) %s %s FILE",
                     program, f->target);
    char *r = fgi_str_take(&replay);
    char *p = path && *path ? fgi_strdup(path) : NULL;
    if (!r || (path && *path && !p)) {
        fgi_free(r);
        fgi_free(p);
        return -1;
    }
    fgi_free((void *)f->replay);
    fgi_free((void *)f->path);
    f->replay = r;
    f->path = p;
    return 0;
}

void fg_outcome_free(fg_outcome *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->nfindings; i++)
        finding_clear(&o->findings[i]);
    fgi_free(o->findings);
    fgi_free(o->seqs);
    fgi_free(o->first_case);
    fgi_free(o->target);
    fgi_free(o->skip);
    fgi_free(o->gate_failure);
    fgi_free(o);
}

/* A copy of src's strings and bytes into dst; 0, or -1 with dst cleared. */
static int finding_copy(fg_finding *dst, const fg_finding *src)
{
    memset(dst, 0, sizeof *dst);
    dst->size = src->size;
    dst->count = src->count;
    const char **to[] = {&dst->target, &dst->kind,   &dst->class_id,  &dst->detail,
                         &dst->hex,    &dst->origin, &dst->mutations, &dst->path,
                         &dst->replay, &dst->known};
    const char *const from[] = {src->target, src->kind,   src->class_id,  src->detail,
                                src->hex,    src->origin, src->mutations, src->path,
                                src->replay, src->known};
    int failed = 0;
    for (size_t i = 0; i < FGI_ARRAY_LEN(to); i++)
        if (from[i] && !(*to[i] = fgi_strdup(from[i])))
            failed = 1;
    if (!(dst->data = fgi_memdup(src->data, src->size))) /* a block even for 0 bytes */
        failed = 1;
    if (failed)
        finding_clear(dst);
    return failed ? -1 : 0;
}

fg_outcome *fgi_outcome_clone(const fg_outcome *o)
{
    fg_outcome *c = fgi_malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *o;
    c->findings = NULL;
    c->first_case = NULL;
    c->seqs = NULL;
    c->nfindings = c->cap = 0;
    c->skip = c->gate_failure = NULL;
    if (!(c->target = fgi_strdup(o->target))) {
        fgi_free(c);
        return NULL;
    }
    if ((o->skip && !(c->skip = fgi_strdup(o->skip))) || /* the copy's strings are its own */
        (o->gate_failure && !(c->gate_failure = fgi_strdup(o->gate_failure)))) {
        fg_outcome_free(c);
        return NULL;
    }
    size_t n = o->nfindings;
    if (n && (!(c->findings = fgi_calloc(n, sizeof *c->findings)) ||
              !(c->first_case = fgi_memdup(o->first_case, n * sizeof *c->first_case)) ||
              !(c->seqs = fgi_memdup(o->seqs, n * sizeof *c->seqs)))) {
        fg_outcome_free(c);
        return NULL;
    }
    c->cap = n;
    for (; c->nfindings < n; c->nfindings++) {
        if (finding_copy(&c->findings[c->nfindings], &o->findings[c->nfindings]) != 0) {
            fg_outcome_free(c);
            return NULL;
        }
    }
    return c;
}

double fgi_outcome_novelty(const fg_outcome *o)
{
    return o->cases ? (double)o->kept / (double)o->cases : 0.0;
}

int64_t fgi_outcome_first_case(const fg_outcome *o, size_t i)
{
    FG_ASSERT(i < o->nfindings);
    return o->first_case[i];
}

/* Invariant: s->v[0..n) ascend by cases and each is a multiple of the stride (mask + 1) that
 * was due when it was taken; n <= FGI_SERIES_MAX until the run's end is added. */
void fgi_outcome_sample_at(fg_outcome *o, uint64_t k, uint64_t corpus, uint64_t signatures,
                           uint64_t features)
{
    fgi_series *s = &o->series;
    if (s->n && s->v[s->n - 1].cases >= k)
        return;
    while (s->n == FGI_SERIES_MAX && s->mask < UINT64_MAX >> 1) {
        /* keep the points on the doubled stride (with every case sampled: every other) */
        s->mask = s->mask * 2 + 1;
        size_t kept = 0;
        for (size_t i = 0; i < s->n; i++)
            if ((s->v[i].cases & s->mask) == 0)
                s->v[kept++] = s->v[i];
        s->n = kept;
    }
    if ((k & s->mask) != 0 || s->n == FGI_SERIES_MAX)
        return;
    s->v[s->n++] = (fgi_sample){k, corpus, signatures, features, o->nfindings};
}

void fgi_outcome_sample_end(fg_outcome *o)
{
    fgi_series *s = &o->series;
    while (s->n && s->v[s->n - 1].cases >= o->cases)
        s->n--;
    s->v[s->n++] = (fgi_sample){o->cases, o->corpus, o->signatures, o->features,
                                o->nfindings};
}

size_t fgi_outcome_known(const fg_outcome *o)
{
    size_t n = 0;
    for (size_t i = 0; i < o->nfindings; i++)
        n += o->findings[i].known != NULL;
    return n;
}

int fg_outcome_passed(const fg_outcome *o)
{
    return o && !o->skip && fgi_outcome_known(o) == o->nfindings;
}

const char *fg_outcome_skipped(const fg_outcome *o)
{
    return o ? o->skip : NULL;
}

uint64_t fg_outcome_cases(const fg_outcome *o)
{
    return o ? o->cases : 0;
}

size_t fg_outcome_replayed(const fg_outcome *o)
{
    return o ? o->replayed : 0;
}

size_t fg_outcome_corpus(const fg_outcome *o)
{
    return o ? o->corpus : 0;
}

size_t fg_outcome_finding_count(const fg_outcome *o)
{
    return o ? o->nfindings : 0;
}

const fg_finding *fg_outcome_finding(const fg_outcome *o, size_t index)
{
    return o && index < o->nfindings ? &o->findings[index] : NULL;
}

void fg_outcome_print(const fg_outcome *o, FILE *out)
{
    if (!o)
        return;
    if (o->skip) {
        fprintf(out, "%s: skipped: %s\n", o->target, o->skip);
        return;
    }
    size_t known = fgi_outcome_known(o);
    fprintf(out, "%s: %s %llu cases, corpus %zu, %zu finding%s", o->target,
            fg_outcome_passed(o) ? "PASS" : "FAIL", (unsigned long long)o->cases, o->corpus,
            o->nfindings, o->nfindings == 1 ? "" : "s");
    if (known)
        fprintf(out, " (%zu known)", known);
    if (o->features)
        fprintf(out, ", %zu features", o->features);
    fprintf(out, "\n");
    for (size_t i = 0; i < o->nfindings; i++) {
        const fg_finding *f = &o->findings[i];
        fprintf(out, "  %s%s %s (x%u, %zu bytes, %s): %s\n", f->known ? "known " : "",
                f->kind, f->class_id, f->count, f->size, f->origin, f->detail);
        if (f->known)
            fprintf(out, "    known: %s\n", f->known);
        fprintf(out, "    replay: %s\n", f->replay);
    }
}
