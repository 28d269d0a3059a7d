/* engine/report/escape.h — text from targets made safe inside the machine-read reports:
 * JSON strings (report.json, timing.json, SARIF) and XML text and attributes (coverage.svg,
 * JUnit XML). One escaper per format, shared by every writer of that format.
 *
 * Both treat the input as UTF-8 and always produce valid UTF-8: a well-formed sequence is
 * copied, and a byte that does not start one (a stray continuation byte, an overlong form,
 * a surrogate, past U+10FFFF, a truncated tail) is written as the four characters \xNN, so
 * a parser never rejects a report because a target's message held raw input bytes.
 */
#ifndef FG_ESCAPE_H
#define FG_ESCAPE_H

#include "engine/internal.h"

/* Appends text (NULL as "") to out as a JSON string, quotes included: " and \ backslashed,
 * control characters (below 0x20, and 0x7f) as \u00XX, so the string decodes back to the
 * same characters. */
FGI_HIDDEN void fgi_escape_json(fgi_str *out, const char *text);

/* Appends text (NULL as "") to out as XML 1.0 character data that is valid both between
 * tags and inside a quoted attribute: & < > " ' as entities, tab, line feed and carriage
 * return as character references (so an attribute keeps them), and what XML 1.0 cannot
 * carry at all, even as references, as text: the other control characters as \xNN, the
 * noncharacters U+FFFE and U+FFFF as \ufffe and \uffff. */
FGI_HIDDEN void fgi_escape_xml(fgi_str *out, const char *text);

/* The length (1 to 4) of the well-formed UTF-8 sequence at p (NUL-terminated), or 0 when
 * the byte at p does not start one. An ASCII byte, NUL excepted, is a sequence of 1. */
FGI_HIDDEN size_t fgi_escape_utf8_len(const unsigned char *p);

#endif
