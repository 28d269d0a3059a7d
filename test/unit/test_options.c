/* test/unit/test_options.c — strict option parsing from flags, environment and text; the render
 * round trip; --help and docs/cli.md generated from the one table. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/run/options.h"

#include <stdlib.h>

/* The environment variables of the table, so tests can clear and restore them. */
static const char *const env_names[] = {
#define FG_OPTION(field, flag, env, type, def, help) env,
#include "engine/run/options.def"
#undef FG_OPTION
};
#define NENV FGI_ARRAY_LEN(env_names)

typedef struct saved_env {
    char *value[NENV]; /* NULL: was unset */
} saved_env;

/* Saves and unsets every FUZZGATE_* variable of the table. */
static void env_clear(saved_env *s)
{
    for (size_t i = 0; i < NENV; i++) {
        s->value[i] = NULL;
        if (!env_names[i][0])
            continue;
        const char *v = getenv(env_names[i]);
        if (v)
            s->value[i] = strdup(v);
        unsetenv(env_names[i]);
    }
}

static void env_restore(saved_env *s)
{
    for (size_t i = 0; i < NENV; i++) {
        if (!env_names[i][0])
            continue;
        if (s->value[i])
            setenv(env_names[i], s->value[i], 1);
        else
            unsetenv(env_names[i]);
        free(s->value[i]);
        s->value[i] = NULL;
    }
}

