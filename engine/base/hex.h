/* engine/base/hex.h — hex, decimal and C-style escape codecs (findings, dictionaries, numbers). */
#ifndef FG_HEX_H
#define FG_HEX_H

#include "engine/internal.h"

/* Writes v in decimal as printf's "%llu" / "%lld" would, without a NUL, at the start of out
 * (capacity FGI_DEC_MAX), and returns how many characters: the mutator's and the sinks'
 * numbers, where snprintf's locale and format parsing cost more than the digits. */
#define FGI_DEC_MAX 20
FGI_HIDDEN size_t fgi_dec_u64(uint64_t v, char *out);
FGI_HIDDEN size_t fgi_dec_i64(int64_t v, char *out);

/* Writes 2*size lowercase hex digits and a NUL to out (capacity 2*size+1). */
FGI_HIDDEN void fgi_hex_encode(const uint8_t *data, size_t size, char *out);

/* Decodes len hex digits (either case, no separators) into out (capacity len/2).
 * Returns 0 and sets *outlen, or -1 (odd length or a non-hex digit; *err_at its offset). */
FGI_HIDDEN int fgi_hex_decode(const char *text, size_t len, uint8_t *out, size_t *outlen,
                              size_t *err_at);

/* Escapes bytes as a C/AFL-dictionary string body: printable ASCII other than '\\' and '"'
 * as itself; \\ \" \n \t \r; anything else \xNN. Appends to s. */
FGI_HIDDEN void fgi_escape_encode(const uint8_t *data, size_t size, fgi_str *s);

/* Decodes an escaped body (the inverse of fgi_escape_encode; also accepts \xNN in either
 * case). out needs capacity len. Returns 0 and *outlen, or -1 with *err_at the offset of
 * the bad escape or of a raw byte that must be escaped (a '"' or a control byte). */
FGI_HIDDEN int fgi_escape_decode(const char *text, size_t len, uint8_t *out, size_t *outlen,
                                 size_t *err_at);

#endif
