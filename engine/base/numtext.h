/* engine/base/numtext.h — a number written in the text forms a parser reads.
 *
 * strtod reads "2718.5", "2.7185e+03" and "0x1.53dp+11" alike; a program that compares a
 * parsed value gives the fuzzer the value, and these give back its texts.
 */
#ifndef FG_NUMTEXT_H
#define FG_NUMTEXT_H

#include "engine/internal.h"

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

#endif
