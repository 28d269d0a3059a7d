/* engine/findings/store.c — writing a finding to disk and to stderr, safely from a signal handler.
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
#include "engine/findings/finding.h"

#include "engine/base/safeio.h"
#include "engine/findings/artifact.h"
#include "engine/base/errout.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* ---- classes ------------------------------------------------------------------------ */

/* Signal-safe, and not through the interposed strcmp. */
static int is_timeout(const char *kind)
{
    static const char t[] = "timeout";
    size_t i = 0;
    while (kind && t[i] && kind[i] == t[i])
        i++;
    return kind && t[i] == '\0' && kind[i] == '\0';
}

void fgi_finding_classify(fgi_finding_rec *f)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    /* A timeout is one class per target: which clock ended the case (the watchdog's, the
     * edge budget, the supervisor's) and how far it got say nothing about which hang it
     * is, and depend on the machine's load. */
    int timeout = is_timeout(f->kind);
    const char *key = timeout ? "" : f->class_key ? f->class_key : f->detail;
    const char *parts[3] = {f->kind, f->target, key};
    /* The site (file:line of a check) is hashed as it is: its digits are the class. */
    for (const char *s = f->site && !timeout ? f->site : ""; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    for (int p = 0; p < 3; p++) {
        int in_digits = 0;
        for (const char *s = parts[p] ? parts[p] : ""; *s; s++) {
            unsigned char c = (unsigned char)*s;
            int digit = c >= '0' && c <= '9';
            if (digit && in_digits)
                continue;
            in_digits = digit;
            h ^= digit ? '#' : c;
            h *= 0x100000001b3ULL;
        }
        h ^= 0xff;
        h *= 0x100000001b3ULL;
    }
    h = fg_mix64(h);
    fgi_sink k = {.fd = -1};
    fgi_sink_put(&k, f->kind);
    fgi_sink_put(&k, "-");
    char hex[19];
    fgi_sink tmp = {.fd = -1};
    fgi_sink_hex64(&tmp, h);
    memcpy(hex, tmp.buf, 18);
    fgi_sink_putn(&k, hex + 2, 16);
    size_t n = k.len < FGI_CLASS_ID_MAX - 1 ? k.len : FGI_CLASS_ID_MAX - 1;
    memcpy(f->class_id, k.buf, n);
    f->class_id[n] = '\0';
}

/* ---- files -------------------------------------------------------------------------- */

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
    fgi_sink_put(k, f->target);
    fgi_sink_put(k, "\nkind: ");
    fgi_sink_put(k, f->kind);
    fgi_sink_put(k, "\nclass: ");
    fgi_sink_put(k, f->class_id);
    fgi_sink_put(k, "\ndetail: ");
    fgi_sink_put(k, f->detail);
    fgi_sink_put(k, "\nseed: ");
    fgi_sink_hex64(k, f->seed);
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
    fgi_sink_put(k, f->program);
    fgi_sink_put(k, " ");
    fgi_sink_put(k, f->target);
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

int fgi_finding_store(const fgi_finding_rec *f, char *path, size_t cap)
{
    if (fgi_artifact_wanted(f)) /* bridge (#7): one libFuzzer-style file instead */
        return fgi_artifact_store(f, path, cap);
    char dir[4096], bin[4096], txt[4096];
    int ok = join(dir, sizeof dir, f->findings_dir, f->target, "") == 0 &&
             fgi_make_dirs(dir) == 0 && join(bin, sizeof bin, dir, f->class_id, ".bin") == 0 &&
             join(txt, sizeof txt, dir, f->class_id, ".txt") == 0 &&
             fgi_write_atomic(bin, fill_bin, &(finding_files){f, bin}) == 0 &&
             fgi_write_atomic(txt, fill_txt, &(finding_files){f, bin}) == 0;
    int saved_errno = errno;

    fgi_sink k = {.fd = fgi_errout_fd()};
    fgi_sink_put(&k, "fuzzgate: FINDING ");
    fgi_sink_put(&k, f->target);
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
        fgi_sink_put(&k, f->program);
        fgi_sink_put(&k, " ");
        fgi_sink_put(&k, f->target);
        fgi_sink_put(&k, " ");
        fgi_sink_put(&k, bin);
    } else {
        fgi_sink_put(&k, "\nfuzzgate:   NOT STORED under ");
        fgi_sink_put(&k, f->findings_dir);
        fgi_sink_put(&k, " (");
        fgi_sink_errno(&k, saved_errno);
        fgi_sink_put(&k, "): the hex above is the only copy");
    }
    fgi_sink_put(&k, "\n");
    fgi_sink_flush(&k);

    if (cap) {
        path[0] = '\0';
        if (ok && strlen(bin) < cap)
            memcpy(path, bin, strlen(bin) + 1);
    }
    return ok ? 0 : -1;
}
