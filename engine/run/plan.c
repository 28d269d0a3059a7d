/* engine/run/plan.c — a run's positions: the replay items in order, and the epochs and
 * chunks generated cases fall into. */
#include "engine/run/plan.h"

#include "engine/base/dir.h"
#include "engine/run/control.h"
#include "engine/run/registry.h"

#include <string.h>

#define EPOCH_FIRST 256 /* the first generated epoch; the next is twice that... */
#define EPOCH_MAX 1024  /* ...and every later one this long */

void fgi_plan_init(run *r)
{
    const fgi_opts *o = &r->s->opt;
    const fg_target *t = r->t;
    r->plan.jobs = o->fork ? (unsigned)o->jobs : 1;
    r->plan.max_len = o->max_len ? (size_t)o->max_len
                      : t->max_len ? t->max_len
                                   : FGI_DEFAULT_MAX_LEN;
    r->plan.name_hash = fgi_hash_str(t->name);
    r->plan.time_ms = fgi_plan_time_ms(o, t);
}

unsigned fgi_plan_time_ms(const fgi_opts *o, const fg_target *t)
{
    return o->timeout_ms ? (unsigned)FGI_MIN(o->timeout_ms, 1u << 30)
           : t->time_ms  ? t->time_ms
                         : FGI_DEFAULT_TIME_MS;
}

void fgi_plan_free(run *r)
{
    for (size_t i = 0; i < r->plan.nitems; i++) {
        fgi_free(r->plan.items[i].origin);
        fgi_free(r->plan.items[i].data);
        if (r->plan.evals)
            fgi_free(r->plan.evals[i].keys);
    }
    fgi_free(r->plan.evals);
    fgi_free(r->plan.items);
    r->plan.evals = NULL;
    r->plan.items = NULL;
    r->plan.nitems = 0;
}

/* ---- positions: epochs and chunks ------------------------------------------------- */

uint64_t fgi_plan_epoch_start(const run *r, uint64_t seq)
{
    if (seq < r->plan.nitems)
        return 0;
    uint64_t k = seq - r->plan.nitems, first2 = EPOCH_FIRST + 2 * EPOCH_FIRST;
    uint64_t b = k < EPOCH_FIRST ? 0
                 : k < first2    ? EPOCH_FIRST
                                 : first2 + (k - first2) / EPOCH_MAX * EPOCH_MAX;
    return r->plan.nitems + b;
}

uint64_t fgi_plan_epoch_end(const run *r, uint64_t seq)
{
    uint64_t es = fgi_plan_epoch_start(r, seq), k = es - r->plan.nitems;
    uint64_t end = seq < r->plan.nitems ? r->plan.nitems
                   : k == 0        ? es + EPOCH_FIRST
                   : k == EPOCH_FIRST ? es + 2 * EPOCH_FIRST
                                      : es + EPOCH_MAX;
    end = end < r->plan.total ? end : r->plan.total;
    FG_ASSERT(es <= seq && (seq < end || seq >= r->plan.total));
    return end;
}

int fgi_plan_has_work(const run *r, unsigned j, uint64_t q, uint64_t es, uint64_t ee)
{
    FG_ASSERT(j < r->plan.jobs && es <= ee);
    for (uint64_t cs = es, c = 0; cs < ee; cs += FGI_RUN_CHUNK, c++)
        if (c % r->plan.jobs == j && (cs + FGI_RUN_CHUNK < ee ? cs + FGI_RUN_CHUNK : ee) > q)
            return 1;
    return 0;
}

const char *fgi_plan_origin(const run *r, uint64_t seq)
{
    return seq < r->plan.nitems ? r->plan.items[seq].origin : NULL;
}


fg_error fgi_plan_add_item(run *r, char *origin, uint8_t *data, size_t size, int always)
{
    fgi_item *v = fgi_realloc(r->plan.items, (r->plan.nitems + 1) * sizeof *v);
    if (!v || !origin) {
        fgi_free(origin);
        fgi_free(data);
        if (v)
            r->plan.items = v;
        return FG_ENOMEM;
    }
    r->plan.items = v;
    r->plan.items[r->plan.nitems++] = (fgi_item){origin, data, size, always};
    return FG_OK;
}

/* Adds every file of dir (sorted) as a replay item; a missing directory adds nothing. */
fg_error fgi_plan_add_dir(run *r, const char *dir)
{
    fgi_names names;
    int missing = 0;
    fg_error e = fgi_dir_list(dir, &names, &missing);
    if (e != FG_OK) {
        fprintf(r->s->log, "fuzzgate: %s: cannot read corpus directory %s: %s\n", r->t->name,
                dir, fgi_strerror_io(e));
        return e;
    }
    for (size_t i = 0; i < names.count && e == FG_OK; i++) {
        fgi_str path = {0};
        fgi_str_addf(&path, "%s/%s", dir, names.names[i]);
        uint8_t *data = NULL;
        size_t size = 0;
        e = path.failed ? FG_ENOMEM : fgi_file_read(path.buf, (size_t)64 << 20, &data, &size);
        if (e != FG_OK)
            fprintf(r->s->log, "fuzzgate: %s: cannot read %s: %s\n", r->t->name,
                    fgi_str_cstr(&path), fgi_strerror_io(e));
        else
            e = fgi_plan_add_item(r, fgi_str_take(&path), data, size, 0);
        fgi_str_free(&path);
    }
    fgi_names_free(&names);
    return e;
}

/* The same for <root>/<target>. */
fg_error fgi_plan_add_target(run *r, const char *root)
{
    fgi_str dir = {0};
    fgi_str_addf(&dir, "%s/%s", root, r->t->name);
    fg_error e = dir.failed ? FG_ENOMEM : fgi_plan_add_dir(r, dir.buf);
    fgi_str_free(&dir);
    return e;
}

fg_error fgi_plan_add_seeds(run *r)
{
    if (!r->t->seed)
        return FG_OK;
    fg_seeds seeds = {0};
    r->t->seed(&seeds);
    fg_error e = seeds.failed ? FG_ENOMEM : FG_OK;
    for (size_t i = 0; i < seeds.count && e == FG_OK; i++) {
        char origin[64];
        snprintf(origin, sizeof origin, "seed #%zu", i);
        size_t n = seeds.items[i].size;
        uint8_t *copy = fgi_memdup(seeds.items[i].data, n ? n : 1);
        e = copy ? fgi_plan_add_item(r, fgi_strdup(origin), copy, n, 0) : FG_ENOMEM;
    }
    fgi_seeds_free(&seeds);
    return e;
}

void fgi_plan_size(run *r, uint64_t cases)
{
    r->plan.slot_cap = r->plan.max_len;
    for (size_t i = 0; i < r->plan.nitems; i++)
        r->plan.slot_cap = FGI_MAX(r->plan.slot_cap, r->plan.items[i].size);
    r->plan.total = r->s->opt.seconds ? UINT64_MAX : r->plan.nitems + cases;
    if (!(r->plan.evals = fgi_calloc(r->plan.nitems ? r->plan.nitems : 1, sizeof *r->plan.evals)))
        fgi_run_error(r, FG_ENOMEM);
}

