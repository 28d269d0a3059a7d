/* bridge/harness/lf_flags.c — a libFuzzer command line mapped onto fuzzgate options, by name.
 *
 * The rows are bridge/harness/libfuzzer_flags.def. A libFuzzer flag reaches the engine only
 * through fg_options_set(name, text), so a flag whose fuzzgate option arrives later (a
 * LIMIT or MODE row) starts working when that option is added to options.def, with no
 * change here. The forms, by example:
 *     -runs=1000            a libFuzzer flag (strictly -name=value)
 *     --cases=1000          a fuzzgate flag, exactly as the fuzzgate driver takes it
 *     corpus/ crash-1234    positional: corpus directories, or files to run once
 * Values are parsed strictly (-runs=12abc is an error naming -runs, exit status 2), where
 * libFuzzer's atol would read 12; an unknown -flag is a warning, as in libFuzzer.
 */
#include "bridge/harness/libfuzzer.h"

#include "engine/run/options.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

enum lf_type { LF_INT, LF_COUNT, LF_TEXT };
enum lf_handling { LF_OPTION, LF_LIMIT, LF_MODE, LF_DRIVER, LF_IGNORED };

typedef struct lf_row {
    const char *name;
    enum lf_type type;
    enum lf_handling handling;
    const char *option; /* the fuzzgate option it feeds, "" for none */
    const char *note;
} lf_row;

static const lf_row lf_rows[] = {
#define LF_FLAG(name, type, handling, option, note)                                        \
    {#name, LF_##type, LF_##handling, option, note},
#include "bridge/harness/libfuzzer_flags.def"
#undef LF_FLAG
};

/* The fuzzgate options this build has: the fields of options.def. */
static const char *const fuzzgate_fields[] = {
#define FG_OPTION(field, flag, env, type, def, help) #field,
#include "engine/run/options.def"
#undef FG_OPTION
};

/* Arbitrary: "run until stopped" is a depth run of ten years, so status lines appear. */
#define FOREVER_SECONDS "315360000"
#define LIBFUZZER_TIMEOUT_MS 1200000u /* libFuzzer's default -timeout=1200 */
#define LIBFUZZER_RSS_LIMIT_MB 2048u  /* libFuzzer's default -rss_limit_mb */

const char *fgi_lf_flag_at(size_t index)
{
    return index < FGI_ARRAY_LEN(lf_rows) ? lf_rows[index].name : NULL;
}

int fgi_lf_option_exists(const char *name)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(fuzzgate_fields); i++)
        if (strcmp(fuzzgate_fields[i], name) == 0)
            return 1;
    return 0;
}

static const lf_row *row_named(const char *name, size_t len)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(lf_rows); i++)
        if (strlen(lf_rows[i].name) == len && strncmp(lf_rows[i].name, name, len) == 0)
            return &lf_rows[i];
    return NULL;
}

/* Strict decimal: an optional '-' (INT only), digits, nothing after. */
static int parse_int(const char *s, enum lf_type type, long long *out)
{
    if (!*s || (type == LF_COUNT && *s == '-') || *s == '+' || *s == ' ')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *out = v;
    return 0;
}

/* What the flags said that the driver settles after the last one. */
typedef struct parse_state {
    long long runs;         /* -runs; -1 = until stopped */
    int runs_given;
    long long timeout_s;    /* -timeout */
    int timeout_given;
    long long rss_mb, malloc_mb;
    int rss_given;
    int time_given;         /* -max_total_time */
    int native_length;      /* --cases or --seconds: fuzzgate's own say on the length */
} parse_state;

static int set_option(fgi_lf_config *c, const char *flag, const char *name,
                      const char *value, FILE *log)
{
    if (fg_options_set(c->opt, name, value) == FG_OK)
        return 0;
    fprintf(log, "fuzzgate: -%s=%s: %s\n", flag, value, fg_options_error(c->opt));
    return 2;
}

