/* examples/rle/rle.h — a tiny run-length codec: the library an application would fuzz.
 *
 * Encoded form: pairs (count, byte), count 1..255, meaning `count` copies of `byte`. */
#ifndef RLE_H
#define RLE_H

#include <stddef.h>
#include <stdint.h>

/* Encodes in[0..n) into out (capacity cap, 2*n always suffices). Returns the encoded
 * length, or -1 when out is too small. */
long rle_encode(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

/* Decodes in[0..n) into out (capacity cap). Returns the decoded length, or -1 when the
 * input is malformed (odd length, a zero count) or does not fit. */
long rle_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

#endif
