/* oracle/symbolize.h — a crash's frames named for a person: function and file:line.
 *
 * A crash's class is named by its frames' module-relative offsets (frames.h), which a
 * person cannot read: "exe+0x6719 exe+0x9489". This names the same frames the way the
 * sanitizers do, "abort_here (test/planted/planted.c:73), ...", by running the system's
 * symbolizer (addr2line, else llvm-symbolizer) over the module's file in a child process.
 * Without debug info a frame keeps the function's name the symbol table gives, or
 * dladdr's exported symbol and offset; without either, its class key. The class id never
 * comes from this text, so a build with or without debug info, on a machine with or
 * without binutils, gives the same classes.
 *
 * Not for a signal handler: it forks and waits (bounded). The in-process crash path,
 * which runs in one, names frames by dladdr alone (fgi_symbolize with tools = 0).
 */
#ifndef FG_SYMBOLIZE_H
#define FG_SYMBOLIZE_H

#include "engine/internal.h"

/* Writes the frames fgi_frames_pick picks from pcs[0..n) as "fn (file:line), fn (exe+0x..),
 * sym+0x1f (libfoo.so.1), exe+0x6719" into out (capacity cap, cut to fit). tools: run the
 * symbolizer (0: dladdr's names only, for a signal handler's caller). "" when no frame is
 * picked. */
FGI_HIDDEN void fgi_symbolize(const uint64_t *pcs, unsigned n, int from_sanitizer, int tools,
                              char *out, size_t cap);

/* Named frames by their class key, so each frame set is symbolized once a run (the
 * symbolizer is a child process; a class recurs thousands of times). Owned by the run
 * that records crashes; zero-initialised is empty. */
typedef struct fgi_symcache {
    struct fgi_symcache_entry {
        char *key;  /* fgi_frames_describe's text (owned) */
        char *text; /* fgi_symbolize's (owned) */
    } *e;
    size_t n, cap;
} fgi_symcache;

/* The named text of the frames whose class key is `key` (pcs as for fgi_symbolize),
 * symbolized the first time the key is asked for. Borrowed until fgi_symcache_free; NULL
 * when out of memory (the caller then names the frames by their key). */
FGI_HIDDEN const char *fgi_symcache_name(fgi_symcache *c, const char *key, const uint64_t *pcs,
                                         unsigned n, int from_sanitizer);
FGI_HIDDEN void fgi_symcache_free(fgi_symcache *c);

#endif
