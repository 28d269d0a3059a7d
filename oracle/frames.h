/* oracle/frames.h — the top frames of a dying case, as module-relative offsets.
 *
 * A crash's class is its signal plus where it happened. An absolute address changes with
 * ASLR, so a frame is named by its module and its offset in it ("exe+0x1a2b",
 * "libfoo.so.1+0x3c4"): the same crash gets the same class on every run of a build. The
 * capture runs in a signal handler (backtrace, warmed up once so it does not load
 * anything then); the naming (dladdr) runs later in the supervisor, which has the same
 * mappings as the forked executor. An allocation site (the heap oracles' findings) is
 * named the same way, one address at a time.
 */
#ifndef FG_FRAMES_H
#define FG_FRAMES_H

#include "engine/internal.h"

#define FGI_CLASS_FRAMES 3 /* frames a crash class is named by */

/* Loads what backtrace needs, outside any signal handler. */
FGI_HIDDEN void fgi_frames_warm(void);
/* The return addresses from the faulting instruction (uctx, or the caller when NULL) up
 * to, not including, `boundary` (the return address in the engine's call of the target
 * body). Returns how many were stored in out (at most max). Signal-safe after warm. */
FGI_HIDDEN unsigned fgi_frames_capture(void *uctx, uint64_t boundary, uint64_t *out,
                                       unsigned max);
/* The interrupted stack pointer of a signal's context (0 when unknown). Signal-safe. */
FGI_HIDDEN uint64_t fgi_frames_sp(void *uctx);
/* A frame a crash is named by: its module (NULL when no module holds it) and where it
 * is loaded, the address of the call (a return address less one, but for the innermost),
 * and the nearest exported symbol dladdr knows (NULL when none: a static function of a
 * program without -rdynamic). Strings borrowed from the loader. */
typedef struct fgi_frame {
    const char *module;
    uint64_t base;
    uint64_t pc;
    int self;               /* the module holding the engine: named "exe" */
    const char *symbol;
    uint64_t symbol_at;
} fgi_frame;

/* The first FGI_CLASS_FRAMES frames of pcs[0..n) outside the C library and the sanitizer
 * runtimes, into out (room for FGI_CLASS_FRAMES); returns how many. from_sanitizer: the
 * capture began inside a sanitizer's report path (its own frames come first). */
FGI_HIDDEN unsigned fgi_frames_pick(const uint64_t *pcs, unsigned n, int from_sanitizer,
                                    fgi_frame *out);
/* A picked frame's name in a class key: "mod+0xoff", "exe+0xoff" for the engine's own
 * module, "?" for none: the same under ASLR. */
FGI_HIDDEN void fgi_frames_key(const fgi_frame *f, char *out, size_t cap);
/* The last part of a path. */
FGI_HIDDEN const char *fgi_frames_base_name(const char *path);
/* Writes the picked frames' keys as "mod+0xoff mod+0xoff ..." into out; "" when there
 * are none. */
FGI_HIDDEN void fgi_frames_describe(const uint64_t *pcs, unsigned n, int from_sanitizer,
                                    char *out, size_t cap);
/* Writes "module+0xoffset" for one code address (an allocation site, for the heap
 * oracles' findings): module-relative, so ASLR changes nothing; the main program is named
 * by its file name, not "exe"; "?+0x0" when no module holds pc (or pc is 0). */
FGI_HIDDEN void fgi_frames_site_name(uintptr_t pc, char *out, size_t cap);

#endif
