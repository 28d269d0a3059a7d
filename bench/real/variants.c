/* bench/real/variants.c — a fixed set of inputs every engine replays: the seeds, edited.
 *
 *     variants SEED_DIR OUT_DIR N
 *
 * Writes N files, OUT_DIR/000000 ..., each one of the seeds (in turn) with one to four
 * edits drawn from a fixed generator: a byte overwritten, a byte inserted, a byte removed,
 * or the input cut short; no two alike (libFuzzer skips a repeated input, so a repeat
 * would be work one engine does and the other not). The same seeds give the same files
 * on every machine, so two
 * engines replaying the directory hand the library the same bytes in every call, and the
 * time a call spends inside the harness compares what each engine adds around the
 * library's own work (its oracles' hooks, its instrumentation), apart from exploration.
 * Exit 0, or 1 with a message when a seed cannot be read or a file cannot be written.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEEDS 64
#define MAX_LEN 65536

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t below(size_t n)
{
    return n ? (size_t)(next() % n) : 0;
}

/* The inputs written so far, by hash (open addressing; 0 marks an empty slot). */
static uint64_t *seen;
static size_t seen_mask;

static uint64_t hash_of(const uint8_t *b, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h ? h : 1;
}

/* 1 when an input with hash h was written before, else records it and returns 0. */
static int repeated(uint64_t h)
{
    size_t i = (size_t)h & seen_mask;
    while (seen[i] && seen[i] != h)
        i = (i + 1) & seen_mask;
    if (seen[i])
        return 1;
    seen[i] = h;
    return 0;
}

/* One edit of the size bytes at buf (room for MAX_LEN); returns the new size. */
static size_t edit(uint8_t *buf, size_t size)
{
    size_t at = below(size);
    switch (below(4)) {
    case 0:
        if (size)
            buf[at] = (uint8_t)next();
        return size;
    case 1:
        if (size == MAX_LEN)
            return size;
        memmove(buf + at + 1, buf + at, size - at);
        buf[at] = (uint8_t)next();
        return size + 1;
    case 2:
        if (!size)
            return size;
        memmove(buf + at, buf + at + 1, size - at - 1);
        return size - 1;
    default:
        return size > 4 ? 1 + below(size) : size;
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[3]) <= 0) {
        fprintf(stderr, "usage: variants SEED_DIR OUT_DIR N\n");
        return 1;
    }
    const char *in = argv[1], *out = argv[2];
    int n = atoi(argv[3]);
    DIR *d = opendir(in);
    if (!d) {
        perror(in);
        return 1;
    }
    char *names[MAX_SEEDS];
    int nseeds = 0;
    for (struct dirent *e; (e = readdir(d)) && nseeds < MAX_SEEDS;)
        if (e->d_name[0] != '.')
            names[nseeds++] = strdup(e->d_name);
    closedir(d);
    if (nseeds == 0) {
        fprintf(stderr, "variants: no seed in %s\n", in);
        return 1;
    }
    qsort(names, (size_t)nseeds, sizeof *names, by_name); /* readdir's order is the disk's */
    static uint8_t seed[MAX_SEEDS][MAX_LEN];
    size_t len[MAX_SEEDS];
    char path[4096];
    for (int i = 0; i < nseeds; i++) {
        snprintf(path, sizeof path, "%s/%s", in, names[i]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            perror(path);
            return 1;
        }
        len[i] = fread(seed[i], 1, MAX_LEN, f);
        fclose(f);
        free(names[i]);
    }
    for (seen_mask = 1; seen_mask < 2 * (size_t)n; seen_mask *= 2)
        ;
    seen = calloc(seen_mask, sizeof *seen);
    seen_mask--;
    if (!seen) {
        fprintf(stderr, "variants: out of memory\n");
        return 1;
    }
    static uint8_t buf[MAX_LEN + 8];
    for (int k = 0, tries = 0; k < n; k++) {
        int s = k % nseeds;
        size_t size = len[s];
        memcpy(buf, seed[s], size);
        /* A repeat gets one more edit, and so on, up to a bound: tiny seeds have few
         * variants. */
        for (size_t edits = 1 + below(4); edits > 0; edits--)
            size = edit(buf, size);
        while (repeated(hash_of(buf, size))) {
            if (++tries > 100 * n) {
                fprintf(stderr, "variants: the seeds in %s have too few variants for %d\n",
                        in, n);
                return 1;
            }
            size = edit(buf, size);
        }
        snprintf(path, sizeof path, "%s/%06d", out, k);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, size, f) != size || fclose(f) != 0) {
            perror(path);
            return 1;
        }
    }
    return 0;
}
