/* oracle/heap_quarantine.h — the quarantine of ended cases' blocks (heap_quarantine.c).
 * Private to the heap oracle's parts, but for fgi_heap_quarantined, which tests read.
 */
#ifndef FG_HEAP_QUARANTINE_H
#define FG_HEAP_QUARANTINE_H

#include "engine/internal.h"

/* Puts headed p (a block of the run the engine ended) in the quarantine; with no room for
 * it, evicts it onto the chain *out at once. Under the registry's lock. */
FGI_HIDDEN void fgi_heap_queue_add(void *p, void **out);
/* Evicts the oldest blocks onto *out while the quarantine is over its bounds. Under the
 * lock. */
FGI_HIDDEN void fgi_heap_queue_trim(void **out);
/* Frees a chain of evicted blocks; after the lock, so no thread spins on it meanwhile. */
FGI_HIDDEN void fgi_heap_free_evicted(void *p);
/* Takes queued p (fgi_heap_queued) out of the quarantine: 1, or 0 when the quarantine
 * freed it already. Takes the lock. */
FGI_HIDDEN int fgi_heap_unqueue(const void *p);
/* The free of queued p: out of the quarantine, then freed, unless the quarantine freed it
 * already. Takes the lock. */
FGI_HIDDEN void fgi_heap_free_queued(void *p);

/* The allocator's bytes under the quarantine's blocks, and in *blocks (when not NULL)
 * how many there are. Takes the lock. */
FGI_HIDDEN size_t fgi_heap_quarantined(size_t *blocks);

#endif