/* The DRIVER rows. 0, or 2 with the message on log. */
static int driver_flag(fgi_lf_config *c, parse_state *p, const lf_row *r, const char *value,
                       long long v, FILE *log)
{
    const char *n = r->name;
    if (strcmp(n, "runs") == 0) {
        p->runs = v < 0 ? -1 : v;
        p->runs_given = 1;
    } else if (strcmp(n, "seed") == 0) {
        if (v != 0) /* libFuzzer's 0 is "pick one at random": here, the fixed default */
            return set_option(c, n, "seed", value, log);
    } else if (strcmp(n, "timeout") == 0) {
        p->timeout_s = v;
        p->timeout_given = 1;
    } else if (strcmp(n, "malloc_limit_mb") == 0) {
        p->malloc_mb = v;
    } else if (strcmp(n, "artifact_prefix") == 0) {
        return set_option(c, n, "artifact_prefix", *value ? value : "./", log);
    } else if (strcmp(n, "print_final_stats") == 0) {
        c->print_final_stats = v != 0;
    } else if (strcmp(n, "error_exitcode") == 0) {
        if (v < 0 || v > 255) {
            fprintf(log, "fuzzgate: -error_exitcode=%s: not an exit status (0-255)\n", value);
            return 2;
        }
        c->error_exitcode = (int)v;
    } else if (strcmp(n, "interrupted_exitcode") == 0) {
        if (v < 0 || v > 255) {
            fprintf(log, "fuzzgate: -interrupted_exitcode=%s: not an exit status (0-255)\n",
                    value);
            return 2;
        }
        c->interrupted_exitcode = (int)v;
    } else if (strcmp(n, "seed_inputs") == 0) {
        c->seed_inputs = value;
    } else if (strcmp(n, "close_fd_mask") == 0) {
        c->close_fd_mask = (unsigned)(v & 3);
    } else if (strcmp(n, "help") == 0) {
        c->help = v != 0;
    } else {
        FG_ASSERT(!"a DRIVER row without a case");
    }
    return 0;
}

/* One -name=value argument. 0, or 2 for a usage error. *rest is set by
 * -ignore_remaining_args=1. */
static int libfuzzer_flag(fgi_lf_config *c, parse_state *p, const char *arg, int *rest,
                          FILE *log)
{
    const char *name = arg + 1, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const lf_row *r = row_named(name, len);
    if (!r) {
        fprintf(log, "WARNING: unrecognized flag '%s'; fuzzgate's libFuzzer driver ignores it "
                     "(-help=1 lists the flags it knows)\n", arg);
        return 0;
    }
    if (!eq) {
        fprintf(log, "fuzzgate: -%s needs a value (-%s=%s)\n", r->name, r->name,
                r->type == LF_TEXT ? "TEXT" : "N");
        return 2;
    }
    const char *value = eq + 1;
    long long v = 0;
    if (r->type != LF_TEXT && parse_int(value, r->type, &v) != 0) {
        fprintf(log, "fuzzgate: -%s: '%s' is not %s\n", r->name, value,
                r->type == LF_COUNT ? "a count (a decimal number, no sign)"
                                    : "an integer (decimal)");
        return 2;
    }
    if (strcmp(r->name, "ignore_remaining_args") == 0) {
        *rest = v != 0;
        return 0;
    }
    switch (r->handling) {
    case LF_DRIVER:
        return driver_flag(c, p, r, value, v, log);
    case LF_IGNORED:
        fprintf(log, "INFO: fuzzgate ignores %s (see docs/libfuzzer.md)\n", arg);
        return 0;
    case LF_MODE:
        if (v == 0)
            return 0;
        if (!fgi_lf_option_exists(r->option)) {
            fprintf(log, "fuzzgate: %s: not supported by this build (it has no fuzzgate "
                         "option '%s')\n", arg, r->option);
            return 2;
        }
        if (!c->mode)
            c->mode = r->name;
        return set_option(c, r->name, r->option, "1", log);
    case LF_LIMIT:
        if (strcmp(r->name, "rss_limit_mb") == 0) {
            p->rss_mb = v;
            p->rss_given = 1;
        }
        if (!fgi_lf_option_exists(r->option)) {
            fprintf(log, "WARNING: %s: not supported by this build (it has no fuzzgate "
                         "option '%s'); the run goes on without it\n", arg, r->option);
            return 0;
        }
        if (strcmp(r->name, "fork") == 0) { /* -fork=N: supervised, N executors */
            int rc = set_option(c, r->name, "fork", v ? "1" : "0", log);
            return rc || v < 2 ? rc : set_option(c, r->name, "jobs", value, log);
        }
        if (strcmp(r->option, "jobs") == 0 && v > 1) { /* executors need the supervisor */
            int rc = set_option(c, r->name, "fork", "1", log);
            if (rc)
                return rc;
        }
        return set_option(c, r->name, r->option, value, log);
    case LF_OPTION:
        FG_ASSERT(fgi_lf_option_exists(r->option));
        if (strcmp(r->name, "max_total_time") == 0)
            p->time_given = v > 0;
        return set_option(c, r->name, r->option, value, log);
    }
    return 0;
}

