/* engine/run/registry.h — target registry checks and the seed sink's layout. */
#ifndef FG_REGISTRY_H
#define FG_REGISTRY_H

#include "engine/internal.h"

typedef struct fgi_seed {
    uint8_t *data; /* owned */
    size_t size;
} fgi_seed;

struct fg_seeds {
    fgi_seed *items;
    size_t count, cap;
    int failed; /* an add ran out of memory */
};

/* FG_EDUPTARGET (with *dup the name) when two targets share a name; FG_ENOMEM. */
FGI_HIDDEN fg_error fgi_registry_check(const char **dup);
FGI_HIDDEN void fgi_seeds_free(fg_seeds *s);

#endif
