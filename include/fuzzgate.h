/* include/fuzzgate.h — the whole public API of fuzzgate, an in-process fuzz engine for C.
 *
 * Sections: targets; checks and signatures; typed reads; errors; options; sessions and
 * outcomes; gate and driver; domains; bridge (reserved).
 *
 * The target-facing part (targets, checks, signatures, typed reads) compiles as C99 and as C++.
 * Everything else is C11. Nothing here is safe to call from a signal handler.
 */
#ifndef FUZZGATE_H
#define FUZZGATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FG_VERSION "0.1.0"

/* ===================================================================================== */
/* Targets                                                                               */
/* ===================================================================================== */

/* A sink for a target's built-in seed inputs; see fg_target.seed. */
typedef struct fg_seeds fg_seeds;

/* Adds one seed input. The bytes are copied; the caller keeps ownership of data.
 * Returns 0, or -1 when the engine is out of memory (the seed is then dropped and the
 * session reports the error). Only valid inside a .seed callback. */
int fg_seeds_add(fg_seeds *seeds, const void *data, size_t size);

/* Structured mutation for inputs that are a language: see "Domains" below. */
struct fg_domain;

/* A fuzz target. Declare one with FG_TARGET; every field but .run is optional.
 *
 * run        the body: called once per case with an exactly-sized, read-only input (the
 *            last byte of data is the last byte of its allocation). Returns a behaviour
 *            signature of THIS case (fold state bounded by the case, never a running
 *            total); 0 means "nothing to say". Must not keep data after it returns.
 * what       one line for --list.
 * seed       adds built-in seed inputs with fg_seeds_add; called once per session run.
 * allowance  peak heap bytes a case of `size` input bytes may hold; an allocation past it
 *            is an `amplification` finding (NULL = 32 MiB + 64 bytes per input byte).
 * time_ms    per-case deadline in ms; past it, a `timeout` finding (0 = 10000).
 * max_len    the longest input the mutator generates for this target (0 = 4096).
 * unguided   1 for targets whose behaviour space is too large to guide on: no generated
 *            input is kept for novelty (docs/signatures.md says when).
 * domain     structured mutation (NULL: byte mutation only); see "Domains".
 * flags      FG_NO_CORPUS: the target has no committed corpus on purpose. Otherwise a gate
 *            run (not a depth run, not the libFuzzer driver) fails a target whose
 *            <corpus>/<name>/ directory is missing or empty, naming the directory and the
 *            command that seeds it: a gate that replays nothing would pass whatever the
 *            corpus path says.
 * skip       why this target cannot run in this build, e.g. "built without brotli
 *            (install libbrotli-dev)"; NULL: it runs. A skipped target stays registered
 *            and listed; every run prints "NAME: skipped: REASON", counts it apart from
 *            passed and failed, and never calls its body (.run may then be NULL).
 * file, line filled in by FG_TARGET.                                                    */
typedef struct fg_target {
    const char *name;
    const char *what;
    uint64_t (*run)(const uint8_t *data, size_t size);
    void (*seed)(fg_seeds *seeds);
    size_t (*allowance)(size_t size);
    unsigned time_ms;
    size_t max_len;
    int unguided;
    const struct fg_domain *domain;
    unsigned flags;
    const char *skip;
    const char *file;
    int line;
} fg_target;

/* fg_target.flags bits. */
#define FG_NO_CORPUS 0x1u /* no committed corpus, on purpose (generated cases only) */

/* A registry link, one per FG_TARGET; the engine owns its `next` field. */
typedef struct fg_registration {
    const fg_target *target;
    struct fg_registration *next;
} fg_registration;

/* Adds a target to the process registry. Called by the constructor FG_TARGET emits; no
 * allocation, safe before main. A second target with the same name is reported as an
 * error by every session (names must be unique). */
void fg_target_register(fg_registration *reg);

/* Declares and registers a target:
 *     FG_TARGET(tlv, .run = tlv_run, .what = "TLV records", .max_len = 4096);
 * The object that holds it must be linked directly, not pulled from an archive: the
 * linker drops archive members nothing references, and a target is never referenced. */
