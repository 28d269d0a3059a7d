/* engine/mutate/numbers.h — numbers as text: the forms a parser reads a compared value in,
 * and the mutator that writes them where the input holds a number.
 *
 * A program that parses text with strtod/strtol (uninstrumented libc) and then compares
 * the value shows the fuzzer only the value: the comparison's operands, never the bytes.
 * These turn an operand back into text — every form a parser is likely to accept — so it
 * can replace the number the input already holds (input-to-state on the text).
 */
#ifndef FG_NUMBERS_H
#define FG_NUMBERS_H

#include "engine/mutate/mutate.h"

/* The text forms of a value. */
enum fgi_num_form {
    FGI_NUM_SHORTEST, /* the fewest %g digits that read back as the value: "2718.5", "1e+300" */
    FGI_NUM_G17,      /* %.17g: every double exactly, "2718.5" or "0.10000000000000001" */
    FGI_NUM_EXP,      /* shortest with an exponent: "2.7185e+03" */
    FGI_NUM_PLAIN,    /* shortest without one: "2718.5", "0.001" (not for huge or tiny) */
    FGI_NUM_HEX,      /* %a: "0x1.53cp+11" (strtod reads it) */
    FGI_NUM_INT,      /* the integer, when the value is one: "2718" for 2718.0 */
    FGI_NUM_FORMS
};

#define FGI_NUM_TEXT_MAX 48 /* the longest form written, with its NUL */

/* Writes value v in form f to out (NUL-terminated, at most FGI_NUM_TEXT_MAX bytes with the
 * NUL) and returns its length, or 0 when the form does not apply (FGI_NUM_INT of a
 * non-integer, FGI_NUM_PLAIN of a value that would need more than 40 characters).
 * is_float: v came from a float, so "shortest" means shortest that reads back through
 * strtof (3.14f is "3.14", not "3.1400001049041748"). */
FGI_HIDDEN size_t fgi_num_text(double v, int is_float, enum fgi_num_form f, char *out);

/* The value of the number token at buf[at..] (an optional sign, digits, a fraction, an
 * exponent, or a 0x hex form, as strtod reads them) and its length in *len; 0 when none
 * starts at `at` or the byte before is part of a word or number. */
FGI_HIDDEN int fgi_num_token(const uint8_t *buf, size_t size, size_t at, double *value,
                             size_t *len);

/* An operand of c (c->a or c->b) as the number a parser produced: a float's or double's
 * value, or the integer read as signed when its top bit is set (strtol's -5 compared as
 * 0xfffffffb). */
FGI_HIDDEN double fgi_num_value(const fgi_cmp_int *c, uint64_t bits);

/* The mutator cmp_number (in fgi_mutators): takes a recorded comparison (the base input's
 * own, mostly, or the pool's) and, where the input holds a number token whose value is
 * one operand, writes the other operand there as text in a random form; a floating-point
 * comparison with no such token replaces a random number token, or is inserted. */
FGI_HIDDEN size_t fgi_mut_cmp_number(fgi_mut *m, uint8_t *buf, size_t size, size_t max);

#endif
