/* engine/run/modes.c — runs of given inputs rather than generated ones: a replay or trial,
 * minimising a finding, merging corpus directories, checking known classes. */
#include "engine/run/modes.h"

#include "engine/base/dir.h"
#include "engine/base/sha1.h"
#include "engine/findings/corpus_dir.h"
#include "engine/findings/merge.h"
#include "engine/findings/minimize.h"
#include "engine/run/plan.h"
#include "engine/run/run.h"

#include <string.h>

fg_error fgi_mode_replay(fg_session *s, const fg_target *t, const char *origin,
                             const uint8_t *data, size_t size, int probe, fg_outcome **out)
{
    if (t->skip || !t->run)
        return FG_EINVAL;
    run r;
    fg_error e = fgi_run_open(&r, s, t);
    uint8_t *copy = fgi_memdup(data, size ? size : 1);
    if (e == FG_OK)
        e = copy ? fgi_plan_add_item(&r, fgi_strdup(origin), copy, size, 0) : FG_ENOMEM;
    else
        fgi_free(copy);
    if (e == FG_OK) {
        r.probe = probe;
        fgi_plan_size(&r, 0);
        r.plan.total = 1; /* the input alone, even in a timed session */
        int fork = s->opt.fork;
        if (probe)
            s->opt.fork = 1; /* a trial may crash: it must not take the caller with it */
        fgi_run_all(&r);
        s->opt.fork = fork;
        r.o->last_sig = r.snap.corpus.count ? r.snap.corpus.entries[0].sig : 0;
    }
    return fgi_run_close(&r, e, out, 0);
}

/* ---- minimisation and merge ------------------------------------------------------- */

typedef struct min_ctx {
    fg_session *s;
    const fg_target *t;
    const char *want; /* the class the input must stay in */
    fg_error err;
} min_ctx;

/* The class id of data's first finding into id ("" when it passes); a trial in a fresh
 * executor, so a crash is a class like any other. */
static fg_error probe_class(fg_session *s, const fg_target *t, const uint8_t *data,
                            size_t size, char id[FGI_CLASS_ID_MAX])
{
    fg_outcome *o = NULL;
    fg_error e = fgi_mode_replay(s, t, "trial", data, size, 1, &o);
    id[0] = '\0';
    if (e == FG_OK && o->nfindings)
        snprintf(id, FGI_CLASS_ID_MAX, "%s", o->findings[0].class_id);
    fg_outcome_free(o);
    return e;
}

static int min_reproduces(void *ctx, const uint8_t *data, size_t size)
{
    min_ctx *m = ctx;
    char id[FGI_CLASS_ID_MAX];
    fg_error e = probe_class(m->s, m->t, data, size, id);
    if (e != FG_OK) {
        m->err = e;
        return -1;
    }
    return strcmp(id, m->want) == 0;
}

/* Minimises data within class_id; res->data is the result (the input itself at worst). */
static fg_error minimize_in_class(fg_session *s, const fg_target *t, const uint8_t *data,
                                  size_t size, const char *class_id, fgi_min_result *res)
{
    min_ctx m = {s, t, class_id, FG_OK};
    FILE *log = s->log;
    fg_error e = fgi_minimize(data, size, s->opt.min_trials, min_reproduces, &m, res);
    s->log = log;
    return e != FG_OK ? e : m.err;
}

int fgi_mode_minimize(fg_session *s, const fg_target *t, const char *path, FILE *out)
{
    uint8_t *data;
    size_t size;
    fg_error e = fgi_file_read(path, (size_t)64 << 20, &data, &size);
    if (e != FG_OK) {
        fprintf(out, "%s: cannot read: %s\n", path, fgi_strerror_io(e));
        return 2;
    }
    char id[FGI_CLASS_ID_MAX];
    if ((e = probe_class(s, t, data, size, id)) != FG_OK || !id[0]) {
        if (e != FG_OK)
            fprintf(out, "%s: cannot run: %s\n", path, fg_strerror(e));
        else
            fprintf(out, "%s: passes every oracle: nothing to minimise\n", path);
        fgi_free(data);
        return e != FG_OK ? 2 : 1;
    }
    fgi_min_result res = {0};
    e = minimize_in_class(s, t, data, size, id, &res);
    int status = 2;
    if (e == FG_OK) {
        /* A run of the result stores it under its class, as any finding is stored. */
        char origin[4200];
        snprintf(origin, sizeof origin, "%s, minimised", path);
        fg_outcome *o = NULL;
        e = fgi_mode_replay(s, t, origin, res.data, res.size, 0, &o);
        const fg_finding *f = e == FG_OK ? fg_outcome_finding(o, 0) : NULL;
        if (f && strcmp(f->class_id, id) == 0) {
            fprintf(out, "%s: %s minimised from %zu to %zu bytes in %lu trials%s: %s\n", path,
                    id, size, res.size, res.trials,
                    res.stop == FGI_MIN_BUDGET ? " (the trial budget ran out)" : "",
                    f->path ? f->path : "(not stored: its hex is on stderr)");
            status = f->path ? 0 : 2;
        } else {
            fprintf(out, "%s: the minimised input no longer lands in %s\n", path, id);
        }
        fg_outcome_free(o);
    } else {
        fprintf(out, "%s: cannot minimise: %s\n", path, fg_strerror(e));
    }
    fgi_free(res.data);
    fgi_free(data);
    return status;
}

