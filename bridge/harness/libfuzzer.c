/* bridge/harness/libfuzzer.c — a libFuzzer harness run as one fuzzgate target.
 *
 * The harness becomes a target named after the program (basename of argv[0]):
 *   run        LLVMFuzzerTestOneInput; a return of -1 is fg_reject (the input is not
 *              kept); the signature is 0, so novelty comes from compiler coverage
 *              (-fsanitize-coverage=trace-pc,trace-cmp, which pkg-config adds);
 *   seed       every file of the corpus directories, the file arguments and -seed_inputs;
 *   allowance  -malloc_limit_mb (else -rss_limit_mb, 2048) MiB per case;
 *   time_ms    libFuzzer's -timeout default, 1200 s;
 *   max_len    the larger of 4096 and the longest seed (libFuzzer's guess);
 *   domain     LLVMFuzzerCustomMutator / LLVMFuzzerCustomCrossOver, when defined.
 * The target is never registered: the session is handed it directly, so a host's own
 * targets and this one never meet in the registry.
 */
#include "bridge/harness/libfuzzer.h"
#include "engine/run/session.h"

#include "engine/base/dir.h"
#include "engine/base/errout.h"
#include "engine/findings/merge.h"
#include "engine/run/options.h"
#include "engine/findings/outcome.h"
#include "engine/run/registry.h"
#include "engine/base/rng.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIBFUZZER_MIN_MAX_LEN 4096 /* libFuzzer's floor for the max_len it guesses */
#define SEED_FILE_LIMIT ((size_t)64 << 20) /* arbitrary, as the corpus replay's */

/* Process-wide because fg_target's callbacks and LLVMFuzzerMutate take no context: the
 * harness's hooks, its seeds and the random stream of the mutation in progress. Written
 * by the run thread before the session starts (rng: around each custom-mutator call);
 * read by that thread only. */
static struct {
    fgi_lf_hooks hooks;
    fg_seeds seeds;         /* the inputs read from the corpus dirs and files */
    uint64_t allowance;     /* bytes; SIZE_MAX = unlimited */
    size_t max_len;         /* the domain's value capacity */
    fg_rng *rng;            /* the case's stream while a custom mutator runs, else NULL */
    fgi_rng fallback;       /* LLVMFuzzerMutate outside one: a stream of the seed */
    fg_domain domain;
} lf;

static uint64_t lf_run(const uint8_t *data, size_t size)
{
    if (lf.hooks.test_one(data, size) == -1)
        fg_reject();
    return 0;
}

static void lf_seed(fg_seeds *seeds)
{
    for (size_t i = 0; i < lf.seeds.count; i++)
        fg_seeds_add(seeds, lf.seeds.items[i].data, lf.seeds.items[i].size);
}

static size_t lf_allowance(size_t size)
{
    (void)size;
    return (size_t)lf.allowance;
}

/* ---- the custom-mutator domain ------------------------------------------------------ */

typedef struct lf_value {
    size_t size, cap;
    uint8_t data[];
} lf_value;

static lf_value *value_new(size_t cap)
{
    lf_value *v = fgi_malloc(sizeof *v + (cap ? cap : 1));
    if (v) {
        v->size = 0;
        v->cap = cap;
    }
    return v;
}

static void *dom_read(const uint8_t *data, size_t size)
{
    lf_value *v = value_new(FGI_MAX(size, lf.max_len));
    if (v) {
        memcpy(v->data, data, size);
        v->size = size;
    }
    return v;
}

static size_t dom_write(const void *value, uint8_t *out, size_t cap)
{
    const lf_value *v = value;
    if (v->size <= cap)
        memcpy(out, v->data, v->size);
    return v->size;
}

/* One libFuzzer mutation: the custom crossover (when there is a partner, half the time
 * if a custom mutator exists too), else the custom mutator, else the engine's bytes. */