/* Parses the NULL-terminated args after a program name into a fresh option set. */
static fg_error parse_args(fg_options *o, const char *const *args, int *npos, char **argv_out)
{
    static char prog[] = "fuzzgate";
    char *argv[32];
    int argc = 1;
    argv[0] = prog;
    for (; args[argc - 1] && argc < 31; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    fg_error e = fg_options_parse(o, argc, argv, npos);
    if (argv_out)
        for (int i = 0; i < argc; i++)
            argv_out[i] = argv[i];
    return e;
}

typedef struct bad_case {
    const char *args[4];
    const char *names[2]; /* must appear in the message (NULL: none) */
} bad_case;

FG_TEST(options_malformed_flags_name_the_option)
{
    static const bad_case bad[] = {
        {{"--cases=-3"}, {"--cases", "'-3'"}},
        {{"--cases=12abc"}, {"--cases", "12abc"}},
        {{"--cases="}, {"--cases", NULL}},
        {{"--seed=0xzz"}, {"--seed", "0xzz"}},
        {{"--seed=0x"}, {"--seed", NULL}},
        {{"--seconds=abc"}, {"--seconds", "abc"}},
        {{"--cases=99999999999999999999999"}, {"--cases", "99999999999999999999999"}},
        {{"--seed=18446744073709551616"}, {"--seed", "18446744073709551616"}},
        {{"--seed=0x10000000000000000"}, {"--seed", NULL}},
        {{"--max-len=999999999999"}, {"--max-len", "999999999999"}},
        {{"--max-len=67108865"}, {"--max-len", NULL}},
        {{"--bogus"}, {"--bogus", NULL}},
        {{"--bogus=1"}, {"--bogus", NULL}},
        {{"-x"}, {"-x", NULL}},
        {{"--list=maybe"}, {"--list", "maybe"}},
        {{"--list="}, {"--list", NULL}},
        {{"--verbose=2"}, {"--verbose", NULL}},
        {{"--cases"}, {"--cases", NULL}},
        {{"--findings"}, {"--findings", NULL}},
        {{"--corpus="}, {"--corpus", NULL}},
        {{"--findings="}, {"--findings", NULL}},
        {{"--cases", "-3"}, {"--cases", "-3"}},
        {{"--cases=+5"}, {"--cases", NULL}},
        {{"--cases= 5"}, {"--cases", NULL}},
        {{"--cases=5 "}, {"--cases", NULL}},
        {{"--cases=0x10"}, {"--cases", NULL}},
        {{"--cases=1e3"}, {"--cases", NULL}},
        {{"--seconds=-0"}, {"--seconds", NULL}},
        {{"--no-cases"}, {"--no-cases", NULL}},
        {{"--no-verbose=1"}, {"--no-verbose", NULL}},
        {{"--Cases=5"}, {"--Cases", NULL}},
        {{"---cases=5"}, {"---cases", NULL}},
        {{"tlv", "--cases=5", "--bogus"}, {"--bogus", NULL}},
    };
    for (size_t i = 0; i < FGI_ARRAY_LEN(bad); i++) {
        fg_options *o = fg_options_new();
        CHECK(o != NULL);
        if (!o)
            return;
        int npos = -1;
        fg_error e = parse_args(o, bad[i].args, &npos, NULL);
        const char *msg = fg_options_error(o);
        int ok = e == FG_EOPTION && msg[0] != '\0';
        for (int j = 0; j < 2; j++)
            if (bad[i].names[j] && !strstr(msg, bad[i].names[j]))
                ok = 0;
        if (!ok) {
            char m[400];
            snprintf(m, sizeof m, "'%s': error %d, message \"%s\"", bad[i].args[0], (int)e, msg);
            fgt_fail(__FILE__, __LINE__, m);
        }
        fg_options_free(o);
    }
}

FG_TEST(options_accepts_edges_of_the_ranges)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    static const char *const a1[] = {"--seed=18446744073709551615", "--cases=0",
                                     "--max-len=67108864", "--seconds=007", NULL};
    CHECK_EQ_U(parse_args(o, a1, NULL, NULL), FG_OK);
    CHECK_STR(fg_options_error(o), "");
    CHECK_EQ_U(o->v.seed, UINT64_MAX);
    CHECK_EQ_U(o->v.cases, 0);
    CHECK_EQ_U(o->v.max_len, 67108864);
    CHECK_EQ_U(o->v.seconds, 7);
    static const char *const a2[] = {"--seed=0xABCdef", "--cases=18446744073709551615", NULL};
    CHECK_EQ_U(parse_args(o, a2, NULL, NULL), FG_OK);
    CHECK_EQ_U(o->v.seed, 0xabcdef);
    CHECK_EQ_U(o->v.cases, UINT64_MAX);
    static const char *const a3[] = {"--seed=0XFFFFFFFFFFFFFFFF", NULL};
    CHECK_EQ_U(parse_args(o, a3, NULL, NULL), FG_OK);
    CHECK_EQ_U(o->v.seed, UINT64_MAX);
    static const char *const bools[][2] = {{"1", "1"}, {"true", "1"}, {"yes", "1"}, {"on", "1"},
                                           {"0", "0"}, {"false", "0"}, {"no", "0"},
                                           {"off", "0"}};
    for (size_t i = 0; i < FGI_ARRAY_LEN(bools); i++) {
        char flag[32];
        snprintf(flag, sizeof flag, "--list=%s", bools[i][0]);
        const char *a[] = {flag, NULL};
        CHECK_EQ_U(parse_args(o, a, NULL, NULL), FG_OK);
        CHECK_EQ_U(o->v.list, bools[i][1][0] - '0');
    }
    static const char *const a4[] = {"--targets=", "--corpus=c=d", NULL}; /* text may be "" */
    CHECK_EQ_U(parse_args(o, a4, NULL, NULL), FG_OK);
    CHECK_STR(o->v.targets, "");
    CHECK_STR(o->v.corpus, "c=d");
    fg_options_free(o);
}

FG_TEST(options_defaults)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    CHECK_EQ_U(o->v.seed, 0x5eed0f6a7e2026ULL);
    CHECK_EQ_U(o->v.cases, 20000);
    CHECK_EQ_U(o->v.seconds, 0);
    CHECK_STR(o->v.targets, "");
    CHECK_STR(o->v.corpus, "corpus");
    CHECK_STR(o->v.findings, "fuzzgate-findings");
    CHECK_EQ_U(o->v.max_len, 0);
    CHECK_EQ_U(o->v.list, 0);
    CHECK_EQ_U(o->v.verbose, 0);
    CHECK_EQ_U(o->v.help, 0);
    CHECK_STR(fg_options_error(o), "");
    CHECK_STR(fg_options_error(NULL), "");
    fg_options_free(o);
    fg_options_free(NULL);
}

