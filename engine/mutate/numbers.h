/* engine/mutate/numbers.h — numbers in an input: the tokens cmp_number (numbers.c, declared in
 * mutate.h) finds and rewrites with a compared value's text (engine/base/numtext.h).
 *
 * A program that parses text with strtod/strtol (uninstrumented libc) and then compares
 * the value shows the fuzzer only the value: the comparison's operands, never the bytes.
 * cmp_number turns an operand back into text — every form a parser is likely to accept —
 * and puts it where the input holds the number that became the other operand
 * (input-to-state on the text).
 */
#ifndef FG_NUMBERS_H
#define FG_NUMBERS_H

#include "engine/internal.h"

/* The value of the number token at buf[at..] (an optional sign, digits, a fraction, an
 * exponent, or a 0x hex form, as strtod reads them) and its length in *len; 0 when none
 * starts at `at` or the byte before is part of a word or number. */
FGI_HIDDEN int fgi_num_token(const uint8_t *buf, size_t size, size_t at, double *value,
                             size_t *len);

/* The first position in [i, end) (end <= size) where a number token may start (where
 * fgi_num_token may find one), else end: every position it skips holds none. */
FGI_HIDDEN size_t fgi_num_next_start(const uint8_t *buf, size_t size, size_t i, size_t end);

#endif
