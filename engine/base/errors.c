/* engine/base/errors.c — the text of each engine error code, from the one FG_ERRORS list. */
#include "engine/internal.h"

const char *fg_strerror(fg_error err)
{
    static const char *const text[] = {
#define FG_ERROR_TEXT(name, t) t,
        FG_ERRORS(FG_ERROR_TEXT)
#undef FG_ERROR_TEXT
    };
    return (unsigned)err < FGI_ARRAY_LEN(text) ? text[err] : "unknown error";
}
