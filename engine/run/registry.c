/* engine/run/registry.c — the process's registered targets, in name order, and seed sinks.
 *
 * Invariant: `sorted` (when not stale) holds every registered target exactly once, sorted
 * by strcmp of name, so the order never depends on link or constructor order.
 */
#include "engine/run/registry.h"

#include <string.h>

/* Process-wide because FG_TARGET constructors run before main and have nowhere else to
 * put their target. Touched at constructor time and then by the run thread only. */
static struct {
    fg_registration *head;      /* every registration, newest first */
    size_t count;               /* length of the list */
    const fg_target **sorted;   /* the list sorted by name (engine funnel), or NULL */
    int stale;                  /* a target registered since `sorted` was built */
} reg;

void fg_target_register(fg_registration *r)
{
    if (!r || !r->target || !r->target->name)
        return;
    r->next = reg.head;
    reg.head = r;
    reg.count++;
    reg.stale = 1;
}

static int build(void)
{
    if (reg.sorted && !reg.stale)
        return 0;
    const fg_target **v = fgi_realloc(reg.sorted, (reg.count ? reg.count : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t n = 0;
    for (fg_registration *r = reg.head; r; r = r->next) {
        size_t i = n++;
        while (i > 0 && strcmp(v[i - 1]->name, r->target->name) > 0) {
            v[i] = v[i - 1];
            i--;
        }
        v[i] = r->target;
    }
    reg.sorted = v;
    reg.stale = 0;
    return 0;
}

size_t fg_target_count(void)
{
    return build() == 0 ? reg.count : 0;
}

const fg_target *fg_target_at(size_t index)
{
    if (build() != 0 || index >= reg.count)
        return NULL;
    return reg.sorted[index];
}

const fg_target *fg_target_find(const char *name)
{
    if (!name || build() != 0)
        return NULL;
    size_t lo = 0, hi = reg.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(reg.sorted[mid]->name, name);
        if (c == 0)
            return reg.sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

fg_error fgi_registry_check(const char **dup)
{
    if (build() != 0)
        return FG_ENOMEM;
    for (size_t i = 1; i < reg.count; i++)
        if (strcmp(reg.sorted[i - 1]->name, reg.sorted[i]->name) == 0) {
            *dup = reg.sorted[i]->name;
            return FG_EDUPTARGET;
        }
    return FG_OK;
}

/* ---- seeds -------------------------------------------------------------------------- */

int fg_seeds_add(fg_seeds *s, const void *data, size_t size)
{
    if (!s || (!data && size))
        return -1;
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        fgi_seed *v = fgi_realloc(s->items, cap * sizeof *v);
        if (!v) {
            s->failed = 1;
            return -1;
        }
        s->items = v;
        s->cap = cap;
    }
    uint8_t *copy = fgi_memdup(data, size);
    if (!copy) {
        s->failed = 1;
        return -1;
    }
    s->items[s->count++] = (fgi_seed){copy, size};
    return 0;
}

void fgi_seeds_free(fg_seeds *s)
{
    for (size_t i = 0; i < s->count; i++)
        fgi_free(s->items[i].data);
    fgi_free(s->items);
    memset(s, 0, sizeof *s);
}
