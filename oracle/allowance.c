/* oracle/allowance.c — the default heap allowance (allowance.h says what and why). */
#include "oracle/allowance.h"

size_t fgi_allowance_default(size_t input_size)
{
    size_t per = input_size > SIZE_MAX / 128 ? SIZE_MAX / 2 : input_size * 64;
    return ((size_t)32 << 20) + per;
}
