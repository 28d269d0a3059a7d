/* engine/base/errors.c — the text of each engine error code, from the one FG_ERRORS list
 * (and, for an I/O error, the cause errno names). */
#include "engine/internal.h"

#include <errno.h>
#include <string.h>

const char *fg_strerror(fg_error err)
{
    static const char *const text[] = {
#define FG_ERROR_TEXT(name, t) t,
        FG_ERRORS(FG_ERROR_TEXT)
#undef FG_ERROR_TEXT
    };
    return (unsigned)err < FGI_ARRAY_LEN(text) ? text[err] : "unknown error";
}

const char *fgi_strerror_io(fg_error err)
{
    return err == FG_EIO && errno ? strerror(errno) : fg_strerror(err);
}
