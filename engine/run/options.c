/* engine/run/options.c — strict parsing of options from flags, environment and text, all
 * driven by the rows of options.def. */
#include "engine/run/options.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

enum opt_type { T_U64, T_COUNT, T_SIZE, T_TEXT, T_PATH, T_BOOL };

static const char *const type_names[] = {"u64", "count", "bytes", "text", "path", "bool"};

typedef struct row {
    const char *field, *flag, *env, *def, *help;
    enum opt_type type;
    size_t offset;
} row;

static const row rows[] = {
#define FG_OPTION(field, flag, env, type, def, help)                                       \
    {#field, flag, env, def, help, T_##type, offsetof(fgi_opts, field)},
#include "engine/run/options.def"
#undef FG_OPTION
};

#define MAX_SIZE_OPTION ((uint64_t)64 << 20) /* arbitrary: a case bigger is not a case */

static int is_string(enum opt_type t)
{
    return t == T_TEXT || t == T_PATH;
}

/* Digits only (after an optional 0x for hex), no sign, no space, no overflow. */
static int parse_u64(const char *s, int allow_hex, uint64_t *out)
{
    unsigned base = 10;
    if (allow_hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (v > (UINT64_MAX - d) / base)
            return -2;
        v = v * base + d;
    }
    *out = v;
    return 0;
}

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(yes); i++) {
        if (strcmp(s, yes[i]) == 0)
            return *out = 1, 0;
        if (strcmp(s, no[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

/* Sets one row's field from text; on failure writes why into err (naming `how`, the
 * spelling the user used: "--cases" or "FUZZGATE_CASES"). */
static fg_error set_row(fgi_opts *o, const row *r, const char *value, const char *how,
                        char *err, size_t errcap)
{
    void *field = (char *)o + r->offset;
    uint64_t v = 0;
    int rc;
    switch (r->type) {
    case T_U64:
    case T_COUNT:
    case T_SIZE:
        rc = parse_u64(value, r->type == T_U64, &v);
        if (rc == -2) {
            snprintf(err, errcap, "option %s: '%s' is out of range", how, value);
            return FG_EOPTION;
        }
        if (rc != 0) {
            snprintf(err, errcap, "option %s: '%s' is not a %s%s", how, value,
                     r->type == T_U64 ? "number" : "count",
                     value[0] == '-' ? " (negative)" : "");
            return FG_EOPTION;
        }
        if (r->type == T_SIZE && v > MAX_SIZE_OPTION) {
            snprintf(err, errcap, "option %s: '%s' is above the limit of %llu bytes", how,
                     value, (unsigned long long)MAX_SIZE_OPTION);
            return FG_EOPTION;
        }
        *(uint64_t *)field = v;
        return FG_OK;
    case T_BOOL:
        if (parse_bool(value, (int *)field) != 0) {
            snprintf(err, errcap, "option %s: '%s' is not a boolean (1/0/true/false)", how,
                     value);
            return FG_EOPTION;
        }
        return FG_OK;
    case T_PATH:
        if (!*value) {
            snprintf(err, errcap, "option %s: an empty path", how);
            return FG_EOPTION;
        }
        /* fall through */
    case T_TEXT: {
        char *copy = fgi_strdup(value);
        if (!copy)
            return FG_ENOMEM;
        fgi_free(*(char **)field);
        *(char **)field = copy;
        return FG_OK;
    }
    }
    return FG_EINVAL;
}

fg_error fgi_opts_defaults(fgi_opts *o)
{
    char err[256];
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        fg_error e = set_row(o, &rows[i], rows[i].def, rows[i].field, err, sizeof err);
        if (e != FG_OK) {
            fgi_opts_clear(o);
            return e;
        }
    }
    return FG_OK;
}

void fgi_opts_clear(fgi_opts *o)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++)
        if (is_string(rows[i].type))
            fgi_free(*(char **)((char *)o + rows[i].offset));
    memset(o, 0, sizeof *o);
}

fg_error fgi_opts_copy(fgi_opts *dst, const fgi_opts *src)
{
    *dst = *src;
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        if (!is_string(rows[i].type))
            continue;
        char **f = (char **)((char *)dst + rows[i].offset);
        *f = *f ? fgi_strdup(*f) : NULL;
        if (!*f) {
            for (size_t j = i + 1; j < FGI_ARRAY_LEN(rows); j++)
                if (is_string(rows[j].type))
                    *(char **)((char *)dst + rows[j].offset) = NULL;
            fgi_opts_clear(dst);
            return FG_ENOMEM;
        }
    }
    return FG_OK;
}