/* Depth runs: each new class is minimised, stored again and its outcome entry updated. */
void fgi_mode_minimize_findings(fg_session *s, const fg_target *t, fg_outcome *o)
{
    for (size_t i = 0; i < o->nfindings && s->opt.min_trials; i++) {
        fg_finding *f = &o->findings[i];
        if (f->known || f->size == 0)
            continue;
        fgi_min_result res = {0};
        if (minimize_in_class(s, t, f->data, f->size, f->class_id, &res) != FG_OK ||
            res.size >= f->size) {
            fgi_free(res.data);
            continue;
        }
        char origin[512];
        snprintf(origin, sizeof origin, "%s, minimised from %zu bytes", f->origin, f->size);
        fg_outcome *m = NULL;
        const fg_finding *g = NULL;
        if (fgi_mode_replay(s, t, origin, res.data, res.size, 0, &m) == FG_OK &&
            (g = fg_outcome_finding(m, 0)) != NULL && strcmp(g->class_id, f->class_id) == 0) {
            fgi_finding_rec rec = {.detail = g->detail, .data = res.data, .size = res.size,
                                   .origin = origin, .mutations = ""};
            size_t was = f->size;
            if (fgi_outcome_set_input(f, &rec) == 0) /* else the unminimised input stays */
                fprintf(s->log,
                        "fuzzgate: %s: %s minimised from %zu to %zu bytes in %lu trials\n",
                        t->name, f->class_id, was, res.size, res.trials);
        }
        fg_outcome_free(m);
        fgi_free(res.data);
    }
}

/* The merge view of items [from, to) that ran and passed; pinned below `pinned`. */
static size_t merge_view(const run *r, size_t from, size_t to, size_t pinned,
                         fgi_merge_input *in, size_t *which)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        if (!r->plan.evals[i].ran)
            continue;
        const fgi_item *it = &r->plan.items[i];
        const fgi_eval *v = &r->plan.evals[i];
        const char *slash = strrchr(it->origin, '/');
        in[n] = (fgi_merge_input){slash ? slash + 1 : it->origin, it->size, v->sig, v->keys,
                                  v->nkeys, i < pinned};
        which[n++] = i;
    }
    return n;
}

/* After a gate run: which committed files a merge of the committed corpus would drop. */
void fgi_mode_would_drop(run *r)
{
    size_t n = r->plan.ncommitted;
    if (n < 2 || r->err != FG_OK)
        return;
    fgi_merge_input *in = fgi_calloc(n, sizeof *in);
    size_t *which = fgi_calloc(n, sizeof *which), *kept = fgi_calloc(n, sizeof *kept), nkept = 0;
    size_t m = in && which && kept ? merge_view(r, 0, n, 0, in, which) : 0;
    if (m && fgi_merge(in, m, FGI_MERGE_COVER, kept, &nkept) == FG_OK && nkept < m) {
        fprintf(r->s->log, "fuzzgate: %s: a merge of the committed corpus would drop %zu of %zu "
                "files:", r->t->name, m - nkept, m);
        for (size_t i = 0, k = 0; i < m; i++) {
            if (k < nkept && kept[k] == i) {
                k++;
                continue;
            }
            fprintf(r->s->log, " %s", in[i].name);
        }
        fprintf(r->s->log, "\n");
    }
    fgi_free(in);
    fgi_free(which);
    fgi_free(kept);
}

