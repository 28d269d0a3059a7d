/* engine/mutate/repair.h — checksum repair: a stored field rewritten with the value the
 * target computed for it, so a mutation behind a checksum survives the check.
 *
 * A target that checks a CRC over its payload compares the CRC it computed with the one
 * the input stores. Byte mutation of the payload breaks that compare in nearly every case,
 * and a case that fails it looks like every other that did: nothing new, nothing kept.
 * After a generated case runs, its own comparisons are searched for that shape; the
 * stored field is rewritten with the computed value and the case runs again, once (the
 * executor's run_input). Only the case's own input and comparisons decide, so the rule is
 * the same whichever executor runs the case.
 *
 * Shapes handled (docs/signatures.md):
 *  - an integer comparison (trace-cmp, instrumented builds) of two values neither a
 *    constant, one of whose encodings (2, 4 or 8 bytes, little- or big-endian) lies in
 *    the input and the other's does not: any 32- or 64-bit checksum or hash (CRC-32,
 *    CRC-32C, Adler-32, FNV, ...) computed over any part of the input, when both values
 *    are at least 2^16 (small values are lengths and counts, not checksums); a 2-byte
 *    one when it is the byte sum of the input before or after the field;
 *  - a byte-string comparison (memcmp of the stored bytes with the computed ones, every
 *    build) of 1, 2, 4 or 8 bytes, when the computed bytes are the CRC-32, Adler-32 (4
 *    bytes) or byte sum of the input before or after the stored field, in either order.
 * In both, the field may sit before or after the payload. Not handled: a checksum compared
 * after a transformation (the stored value shifted or masked first), one covering the field
 * itself, or one compared inside uninstrumented code other than memcmp's family.
 */
#ifndef FG_REPAIR_H
#define FG_REPAIR_H

#include "engine/feedback/cmp.h"

#define FGI_REPAIR_FIELDS 4 /* fields rewritten per case at most; arbitrary */

/* Rewrites in buf (size bytes) every stored field (at most FGI_REPAIR_FIELDS) that one of
 * the given comparisons shows disagreeing with the value the target computed; returns how
 * many it rewrote (0: buf is unchanged). The size never changes. */
FGI_HIDDEN unsigned fgi_repair_apply(uint8_t *buf, size_t size, const fgi_cmp_int *ints,
                                     size_t nints, const fgi_cmp_str *strs, size_t nstrs);

/* fgi_repair_apply over the comparisons recorded since the marks (fgi_cmp_mark and
 * fgi_cmp_mark_strs taken before the case ran): the case's own. */
FGI_HIDDEN unsigned fgi_repair_case(uint8_t *buf, size_t size, unsigned long mark,
                                    unsigned long smark);

/* The checksums the byte-string shape recognises, exposed for the tests. */
FGI_HIDDEN uint32_t fgi_repair_crc32(const uint8_t *p, size_t n);
FGI_HIDDEN uint32_t fgi_repair_adler32(const uint8_t *p, size_t n);

#endif
