/* engine/feedback/reads.h — the read record of a case: where each typed read of the case's
 * input was (fg_read_*, include/fuzzgate.h) and what it asked for.
 *
 * A record is a list of reads in the order the target made them, each naming the bytes it
 * consumed (off, width) and the values it could give (lo..hi). The reads between one pick
 * and the next are one operation (a group). The record is the case's own: the harness
 * starts it before each body (fgi_reads_begin), the reader adds to it on the case's thread,
 * and the run takes a copy after the body (fgi_reads_get) for the candidate it sends, so
 * the record travels with the corpus entry (engine/search/epoch.h, engine/supervise/wire.c).
 */
#ifndef FG_READS_H
#define FG_READS_H

#include "engine/internal.h"

/* What a read asked for. */
enum fgi_read_kind {
    FGI_READ_PICK = 1,  /* fg_read_pick: a choice 0..hi (lo 0) */
    FGI_READ_RANGE = 2, /* fg_read_range: lo..hi */
    FGI_READ_INT = 3,   /* fg_read_u8..u64: 0..hi, hi all ones of the width */
    FGI_READ_BOOL = 4,  /* fg_read_bool: 0..1 */
    FGI_READ_LEN = 5,   /* the length before fg_read_bytes' bytes: 0..cap */
    FGI_READ_BYTES = 6  /* fg_read_bytes' bytes: width is their count (lo, hi 0) */
};
#define FGI_READ_KINDS 7 /* kinds are 1..FGI_READ_KINDS-1 */

typedef struct fgi_read {
    uint32_t off;   /* the first byte it consumed */
    uint32_t width; /* bytes it consumed: 0 for a read with one possible value; fewer than
                     * its word's for a read the input ended in (short) */
    uint32_t kind;  /* enum fgi_read_kind */
    uint32_t short_; /* 1: the input ended inside it (it returned 0, or lo) */
    uint64_t lo, hi;
} fgi_read;

#define FGI_READS_MAX 512 /* arbitrary: a case's first 512 reads are recorded, no more */

/* The width of the word a read of values 0..span takes: 0, 1, 2, 4 or 8 bytes. */
static inline unsigned fgi_read_width(uint64_t span)
{
    return span == 0 ? 0 : span <= 0xff ? 1 : span <= 0xffff ? 2 : span <= 0xffffffffu ? 4 : 8;
}

/* Starts the record of a case whose input the target sees at data[0..size): only readers
 * over exactly those bytes are heard. The harness, before each body. */
FGI_HIDDEN void fgi_reads_begin(const uint8_t *data, size_t size);
/* Adds one read of reader r (reader.c); ignored off the case's thread, for a reader over
 * other bytes, and past FGI_READS_MAX. */
FGI_HIDDEN void fgi_reads_note(const fg_reader *r, unsigned kind, size_t off, unsigned width,
                               int short_, uint64_t lo, uint64_t hi);
/* Mirrors every read of later cases into to[0..FGI_READS_MAX), *n their count, as they
 * are made: a record in shared memory that outlives a case that kills its process
 * (engine/findings/read_probe.c). NULL, NULL: no mirror. */
FGI_HIDDEN void fgi_reads_mirror(fgi_read *to, volatile size_t *n);
/* The last case's record: borrowed until the next case starts; *n reads. */
FGI_HIDDEN const fgi_read *fgi_reads_get(size_t *n);

/* Checks a record against an input of size bytes: every read's kind known, its bytes
 * inside the input and after the previous read's. 1 when it holds (the decoders' test). */
FGI_HIDDEN int fgi_reads_valid(const fgi_read *reads, size_t n, size_t size);

#endif
