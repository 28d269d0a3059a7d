/* oracle/heap_table.h — the table of other threads' blocks (heap_table.c), under the heap
 * registry's lock, which every caller holds. Private to the heap oracle's parts.
 */
#ifndef FG_HEAP_TABLE_H
#define FG_HEAP_TABLE_H

#include "oracle/heap_registry.h"

/* Empties t in O(1) (the blocks stay allocated). A table far larger than its recent use
 * (one case held many blocks) is given back, so later cases probe a small one. */
FGI_HIDDEN void fgi_heap_table_empty(fgi_heap_table *t);
/* Records s (its mark is set here). Out of memory for the table, the block goes
 * unrecorded. */
FGI_HIDDEN void fgi_heap_table_insert(fgi_heap_table *t, fgi_heap_slot s);
/* Removes p if recorded; returns 1 (and its slot in *out) when it was. */
FGI_HIDDEN int fgi_heap_table_forget(fgi_heap_table *t, const void *p, fgi_heap_slot *out);
/* Calls fn on every live block of runs first .. first + n - 1. */
FGI_HIDDEN void fgi_heap_table_each(const fgi_heap_table *t, unsigned first, unsigned n,
                                    fgi_heap_block_fn *fn, void *ctx);
/* Removes every block of run `gen` (they stay allocated: their threads' blocks). */
FGI_HIDDEN void fgi_heap_table_drop_run(fgi_heap_table *t, unsigned gen);

#endif