FG_TEST(options_new_out_of_memory)
{
    /* every allocation fg_options_new makes may fail: NULL, never a half-built set */
    unsigned long nulls = 0, built = 0;
    for (unsigned long nth = 1; nth < 64 && !built; nth++) { /* a string per text option */
        fgi_mem_fail_nth(nth);
        fg_options *o = fg_options_new();
        fgi_mem_fail_nth(0);
        if (o) {
            CHECK_STR(o->v.targets, "");
            CHECK_STR(o->v.corpus, "corpus");
            CHECK_STR(o->v.findings, "fuzzgate-findings");
            built++;
        } else {
            CHECK(built == 0); /* once the failure is past the last allocation, it works */
            nulls++;
        }
        fg_options_free(o);
    }
    CHECK(nulls >= 1 && built >= 1);
}

FG_TEST(options_boolean_forms)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    static const char *const a1[] = {"--verbose", NULL};
    CHECK_EQ_U(parse_args(o, a1, NULL, NULL), FG_OK);
    CHECK_EQ_U(o->v.verbose, 1);
    static const char *const a2[] = {"--no-verbose", NULL};
    CHECK_EQ_U(parse_args(o, a2, NULL, NULL), FG_OK);
    CHECK_EQ_U(o->v.verbose, 0);
    static const char *const a3[] = {"--verbose", "--list", "--no-verbose", NULL};
    CHECK_EQ_U(parse_args(o, a3, NULL, NULL), FG_OK);
    CHECK_EQ_U(o->v.verbose, 0); /* the last one wins */
    CHECK_EQ_U(o->v.list, 1);
    /* A bare boolean takes no value: the next word is a positional. */
    int npos = -1;
    char *argv[8];
    static const char *const a4[] = {"--verbose", "0", NULL};
    CHECK_EQ_U(parse_args(o, a4, &npos, argv), FG_OK);
    CHECK_EQ_U(o->v.verbose, 1);
    CHECK_EQ_U(npos, 1);
    CHECK_STR(argv[1], "0");
    fg_options_free(o);
}

FG_TEST(options_separate_values_and_positionals)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    int npos = -1;
    char *argv[16];
    static const char *const a1[] = {"--cases", "7", "tlv", NULL};
    CHECK_EQ_U(parse_args(o, a1, &npos, argv), FG_OK);
    CHECK_EQ_U(o->v.cases, 7);
    CHECK_EQ_U(npos, 1);
    CHECK_STR(argv[1], "tlv");

    static const char *const a2[] = {"a",   "--cases=5", "b",   "--verbose", "c",
                                     "--",  "--d",       "-",   "--seed=1",  NULL};
    npos = -1;
    CHECK_EQ_U(parse_args(o, a2, &npos, argv), FG_OK);
    CHECK_EQ_U(o->v.cases, 5);
    CHECK_EQ_U(o->v.verbose, 1);
    CHECK(o->v.seed != 1); /* after "--": not a flag */
    CHECK_EQ_U(npos, 6);
    static const char *const want[] = {"a", "b", "c", "--d", "-", "--seed=1"};
    for (int i = 0; i < 6 && i < npos; i++)
        CHECK_STR(argv[1 + i], want[i]);

    /* a separate value may look like a flag: it is still the value */
    static const char *const a3[] = {"--findings", "--x", NULL};
    CHECK_EQ_U(parse_args(o, a3, &npos, argv), FG_OK);
    CHECK_STR(o->v.findings, "--x");
    CHECK_EQ_U(npos, 0);

    /* no arguments at all */
    npos = -1;
    static const char *const a4[] = {NULL};
    CHECK_EQ_U(parse_args(o, a4, &npos, argv), FG_OK);
    CHECK_EQ_U(npos, 0);
    CHECK_EQ_U(fg_options_parse(o, 0, NULL, &npos), FG_OK);
    CHECK_EQ_U(npos, 0);
    CHECK_EQ_U(fg_options_parse(NULL, 1, argv, &npos), FG_EINVAL);
    CHECK_EQ_U(fg_options_parse(o, 2, NULL, &npos), FG_EINVAL);
    fg_options_free(o);
}

