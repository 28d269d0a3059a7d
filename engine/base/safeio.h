/* engine/base/safeio.h — file and descriptor I/O that is safe inside a signal handler.
 *
 * The crash oracle stores a finding from a fatal-signal handler, so everything here uses
 * only syscalls and caller buffers: no malloc, no stdio, no locale. The finding store, the
 * libFuzzer artifact layout, the corpus and report writers and the supervisor's pipes all
 * write through these, so one test hook (fgi_store_fail_nth) can fail any of their files.
 */
#ifndef FG_SAFEIO_H
#define FG_SAFEIO_H

#include "engine/internal.h"

/* write(2) until all n bytes are written (EINTR retried); 0 or -1. Signal-safe. */
FGI_HIDDEN int fgi_write_all(int fd, const char *p, size_t n);
/* read(2) until all n bytes are read (EINTR retried); 0, or -1 at end of file or on an
 * error. Signal-safe. */
FGI_HIDDEN int fgi_read_full(int fd, void *buf, size_t n);

/* Writes a file so a reader never sees half of it: fill(fd, ctx) writes a temporary file
 * beside it (<path>.tmp.<pid>; fill returns 0 or -1), which is fsynced and renamed over
 * path. 0, or -1 with errno and no temporary file left. Counted by fgi_store_fail_nth.
 * Async-signal-safe when fill is. */
FGI_HIDDEN int fgi_write_atomic(const char *path, int (*fill)(int fd, void *ctx), void *ctx);

/* mkdir -p: creates every missing directory of path (restored on return). 0 or -1 with
 * errno. Async-signal-safe. */
FGI_HIDDEN int fgi_make_dirs(char *path);

/* Test hook: the n-th fgi_write_atomic from now fails with ENOSPC (0 = never). */
FGI_HIDDEN void fgi_store_fail_nth(unsigned long n);

/* Signal-safe formatting: text collected in a fixed buffer and written to fd when full or
 * flushed (fd -1: only collect, truncating at the buffer's end). */
typedef struct fgi_sink {
    int fd;          /* where flush writes; -1 = only collect into buf (until full) */
    char buf[512];
    size_t len;
    int failed;      /* a write failed */
} fgi_sink;
FGI_HIDDEN void fgi_sink_put(fgi_sink *k, const char *s);
FGI_HIDDEN void fgi_sink_putn(fgi_sink *k, const char *s, size_t n);
FGI_HIDDEN void fgi_sink_u64(fgi_sink *k, uint64_t v);
FGI_HIDDEN void fgi_sink_hex64(fgi_sink *k, uint64_t v); /* 0x + 16 digits */
FGI_HIDDEN void fgi_sink_hexbytes(fgi_sink *k, const uint8_t *d, size_t n);
FGI_HIDDEN void fgi_sink_flush(fgi_sink *k);
/* Names an errno value (strerror may translate and allocate). */
FGI_HIDDEN void fgi_sink_errno(fgi_sink *k, int e);

#endif
