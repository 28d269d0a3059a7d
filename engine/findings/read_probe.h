/* engine/findings/read_probe.h — the read record of one input, for the minimiser: the target
 * run once over it in a forked child. */
#ifndef FG_READ_PROBE_H
#define FG_READ_PROBE_H

#include "engine/feedback/reads.h"

/* Runs t over data[0..size) once, in a forked child under the harness, and returns the
 * reads it made (engine/feedback/reads.h) in *out (caller frees with fgi_free; NULL when
 * it made none), their count in *n. The child writes each read to shared memory as it is
 * made, so an input that crashes its process or hangs (killed after time_ms) still gives
 * the reads before that; so does one that grows past rss_limit bytes resident (0: no limit),
 * killed as a hang is (the run's memory limit holds for the probe too). The child's output
 * goes to /dev/null. FG_OK, or FG_ENOMEM / FG_EIO (no mapping, no fork): the caller then
 * minimises over bytes only. */
FGI_HIDDEN fg_error fgi_read_probe(const fg_target *t, const uint8_t *data, size_t size,
                                   unsigned time_ms, uint64_t rss_limit, fgi_read **out,
                                   size_t *n);

#endif
