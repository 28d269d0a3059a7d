/* engine/run/options.h — the run options as a struct generated from options.def. */
#ifndef FG_OPTIONS_H
#define FG_OPTIONS_H

#include "engine/internal.h"

#define FGI_OPT_CTYPE_U64 uint64_t
#define FGI_OPT_CTYPE_COUNT uint64_t
#define FGI_OPT_CTYPE_SIZE uint64_t
#define FGI_OPT_CTYPE_TEXT char *
#define FGI_OPT_CTYPE_PATH char *
#define FGI_OPT_CTYPE_BOOL int

/* The parsed values. Strings are owned (freed by fgi_opts_clear). */
typedef struct fgi_opts {
#define FG_OPTION(field, flag, env, type, def, help) FGI_OPT_CTYPE_##type field;
#include "engine/run/options.def"
#undef FG_OPTION
} fgi_opts;

struct fg_options {
    fgi_opts v;
    char error[256]; /* the last failed set/parse, "" if none */
};

/* Deep copy; FG_ENOMEM leaves dst cleared. */
FGI_HIDDEN fg_error fgi_opts_copy(fgi_opts *dst, const fgi_opts *src);
FGI_HIDDEN void fgi_opts_clear(fgi_opts *o);
/* Defaults into a zeroed struct. */
FGI_HIDDEN fg_error fgi_opts_defaults(fgi_opts *o);
/* The options table as a markdown document (docs/cli.md is this output). */
FGI_HIDDEN void fgi_options_markdown(FILE *out);
/* Renders o as flags that, parsed, give o back: "--seed=N", "--cases=N", ... separated by
 * NUL bytes (a value may hold any other byte); *len is the total length. Caller frees
 * with fgi_free; NULL when out of memory. */
FGI_HIDDEN char *fgi_opts_render(const fgi_opts *o, size_t *len);

#endif
