/* bridge/standalone/standalone.c — the target-facing half of fuzzgate.h on its own: the registry,
 * fg_fail_at, fg_reject and fg_seeds_add, for a target linked into a libFuzzer or AFL++
 * binary instead of libfuzzgate.
 *
 * It must not come with libfuzzgate: the engine defines the SanitizerCoverage callbacks
 * that libFuzzer's runtime defines too, and its oracles (signal handlers, the interposed
 * malloc) would fight the sanitizers'. Under libFuzzer the crash is the report: a broken
 * FG_CHECK prints its message and aborts, which libFuzzer turns into crash-<sha1>.
 */
#include "bridge/standalone/standalone.h"

#include "engine/base/rng.h"
#include "engine/feedback/reads.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Process-wide, as in the engine's registry: FG_TARGET constructors run before main. */
static struct {
    fg_registration *head; /* every registration, newest first */
    int rejected;          /* the running case called fg_reject */
} sa;

void fg_target_register(fg_registration *reg)
{
    if (!reg || !reg->target || !reg->target->name)
        return;
    reg->next = sa.head;
    sa.head = reg;
}

size_t fg_target_count(void)
{
    size_t n = 0;
    for (fg_registration *r = sa.head; r; r = r->next)
        n++;
    return n;
}

/* In registration order, newest first: the adapter links one target, so order is moot. */
const fg_target *fg_target_at(size_t index)
{
    for (fg_registration *r = sa.head; r; r = r->next)
        if (index-- == 0)
            return r->target;
    return NULL;
}

const fg_target *fg_target_find(const char *name)
{
    for (fg_registration *r = sa.head; r && name; r = r->next)
        if (strcmp(r->target->name, name) == 0)
            return r->target;
    return NULL;
}

void fg_fail_at(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fuzzgate: %s:%d: %s%s%s", file, line, cond ? "check failed: " : "",
            cond ? cond : "", cond ? ": " : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort(); /* the fuzzer's crash handler stores the input */
}

void fg_reject(void)
{
    sa.rejected = 1;
}

/* Without the engine nothing learns from these; the helpers still compare. */
void fg_feature(uint64_t value)
{
    (void)value;
}

void fg_maximize(unsigned slot, uint64_t value)
{
    (void)slot;
    (void)value;
}

int fg_cmp_u64(uint64_t a, uint64_t b)
{
    return a == b;
}

int fg_cmp_bytes(const void *a, const void *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}

void fgb_case_begin(void)
{
    sa.rejected = 0;
}

int fgb_case_rejected(void)
{
    return sa.rejected;
}

/* The seed sink: each input runs at once (the fuzzer cannot take inputs from here). */
struct fg_seeds {
    const fg_target *target;
};

int fg_seeds_add(fg_seeds *seeds, const void *data, size_t size)
{
    /* An exactly-sized copy, so a read past the end is caught as in a case. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return -1;
    memcpy(copy, data, size);
    seeds->target->run(copy, size);
    free(copy);
    return 0;
}

void fgb_run_seeds(const fg_target *t)
{
    fg_seeds seeds = {t};
    if (t->seed)
        t->seed(&seeds);
}

/* The Domains section, for a target that declares a domain: under libFuzzer or AFL++ the
 * domain is not driven (the engine's sandwich is not there), but its callbacks must link.
 * The random stream is the engine's own (engine/base/rng.h); byte mutation is libFuzzer's. */
uint64_t fg_rng_u64(fg_rng *rng)
{
    return fgi_rng_next(rng);
}

uint64_t fg_rng_below(fg_rng *rng, uint64_t n)
{
    return n ? fgi_rng_below(rng, n) : 0;
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

size_t fg_mutate_bytes(fg_rng *rng, uint8_t *data, size_t size, size_t max_size)
{
    (void)rng;
    if (size > max_size)
        size = max_size;
    return LLVMFuzzerMutate && max_size ? LLVMFuzzerMutate(data, size, max_size) : size;
}

/* The typed reader (engine/feedback/reader.c) is compiled in as it is; with no engine
 * to hear its reads, the record is nobody's. */
void fgi_reads_note(const fg_reader *r, unsigned kind, size_t off, unsigned width, int short_,
                    uint64_t lo, uint64_t hi)
{
    (void)r, (void)kind, (void)off, (void)width, (void)short_, (void)lo, (void)hi;
}
