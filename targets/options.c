/* targets/options.c — the engine's own option parser fed arbitrary argument vectors.
 *
 * The input, split at NUL bytes, is argv[1..] (argv[0] is "fuzzgate"). A parse either
 * succeeds or fails with FG_EOPTION and a message naming the option; a success puts the
 * positional arguments first, in order, and its values, rendered back into flags and
 * parsed again, render identically. Every check runs after everything the case allocated
 * is freed, so a finding leaks nothing either.
 */
#include "fuzzgate.h"
#include "engine/run/options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OPTIONS_MAX_LEN 256
#define OPTIONS_MAX_ARGS 32   /* arguments after argv[0]; the rest of the input is ignored */
#define RENDER_MAX_ARGS 64    /* flags a rendering may hold (the table has far fewer) */

/* The flags the parser knows and which of them are booleans, read from the same table the
 * engine is generated from: a flag given without "=value" takes the next argument as its
 * value unless it is a boolean (or the --no- form of one). */
static const struct known_flag {
    const char *flag;
    const char *type;
} known_flags[] = {
#define FG_OPTION(field, flag, env, type, def, help) {flag, #type},
#include "engine/run/options.def"
#undef FG_OPTION
};

static int takes_next(const char *arg)
{
    const char *name = arg + 2;
    if (strchr(name, '='))
        return 0;
    for (size_t i = 0; i < sizeof known_flags / sizeof known_flags[0]; i++)
        if (strcmp(known_flags[i].flag, name) == 0)
            return strcmp(known_flags[i].type, "BOOL") != 0;
    return 0; /* --no-<boolean> */
}

/* The positional arguments a successful parse of argv must report, in order. Returns how
 * many; *dashdash says whether a "--" ended the flags. */
static int expected_positionals(char *const *argv, int argc, char **out, int *dashdash)
{
    int n = 0, done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (done || a[0] != '-' || a[1] == '\0') {
            out[n++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            done = 1;
        } else if (a[1] == '-' && takes_next(a)) {
            i++;
        }
    }
    *dashdash = done;
    return n;
}

/* 0, 1, 2, 3-4, 5-8, 9-16, 17-32, 33+. */
static unsigned count_bucket(int n)
{
    if (n <= 0)
        return 0;
    unsigned b = 1;
    for (int top = 1; n > top && b < 7; top *= 2)
        b++;
    return b;
}

/* A bounded class for a failure message: the flag it names (a table row) and the kind of
 * problem, or the kind of unknown flag. Never the free text of the argument. */
static uint64_t error_class(const char *msg)
{
    static const char *const reasons[] = {
        "missing value", "out of range", "(negative)", "not a boolean", "is not a",
        "above the limit", "empty path",
    };
    static const char option[] = "option --";
    if (strncmp(msg, option, sizeof option - 1) == 0) {
        const char *name = msg + sizeof option - 1;
        size_t len = strcspn(name, ":");
        uint64_t c = fg_sig(1, len);
        for (size_t i = 0; i < len && i < 32; i++)
            c = fg_fold(c, (uint8_t)name[i]);
        uint64_t why = 0;
        for (size_t i = 0; i < sizeof reasons / sizeof reasons[0] && !why; i++)
            if (strstr(name + len, reasons[i]))
                why = i + 1;
        return fg_fold(c, why);
    }
    if (strncmp(msg, "unknown flag '--", 16) == 0)
        return fg_sig(2, 0);
    if (strncmp(msg, "unknown flag '-", 15) == 0)
        return fg_sig(2, 1);
    return fg_sig(3, 0);
}

/* Splits a rendering (len bytes, NUL-separated, NUL-terminated) into argv[1..]; returns
 * argc, or -1 when it holds more than RENDER_MAX_ARGS flags. */
static int split_render(char *r, size_t len, char **argv)
{
    int argc = 1;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && r[i] != '\0')
            continue;
        if (argc > RENDER_MAX_ARGS)
            return -1;
        argv[argc++] = r + start;
        start = i + 1;
    }
    return argc;
}

