/* engine/run/record.h — a finding recorded by the parent (classified, merged by class,
 * stored) or sent to it by the executor that survived it. */
#ifndef FG_RUN_RECORD_H
#define FG_RUN_RECORD_H

#include "engine/run/state.h"

/* Fills r->place from the session and the target, once (fgi_run_open). */
FGI_HIDDEN void fgi_record_init(run *r);
/* Records a finding (merged by class) and stores it when it is new or smaller than the
 * one kept. The parent's (or the in-process run's) side of every finding. */
FGI_HIDDEN void fgi_record_finding(run *r, fgi_finding_rec *rec);
/* Builds the record of the finding w describes (class_key: what classifies it, NULL for
 * its detail) and records it with fgi_record_finding. */
FGI_HIDDEN void fgi_record_find(run *r, const fgi_wire_find *w, const char *class_key);
/* A finding the executor survived (r->ex.res says what): recorded here, or sent. */
FGI_HIDDEN void fgi_record_emit(run *r, const uint8_t *data, size_t size, uint64_t seq,
                                int64_t k, const uint8_t *applied, unsigned napplied);

/* The crash oracle's channel (oracle/crash.h) in a process that keeps its own findings
 * (--no-fork): the dying case's finding stored, from inside a fatal-signal handler. */
FGI_HIDDEN void fgi_record_dying(void *ctx, const fgi_dying *d, const char *ending);

#endif
