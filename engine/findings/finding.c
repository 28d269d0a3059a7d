/* engine/findings/finding.c — a finding's class: what makes two findings one (finding.h).
 * Signal-safe: the crash path classifies from a fatal-signal handler. */
#include "engine/findings/finding.h"

#include "engine/base/safeio.h"

#include <string.h>

/* kind is t. Signal-safe, and not through the interposed strcmp. */
static int kind_is(const char *kind, const char *t)
{
    size_t i = 0;
    while (kind && t[i] && kind[i] == t[i])
        i++;
    return kind && t[i] == '\0' && kind[i] == '\0';
}

void fgi_finding_classify(fgi_finding_rec *f)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    /* A timeout is one class per target: which clock ended the case (the watchdog's, the
     * work budget, the supervisor's) and how far it got say nothing about which hang it
     * is, and depend on the machine's load. So is an oom: who saw the memory limit passed
     * (the case's own process, its supervisor) and at how many MiB depend on the clock. */
    int timeout = kind_is(f->kind, "timeout") || kind_is(f->kind, "oom");
    const char *key = timeout ? "" : f->class_key ? f->class_key : f->detail;
    const char *parts[3] = {f->kind, f->at->target, key};
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
