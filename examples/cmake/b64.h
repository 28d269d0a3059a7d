/* examples/cmake/b64.h — base64 (RFC 4648, padded): the library the CMake example fuzzes.
 *
 * Encoded form: each 3 bytes become 4 characters of "A-Za-z0-9+/"; a last group of 1 or 2
 * bytes becomes 2 or 3 characters and "==" or "=". */
#ifndef B64_H
#define B64_H

#include <stddef.h>
#include <stdint.h>

/* The length of the text n bytes encode to: 4 * ceil(n / 3). */
size_t b64_encoded_len(size_t n);

/* Encodes in[0..n) into out, which holds b64_encoded_len(n) + 1 characters: the text and a
 * NUL. Returns the text's length. */
size_t b64_encode(const uint8_t *in, size_t n, char *out);

/* Decodes text[0..n) into out (capacity cap). Returns the number of bytes, or -1 when the
 * text is not canonical base64 (a length that is not a multiple of 4, a character outside
 * the alphabet, padding anywhere but at the end, bits under the padding that are not 0) or
 * does not fit. Strict, so a text it accepts is exactly what b64_encode makes of the bytes. */
long b64_decode(const char *text, size_t n, uint8_t *out, size_t cap);

#endif
