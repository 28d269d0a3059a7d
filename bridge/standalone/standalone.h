/* bridge/standalone/standalone.h — the target-facing API without the engine, for targets built as
 * libFuzzer or AFL++ binaries: the adapter's side of bridge/standalone/standalone.c. */
#ifndef FG_STANDALONE_H
#define FG_STANDALONE_H

#include "fuzzgate.h"

/* Marks the start of a case (clears the fg_reject flag). */
void fgb_case_begin(void);
/* 1 when the case called fg_reject since fgb_case_begin. */
int fgb_case_rejected(void);
/* Runs every .seed input of t through t->run once, in order. */
void fgb_run_seeds(const fg_target *t);

#endif
