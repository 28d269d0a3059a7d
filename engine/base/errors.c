/* engine/base/errors.c — the engine's error codes: their text (from the one FG_ERRORS list)
 * and the code for a system call's errno. */
#include "engine/internal.h"

#include <errno.h>

const char *fg_strerror(fg_error err)
{
    static const char *const text[] = {
#define FG_ERROR_TEXT(name, t) t,
        FG_ERRORS(FG_ERROR_TEXT)
#undef FG_ERROR_TEXT
    };
    return (unsigned)err < FGI_ARRAY_LEN(text) ? text[err] : "unknown error";
}

fg_error fgi_error_from_errno(int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return FG_ENOENT;
    case EACCES:
    case EPERM:
    case EROFS:
        return FG_EACCES;
    case ENOSPC:
    case EDQUOT:
        return FG_ENOSPC;
    case ENOMEM:
        return FG_ENOMEM;
    default:
        return FG_EIO;
    }
}