FG_TEST(options_error_is_cleared_by_a_good_call)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    static const char *const bad[] = {"--cases=x", NULL}, *const good[] = {"--cases=3", NULL};
    CHECK_EQ_U(parse_args(o, bad, NULL, NULL), FG_EOPTION);
    CHECK(fg_options_error(o)[0] != '\0');
    CHECK_EQ_U(parse_args(o, good, NULL, NULL), FG_OK);
    CHECK_STR(fg_options_error(o), "");
    CHECK_EQ_U(fg_options_set(o, "cases", "x"), FG_EOPTION);
    CHECK_EQ_U(fg_options_set(o, "cases", "4"), FG_OK);
    CHECK_STR(fg_options_error(o), "");
    CHECK_EQ_U(o->v.cases, 4);
    fg_options_free(o);
}

FG_TEST(options_set_by_field_name)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    CHECK_EQ_U(fg_options_set(o, "max_len", "100"), FG_OK);
    CHECK_EQ_U(o->v.max_len, 100);
    CHECK_EQ_U(fg_options_set(o, "seed", "0x10"), FG_OK);
    CHECK_EQ_U(o->v.seed, 16);
    CHECK_EQ_U(fg_options_set(o, "verbose", "yes"), FG_OK);
    CHECK_EQ_U(o->v.verbose, 1);
    CHECK_EQ_U(fg_options_set(o, "targets", ""), FG_OK);
    CHECK_STR(o->v.targets, "");
    CHECK_EQ_U(fg_options_set(o, "findings", "out/dir"), FG_OK);
    CHECK_STR(o->v.findings, "out/dir");

    CHECK_EQ_U(fg_options_set(o, "max-len", "100"), FG_EOPTION); /* the flag, not the field */
    CHECK(strstr(fg_options_error(o), "max-len") != NULL);
    CHECK_EQ_U(fg_options_set(o, "nope", "1"), FG_EOPTION);
    CHECK(strstr(fg_options_error(o), "nope") != NULL);
    CHECK_EQ_U(fg_options_set(o, "cases", "-3"), FG_EOPTION);
    CHECK(strstr(fg_options_error(o), "cases") != NULL);
    CHECK(strstr(fg_options_error(o), "-3") != NULL);
    CHECK_EQ_U(o->v.cases, 20000); /* a bad value changes nothing */
    CHECK_EQ_U(fg_options_set(o, "corpus", ""), FG_EOPTION);
    CHECK(strstr(fg_options_error(o), "corpus") != NULL);
    CHECK_STR(o->v.corpus, "corpus");
    CHECK_EQ_U(fg_options_set(o, "max_len", "67108865"), FG_EOPTION);
    CHECK_EQ_U(o->v.max_len, 100);

    CHECK_EQ_U(fg_options_set(NULL, "cases", "1"), FG_EINVAL);
    CHECK_EQ_U(fg_options_set(o, NULL, "1"), FG_EINVAL);
    CHECK_EQ_U(fg_options_set(o, "cases", NULL), FG_EINVAL);
    fg_options_free(o);
}

