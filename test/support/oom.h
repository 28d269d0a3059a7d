/* test/support/oom.h — the out-of-memory loop every string renderer's test runs. */
#ifndef FG_TEST_OOM_H
#define FG_TEST_OOM_H

#include "engine/internal.h"

/* The renderers' signature: appends to out; out->failed when an allocation failed. */
typedef void fgt_render_fn(fgi_str *out, void *ctx);

/* Calls render with the n-th engine allocation failing, for n = 1, 2, ... until a call in
 * which no fault fired, and CHECKs that each call left out->failed exactly when one did
 * (and frees what it left). CHECKs that the loop ended within limit calls. */
void fgt_render_oom_loop(fgt_render_fn *render, void *ctx, unsigned long limit);

#endif
