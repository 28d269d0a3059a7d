/* tools/brotli_seeds.c — larger seeds for the Brotli targets, made deterministically
 * (a fixed generator, no clock, no randomness from outside) so two machines make the same
 * files. The outputs are not committed: corpus/<target>/ holds the small hand-written
 * boundary inputs, these are for depth runs.
 *
 *     make brotli-seeds                      # writes build/brotli-seeds/<target>/gen-*
 *     build/fuzzgate --corpus=build/brotli-seeds --seconds=600 brotli_decode
 *
 * For each of several payloads (text, a log, binary records, runs, noise, a mix) at sizes
 * up to each target's longest input: brotli_decode gets the payload compressed at every
 * quality and at both window endpoints, behind a few feeding headers (and cut, and with
 * trailing bytes); brotli_roundtrip and brotli_stream get the payload behind parameter
 * headers that walk every quality, window class, hint, chunking and flush pattern.
 */
#include <brotli/encode.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The targets' longest inputs less their headers (targets/brotli_*.c). */
#define DECODE_PAYLOAD 1022
#define ROUNDTRIP_PAYLOAD 512
#define STREAM_PAYLOAD 256

static uint64_t rng = 0x5eed0f6a7e2026ULL;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

enum { TEXT, LOG, RECORDS, RUNS, NOISE, MIX, NKINDS };
static const char *const kind_names[NKINDS] = {"text", "log", "records", "runs", "noise", "mix"};

static void payload(int kind, uint8_t *p, size_t n)
{
    static const char *const words[] = {"the ", "window ", "of ", "a ", "stream ", "is ",
                                        "what ", "the ", "decoder ", "keeps ", "\n"};
    size_t i = 0;
    while (i < n) {
        int k = kind == MIX ? (int)(i / 97 % 5) : kind;
        if (k == TEXT) {
            const char *w = words[next() % 11];
            while (*w && i < n)
                p[i++] = (uint8_t)*w++;
        } else if (k == LOG) {
            char line[64];
            int len = snprintf(line, sizeof line, "2026-01-%02u 12:%02u:%02u GET /item/%u 200\n",
                               1 + next() % 28, next() % 60, next() % 60, next() % 5000);
            for (int j = 0; j < len && i < n; j++)
                p[i++] = (uint8_t)line[j];
        } else if (k == RECORDS) {
            uint32_t v = next();
            uint8_t rec[8] = {0xa5, 0x01, (uint8_t)v, (uint8_t)(v >> 8), 0, 0, 0x10, 0xff};
            for (int j = 0; j < 8 && i < n; j++)
                p[i++] = rec[j];
        } else if (k == RUNS) {
            uint8_t b = (uint8_t)next();
            size_t run = 1 + next() % 200;
            while (run-- && i < n)
                p[i++] = b;
        } else {
            p[i++] = (uint8_t)next();
        }
    }
}

static const char *out_root;

static void put(const char *target, const char *name, const uint8_t *h, size_t hn,
                const uint8_t *p, size_t pn)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", out_root, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/gen-%s", out_root, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(h, 1, hn, f) != hn || (pn && fwrite(p, 1, pn, f) != pn) || fclose(f)) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    out_root = argv[1];
    if (mkdir(out_root, 0777) != 0 && errno != EEXIST) {
        perror(out_root);
        return 1;
    }
    static const size_t sizes[] = {16, 100, 256, 512, 1000};
    static uint8_t p[2048], z[4096];
    unsigned files = 0;
    char name[128];
    for (int kind = 0; kind < NKINDS; kind++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            payload(kind, p, n);
            const char *kn = kind_names[kind];
            /* brotli_decode: streams at every quality, windows 10 and 24 and one between. */
            for (int q = 0; q <= 11; q++) {
                int lgwin = q % 3 == 0 ? 10 : q % 3 == 1 ? 24 : 18;
                size_t zn = sizeof z;
                if (n > DECODE_PAYLOAD ||
                    !BrotliEncoderCompress(q, lgwin, BROTLI_MODE_GENERIC, n, p, &zn, z) ||
                    zn > DECODE_PAYLOAD)
                    continue;
                uint8_t h[2] = {(uint8_t)(q % 4 == 0 ? 0x00 : next()), (uint8_t)(next() % 16)};
                snprintf(name, sizeof name, "%s-%zu-q%d-w%d", kn, n, q, lgwin);
                put("brotli_decode", name, h, 2, z, zn);
                files++;
                if (q == 5) { /* the same stream cut, and with bytes after it */
                    snprintf(name, sizeof name, "%s-%zu-q%d-cut", kn, n, q);
                    put("brotli_decode", name, h, 2, z, zn / 2);
                    z[zn] = 0x3b;
                    snprintf(name, sizeof name, "%s-%zu-q%d-trailing", kn, n, q);
                    put("brotli_decode", name, h, 2, z, zn + 1);
                    files += 2;
                }
            }
            /* brotli_roundtrip: every quality (QUALITY[] picks), both APIs, hints, blocks. */
            if (n <= ROUNDTRIP_PAYLOAD)
                for (unsigned q = 0; q <= 11; q++) {
                    unsigned pick = q < 10 ? q : q + 52;
                    uint8_t h[3] = {(uint8_t)(pick | (next() & 1) << 7), (uint8_t)(next() % 150),
                                    (uint8_t)(next() % 32)};
                    snprintf(name, sizeof name, "%s-%zu-q%u", kn, n, q);
                    put("brotli_roundtrip", name, h, 3, p, n);
                    files++;
                }
            /* brotli_stream: every quality, chunkings, flushes, rooms, metadata, TakeOutput. */
            if (n <= STREAM_PAYLOAD)
                for (unsigned q = 0; q <= 11; q++) {
                    unsigned pick = q < 10 ? q : q + 52;
                    uint8_t h[4] = {(uint8_t)(pick | (next() % 3) << 6), (uint8_t)next(),
                                    (uint8_t)next(), (uint8_t)next()};
                    snprintf(name, sizeof name, "%s-%zu-q%u", kn, n, q);
                    put("brotli_stream", name, h, 4, p, n);
                    files++;
                }
        }
    }
    printf("%u seeds in %s\n", files, out_root);
    return 0;
}