int fgi_mode_merge(fg_session *s, const fg_target *t, const char *out_dir, int ndirs,
                      char **dirs, FILE *out)
{
    run r;
    uint64_t seconds = s->opt.seconds;
    s->opt.seconds = 0; /* a merge runs every input once, however long that takes */
    fg_error e = fgi_run_open(&r, s, t);
    if (e == FG_OK)
        e = fgi_plan_add_dir(&r, out_dir);
    size_t pinned = r.plan.nitems;
    for (int i = 0; i < ndirs && e == FG_OK; i++)
        e = fgi_plan_add_dir(&r, dirs[i]);
    size_t nkept = 0, fresh = 0, failing = 0, total = r.plan.nitems;
    int cut = 0;
    if (e == FG_OK) {
        r.probe = 1;
        fgi_plan_size(&r, 0);
        fgi_run_all(&r);
        /* Interrupted: the inputs not run would count as failing, so nothing is written. */
        cut = fgi_run_interrupted() != 0;
    }
    if (e == FG_OK && !cut) {
        fgi_merge_input *in = fgi_calloc(total ? total : 1, sizeof *in);
        size_t *which = fgi_calloc(total ? total : 1, sizeof *which);
        size_t *kept = fgi_calloc(total ? total : 1, sizeof *kept);
        size_t m = in && which && kept ? merge_view(&r, 0, total, pinned, in, which) : 0;
        failing = total - m;
        if (!in || !which || !kept)
            e = FG_ENOMEM;
        else if (m && (e = fgi_merge(in, m, s->merge_how, kept, &nkept)) == FG_OK) {
            for (size_t k = 0; k < nkept && e == FG_OK; k++) {
                const fgi_item *it = &r.plan.items[which[kept[k]]];
                if (which[kept[k]] < pinned)
                    continue;
                char name[FGI_SHA1_HEX];
                int written = 0;
                static const uint8_t nothing[1];
                e = fgi_corpus_dir_write(out_dir, it->data ? it->data : nothing, it->size,
                                         name, &written);
                fresh += written;
            }
        }
        fgi_free(in);
        fgi_free(which);
        fgi_free(kept);
    }
    fg_outcome *o = NULL;
    e = fgi_run_close(&r, e, &o, 0);
    s->opt.seconds = seconds;
    if (e != FG_OK) {
        fprintf(out, "merge: %s\n", fg_strerror(e));
        return 2;
    }
    if (cut) {
        fprintf(out, "merge: interrupted after %zu of %zu inputs: nothing written to %s\n",
                o->replayed, total, out_dir);
        fg_outcome_free(o);
        return 2;
    }
    fprintf(out, "merge: %zu inputs (%zu already in %s, %zu failing an oracle: left out); "
            "kept %zu, %zu of them new in %s\n",
            total, pinned, out_dir, failing, nkept, fresh, out_dir);
    fg_outcome_free(o);
    return 0;
}

/* The known list's reproducers: corpus/<target>/known/<class-id>.bin, when there is one,
 * must still land in its class; one that no longer does means the fix landed. */
int fgi_mode_check_known(fg_session *s, const fg_target *t, FILE *out)
{
    if (t->skip || fgi_run_interrupted())
        return 0;
    fgi_known known = {0};
    fgi_str path = {0};
    fgi_str_addf(&path, "%s/%s/known.txt", s->opt.corpus, t->name);
    char err[512];
    int fixed = 0;
    if (path.failed || fgi_known_load(path.buf, &known, err, sizeof err) != FG_OK) {
        fgi_str_free(&path);
        return 0; /* the run itself has reported a bad known.txt */
    }
    for (size_t i = 0; i < known.count; i++) {
        path.len = 0;
        fgi_str_addf(&path, "%s/%s/known/%s.bin", s->opt.corpus, t->name, known.classes[i]);
        uint8_t *data;
        size_t size;
        if (path.failed || fgi_file_read(path.buf, (size_t)64 << 20, &data, &size) != FG_OK)
            continue; /* no reproducer committed for this class */
        char id[FGI_CLASS_ID_MAX];
        if (probe_class(s, t, data, size, id) == FG_OK && !fgi_run_interrupted() &&
            strcmp(id, known.classes[i]) != 0) {
            fprintf(out,
                    "%s: NOTE known class %s no longer reproduces from %s (it now gives %s): "
                    "the fix has landed — promote the reproducer into %s/%s/ and remove the "
                    "class from known.txt\n",
                    t->name, known.classes[i], path.buf, id[0] ? id : "a pass", s->opt.corpus,
                    t->name);
            fixed++;
        }
        fgi_free(data);
    }
    fgi_str_free(&path);
    fgi_known_free(&known);
    return fixed;
}