/* A --flag: fuzzgate's own, parsed exactly as the fuzzgate driver parses it. */
static int fuzzgate_flag(fgi_lf_config *c, parse_state *p, char *arg, FILE *log)
{
    p->native_length |= strncmp(arg, "--cases", 7) == 0 || strncmp(arg, "--seconds", 9) == 0;
    char prog[] = "fuzzgate";
    char *mini[] = {prog, arg, NULL};
    int npos = 0;
    if (fg_options_parse(c->opt, 2, mini, &npos) != FG_OK) {
        fprintf(log, "fuzzgate: %s\n", fg_options_error(c->opt));
        return 2;
    }
    return 0;
}

/* Settles what depends on several flags: the run's length, the deadline, the limits. */
static int settle(fgi_lf_config *c, const parse_state *p, FILE *log)
{
    char num[32];
    int other_length =
        p->native_length || getenv("FUZZGATE_CASES") || getenv("FUZZGATE_SECONDS");
    if (p->runs_given && p->runs >= 0) {
        if (p->time_given)
            fprintf(log, "WARNING: -runs=%lld with -max_total_time: fuzzgate stops on the "
                         "time bound only\n", p->runs);
        snprintf(num, sizeof num, "%lld", p->runs);
        if (fg_options_set(c->opt, "cases", num) != FG_OK ||
            (!p->time_given && fg_options_set(c->opt, "seconds", "0") != FG_OK))
            return fprintf(log, "fuzzgate: -runs: %s\n", fg_options_error(c->opt)), 2;
    } else if (!p->time_given && (p->runs_given || !other_length)) {
        if (fg_options_set(c->opt, "seconds", FOREVER_SECONDS) != FG_OK)
            return fprintf(log, "fuzzgate: %s\n", fg_options_error(c->opt)), 2;
    }
    /* A mode does its job once and ends, whatever the time flags say (a merge under the
     * ten-year "until stopped" would fuzz forever). Supervised, so an input that crashes
     * is a trial's result, not the end of the merge or of the minimisation. */
    if (c->mode && (fg_options_set(c->opt, "seconds", "0") != FG_OK ||
                    fg_options_set(c->opt, "fork", "1") != FG_OK))
        return fprintf(log, "fuzzgate: -%s: %s\n", c->mode, fg_options_error(c->opt)), 2;
    if (p->timeout_given) {
        /* 0 is "no deadline": the longest the session allows (2^30 ms, about 12 days). */
        unsigned long long ms = p->timeout_s == 0 || p->timeout_s > (1LL << 30) / 1000
                                    ? 1ULL << 30
                                    : (unsigned long long)p->timeout_s * 1000;
        snprintf(num, sizeof num, "%llu", ms);
        if (fg_options_set(c->opt, "timeout_ms", num) != FG_OK)
            return fprintf(log, "fuzzgate: -timeout: %s\n", fg_options_error(c->opt)), 2;
    }
    long long limit = p->malloc_mb ? p->malloc_mb : p->rss_mb;
    c->allowance_mb = limit > 0 ? (uint64_t)limit : 0;
    return 0;
}

