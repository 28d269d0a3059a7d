/* engine/findings/artifact.c — naming and writing a finding as a libFuzzer artifact.
 *
 * libFuzzer writes one file per finding, named by what happened and by the SHA-1 of the
 * bytes: ./crash-da39a3ee5e6b4b0d3255bfef95601890afd80709. Tools around libFuzzer
 * (ClusterFuzz, CI scripts, people) look for those names and for the line
 *     artifact_prefix='./'; Test unit written to ./crash-<sha1>
 * on stderr, so the libFuzzer driver stores findings this way. Everything here runs
 * inside the crash oracle's signal handler too: no malloc, no stdio.
 */
#include "engine/findings/artifact.h"

#include "engine/base/errout.h"
#include "engine/base/safeio.h"
#include "engine/base/sha1.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

const char *fgi_artifact_kind(const char *kind)
{
    static const struct {
        const char *fuzzgate, *libfuzzer;
    } names[] = {{"retention", "leak"},
                 {"timeout", "timeout"},
                 {"amplification", "oom"},
                 {"oom", "oom"}};
    for (size_t i = 0; kind && i < FGI_ARRAY_LEN(names); i++)
        if (strcmp(kind, names[i].fuzzgate) == 0)
            return names[i].libfuzzer;
    return "crash";
}

int fgi_artifact_wanted(const fgi_finding_rec *f)
{
    return (f->at->artifact_prefix && f->at->artifact_prefix[0]) ||
           (f->at->exact_artifact_path && f->at->exact_artifact_path[0]);
}

int fgi_artifact_path(const fgi_finding_rec *f, char *out, size_t cap)
{
    fgi_sink k = {.fd = -1};
    if (f->at->exact_artifact_path && f->at->exact_artifact_path[0]) {
        fgi_sink_put(&k, f->at->exact_artifact_path);
    } else {
        char sha[FGI_SHA1_HEX];
        fgi_sha1_hex(f->data, f->size, sha);
        fgi_sink_put(&k, f->at->artifact_prefix ? f->at->artifact_prefix : "");
        fgi_sink_put(&k, fgi_artifact_kind(f->kind));
        fgi_sink_put(&k, "-");
        fgi_sink_put(&k, sha);
    }
    /* A full collecting sink has truncated: the name did not fit. */
    if (k.len >= cap || k.len == sizeof k.buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, k.buf, k.len);
    out[k.len] = '\0';
    return 0;
}

/* s begins with p. Signal-safe, and not through the interposed strncmp. */
static int begins(const char *s, const char *p)
{
    while (*p && *s == *p)
        s++, p++;
    return !*p;
}

/* libFuzzer's own first lines for an out-of-memory artifact, which tools around libFuzzer
 * look for (FuzzerLoop.cpp: RssLimitCallback and HandleMalloc):
 *     ==7== ERROR: libFuzzer: out-of-memory (used: 263Mb; limit: 256Mb)
 *     ==7== ERROR: libFuzzer: out-of-memory (malloc(3145728))
 *        To change the out-of-memory limit use -rss_limit_mb=<N>
 * An oom detail (oracle/rss.c, the supervisor's) begins with its parenthesis; an
 * amplification's with "an allocation of N bytes". */
static void libfuzzer_oom(fgi_sink *k, const fgi_finding_rec *f)
{
    fgi_sink_put(k, "==");
    fgi_sink_u64(k, (uint64_t)getpid());
    fgi_sink_put(k, "== ERROR: libFuzzer: out-of-memory");
    static const char alloc[] = "an allocation of ";
    const char *d = f->detail;
    if (begins(d, "out-of-memory (")) {
        d += sizeof "out-of-memory" - 1;
        size_t n = 0;
        while (d[n] && d[n] != ')')
            n++;
        fgi_sink_putn(k, d, n + (d[n] == ')'));
    } else if (begins(d, alloc)) {
        d += sizeof alloc - 1;
        size_t n = 0;
        while (d[n] >= '0' && d[n] <= '9')
            n++;
        fgi_sink_put(k, " (malloc(");
        fgi_sink_putn(k, d, n);
        fgi_sink_put(k, "))");
    }
    fgi_sink_put(k, "\n   To change the out-of-memory limit use -rss_limit_mb=<N>\n\n");
}

int fgi_artifact_stored_as(const char *file, char *path, size_t cap)
{
    if (cap) {
        path[0] = '\0';
        if (file && strlen(file) < cap)
            memcpy(path, file, strlen(file) + 1);
    }
    return file ? 0 : -1;
}

static int fill_bytes(int fd, void *ctx)
{
    const fgi_finding_rec *f = ctx;
    return fgi_write_all(fd, (const char *)f->data, f->size);
}

/* mkdir -p of the directory part of path ("dir/sub/crash-..." -> dir/sub). */
static int make_parent(const char *path)
{
    char dir[512];
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    size_t n = (size_t)(slash - path);
    if (n >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
    return fgi_make_dirs(dir);
}

int fgi_artifact_store(const fgi_finding_rec *f, char *path, size_t cap)
{
    char file[512];
    int ok = fgi_artifact_path(f, file, sizeof file) == 0 && make_parent(file) == 0 &&
             fgi_write_atomic(file, fill_bytes, (void *)f) == 0;
    int saved_errno = errno;

    fgi_sink k = {.fd = fgi_errout_fd()};
    if (ok && f->again) { /* the class was reported: one line, for the file's new name */
        fgi_sink_put(&k, "artifact_prefix='");
        fgi_sink_put(&k, f->at->artifact_prefix ? f->at->artifact_prefix : "");
        fgi_sink_put(&k, "'; Test unit written to ");
        fgi_sink_put(&k, file);
        fgi_sink_put(&k, " (a smaller input of ");
        fgi_sink_put(&k, f->class_id);
        fgi_sink_put(&k, ", in place of the last)\n");
        fgi_sink_flush(&k);
        return fgi_artifact_stored_as(file, path, cap);
    }
    int oom = begins(fgi_artifact_kind(f->kind), "oom");
    if (oom) {
        libfuzzer_oom(&k, f);
        fgi_sink_put(&k, "fuzzgate: ");
    } else {
        fgi_sink_put(&k, "==");
        fgi_sink_u64(&k, (uint64_t)getpid());
        fgi_sink_put(&k, "== ERROR: fuzzgate: ");
    }
    fgi_sink_put(&k, f->kind);
    fgi_sink_put(&k, " in ");
    fgi_sink_put(&k, f->at->target);
    fgi_sink_put(&k, " (");
    fgi_sink_put(&k, f->class_id);
    fgi_sink_put(&k, "): ");
    fgi_sink_put(&k, f->detail);
    fgi_sink_put(&k, "\n");
    if (ok) {
        fgi_sink_put(&k, "artifact_prefix='");
        fgi_sink_put(&k, f->at->artifact_prefix ? f->at->artifact_prefix : "");
        fgi_sink_put(&k, "'; Test unit written to ");
        fgi_sink_put(&k, file);
    } else {
        fgi_sink_put(&k, "fuzzgate: NOT STORED (");
        fgi_sink_errno(&k, saved_errno);
        fgi_sink_put(&k, "): the hex below is the only copy");
    }
    fgi_sink_put(&k, "\nHex: ");
    fgi_sink_hexbytes(&k, f->data, f->size);
    fgi_sink_put(&k, oom ? "\nSUMMARY: libFuzzer: out-of-memory\n" : "\n");
    fgi_sink_flush(&k);
    return fgi_artifact_stored_as(ok ? file : NULL, path, cap);
}