static int dom_mutate(void *value, const void *other, fg_rng *rng)
{
    lf_value *v = value;
    const lf_value *o = other;
    unsigned seed = (unsigned)fg_rng_u64(rng);
    size_t n;
    lf.rng = rng;
    if (lf.hooks.cross_over && o && (!lf.hooks.mutator || fg_rng_below(rng, 2) == 0)) {
        uint8_t *out = fgi_malloc(v->cap ? v->cap : 1);
        if (!out) {
            lf.rng = NULL;
            return 0;
        }
        n = lf.hooks.cross_over(v->data, v->size, o->data, o->size, out, v->cap, seed);
        n = FGI_MIN(n, v->cap);
        memcpy(v->data, out, n);
        fgi_free(out);
    } else if (lf.hooks.mutator) {
        n = lf.hooks.mutator(v->data, v->size, v->cap, seed);
    } else {
        n = fg_mutate_bytes(rng, v->data, v->size, v->cap);
    }
    lf.rng = NULL;
    v->size = FGI_MIN(n, v->cap);
    return 1;
}

static void *dom_create(fg_rng *rng)
{
    (void)rng;
    return value_new(lf.max_len); /* empty: libFuzzer's custom mutators start from "" */
}

static void dom_free(void *value)
{
    fgi_free(value);
}

const fg_domain *fgi_libfuzzer_domain(const fgi_lf_hooks *h, size_t max_len)
{
    lf.hooks = *h;
    lf.max_len = max_len ? max_len : FGI_DEFAULT_MAX_LEN;
    if (!h->mutator && !h->cross_over)
        return NULL;
    lf.domain = (fg_domain){
        .name = "libfuzzer-custom",
        .read = dom_read,
        .write = dom_write,
        .mutate = dom_mutate,
        .create = dom_create,
        .free = dom_free,
        /* libFuzzer uses only the custom mutator when there is one; the engine's byte
         * havoc is kept to the smallest share it takes. A crossover alone mixes. */
        .havoc_percent = h->mutator ? 1 : 0,
    };
    return &lf.domain;
}

size_t fgi_libfuzzer_mutate(uint8_t *data, size_t size, size_t max_size)
{
    return fg_mutate_bytes(lf.rng ? lf.rng : &lf.fallback, data, size, max_size);
}

/* ---- inputs ------------------------------------------------------------------------- */

static int add_seed_file(const char *path, FILE *log)
{
    uint8_t *data;
    size_t size;
    fg_error e = fgi_file_read(path, SEED_FILE_LIMIT, &data, &size);
    if (e != FG_OK) {
        fprintf(log, "fuzzgate: cannot read %s: %s\n", path, fgi_strerror_io(e));
        return 2;
    }
    int rc = fg_seeds_add(&lf.seeds, data, size) == 0 ? 0 : 2;
    fgi_free(data);
    return rc;
}

static int add_seed_dir(const char *dir, FILE *log)
{
    fgi_names names;
    int missing = 0;
    fg_error e = fgi_dir_list(dir, &names, &missing);
    if (e != FG_OK) {
        fprintf(log, "fuzzgate: cannot read corpus directory %s: %s\n", dir,
                fgi_strerror_io(e));
        return 2;
    }
    int rc = 0;
    fgi_str path = {0};
    for (size_t i = 0; i < names.count && rc == 0; i++) {
        path.len = 0;
        fgi_str_addf(&path, "%s/%s", dir, names.names[i]);
        rc = path.failed ? 2 : add_seed_file(path.buf, log);
    }
    fprintf(log, "INFO: loaded %zu files from %s\n", names.count, dir);
    fgi_str_free(&path);
    fgi_names_free(&names);
    return rc;
}

