/* engine/base/errout.h — where fuzzgate's own reports go: stderr, or a private copy of it.
 *
 * libFuzzer's -close_fd_mask=2 silences a noisy harness by pointing descriptor 2 at
 * /dev/null; the engine's status lines, finding reports and artifact lines must still be
 * seen. fgi_errout_keep duplicates descriptor 2 first, and every engine report (the
 * signal-safe sinks included) writes to fgi_errout_fd / fgi_errout_file from then on.
 */
#ifndef FG_ERROUT_H
#define FG_ERROUT_H

#include "engine/internal.h"

/* The descriptor engine reports are written to: 2 until fgi_errout_keep. Signal-safe. */
FGI_HIDDEN int fgi_errout_fd(void);
/* The same as a stream (unbuffered, like stderr): stderr until fgi_errout_keep. */
FGI_HIDDEN FILE *fgi_errout_file(void);
/* Keeps a private duplicate of descriptor 2 (close-on-exec) for the engine's reports, so
 * the caller may then close or redirect 2. Call once, before any case runs, from the one
 * thread; FG_OK, or FG_EIO (errno says why: reports stay on 2). */
FGI_HIDDEN fg_error fgi_errout_keep(void);

#endif
