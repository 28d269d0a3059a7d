/* engine/report/report.h — the reports rendered from the outcomes of a session's runs:
 * FUZZ.md (report_md.c) and coverage.svg (report_svg.c) for people, JUnit XML (junit.c)
 * and SARIF (sarif.c) for CI systems.
 *
 * All are pure functions of what they are given: no clock, no address, no environment.
 * coverage.svg and SARIF are deterministic for a case-bounded run; FUZZ.md and JUnit are
 * too except for their times (FUZZ.md's time table, JUnit's time attributes), which are
 * the runs' wall-clock seconds.
 */
#ifndef FG_REPORT_H
#define FG_REPORT_H

#include "engine/run/options.h"
#include "engine/findings/outcome.h"

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

/* Appends JUnit XML to out: one testsuite, a testcase per run with its counts as
 * properties, a <failure> per new finding class, <skipped> for a skipped target, known
 * classes in <system-out>. out->failed says when memory ran out. */
FGI_HIDDEN void fgi_junit_render(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs,
                                 size_t n);

/* Appends SARIF 2.1.0 to out: a rule per finding kind, a result per new finding class with
 * its source location and its reproducer as an attachment. out->failed says when memory
 * ran out. */
FGI_HIDDEN void fgi_sarif_render(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs,
                                 size_t n);

#endif
