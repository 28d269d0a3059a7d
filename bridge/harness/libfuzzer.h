/* bridge/harness/libfuzzer.h — the libFuzzer driver: a harness written for libFuzzer
 * (LLVMFuzzerTestOneInput and friends) run as one fuzzgate target, with libFuzzer's
 * command line. main() lives in libfuzzer_main.c (libfuzzgate_libfuzzer.a), which is the
 * only object that names the harness's symbols; everything else is here and in
 * lf_flags.c, inside libfuzzgate.a, so the unit tests drive it with their own hooks.
 */
#ifndef FG_LIBFUZZER_H
#define FG_LIBFUZZER_H

#include "engine/internal.h"

/* The harness's entry points; all but test_one may be NULL (weak, not defined). */
typedef struct fgi_lf_hooks {
    int (*test_one)(const uint8_t *data, size_t size);
    int (*init)(int *argc, char ***argv);
    size_t (*mutator)(uint8_t *data, size_t size, size_t max_size, unsigned seed);
    size_t (*cross_over)(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                         uint8_t *out, size_t max_out, unsigned seed);
} fgi_lf_hooks;

/* What a libFuzzer command line asks for beyond the fuzzgate options it maps onto. */
typedef struct fgi_lf_config {
    fg_options *opt;          /* the fuzzgate options the flags were mapped onto (owned) */
    char **inputs;            /* positional arguments (corpus dirs or files), in argv */
    int ninputs;
    const char *seed_inputs;  /* -seed_inputs, borrowed from argv; NULL if not given */
    const char *mode;         /* the first -merge/-minimize_crash-like flag given, or NULL */
    int help;                 /* -help=1 */
    int print_final_stats;    /* -print_final_stats=1 */
    int error_exitcode;       /* status for a run with findings (libFuzzer's 77) */
    int interrupted_exitcode; /* status for a run ended by SIGINT/SIGTERM (libFuzzer's 72) */
    unsigned close_fd_mask;   /* 1 stdout, 2 stderr */
    uint64_t allowance_mb;    /* per-case heap allowance in MiB; 0 = unlimited */
    unsigned time_ms;         /* the harness target's .time_ms (libFuzzer's 1200 s) */
} fgi_lf_config;

/* Parses a libFuzzer command line (argv[0] is the program) into c: libFuzzer -flags per
 * bridge/harness/libfuzzer_flags.def, --flags as fuzzgate's own, FUZZGATE_* variables under both.
 * Warnings (unknown or ignored flags, limits this build lacks) go to log. Returns 0, or 2
 * for a usage error (the message, naming the flag, is on log); c->opt is set either way
 * and freed by fgi_lf_config_free. argv's positional arguments are borrowed. */
FGI_HIDDEN int fgi_lf_parse(fgi_lf_config *c, int argc, char **argv, FILE *log);
FGI_HIDDEN void fgi_lf_config_free(fgi_lf_config *c);
/* The -help=1 text: usage and one line per flag of the table. */
FGI_HIDDEN void fgi_lf_help(FILE *out, const char *argv0);
/* The name of flag row `index` of libfuzzer_flags.def ("runs"); NULL past the last. */
FGI_HIDDEN const char *fgi_lf_flag_at(size_t index);
/* 1 when this build has a fuzzgate option of that name (a field of options.def). */
FGI_HIDDEN int fgi_lf_option_exists(const char *name);

/* What the start-up banner says besides coverage. */
typedef struct fgi_lf_facts {
    uint64_t seed;
    size_t dict_entries;
    int fuzzing;          /* a run over inputs (not a merge or a minimisation)... */
    size_t inputs;        /* ...which read this many corpus files and file arguments */
    size_t max_len;
    const char *keep_dir; /* where kept inputs are written, or NULL */
} fgi_lf_facts;

/* The start-up banner (lf_banner.c), on log: the seed; the coverage the harness has
 * (modules and edges, or a warning and how to add it), found by running the empty input
 * once in a forked child; comparison tracing; a heap oracle a -static link blinded; the
 * dictionary, inputs read and max_len. Before the run, never during a case. */
FGI_HIDDEN void fgi_lf_banner(FILE *log, const fgi_lf_hooks *h, const fgi_lf_facts *f);

/* The whole driver: LLVMFuzzerInitialize, the flags, then a run over the corpus
 * directories or a replay of the files named. Returns the exit status: 0 passed,
 * error_exitcode (77) for findings, 2 for a usage or engine error, interrupted_exitcode
 * (72) after SIGINT or SIGTERM (with libFuzzer's "run interrupted; exiting" line). A fatal
 * signal ends the process from inside, as under libFuzzer. */
FGI_HIDDEN int fgi_libfuzzer_main(int argc, char **argv, const fgi_lf_hooks *h);

/* LLVMFuzzerMutate: the engine's byte mutation, on the current case's random stream
 * while a custom mutator runs (else on a stream of the driver's seed). */
FGI_HIDDEN size_t fgi_libfuzzer_mutate(uint8_t *data, size_t size, size_t max_size);

/* The domain behind LLVMFuzzerCustomMutator / LLVMFuzzerCustomCrossOver: values are byte
 * strings of capacity max_len. NULL when h defines neither. Borrowed; one per process
 * (the hooks are copied into it). */
FGI_HIDDEN const fg_domain *fgi_libfuzzer_domain(const fgi_lf_hooks *h, size_t max_len);

#endif