FG_TEST(options_from_env_bad_values_name_the_variable)
{
    static const char *const bad[][3] = {
        {"FUZZGATE_CASES", "-3", "-3"},     {"FUZZGATE_SECONDS", "abc", "abc"},
        {"FUZZGATE_SEED", "0xzz", "0xzz"},  {"FUZZGATE_MAX_LEN", "999999999999", NULL},
        {"FUZZGATE_CORPUS", "", NULL},      {"FUZZGATE_VERBOSE", "maybe", "maybe"}};
    saved_env saved;
    env_clear(&saved);
    for (size_t i = 0; i < FGI_ARRAY_LEN(bad); i++) {
        fg_options *o = fg_options_new();
        CHECK(o != NULL);
        if (!o)
            break;
        setenv(bad[i][0], bad[i][1], 1);
        fg_error e = fg_options_from_env(o);
        const char *msg = fg_options_error(o);
        int ok = e == FG_EOPTION && strstr(msg, bad[i][0]) &&
                 (!bad[i][2] || strstr(msg, bad[i][2]));
        if (!ok) {
            char m[400];
            snprintf(m, sizeof m, "%s=%s: error %d, message \"%s\"", bad[i][0], bad[i][1],
                     (int)e, msg);
            fgt_fail(__FILE__, __LINE__, m);
        }
        unsetenv(bad[i][0]);
        fg_options_free(o);
    }
    env_restore(&saved);
}

FG_TEST(options_env_then_flags_flag_wins)
{
    saved_env saved;
    env_clear(&saved);
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o) {
        env_restore(&saved);
        return;
    }
    CHECK_EQ_U(fg_options_from_env(o), FG_OK); /* nothing set: defaults stay */
    CHECK_EQ_U(o->v.cases, 20000);
    setenv("FUZZGATE_CASES", "100", 1);
    setenv("FUZZGATE_SEED", "0x5", 1);
    setenv("FUZZGATE_VERBOSE", "1", 1);
    setenv("FUZZGATE_FINDINGS", "env-findings", 1);
    CHECK_EQ_U(fg_options_from_env(o), FG_OK);
    CHECK_EQ_U(o->v.cases, 100);
    CHECK_EQ_U(o->v.seed, 5);
    CHECK_EQ_U(o->v.verbose, 1);
    CHECK_STR(o->v.findings, "env-findings");
    static const char *const args[] = {"--cases=7", "--no-verbose", NULL};
    CHECK_EQ_U(parse_args(o, args, NULL, NULL), FG_OK);
    CHECK_EQ_U(o->v.cases, 7);   /* flag wins */
    CHECK_EQ_U(o->v.verbose, 0); /* flag wins */
    CHECK_EQ_U(o->v.seed, 5);    /* env stays where no flag is given */
    CHECK_STR(o->v.findings, "env-findings");
    fg_options_free(o);
    env_restore(&saved);
}

/* Compares two option sets field by field, for every row of the table. */
#define SAME_U64(a, b) ((a) == (b))
#define SAME_COUNT SAME_U64
#define SAME_SIZE SAME_U64
#define SAME_BOOL SAME_U64
#define SAME_TEXT(a, b) ((a) && (b) && strcmp((a), (b)) == 0)
#define SAME_PATH SAME_TEXT

