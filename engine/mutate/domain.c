/* engine/mutate/domain.c — the read / edit / write sandwich of a generated case, blended with
 * byte havoc.
 *
 * The decisions of one case, in the order they are drawn from its stream:
 *   1. havoc?       with probability havoc_percent/100: byte havoc on the base bytes.
 *   2. read         the base as a value. When it does not read: with probability
 *                   1/CREATE_ONE_IN a created value is written instead (so the empty input
 *                   and garbage still seed the language); otherwise byte havoc, so an
 *                   input that no longer reads as a value — a havoc-found crasher — is
 *                   still mutated.
 *   3. edit         read the crossover partner as `other` (when it reads) and apply one
 *                   mutate edit; an edit that changes nothing falls back to byte havoc.
 *   4. write        into scratch, capped at fgi_domain_cap; a value that does not fit
 *                   falls back to byte havoc on the base bytes, which work still holds.
 * The values are re-read every case rather than cached per corpus entry: mutate edits in
 * place and the domain API has no copy, so a cached value could not be lent twice; a read
 * is a parse of at most max_len bytes, cheap next to running the case.
 */
#include "engine/mutate/domain.h"

#include <string.h>

/* Arbitrary: an unreadable base gets a created value in 1 case of 2, byte havoc in the
 * other, so both the language and the garbage around it keep growing. */
#define CREATE_ONE_IN 2

fg_error fgi_domain_check(const fg_domain *d)
{
    if (!d || !d->read || !d->write || !d->mutate || !d->free)
        return FG_EINVAL;
    return FG_OK;
}

size_t fgi_domain_cap(const fg_domain *d, size_t max_len)
{
    return d->max_len && d->max_len < max_len ? d->max_len : max_len;
}

static unsigned havoc_percent(const fg_domain *d)
{
    if (d->havoc_percent == 0)
        return FGI_DOMAIN_HAVOC_PERCENT;
    return d->havoc_percent < 100 ? d->havoc_percent : 100;
}

/* Byte havoc on the base bytes in work: the case a target without a domain gets. */
static size_t havoc(fgi_mut *m, uint8_t *work, size_t size, size_t max_len,
                    fgi_domain_how why, fgi_domain_how *how)
{
    if (how)
        *how = why;
    m->step = NULL;
    return fgi_mutate(m, work, size, max_len);
}

size_t fgi_domain_mutate(const fg_domain *d, fgi_mut *m, const uint8_t *base,
                         size_t base_size, uint8_t *work, size_t size, size_t max_len,
                         fgi_domain_how *how)
{
    static const uint8_t nothing[1];
    FG_ASSERT(fgi_domain_check(d) == FG_OK && size <= max_len && m->scratch);
    m->step = NULL;
    m->napplied = 0;
    if (fgi_rng_below(m->rng, 100) < havoc_percent(d))
        return havoc(m, work, size, max_len, FGI_DOMAIN_HAVOC, how);

    fgi_domain_how path = FGI_DOMAIN_EDIT;
    void *value = d->read(base_size ? base : nothing, base_size);
    if (!value) {
        if (!d->create || fgi_rng_below(m->rng, CREATE_ONE_IN) != 0 ||
            !(value = d->create(m->rng)))
            return havoc(m, work, size, max_len, FGI_DOMAIN_UNREADABLE, how);
        path = FGI_DOMAIN_CREATE;
    } else {
        void *other = m->other ? d->read(m->other_size ? m->other : nothing, m->other_size)
                               : NULL;
        int changed = d->mutate(value, other, m->rng);
        if (other)
            d->free(other);
        if (!changed) {
            d->free(value);
            return havoc(m, work, size, max_len, FGI_DOMAIN_UNCHANGED, how);
        }
    }

    size_t cap = fgi_domain_cap(d, max_len);
    size_t n = d->write(value, m->scratch, cap);
    d->free(value);
    if (n > cap)
        return havoc(m, work, size, max_len, FGI_DOMAIN_NOFIT, how);
    memcpy(work, m->scratch, n);
    m->step = path == FGI_DOMAIN_CREATE ? "domain_create" : "domain_edit";
    if (how)
        *how = path;
    return n;
}
