/* engine/feedback/signals.h — what a target says beyond its signature (fg_feature,
 * fg_maximize), collected during a case and read by the run after it. */
#ifndef FG_SIGNALS_H
#define FG_SIGNALS_H

#include "engine/internal.h"

/* The target's own signals (signals.c): fgi_signals_begin forgets the last case's;
 * fgi_signals_each calls fn for each feature key of this case (fg_feature values, and the
 * highest range each fg_maximize slot reached), then forgets them. */
FGI_HIDDEN void fgi_signals_begin(void);
FGI_HIDDEN void fgi_signals_each(void (*fn)(void *ctx, uint64_t key), void *ctx);

#endif