#ifdef __cplusplus /* C++20 wants designators in declaration order: no file/line there */
#define FG_TARGET_INIT_(tname, ...) {.name = #tname, __VA_ARGS__}
#else
#define FG_TARGET_INIT_(tname, ...)                                                        \
    {.name = #tname, .file = __FILE__, .line = __LINE__, __VA_ARGS__}
#endif
#define FG_TARGET(tname, ...)                                                              \
    static const fg_target fg_target_##tname = FG_TARGET_INIT_(tname, __VA_ARGS__);        \
    static fg_registration fg_registration_##tname = {&fg_target_##tname, 0};              \
    __attribute__((constructor)) static void fg_register_##tname(void)                     \
    {                                                                                      \
        fg_target_register(&fg_registration_##tname);                                      \
    }

/* The registered targets, sorted by name (so order never depends on link order).
 * fg_target_count() is how many; fg_target_at(i) is borrowed for the process lifetime;
 * fg_target_find returns NULL for an unknown name. */
size_t fg_target_count(void);
const fg_target *fg_target_at(size_t index);
const fg_target *fg_target_find(const char *name);

/* ===================================================================================== */
/* Checks and signatures                                                                 */
/* ===================================================================================== */

#if defined(__GNUC__)
#define FG_NORETURN __attribute__((noreturn))
#define FG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FG_NORETURN
#define FG_PRINTF(f, a)
#endif

/* Reports a broken invariant of the running case and ends the case: a `check` finding is
 * recorded with file:line, the condition text (NULL for fg_fail) and the formatted
 * message, and the run goes on with the next case. Must be called on the thread running
 * the case. Called outside any case (misuse), it prints the message and aborts. */
FG_NORETURN void fg_fail_at(const char *file, int line, const char *cond, const char *fmt,
                            ...) FG_PRINTF(4, 5);

/* FG_CHECK(cond, fmt, ...): fails the case when cond is false. fmt is required. */
#define FG_CHECK(cond, ...)                                                                \
    do {                                                                                   \
        if (!(cond))                                                                       \
            fg_fail_at(__FILE__, __LINE__, #cond, __VA_ARGS__);                            \
    } while (0)

/* fg_fail(fmt, ...): fails the case unconditionally. */
#define fg_fail(...) fg_fail_at(__FILE__, __LINE__, (const char *)0, __VA_ARGS__)

/* Marks the running case's input as one not to keep (libFuzzer's "return -1"): whatever
 * its signature or coverage, it is not added to the corpus, nor counted as seen (an
 * accepted input doing the same later is news). The case still passes or fails on its
 * oracles. Only on the case's own thread; elsewhere it does nothing. */
void fg_reject(void);

/* More than one signature. Each says something about the running case beyond what its
 * run returns; all are novelty-neutral when never called. Only on the case's own thread;
 * elsewhere (and under libFuzzer or AFL++, through the standalone bridge) they do
 * nothing, and the comparison helpers still compare. */

/* An extra novelty value of this case (0 is allowed): an input whose value the run has not
 * met is kept, as a new signature would be. For targets with several independent states
 * (a parser's state and its decoder's, a set of flags). At most FG_FEATURES_MAX a case;
 * more are ignored. */
#define FG_FEATURES_MAX 64
void fg_feature(uint64_t value);

/* A value to push up (a depth, a count, a distance turned round): slot (< FG_MAX_SLOTS)
 * keeps an input whose value reaches a range of that slot no input reached before. The
 * ranges are a quarter of a power of two wide (1, 2, 3, 4, 5, 6, 7, 8-9, 10-11, ...),
 * so a value that keeps rising keeps finding news with logarithmic resolution. */
#define FG_MAX_SLOTS 16
void fg_maximize(unsigned slot, uint64_t value);

/* Comparison helpers: return what the comparison returns, and tell the mutator both
 * operands so that a build without compiler coverage can still write the wanted value
 * where the input holds the other (input-to-state). Use them for the comparisons that
 * guard what matters: a magic number, a version, a keyword. */
int fg_cmp_u64(uint64_t a, uint64_t b);                  /* a == b */
int fg_cmp_bytes(const void *a, const void *b, size_t n); /* the n bytes are equal */

/* A 64-bit finaliser (splitmix64's); a bijection, so distinct inputs stay distinct. */
static inline uint64_t fg_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* Folds one more value into a signature. Never returns 0, so a folded signature always
 * "says something", and the order of folds matters. */
static inline uint64_t fg_fold(uint64_t sig, uint64_t value)
{
    uint64_t h = fg_mix64(sig ^ fg_mix64(value + 0x9e3779b97f4a7c15ULL));
    return h ? h : 1;
}

/* A signature from two values: fg_sig(outcome, detail). Never 0; fg_sig(0, 0) is the
 * signature of "refused", which is a behaviour too. */
static inline uint64_t fg_sig(uint64_t a, uint64_t b)
{
    return fg_fold(fg_fold(0x6a09e667f3bcc909ULL, a), b);
}

/* A bounded bucket of a count, for signatures: 0 for 0, then one bucket per power of two
 * (1, 2-3, 4-7, ...), never above cap. Folding a length as fg_bucket(len, 8) keeps the
 * signature space small where the raw length would make every input look new. */
static inline unsigned fg_bucket(uint64_t n, unsigned cap)
{
    unsigned b = 0;
    while (n && b < cap) {
        n >>= 1;
        b++;
    }
    return b;
}

/* ===================================================================================== */
/* Typed reads                                                                           */
/* ===================================================================================== */

/* A reader over the case's bytes, for targets that test an API by a sequence of calls
 * with arguments: which operation, which key, which value. Reads go front to back; the
 * engine hears every read of a reader made over the case's own input (fg_reader_of(data,
 * size) with the run's data and size), so the mutator changes an operation into another
 * valid one, moves a value toward its bounds, and duplicates, deletes or splices whole
 * operations (the reads from one fg_read_pick to the next), and the minimiser drops whole
 * operations first (docs/writing-targets.md, "Testing an API"). No allocation; any
 * thread; outside a case (and under libFuzzer or AFL++) it reads the same and tells no one.
 *
 * The byte encoding, so a corpus file can be written by hand. A value is a little-endian
 * word of the fewest of 1, 2, 4 or 8 bytes that holds the largest value the read can give:
 *   fg_read_pick(r, n)        0 bytes when n <= 1 (returns 0); else a word w of the width
 *                             of n - 1, returns w % n: write the index (0..n-1) itself.
 *   fg_read_range(r, lo, hi)  0 bytes when lo == hi; else a word w of the width of hi - lo,
 *                             returns lo + w % (hi - lo + 1): write value - lo. lo and hi
 *                             in the other order are swapped.
 *   fg_read_u8/u16/u32/u64    1, 2, 4, 8 bytes, little-endian.
 *   fg_read_bool              1 byte; its lowest bit.
 *   fg_read_bytes(r, b, cap)  a length read as fg_read_range(r, 0, cap), then that many
 *                             bytes (fewer when the input ends first); returns the count.
 * An exhausted reader (fewer bytes left than a read's width) consumes what is left and
 * returns 0 (lo for a range, nothing copied for bytes): deterministic, never an error.
 * E.g. pick(4), then range(0, 1000), then u32 over bytes 02 e8 03 78 56 34 12 gives 2,
 * 1000, 0x12345678. */
typedef struct fg_reader {
    const uint8_t *data; /* borrowed: the bytes read */
    size_t size;
    size_t pos;          /* the next byte to read (<= size) */
} fg_reader;

fg_reader fg_reader_of(const uint8_t *data, size_t size);
size_t fg_read_pick(fg_reader *r, size_t n);                  /* 0..n-1 */
uint64_t fg_read_range(fg_reader *r, uint64_t lo, uint64_t hi); /* lo..hi inclusive */
uint8_t fg_read_u8(fg_reader *r);
uint16_t fg_read_u16(fg_reader *r);
uint32_t fg_read_u32(fg_reader *r);
uint64_t fg_read_u64(fg_reader *r);
int fg_read_bool(fg_reader *r);                               /* 0 or 1 */
size_t fg_read_bytes(fg_reader *r, void *buf, size_t cap);    /* bytes copied, <= cap */
size_t fg_read_left(const fg_reader *r);                      /* bytes not read yet */

/* ===================================================================================== */
/* Domains                                                                               */
/* ===================================================================================== */

/* The random stream of the case being built; borrowed for the length of a callback. Every
 * draw is a function of (seed, target, case index), so a domain that draws only from it
 * keeps the run deterministic. */
typedef struct fgi_rng fg_rng;
uint64_t fg_rng_u64(fg_rng *rng);
/* Uniform in [0, n); n > 0. */
uint64_t fg_rng_below(fg_rng *rng, uint64_t n);

/* The engine's byte mutation (the havoc a target without a domain gets) applied in place
 * to data[0..size), capacity max_size; returns the new size (<= max_size). For a domain's
 * string leaves, and behind LLVMFuzzerMutate. */
size_t fg_mutate_bytes(fg_rng *rng, uint8_t *data, size_t size, size_t max_size);

/* A domain: the target's inputs are values of a language, read from and written back to
 * bytes. The engine does the sandwich per generated case — read the corpus entry, apply
 * one mutate edit, write — and blends plain byte havoc into the same corpus, so inputs that
 * do not read as a value are still made and still mutated. Corpus files stay bytes.
 * Callbacks run outside any case (no oracle is armed) on the run thread, and must be
 * functions of their arguments and the rng alone (no clock, no addresses), or the run is
 * no longer reproducible. read, write, mutate and free are required: fg_session_run
 * refuses a target whose domain lacks one (FG_EINVAL). docs/domains.md has the details.
 *
 * name     what the values are ("expr"), for people reading the target.
 * max_len  the longest written input (0: the run's max_len; never above it); a value that
 *          writes longer is not run: that case gets byte havoc instead.
 * read     bytes -> a new value, or NULL when the bytes are not one. data is never NULL,
 *          size may be 0.
 * write    value -> bytes into out[0..cap); returns the length it needs, so a return
 *          above cap means "did not fit" (the engine then uses byte havoc).
 * mutate   one edit of value in place; other is another corpus entry's value (read for
 *          this call, freed after it) or NULL. Returns 0 when it changed nothing (the case
 *          then gets byte havoc). Called at most once per case.
 * create   optional: a fresh value from the rng, used for half the cases whose base does
 *          not read; NULL if it can't.
 * free     releases a value from read or create.
 * havoc_percent  share of generated cases that get byte havoc instead (0: 20; above 100:
 *          100). There is no way to turn havoc off: it is what still makes the garbage. */
typedef struct fg_domain {
    const char *name;
    size_t max_len;
    void *(*read)(const uint8_t *data, size_t size);
    size_t (*write)(const void *value, uint8_t *out, size_t cap);
    int (*mutate)(void *value, const void *other, fg_rng *rng);
    void *(*create)(fg_rng *rng);
    void (*free)(void *value);
    unsigned havoc_percent;
} fg_domain;

/* ===================================================================================== */
/* Errors                                                                                */
/* ===================================================================================== */

/* Engine errors: never a target finding. */
#define FG_ERRORS(X)                                                                       \
    X(FG_OK, "ok")                                                                         \
    X(FG_ENOMEM, "out of memory")                                                          \
    X(FG_EIO, "input/output error")                                                        \
    X(FG_EINVAL, "invalid argument")                                                       \
    X(FG_EOPTION, "bad option value")                                                      \
    X(FG_ENOTARGET, "no such target")                                                      \
    X(FG_EDUPTARGET, "two targets share a name")                                           \
    X(FG_ESTORE, "a finding could not be stored")

typedef enum fg_error {
#define FG_ERROR_ENUM(name, text) name,
    FG_ERRORS(FG_ERROR_ENUM)
#undef FG_ERROR_ENUM
        FG_ERROR_COUNT
} fg_error;

/* A static string for an error code; never NULL. */
const char *fg_strerror(fg_error err);

#ifdef __cplusplus
}
#endif

/* The rest is the engine-facing API: C only. */
#ifndef __cplusplus

/* ===================================================================================== */
/* Options                                                                               */
/* ===================================================================================== */

/* Run options. Every option is one row of one table (see docs/cli.md): a name, a flag
 * (--name or --name=value), an environment variable (FUZZGATE_NAME), a type, a default.
 * Precedence: flag, then environment, then default. Parsing is strict: trailing junk,
 * overflow and negative counts are errors naming the option and the value. */
typedef struct fg_options fg_options;

/* A new option set holding the defaults; NULL when out of memory. Free with
 * fg_options_free. */
fg_options *fg_options_new(void);
void fg_options_free(fg_options *opt);

/* Sets one option by its name ("seed", "cases", "max_len", ...) from text, exactly as the
 * flag would. FG_EOPTION on a bad name or value; fg_options_error then says which. */
fg_error fg_options_set(fg_options *opt, const char *name, const char *value);

/* Reads every FUZZGATE_* variable that is set. Call before fg_options_parse so flags win.
 * FG_EOPTION on a bad value. */
fg_error fg_options_from_env(fg_options *opt);

/* Parses argv[1..argc-1]. Flags may come anywhere; "--" ends flags. The positional
 * arguments are moved, in order, to the front of argv+1 and their count stored in
 * *npositional. FG_EOPTION on an unknown flag or bad value. */
fg_error fg_options_parse(fg_options *opt, int argc, char **argv, int *npositional);

/* The message of the last failed set/parse ("option --cases: '-3' is not a count"),
 * borrowed until the next call on opt; "" when there was none. */
const char *fg_options_error(const fg_options *opt);

/* Writes --help text (from the table) to out. */
void fg_options_help(FILE *out);

/* ===================================================================================== */
/* Sessions and outcomes                                                                 */
/* ===================================================================================== */

/* A session runs targets under one set of options: replay of corpus/<target>/, the seeds,
 * then generated cases (a fixed count, or for `seconds` of wall clock). */
typedef struct fg_session fg_session;

/* What one target's run produced. Opaque; read with the accessors below. */
typedef struct fg_outcome fg_outcome;

/* One finding, as read from an outcome. Every pointer is borrowed from the outcome and
 * valid until fg_outcome_free. */
typedef struct fg_finding {
    const char *target;   /* target name */
    const char *kind;     /* "check", "crash", "write", "exit", "amplification",
                           * "retention", "timeout" (docs/oracles.md) */
    const char *class_id; /* kind + hash of the normalised detail, e.g. "check-1f0e..." */
    const char *detail;   /* human detail: file:line and message, signal, ... */
    const uint8_t *data;  /* the exact input bytes */
    size_t size;
    const char *hex;        /* the bytes as lowercase hex */
    const char *origin;     /* "case 812" or "corpus/tlv/boundary-empty" */
    const char *mutations;  /* mutators applied to produce it, "" for replayed inputs */
    const char *path;       /* the stored .bin, or NULL if it could not be written */
    const char *replay;     /* one command that replays it */
    unsigned count;         /* how many cases of this run landed in this class */
    const char *known;      /* the reason from corpus/<target>/known.txt, or NULL: a known
                             * class is counted and reported but does not fail the gate */
} fg_finding;

/* A new session; NULL with *err set (FG_ENOMEM, FG_EDUPTARGET). opt is copied; NULL means
 * defaults (the environment is not read: call fg_options_from_env for that). */
fg_session *fg_session_new(const fg_options *opt, fg_error *err);
void fg_session_free(fg_session *s);

/* Sets the program name used in replay commands (default "fuzzgate"). Copied. */
fg_error fg_session_set_program(fg_session *s, const char *argv0);

/* Runs one target to completion and stores an outcome in *out (caller frees with
 * fg_outcome_free). Findings are failures of the target, not errors: the return value is
 * FG_OK for a run that found bugs. Not callable during a case. Status lines (depth runs)
 * and warnings go to the session's log stream (stderr). */
fg_error fg_session_run(fg_session *s, const fg_target *t, fg_outcome **out);

/* Replays one file through a target and stores an outcome describing it. */
fg_error fg_session_replay(fg_session *s, const fg_target *t, const char *path,
                           fg_outcome **out);

/* Writes report.json (deterministic), timing.json (times), FUZZ.md (a summary for people)
 * and coverage.svg (a plot over cases) into the findings directory, covering every
 * fg_session_run so far (docs/reports.md). Each file is written atomically. */
fg_error fg_session_write_reports(fg_session *s);

void fg_outcome_free(fg_outcome *o);
int fg_outcome_passed(const fg_outcome *o);       /* 1 when it ran and every finding is known */
/* The target's .skip reason when the run was skipped (borrowed from the outcome), else
 * NULL. A skipped outcome has not passed, has not failed, and ran nothing. */
const char *fg_outcome_skipped(const fg_outcome *o);
uint64_t fg_outcome_cases(const fg_outcome *o);   /* generated cases run */
size_t fg_outcome_replayed(const fg_outcome *o);  /* corpus files + seeds replayed */
size_t fg_outcome_corpus(const fg_outcome *o);    /* inputs kept at the end */
size_t fg_outcome_finding_count(const fg_outcome *o); /* distinct classes */
const fg_finding *fg_outcome_finding(const fg_outcome *o, size_t index);
/* The per-target summary line ("tlv: PASS 20000 cases, corpus 14, 0 findings", or
 * "tlv: skipped: REASON"), with one indented line per finding; written to out. */
void fg_outcome_print(const fg_outcome *o, FILE *out);

/* ===================================================================================== */
/* Gate and driver                                                                       */
/* ===================================================================================== */

/* Runs the gate inside any test program: the targets named in the comma-separated list
 * `names` (NULL or "" = all registered), with opt (NULL = defaults plus the FUZZGATE_*
 * environment, so FUZZGATE_SECONDS turns a unit test into a depth run). Prints each
 * target's summary to out. Returns 0 when every target passed or was skipped, 1 when any
 * failed, 2 on a usage or engine error (message on out). Does not exit, does not print a
 * closing line: the host's test runner owns that. */
int fg_gate_run(const char *names, const fg_options *opt, FILE *out);

/* The whole fuzzgate command line: options, --list, --help, a gate over the selected
 * targets (closing with "N passed, N failed", then ", N skipped" when any target was
 * skipped), or `PROG TARGET FILE...` to replay files. Returns the exit status: 0 passed,
 * 1 findings, 2 usage or engine error, 128 + N when signal N (SIGINT, SIGTERM) ended the
 * run (its reports written). Link libfuzzgate_main.a (or call this from your own main) to
 * get a driver. */
int fg_main(int argc, char **argv);

#endif /* !__cplusplus */

#endif /* FUZZGATE_H */
