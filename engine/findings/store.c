/* engine/findings/store.c — a finding written to disk and to stderr, safely from a signal
 * handler (store.h).
 *
 * A finding is two files beside each other, written atomically:
 *   <findings>/<target>/<class>.bin   the exact input bytes
 *   <findings>/<target>/<class>.txt   what happened, by example:
 *     fuzzgate finding v1
 *     target: tlv
 *     kind: check
 *     class: check-5b1c0f0e9d2a7c44
 *     detail: targets/tlv.c:12: check failed: t.len <= size: decoded 9 bytes from 3
 *     seed: 0x005eed0f6a7e2026
 *     origin: case 812            (or: corpus/tlv/boundary-empty)
 *     mutations: erase_bytes,flip_bit
 *     size: 3
 *     hex: 0a0b0c
 *     replay: fuzzgate tlv fuzzgate-findings/tlv/check-5b1c0f0e9d2a7c44.bin
 */
#include "engine/findings/store.h"

#include "engine/base/errout.h"
#include "engine/base/safeio.h"
#include "engine/findings/artifact.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Builds "<a>/<b><c>" into out; -1 if it does not fit. */
static int join(char *out, size_t cap, const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    if (la + 1 + lb + lc + 1 > cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, a, la);
    out[la] = '/';
    memcpy(out + la + 1, b, lb);
    memcpy(out + la + 1 + lb, c, lc + 1);
    return 0;
}

static void write_txt(fgi_sink *k, const fgi_finding_rec *f, const char *bin_path)
{
    fgi_sink_put(k, "fuzzgate finding v1\ntarget: ");
    fgi_sink_put(k, f->at->target);
    fgi_sink_put(k, "\nkind: ");
    fgi_sink_put(k, f->kind);
    fgi_sink_put(k, "\nclass: ");
    fgi_sink_put(k, f->class_id);
    fgi_sink_put(k, "\ndetail: ");
    fgi_sink_put(k, f->detail);
    fgi_sink_put(k, "\nseed: ");
    fgi_sink_hex64(k, f->at->seed);
    fgi_sink_put(k, "\norigin: ");
    if (f->origin) {
        fgi_sink_put(k, f->origin);
    } else {
        fgi_sink_put(k, "case ");
        fgi_sink_u64(k, (uint64_t)f->case_index);
    }
    fgi_sink_put(k, "\nmutations: ");
    fgi_sink_put(k, f->mutations ? f->mutations : "");
    fgi_sink_put(k, "\nsize: ");
    fgi_sink_u64(k, f->size);
    fgi_sink_put(k, "\nhex: ");
    fgi_sink_hexbytes(k, f->data, f->size);
    fgi_sink_put(k, "\nreplay: ");
    fgi_sink_put(k, f->at->program);
    fgi_sink_put(k, " ");
    fgi_sink_put(k, f->at->target);
    fgi_sink_put(k, " ");
    fgi_sink_put(k, bin_path);
    fgi_sink_put(k, "\n");
}

/* The two halves of a stored finding, as fill callbacks for fgi_write_atomic. */
typedef struct finding_files {
    const fgi_finding_rec *f;
    const char *bin_path;
} finding_files;

static int fill_bin(int fd, void *ctx)
{
    const fgi_finding_rec *f = ((const finding_files *)ctx)->f;
    return fgi_write_all(fd, (const char *)f->data, f->size);
}

static int fill_txt(int fd, void *ctx)
{
    const finding_files *ff = ctx;
    fgi_sink k = {.fd = fd};
    write_txt(&k, ff->f, ff->bin_path);
    fgi_sink_flush(&k);
    return k.failed ? -1 : 0;
}

int fgi_store_finding(const fgi_finding_rec *f, char *path, size_t cap)
{
    if (fgi_artifact_wanted(f)) /* bridge (#7): one libFuzzer-style file instead */
        return fgi_artifact_store(f, path, cap);
    char dir[4096], bin[4096], txt[4096];
    int ok = join(dir, sizeof dir, f->at->findings_dir, f->at->target, "") == 0 &&
             fgi_make_dirs(dir) == 0 && join(bin, sizeof bin, dir, f->class_id, ".bin") == 0 &&
             join(txt, sizeof txt, dir, f->class_id, ".txt") == 0 &&
             fgi_write_atomic(bin, fill_bin, &(finding_files){f, bin}) == 0 &&
             fgi_write_atomic(txt, fill_txt, &(finding_files){f, bin}) == 0;
    int saved_errno = errno;
    if (ok && f->again)
        return fgi_artifact_stored_as(bin, path, cap); /* said when the class was new */

    fgi_sink k = {.fd = fgi_errout_fd()};
    fgi_sink_put(&k, "fuzzgate: FINDING ");
    fgi_sink_put(&k, f->at->target);
    fgi_sink_put(&k, " ");
    fgi_sink_put(&k, f->class_id);
    fgi_sink_put(&k, ": ");
    fgi_sink_put(&k, f->detail);
    fgi_sink_put(&k, "\nfuzzgate:   input (");
    fgi_sink_u64(&k, f->size);
    fgi_sink_put(&k, " bytes): ");
    fgi_sink_hexbytes(&k, f->data, f->size);
    if (ok) {
        fgi_sink_put(&k, "\nfuzzgate:   replay: ");
        fgi_sink_put(&k, f->at->program);
        fgi_sink_put(&k, " ");
        fgi_sink_put(&k, f->at->target);
        fgi_sink_put(&k, " ");
        fgi_sink_put(&k, bin);
    } else {
        fgi_sink_put(&k, "\nfuzzgate:   NOT STORED under ");
        fgi_sink_put(&k, f->at->findings_dir);
        fgi_sink_put(&k, " (");
        fgi_sink_errno(&k, saved_errno);
        fgi_sink_put(&k, "): the hex above is the only copy");
    }
    fgi_sink_put(&k, "\n");
    fgi_sink_flush(&k);
    return fgi_artifact_stored_as(ok ? bin : NULL, path, cap);
}
