/* engine/report/report.h — the human reports, each rendered from the outcomes of a session's
 * runs: FUZZ.md (report_md.c) and coverage.svg (report_svg.c).
 *
 * Both are pure functions of what they are given: no clock, no address, no environment.
 * coverage.svg is deterministic for a case-bounded run; FUZZ.md is too except for its
 * time table, which is labelled as wall-clock figures.
 */
#ifndef FG_REPORT_H
#define FG_REPORT_H

#include "engine/run/options.h"
#include "engine/run/outcome.h"

/* Appends FUZZ.md, GitHub-flavoured markdown for a CI job summary, to out: the result
 * line, a table of the n runs, each new and each known finding with its reproducer and
 * replay command, and the time table. out->failed says when memory ran out. */
FGI_HIDDEN void fgi_report_md(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs,
                              size_t n);

/* Appends coverage.svg to out: one panel per run, corpus size (left axis) and coverage
 * features (right axis) over generated cases, each finding marked at the case it first
 * occurred. out->failed says when memory ran out. */
FGI_HIDDEN void fgi_report_svg(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs,
                               size_t n);

#endif