fg_options *fg_options_new(void)
{
    fg_options *opt = fgi_calloc(1, sizeof *opt);
    if (!opt)
        return NULL;
    if (fgi_opts_defaults(&opt->v) != FG_OK) {
        fgi_free(opt);
        return NULL;
    }
    return opt;
}

void fg_options_free(fg_options *opt)
{
    if (!opt)
        return;
    fgi_opts_clear(&opt->v);
    fgi_free(opt);
}

const char *fg_options_error(const fg_options *opt)
{
    return opt ? opt->error : "";
}

static const row *row_by_field(const char *name)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++)
        if (strcmp(rows[i].field, name) == 0)
            return &rows[i];
    return NULL;
}

static const row *row_by_flag(const char *flag, size_t len)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++)
        if (strlen(rows[i].flag) == len && strncmp(rows[i].flag, flag, len) == 0)
            return &rows[i];
    return NULL;
}

fg_error fg_options_set(fg_options *opt, const char *name, const char *value)
{
    if (!opt || !name || !value)
        return FG_EINVAL;
    opt->error[0] = '\0';
    const row *r = row_by_field(name);
    if (!r) {
        snprintf(opt->error, sizeof opt->error, "unknown option '%s'", name);
        return FG_EOPTION;
    }
    return set_row(&opt->v, r, value, r->field, opt->error, sizeof opt->error);
}

fg_error fg_options_from_env(fg_options *opt)
{
    if (!opt)
        return FG_EINVAL;
    opt->error[0] = '\0';
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        if (!rows[i].env[0])
            continue;
        const char *v = getenv(rows[i].env);
        if (!v)
            continue;
        fg_error e = set_row(&opt->v, &rows[i], v, rows[i].env, opt->error, sizeof opt->error);
        if (e != FG_OK)
            return e;
    }
    return FG_OK;
}