/* -seed_inputs=a,b,c or -seed_inputs=@listfile (the list in the file, comma-separated). */
static int add_seed_inputs(const char *spec, FILE *log)
{
    uint8_t *listed = NULL;
    size_t n;
    if (spec[0] == '@') {
        fg_error e = fgi_file_read(spec + 1, SEED_FILE_LIMIT, &listed, &n);
        if (e != FG_OK) {
            fprintf(log, "fuzzgate: -seed_inputs: cannot read %s: %s\n", spec + 1,
                    fgi_strerror_io(e));
            return 2;
        }
        char *text = fgi_realloc(listed, n + 1);
        if (!text) {
            fgi_free(listed);
            return 2;
        }
        text[n] = '\0';
        listed = (uint8_t *)text;
        spec = text;
    }
    int rc = 0;
    fgi_str one = {0};
    for (const char *p = spec; *p && rc == 0;) {
        size_t len = strcspn(p, ",\n");
        if (len) {
            one.len = 0;
            fgi_str_addn(&one, p, len);
            rc = one.failed ? 2 : add_seed_file(fgi_str_cstr(&one), log);
        }
        p += len + (p[len] != '\0');
    }
    fgi_str_free(&one);
    fgi_free(listed);
    return rc;
}

/* ---- the run ------------------------------------------------------------------------ */

static void print_findings(const fg_outcome *o, const char *argv0, FILE *out)
{
    fprintf(out, "%s: %s %llu cases, corpus %zu, %zu finding%s\n", o->target,
            fg_outcome_passed(o) ? "PASS" : "FAIL", (unsigned long long)o->cases, o->corpus,
            o->nfindings, o->nfindings == 1 ? "" : "s");
    for (size_t i = 0; i < fg_outcome_finding_count(o); i++) {
        const fg_finding *f = fg_outcome_finding(o, i);
        fprintf(out, "  %s%s %s (x%u, %zu bytes, %s): %s\n", f->known ? "known " : "",
                f->kind, f->class_id, f->count, f->size, f->origin, f->detail);
        fprintf(out, "    replay: %s %s\n", argv0, f->path ? f->path : "(not stored)");
    }
}

static void final_stats(const fg_outcome *o, FILE *out)
{
    struct rusage ru;
    long rss_mb = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss / 1024 : 0;
    uint64_t units = o->cases + o->replayed;
    fprintf(out, "stat::number_of_executed_units: %llu\n", (unsigned long long)units);
    fprintf(out, "stat::average_exec_per_sec:     %llu\n",
            (unsigned long long)(o->seconds > 0 ? (double)units / o->seconds : 0));
    fprintf(out, "stat::new_units_added:          %llu\n", (unsigned long long)o->kept);
    fprintf(out, "stat::slowest_unit_time_sec:    %u\n", o->slowest_ms / 1000);
    fprintf(out, "stat::peak_rss_mb:              %ld\n", rss_mb);
}

/* -close_fd_mask: the harness's stdout (1) and stderr (2) go to /dev/null. The engine's
 * own reports keep a private copy of stderr (as libFuzzer's do), so a quiet harness
 * still shows its status, its findings and their artifact lines. */
static void close_fds(unsigned mask)
{
    if ((mask & 2) && fgi_errout_keep() != FG_OK) {
        fprintf(stderr, "fuzzgate: -close_fd_mask=%u: cannot keep a copy of stderr (%s): "
                        "stderr stays open\n", mask, strerror(errno));
        mask &= ~2u;
    }
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0)
        return;
    if (mask & 1)
        dup2(null, 1);
    if (mask & 2)
        dup2(null, 2);
    close(null);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* After an interrupt (SIGINT, SIGTERM): libFuzzer's line, its final stats when asked
 * (of o, when there is one), and its status. */
static int interrupted(const fgi_lf_config *c, const fg_outcome *o, FILE *log)
{
    fprintf(log, "==%d== libFuzzer: run interrupted; exiting\n", (int)getpid());
    if (o && c->print_final_stats)
        final_stats(o, log);
    return c->interrupted_exitcode;
}

