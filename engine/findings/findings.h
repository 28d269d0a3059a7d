/* engine/findings/findings.h — the findings folder's one entry point: a finding a run
 * records is classified, merged by class into the run's outcome, stored and marked known
 * here, and nowhere else. */
#ifndef FG_FINDINGS_H
#define FG_FINDINGS_H

#include "engine/findings/known.h"
#include "engine/findings/outcome.h"

/* 1 when a finding of o other than f (NULL: any) was stored at path. */
FGI_HIDDEN int fgi_findings_path_in_use(const fg_outcome *o, const fg_finding *f,
                                        const char *path);

/* Classifies rec, adds it to o merged by class (a class seen before counts one more and
 * keeps the smaller input), stores it when `store` is set and the class is new or its
 * input smaller, and marks it known when known.txt lists its class. A class is printed
 * once a run: a smaller input rewrites its files (rec->again), and a libFuzzer artifact
 * of the class's previous input is removed, so a class leaves one file. Not signal-safe
 * (the crash path classifies and stores with finding.h alone). FG_OK, or FG_ENOMEM; a
 * finding that could not be written sets o->store_failed (its hex went to stderr). */
FGI_HIDDEN fg_error fgi_findings_record(fgi_finding_rec *rec, fg_outcome *o,
                                        const fgi_known *known, int store);

#endif