/* Everything the success path learns, gathered before anything is freed. */
typedef struct round_trip {
    int render_failed;    /* out of memory: the case says nothing */
    int too_many;         /* the rendering holds more than RENDER_MAX_ARGS flags */
    int bad_flag;         /* the first rendered argument not --name=value (1..), or 0 */
    fg_error rc2;         /* the second parse */
    char err2[256];       /* its message */
    int npos2;            /* positionals it saw */
    size_t len1, len2;    /* the two renderings' lengths */
    size_t diff_at;       /* their first difference, SIZE_MAX when identical */
    char near[48];        /* the name of the first rendering's flag holding it */
} round_trip;

/* The flag name (up to '=') of the rendered flag that holds offset at. */
static void flag_at(char *out, size_t cap, const char *r, size_t len, size_t at)
{
    size_t start = at < len ? at : len;
    while (start > 0 && r[start - 1] != '\0')
        start--;
    size_t n = 0;
    for (size_t i = start; i < len && r[i] != '\0' && r[i] != '=' && n + 1 < cap; i++)
        out[n++] = r[i];
    out[n] = '\0';
}

/* How much of a parser message to quote: the part before the first quote, which is the
 * fixed text naming the option (what follows is the user's own argument). */
static int fixed_part(const char *msg)
{
    return (int)strcspn(msg, "'");
}

/* Where p sits in argv[0..argc), or -1. */
static int index_of(char *const *argv, int argc, const char *p)
{
    for (int i = 0; i < argc; i++)
        if (argv[i] == p)
            return i;
    return -1;
}

/* Renders opt, parses the rendering into a fresh option set, renders that, compares. */
static void render_round_trip(const fg_options *opt, round_trip *t)
{
    memset(t, 0, sizeof *t);
    t->diff_at = SIZE_MAX;
    char *r1 = fgi_opts_render(&opt->v, &t->len1);
    fg_options *opt2 = fg_options_new();
    char *argv[RENDER_MAX_ARGS + 2] = {0};
    char prog[] = "fuzzgate";
    char *r2 = NULL;
    if (!r1 || !opt2) {
        t->render_failed = 1;
        goto out;
    }
    argv[0] = prog;
    int argc = split_render(r1, t->len1, argv);
    if (argc < 0) {
        t->too_many = 1;
        goto out;
    }
    for (int i = 1; i < argc && !t->bad_flag; i++)
        if (strncmp(argv[i], "--", 2) != 0 || !strchr(argv[i], '='))
            t->bad_flag = i;
    t->npos2 = -1;
    t->rc2 = fg_options_parse(opt2, argc, argv, &t->npos2);
    snprintf(t->err2, sizeof t->err2, "%s", fg_options_error(opt2));
    if (t->rc2 == FG_ENOMEM) {
        t->render_failed = 1;
        goto out;
    }
    if (t->rc2 != FG_OK)
        goto out;
    r2 = fgi_opts_render(&opt2->v, &t->len2);
    if (!r2) {
        t->render_failed = 1;
        goto out;
    }
    size_t common = t->len1 < t->len2 ? t->len1 : t->len2;
    for (size_t i = 0; i < common && t->diff_at == SIZE_MAX; i++)
        if (r1[i] != r2[i])
            t->diff_at = i;
    if (t->diff_at == SIZE_MAX && t->len1 != t->len2)
        t->diff_at = common;
    if (t->diff_at != SIZE_MAX)
        flag_at(t->near, sizeof t->near, r1, t->len1, t->diff_at);
out:
    fgi_free(r1);
    fgi_free(r2);
    fg_options_free(opt2);
}

