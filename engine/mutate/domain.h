/* engine/mutate/domain.h — structured mutation: a generated case through a target's fg_domain.
 *
 * The sandwich for one case (docs/domains.md): read the base corpus entry's bytes as a
 * value, apply one domain edit, write the value back into the work buffer. Byte havoc is
 * blended into the same corpus: a share of the cases (havoc_percent) get plain byte
 * mutation, and so does every case the sandwich cannot make (the base does not read and
 * no value is created for it, the edit changed nothing, the written value does not fit).
 * Every decision is drawn from the case's stream, so a domain whose callbacks draw only
 * from the stream they are lent keeps the run deterministic. Corpus files stay bytes.
 */
#ifndef FG_DOMAIN_H
#define FG_DOMAIN_H

#include "engine/mutate/mutate.h"

/* The share of cases given byte havoc when a domain leaves havoc_percent 0. Arbitrary:
 * enough stray bytes, unterminated strings and odd nesting to keep the parser honest,
 * few enough that most cases stay in the language. */
#define FGI_DOMAIN_HAVOC_PERCENT 20

/* How fgi_domain_mutate made a case (for tests and statistics). */
typedef enum fgi_domain_how {
    FGI_DOMAIN_HAVOC,      /* drawn for byte havoc (the havoc_percent share) */
    FGI_DOMAIN_EDIT,       /* read, one mutate edit, written */
    FGI_DOMAIN_CREATE,     /* the base did not read: a created value, written */
    FGI_DOMAIN_UNREADABLE, /* the base did not read and no value was created: byte havoc */
    FGI_DOMAIN_UNCHANGED,  /* the edit changed nothing: byte havoc */
    FGI_DOMAIN_NOFIT,      /* the written value was longer than the cap: byte havoc */
    FGI_DOMAIN_HOW_COUNT
} fgi_domain_how;

/* FG_OK when d can be used: read, write, mutate and free are set (create is optional);
 * FG_EINVAL otherwise, so a half-declared domain is an error, never a silent fallback. */
FGI_HIDDEN fg_error fgi_domain_check(const fg_domain *d);

/* The longest input the domain writes in a run whose inputs are at most max_len bytes:
 * d->max_len when it is set and smaller, else max_len. */
FGI_HIDDEN size_t fgi_domain_cap(const fg_domain *d, size_t max_len);

/* Builds one generated case. work[0..size) holds the base entry's bytes as copied for byte
 * mutation (capacity max_len, size <= max_len); base[0..base_size) is the whole entry, the
 * bytes read as a value. m is the case's mutator: its rng is the only source of decisions,
 * its other/other_size the crossover partner (read as the edit's `other` value), its
 * scratch (capacity >= max_len) is where the value is written before it is copied to work.
 * Returns the new size of work (<= max_len; <= fgi_domain_cap for a written value). Sets
 * m->step to the domain step and m->napplied to the byte mutators it applied, so
 * fgi_mutate_describe names what made the case; *how (when not NULL) says which path ran.
 * Calls d->mutate at most once: one structured edit per case, because the spans of a
 * value go stale once it has been edited and written. d must pass fgi_domain_check. */
FGI_HIDDEN size_t fgi_domain_mutate(const fg_domain *d, fgi_mut *m, const uint8_t *base,
                                    size_t base_size, uint8_t *work, size_t size,
                                    size_t max_len, fgi_domain_how *how);

#endif
