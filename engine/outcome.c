/* engine/outcome.c — what one target's run produced: counts and findings by class. */
#include "outcome.h"

#include "hex.h"

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
static int set_input(fg_finding *f, const fgi_finding_rec *rec)
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
        if (rec->size < f->size) {
            if (set_input(f, rec) != 0)
                return NULL;
            *changed = 1;
        }
        return f;
    }
    if (o->nfindings == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4;
        fg_finding *v = fgi_realloc(o->findings, cap * sizeof *v);
        if (!v)
            return NULL;
        o->findings = v;
        o->cap = cap;
    }
    fg_finding *f = &o->findings[o->nfindings];
    memset(f, 0, sizeof *f);
    f->target = fgi_strdup(rec->target);
    f->kind = fgi_strdup(rec->kind);
    f->class_id = fgi_strdup(rec->class_id);
    f->count = 1;
    if (!f->target || !f->kind || !f->class_id || set_input(f, rec) != 0) {
        finding_clear(f);
        return NULL;
    }
    o->nfindings++;
    *changed = 1;
    return f;
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
    fgi_free(o->target);
    fgi_free(o->skip);
    fgi_free(o);
}

static size_t known_count(const fg_outcome *o)
{
    size_t n = 0;
    for (size_t i = 0; i < o->nfindings; i++)
        n += o->findings[i].known != NULL;
    return n;
}

int fg_outcome_passed(const fg_outcome *o)
{
    return o && !o->skip && known_count(o) == o->nfindings;
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
    size_t known = known_count(o);
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