int fgi_lf_parse(fgi_lf_config *c, int argc, char **argv, FILE *log)
{
    memset(c, 0, sizeof *c);
    c->error_exitcode = 77;
    c->interrupted_exitcode = 72; /* libFuzzer's, after "run interrupted; exiting" */
    c->time_ms = LIBFUZZER_TIMEOUT_MS;
    c->inputs = argv + 1;
    parse_state p = {.runs = -1, .rss_mb = LIBFUZZER_RSS_LIMIT_MB};
    if (!(c->opt = fg_options_new())) {
        fprintf(log, "fuzzgate: %s\n", fg_strerror(FG_ENOMEM));
        return 2;
    }
    /* libFuzzer writes its artifacts to the current directory unless told otherwise;
     * set before the environment so FUZZGATE_ARTIFACT_PREFIX may move them. */
    /* And like libFuzzer it runs in one process and stops at the first crash: the
     * supervisor (fuzzgate's default) comes with -fork=N. */
    if (fg_options_set(c->opt, "artifact_prefix", "./") != FG_OK ||
        fg_options_set(c->opt, "fork", "0") != FG_OK ||
        fg_options_from_env(c->opt) != FG_OK) {
        fprintf(log, "fuzzgate: %s\n", fg_options_error(c->opt));
        return 2;
    }
    int rest = 0, rc = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        char *a = argv[i];
        if (rest || a[0] != '-' || a[1] == '\0') {
            argv[1 + c->ninputs++] = a; /* in order, to the front, like fg_options_parse */
        } else if (strcmp(a, "--") == 0) {
            rest = 1;
        } else if (a[1] == '-') {
            rc = fuzzgate_flag(c, &p, a, log);
        } else {
            rc = libfuzzer_flag(c, &p, a, &rest, log);
        }
    }
    return rc ? rc : settle(c, &p, log);
}

void fgi_lf_config_free(fgi_lf_config *c)
{
    fg_options_free(c->opt);
    c->opt = NULL;
}

void fgi_lf_help(FILE *out, const char *argv0)
{
    static const char *const how[] = {"option", "limit", "mode", "driver", "ignored"};
    fprintf(out,
            "Usage (fuzzgate's libFuzzer driver):\n"
            "  %s [-flag=value ...] [--fuzzgate-flag=value ...] [dir ...]  fuzz, seeded "
            "from the dirs\n"
            "  %s [-flag=value ...] file ...                               run each file "
            "once\n\n"
            "libFuzzer flags (strictly -flag=value; docs/libfuzzer.md says what each "
            "does here):\n",
            argv0, argv0);
    for (size_t i = 0; i < FGI_ARRAY_LEN(lf_rows); i++) {
        const lf_row *r = &lf_rows[i];
        if (r->handling == LF_IGNORED)
            continue;
        fprintf(out, "  -%-22s %-7s %s%s%s%s\n", r->name, how[r->handling], r->note,
                r->option[0] ? " [fuzzgate: " : "", r->option,
                r->option[0] ? (fgi_lf_option_exists(r->option) ? "]" : ", not in this build]")
                             : "");
    }
    fprintf(out, "\nAccepted and ignored:");
    for (size_t i = 0, col = 80; i < FGI_ARRAY_LEN(lf_rows); i++) {
        if (lf_rows[i].handling != LF_IGNORED)
            continue;
        size_t w = strlen(lf_rows[i].name) + 2;
        if (col + w > 78) {
            fprintf(out, "\n ");
            col = 1;
        }
        fprintf(out, " -%s", lf_rows[i].name);
        col += w;
    }
    static const char *const flags[] = {
#define FG_OPTION(field, flag, env, type, def, help) flag,
#include "engine/run/options.def"
#undef FG_OPTION
    };
    fprintf(out, "\n\nfuzzgate's own options (docs/cli.md), as --flag=value or FUZZGATE_* "
                 "variables:\n ");
    for (size_t i = 0, col = 1; i < FGI_ARRAY_LEN(flags); i++) {
        if (col + strlen(flags[i]) + 3 > 78) {
            fprintf(out, "\n ");
            col = 1;
        }
        col += (size_t)fprintf(out, " --%s", flags[i]);
    }
    fprintf(out, "\n");
}