fg_error fg_options_parse(fg_options *opt, int argc, char **argv, int *npositional)
{
    if (!opt || argc < 0 || (argc > 0 && !argv))
        return FG_EINVAL;
    opt->error[0] = '\0';
    int npos = 0, flags_done = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (flags_done || a[0] != '-' || a[1] == '\0') {
            argv[1 + npos++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            flags_done = 1;
            continue;
        }
        if (a[1] != '-') {
            snprintf(opt->error, sizeof opt->error,
                     "unknown flag '%s' (flags are --name or --name=value; see --help)", a);
            return FG_EOPTION;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const row *r = row_by_flag(name, len);
        const char *value = eq ? eq + 1 : NULL;
        if (!r && !eq && len > 3 && strncmp(name, "no-", 3) == 0) {
            r = row_by_flag(name + 3, len - 3);
            if (r && r->type == T_BOOL)
                value = "0";
            else
                r = NULL;
        }
        if (!r) {
            snprintf(opt->error, sizeof opt->error, "unknown flag '--%.*s' (see --help)",
                     (int)len, name);
            return FG_EOPTION;
        }
        if (!value) {
            if (r->type == T_BOOL) {
                value = "1";
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                snprintf(opt->error, sizeof opt->error, "option --%s: missing value", r->flag);
                return FG_EOPTION;
            }
        }
        char how[64];
        snprintf(how, sizeof how, "--%s", r->flag);
        fg_error e = set_row(&opt->v, r, value, how, opt->error, sizeof opt->error);
        if (e != FG_OK)
            return e;
    }
    if (npositional)
        *npositional = npos;
    return FG_OK;
}

static void default_text(const row *r, char *out, size_t cap)
{
    snprintf(out, cap, "%s", *r->def ? r->def : "\"\"");
}

void fg_options_help(FILE *out)
{
    fprintf(out, "usage: fuzzgate [options] [TARGET [FILE...]]\n"
                 "  no arguments:        run the gate over every target\n"
                 "  TARGET:              run the gate over one target\n"
                 "  TARGET FILE...:      replay files through TARGET and say what each did\n"
                 "options (flag, environment variable, default):\n");
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        const row *r = &rows[i];
        char def[64], flag[64];
        default_text(r, def, sizeof def);
        snprintf(flag, sizeof flag, "--%s%s", r->flag, r->type == T_BOOL ? "" : "=N");
        if (is_string(r->type))
            snprintf(flag, sizeof flag, "--%s=%s", r->flag, r->type == T_PATH ? "DIR" : "S");
        fprintf(out, "  %-20s %s\n  %-20s   %s%s default %s\n", flag, r->help, "",
                r->env[0] ? r->env : "(no variable)", ",", def);
    }
    fprintf(out, "exit status: 0 passed, 1 findings, 2 usage or engine error, 128 + N "
                 "interrupted by signal N (130 SIGINT, 143 SIGTERM)\n");
}

void fgi_options_markdown(FILE *out)
{
    fprintf(out, "# fuzzgate command line\n\n"
                 "Generated from `engine/run/options.def` by `build/test-unit --cli-md`; do not\n"
                 "edit by hand (`make docs` rewrites it, `make check` fails when it is stale).\n\n"
                 "Precedence: flag, then environment variable, then default. Flags are\n"
                 "`--name=value` or `--name value`; a boolean flag alone means 1 and\n"
                 "`--no-name` means 0. Parsing is strict: trailing junk, a sign, overflow and\n"
                 "unknown flags are errors that name the option (exit status 2).\n\n"
                 "| flag | environment | type | default | meaning |\n"
                 "|---|---|---|---|---|\n");
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        const row *r = &rows[i];
        char def[64];
        default_text(r, def, sizeof def);
        fprintf(out, "| `--%s` | %s%s%s | %s | `%s` | %s |\n", r->flag, r->env[0] ? "`" : "",
                r->env[0] ? r->env : "-", r->env[0] ? "`" : "", type_names[r->type], def,
                r->help);
    }
    fprintf(out, "\nUsage: `fuzzgate [options] [TARGET [FILE...]]`. With no target, the gate\n"
                 "runs over every registered target; with `TARGET FILE...` each file is\n"
                 "replayed through the target. Exit status: 0 passed, 1 findings, 2 usage or\n"
                 "engine error; 128 + N when signal N ended the run (130 for SIGINT, 143 for\n"
                 "SIGTERM), its reports written (docs/findings.md, \"Supervised runs\").\n");
}

char *fgi_opts_render(const fgi_opts *o, size_t *len)
{
    fgi_str s = {0};
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        const row *r = &rows[i];
        const void *f = (const char *)o + r->offset;
        if (i)
            fgi_str_addn(&s, "", 1);
        switch (r->type) {
        case T_U64:
        case T_COUNT:
        case T_SIZE:
            fgi_str_addf(&s, "--%s=%llu", r->flag, (unsigned long long)*(const uint64_t *)f);
            break;
        case T_BOOL:
            fgi_str_addf(&s, "--%s=%d", r->flag, *(const int *)f);
            break;
        default:
            fgi_str_addf(&s, "--%s=%s", r->flag, *(char *const *)f ? *(char *const *)f : "");
        }
    }
    *len = s.len;
    return fgi_str_take(&s);
}