static void check_same(const fgi_opts *a, const fgi_opts *b)
{
#define FG_OPTION(field, flag, env, type, def, help)                                       \
    if (!SAME_##type(a->field, b->field))                                                  \
        fgt_fail(__FILE__, __LINE__, "option " #field " differs after the round trip");
#include "engine/run/options.def"
#undef FG_OPTION
}

/* Renders o, parses the flags into a fresh set, and compares. */
static void round_trip(const fg_options *o)
{
    size_t len = 0;
    char *flat = fgi_opts_render(&o->v, &len);
    CHECK(flat != NULL);
    if (!flat)
        return;
    char *argv[64];
    int argc = 1;
    static char prog[] = "fuzzgate";
    argv[0] = prog;
    for (size_t i = 0; i < len && argc < 63; argc++) {
        argv[argc] = flat + i;
        i += strlen(flat + i) + 1;
    }
    argv[argc] = NULL;
    CHECK_EQ_U(argc - 1, NENV); /* one flag per row */
    fg_options *back = fg_options_new();
    CHECK(back != NULL);
    int npos = -1;
    if (back) {
        CHECK_EQ_U(fg_options_parse(back, argc, argv, &npos), FG_OK);
        CHECK_EQ_U(npos, 0);
        check_same(&o->v, &back->v);
    }
    fg_options_free(back);
    fgi_free(flat);
}

FG_TEST(options_render_round_trip)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    round_trip(o); /* the defaults */
    CHECK_EQ_U(fg_options_set(o, "seed", "0xdeadbeefcafe"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "cases", "18446744073709551615"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "seconds", "3"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "targets", "a,b=c d"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "corpus", "/tmp/x y/--z"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "findings", "-"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "max_len", "67108864"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "list", "1"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "verbose", "1"), FG_OK);
    CHECK_EQ_U(fg_options_set(o, "help", "1"), FG_OK);
    round_trip(o);
    /* the rendering itself: NUL-separated, numbers in decimal, the table's order */
    fg_options *d = fg_options_new();
    CHECK(d != NULL);
    if (d) {
        size_t len;
        char *flat = fgi_opts_render(&d->v, &len);
        CHECK(flat != NULL && memchr(flat, '\0', len) != NULL);
        CHECK(flat != NULL && strcmp(flat, "--seed=26719298277744678") == 0);
        fgi_free(flat);
    }
    fg_options_free(d);
    fg_options_free(o);
}

FG_TEST(options_copy_is_deep)
{
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    if (!o)
        return;
    CHECK_EQ_U(fg_options_set(o, "targets", "x,y"), FG_OK);
    fgi_opts c;
    CHECK_EQ_U(fgi_opts_copy(&c, &o->v), FG_OK);
    check_same(&c, &o->v);
    CHECK(c.targets != o->v.targets);
    CHECK_EQ_U(fg_options_set(o, "targets", "z"), FG_OK);
    CHECK_STR(c.targets, "x,y");
    fgi_opts_clear(&c);
    for (unsigned long nth = 1; nth < 5; nth++) {
        fgi_mem_fail_nth(nth);
        fg_error e = fgi_opts_copy(&c, &o->v);
        fgi_mem_fail_nth(0);
        CHECK(e == FG_OK || e == FG_ENOMEM);
        if (e == FG_ENOMEM)
            CHECK(c.targets == NULL && c.corpus == NULL && c.findings == NULL);
        fgi_opts_clear(&c);
    }
    fg_options_free(o);
}

/* Everything out wrote, as a malloc'd string. */
static char *capture(void (*fn)(FILE *), size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fn(f);
    fclose(f);
    return buf;
}

FG_TEST(options_help_lists_every_option)
{
    size_t len = 0;
    char *help = capture(fg_options_help, &len);
    CHECK(help != NULL);
    if (!help)
        return;
#define FG_OPTION(field, flag, env, type, def, help_)                                      \
    CHECK(strstr(help, "--" flag) != NULL);                                                \
    CHECK(!env[0] || strstr(help, env) != NULL);
#include "engine/run/options.def"
#undef FG_OPTION
    free(help);
}

FG_TEST(options_docs_cli_md_is_current)
{
    size_t len = 0;
    char *want = capture(fgi_options_markdown, &len);
    CHECK(want != NULL);
    if (!want)
        return;
    size_t n = 0;
    char *have = fgt_slurp("docs/cli.md", &n);
    if (!have) {
        fgt_fail(__FILE__, __LINE__, "docs/cli.md is missing: run `make docs`");
        free(want);
        return;
    }
    int same = n == len && memcmp(have, want, len) == 0;
    if (!same)
        fgt_fail(__FILE__, __LINE__, "docs/cli.md is stale: run `make docs`");
#define FG_OPTION(field, flag, env, type, def, help)                                       \
    CHECK(strstr(want, "`--" flag "`") != NULL);
#include "engine/run/options.def"
#undef FG_OPTION
    free(have);
    free(want);
}