/* Each file argument once, as libFuzzer runs a crash file to reproduce it. */
static int run_files(fg_session *s, const fg_target *t, const fgi_lf_config *c,
                     const char *argv0, FILE *log)
{
    int status = 0;
    for (int i = 0; i < c->ninputs; i++) {
        fprintf(log, "Running: %s\n", c->inputs[i]);
        fg_outcome *o = NULL;
        fg_error e = fg_session_replay(s, t, c->inputs[i], &o);
        if (e != FG_OK) {
            fprintf(log, "fuzzgate: %s: %s\n", c->inputs[i], fgi_strerror_io(e));
            status = 2;
            continue;
        }
        if (fg_outcome_passed(o)) {
            fprintf(log, "Executed %s: ok\n", c->inputs[i]);
        } else {
            print_findings(o, argv0, log);
            if (status == 0)
                status = c->error_exitcode;
        }
        fg_outcome_free(o);
        if (fgi_run_interrupted())
            return interrupted(c, NULL, log);
    }
    return status;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Reads the positional arguments: *all_files says whether every one is a file. */
static int classify_inputs(const fgi_lf_config *c, int *all_files, FILE *log)
{
    *all_files = c->ninputs > 0;
    for (int i = 0; i < c->ninputs; i++) {
        struct stat st;
        if (stat(c->inputs[i], &st) != 0) {
            fprintf(log, "fuzzgate: ERROR: '%s' (a corpus directory or an input file): %s\n",
                    c->inputs[i], strerror(errno));
            return 2;
        }
        if (S_ISDIR(st.st_mode))
            *all_files = 0;
    }
    return 0;
}

static int load_seeds(const fgi_lf_config *c, FILE *log)
{
    int rc = 0;
    for (int i = 0; i < c->ninputs && rc == 0; i++)
        rc = is_dir(c->inputs[i]) ? add_seed_dir(c->inputs[i], log)
                                  : add_seed_file(c->inputs[i], log);
    if (rc == 0 && c->seed_inputs)
        rc = add_seed_inputs(c->seed_inputs, log);
    return rc;
}

/* The first corpus directory is where libFuzzer writes the inputs it keeps, named by
 * their SHA-1, and where the next run finds them; --corpus-out=DIR asks for fuzzgate's
 * layout (DIR/<program>/<sha1>) instead. */
static const char *keep_dir(const fgi_lf_config *c)
{
    if (c->mode || (c->opt->v.corpus_out && c->opt->v.corpus_out[0]))
        return NULL;
    for (int i = 0; i < c->ninputs; i++)
        if (is_dir(c->inputs[i]))
            return c->inputs[i];
    return NULL;
}

/* -merge=1, -set_cover_merge=1, -minimize_crash=1: each does its job once and ends. */
static int run_mode(fg_session *s, const fg_target *t, const fgi_lf_config *c, FILE *log)
{
    int minimize = strcmp(c->mode, "minimize_crash") == 0;
    if (minimize && c->ninputs == 1)
        return fgi_mode_minimize(s, t, c->inputs[0], log);
    if (!minimize && c->ninputs >= 1) {
        /* libFuzzer's -merge=1 walks the inputs smallest first and keeps each that adds a
         * feature; -set_cover_merge=1 is fuzzgate's weighted set cover. */
        s->merge_how = strcmp(c->mode, "merge") == 0 ? FGI_MERGE_SMALLEST_FIRST
                                                     : FGI_MERGE_COVER;
        return fgi_mode_merge(s, t, c->inputs[0], c->ninputs - 1, c->inputs + 1, log);
    }
    fprintf(log, "fuzzgate: -%s needs %s\n", c->mode,
            minimize ? "exactly one crash file" : "an output directory and inputs");
    return 2;
}

/* A run in this process ends at its memory limit (oracle/rss.h) with an `oom` finding,
 * and libFuzzer exits 71 then, whatever -error_exitcode says (its OOMExitCode). */
#define LIBFUZZER_OOM_EXIT 71

static int ended_out_of_memory(const fg_outcome *o)
{
    for (size_t i = 0; i < fg_outcome_finding_count(o); i++) {
        const fg_finding *f = fg_outcome_finding(o, i);
        if (!f->known && strcmp(f->kind, "oom") == 0)
            return 1;
    }
    return 0;
}

static int run_fuzz(fg_session *s, const fg_target *t, const fgi_lf_config *c,
                    const char *argv0, FILE *log)
{
    fg_outcome *o = NULL;
    fg_error e = fg_session_run(s, t, &o);
    if (e != FG_OK) {
        fprintf(log, "fuzzgate: %s: %s\n", t->name, fgi_strerror_io(e));
        return 2;
    }
    print_findings(o, argv0, log);
    int status;
    if (fgi_run_interrupted()) { /* no "Done" line: libFuzzer's users read its absence */
        status = interrupted(c, o, log);
    } else {
        fprintf(log, "Done %llu runs in %.0f second(s)\n",
                (unsigned long long)(o->cases + o->replayed), o->seconds);
        if (c->print_final_stats)
            final_stats(o, log);
        status = fg_outcome_passed(o) ? 0 : c->error_exitcode;
        if (status && !c->opt->v.fork && ended_out_of_memory(o))
            status = LIBFUZZER_OOM_EXIT;
    }
    if (o->store_failed)
        status = 2;
    fg_outcome_free(o);
    return status;
}

static int run(fgi_lf_config *c, const fgi_lf_hooks *h, const char *argv0, FILE *log)
{
    int all_files, rc = classify_inputs(c, &all_files, log);
    if (rc)
        return rc;
    if (!all_files && !c->mode && (rc = load_seeds(c, log)))
        return rc;
    size_t longest = 0;
    for (size_t i = 0; i < lf.seeds.count; i++)
        longest = FGI_MAX(longest, lf.seeds.items[i].size);
    lf.allowance = c->allowance_mb ? c->allowance_mb << 20 : SIZE_MAX;
    fg_target t = {
        .name = base_name(argv0),
        .what = "a libFuzzer harness (LLVMFuzzerTestOneInput)",
        .run = lf_run,
        .seed = lf_seed,
        .allowance = lf_allowance,
        .time_ms = c->time_ms,
        .max_len = FGI_MAX(longest, (size_t)LIBFUZZER_MIN_MAX_LEN),
    };
    size_t max_len = c->opt->v.max_len ? (size_t)c->opt->v.max_len : t.max_len;
    t.domain = fgi_libfuzzer_domain(h, max_len);
    fgi_rng_case(&lf.fallback, c->opt->v.seed, fgi_hash_str(t.name), 0);

    fg_error e;
    fg_session *s = fg_session_new(c->opt, &e);
    if (!s) {
        if (e != FG_EOPTION) /* a bad option value has said so, naming it */
            fprintf(log, "fuzzgate: %s\n", fg_strerror(e));
        return 2;
    }
    fg_session_set_program(s, argv0);
    s->keep_dir = keep_dir(c);
    s->interrupt_status = c->interrupted_exitcode; /* a stuck case's last resort says so */
    s->findings_status = c->error_exitcode;
    s->lf_interrupt = 1;
    fgi_lf_facts facts = {c->opt->v.seed, s->dict.count, !c->mode,
                          all_files ? (size_t)c->ninputs : lf.seeds.count, max_len,
                          s->keep_dir};
    fgi_lf_banner(log, h, &facts);
    int status = c->mode    ? run_mode(s, &t, c, log)
                 : all_files ? run_files(s, &t, c, argv0, log)
                             : run_fuzz(s, &t, c, argv0, log);
    if (c->mode && fgi_run_interrupted())
        status = interrupted(c, NULL, log);
    fg_session_free(s);
    return status;
}

int fgi_libfuzzer_main(int argc, char **argv, const fgi_lf_hooks *h)
{
    lf.hooks = *h;
    if (h->init)
        h->init(&argc, &argv);
    fgi_lf_config c;
    int status = fgi_lf_parse(&c, argc, argv, stderr);
    const char *argv0 = argc > 0 && argv[0] ? argv[0] : "fuzzer";
    if (status == 0 && c.help) {
        fgi_lf_help(stdout, argv0);
    } else if (status == 0) {
        if (c.close_fd_mask)
            close_fds(c.close_fd_mask);
        status = run(&c, h, argv0, fgi_errout_file());
    }
    fgi_seeds_free(&lf.seeds);
    memset(&lf.seeds, 0, sizeof lf.seeds);
    fgi_lf_config_free(&c);
    return status;
}
