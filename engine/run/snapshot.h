/* engine/run/snapshot.h — what every case of an epoch sees (r->snap, state.h), and the end
 * of an epoch: its records merged in position order into the next snapshot. */
#ifndef FG_RUN_SNAPSHOT_H
#define FG_RUN_SNAPSHOT_H

#include "engine/run/state.h"

/* An empty snapshot, with the target's known classes loaded (corpus/<target>/known.txt).
 * FG_OK, FG_ENOMEM, or FG_EOPTION for a malformed known.txt (said on the session's log). */
FGI_HIDDEN fg_error fgi_snapshot_init(run *r);
FGI_HIDDEN void fgi_snapshot_free(run *r);
/* Merges the epoch's records (the log) into the snapshot, in position order. */
FGI_HIDDEN void fgi_snapshot_merge(run *r);

#endif