static uint64_t options_run(const uint8_t *data, size_t size)
{
    char text[OPTIONS_MAX_LEN + 1];
    size_t len = size < OPTIONS_MAX_LEN ? size : OPTIONS_MAX_LEN; /* corpus may be longer */
    memcpy(text, data, len);
    text[len] = '\0';

    /* orig keeps the vector as given: fg_options_parse permutes the one it is handed. */
    char prog[] = "fuzzgate";
    char *orig[OPTIONS_MAX_ARGS + 2], *argv[OPTIONS_MAX_ARGS + 2];
    int argc = 0;
    orig[argc++] = prog;
    size_t start = 0;
    for (size_t i = 0; i <= len && argc <= OPTIONS_MAX_ARGS; i++) {
        if (i < len && text[i] != '\0')
            continue;
        if (i == len && start == len)
            break; /* nothing after the last NUL */
        orig[argc++] = text + start;
        start = i + 1;
    }
    orig[argc] = NULL;
    memcpy(argv, orig, (size_t)(argc + 1) * sizeof orig[0]);

    char *want[OPTIONS_MAX_ARGS + 1];
    int dashdash = 0;
    int nwant = expected_positionals(orig, argc, want, &dashdash);

    fg_options *opt = fg_options_new();
    if (!opt)
        return 0;
    int npos = -1;
    fg_error rc = fg_options_parse(opt, argc, argv, &npos);
    char err[256];
    snprintf(err, sizeof err, "%s", fg_options_error(opt));

    if (rc != FG_OK) {
        fg_options_free(opt);
        if (rc == FG_ENOMEM)
            return 0;
        FG_CHECK(rc == FG_EOPTION, "fg_options_parse fails with %d (%s), not FG_EOPTION",
                 (int)rc, fg_strerror(rc));
        FG_CHECK(err[0] != '\0', "FG_EOPTION with an empty message");
        FG_CHECK(strstr(err, "--") || strstr(err, "option") || strstr(err, "flag"),
                 "the message '%.*s...' names no option", fixed_part(err), err);
        return fg_fold(error_class(err), count_bucket(argc - 1));
    }

    round_trip t;
    render_round_trip(opt, &t);
    fg_options_free(opt);
    if (t.render_failed)
        return 0;

    FG_CHECK(err[0] == '\0', "a successful parse leaves the message '%.*s...'",
             fixed_part(err), err);
    FG_CHECK(npos == nwant, "%d positional arguments reported, %d given", npos, nwant);
    for (int i = 0; i < npos; i++)
        FG_CHECK(argv[1 + i] == want[i], "positional %d is argument %d, expected argument %d",
                 i, index_of(orig, argc, argv[1 + i]), index_of(orig, argc, want[i]));
    FG_CHECK(!t.too_many, "the rendering holds more than %d flags", RENDER_MAX_ARGS);
    FG_CHECK(!t.bad_flag, "rendered flag %d is not --name=value", t.bad_flag);
    FG_CHECK(t.rc2 == FG_OK, "the rendering does not parse: %.*s... (%s)",
             fixed_part(t.err2), t.err2, fg_strerror(t.rc2));
    FG_CHECK(t.npos2 == 0, "the rendering parses with %d positional arguments", t.npos2);
    FG_CHECK(t.diff_at == SIZE_MAX,
             "renderings differ at byte %zu (%zu and %zu bytes), in flag %s", t.diff_at,
             t.len1, t.len2, t.near);

    uint64_t sig = fg_sig(4, count_bucket(argc - 1));
    sig = fg_fold(sig, npos < 3 ? (uint64_t)npos : 3);
    return fg_fold(sig, (uint64_t)dashdash);
}

/* Builds a seed from NUL-separated arguments written as one string literal. */
#define ARGS(s) {s, sizeof s - 1}

static void options_seed(fg_seeds *seeds)
{
    static const struct {
        const char *bytes;
        size_t size;
    } vectors[] = {
        ARGS("--seed=0x1f"),
        ARGS("--cases\0" "12\0target"),
        ARGS("--list\0--no-verbose\0--verbose=yes"),
        ARGS("a\0--\0-b\0--cases=1"),
        ARGS("--targets=x,y\0pos\0--max-len=65536"),
        ARGS("--corpus=dir\0--findings\0out\0--seconds=0"),
        ARGS("--help=off\0--seed\0" "18446744073709551615"),
        ARGS("-\0--targets\0--\0last"),
    };
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
        fg_seeds_add(seeds, vectors[i].bytes, vectors[i].size);
}
#undef ARGS

FG_TARGET(options,
          .what = "the engine's option parser: errors name the option, values round trip",
          .run = options_run,
          .seed = options_seed,
          .max_len = OPTIONS_MAX_LEN);
