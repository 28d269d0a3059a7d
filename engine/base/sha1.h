/* engine/base/sha1.h — SHA-1 of a byte string, for content-addressed file names. */
#ifndef FG_SHA1_H
#define FG_SHA1_H

#include "engine/internal.h"

#define FGI_SHA1_LEN 20
#define FGI_SHA1_HEX 41 /* 40 hex digits and the terminator */

FGI_HIDDEN void fgi_sha1(const void *data, size_t size, uint8_t out[FGI_SHA1_LEN]);
/* Lowercase hex, as libFuzzer names artifacts and corpus files. */
FGI_HIDDEN void fgi_sha1_hex(const void *data, size_t size, char out[FGI_SHA1_HEX]);

#endif
